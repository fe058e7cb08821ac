"""The decoding prompt: the debate's names and topic words, read from debate.toml (pure, fast)."""

from __future__ import annotations

from pathlib import Path

from jobs.debate.demo_audio import ROTEIRO_DEMO
from jobs.debate.transcricao import PROMPT_MAX_CARACTERES, prompt_da_pasta, prompt_do_debate


def test_prompt_names_the_participants_and_the_topics() -> None:
    prompt = prompt_do_debate(["Marta Lins", "Helena Prado", "Rui Amaral"], ["saúde", "segurança pública"])
    assert prompt == "Debate com Marta Lins, Helena Prado e Rui Amaral: saúde, segurança pública."
    assert prompt_do_debate(["Clara Mendes (mediadora fictícia)"]) == "Debate com Clara Mendes."
    assert prompt_do_debate([], []) == ""
    assert prompt_do_debate([], ["saúde"]) == "Debate: saúde."


def test_prompt_stays_short() -> None:
    prompt = prompt_do_debate(["Helena Prado"], [f"tema{i}" for i in range(200)])
    assert len(prompt) <= PROMPT_MAX_CARACTERES
    assert prompt.startswith("Debate com Helena Prado: tema0, tema1") and prompt.endswith(".")


def test_prompt_from_the_demo_rundown(tmp_path: Path) -> None:
    (tmp_path / "debate.toml").write_text(ROTEIRO_DEMO, encoding="utf-8")
    prompt = prompt_da_pasta(tmp_path)
    assert prompt.startswith("Debate com Marta Lins, Helena Prado e Rui Amaral: saúde, médicos")
    assert "considerações finais" in prompt


def test_bad_rundown_gives_no_prompt(tmp_path: Path) -> None:
    assert prompt_da_pasta(tmp_path) == ""  # no debate.toml
    (tmp_path / "debate.toml").write_text("participantes = [", encoding="utf-8")
    assert prompt_da_pasta(tmp_path) == ""
    estranho = 'participantes = "x"\nvocabulario = [1, "saúde"]\n'
    (tmp_path / "debate.toml").write_text(estranho, encoding="utf-8")
    assert prompt_da_pasta(tmp_path) == "Debate: saúde."

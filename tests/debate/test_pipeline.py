"""The whole cycle on real files: stages stored, idempotence, caching, editor controls, bad input."""

from __future__ import annotations

import datetime as dt
import json
import logging
import tomllib
from pathlib import Path
from typing import Any

import pytest

from eleicoes import main
from jobs.analise.config import ConfigAnalise
from jobs.debate.config import DebateConfig, ErroConfig, de_dict
from jobs.debate.pipeline import ARQ_PLACAR, atualizar, executar
from tests.debate.conftest import Criar, escrever_transcricao
from tests.support.chat_server import ChatServer, erro

ESTAGIOS = (
    "papeis.json",
    "turnos.json",
    "perguntas.json",
    "avaliacao.json",
    "checagens.json",
    "checagens-revisadas.json",
    "placar-entrada.json",
    "placar.json",
    "estado.json",
)


def _json(pasta: Path, nome: str) -> Any:
    return json.loads((pasta / nome).read_text(encoding="utf-8"))


def _bytes(pasta: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(pasta.iterdir())}


def test_sample_debate_end_to_end(demo: Path) -> None:
    ciclo = executar(demo)
    for nome in (*ESTAGIOS, "avaliacao-v1.json", "placar-v1-entrada.json", "placar-v1.json"):
        assert (demo / nome).exists(), nome
    placar = _json(demo, ARQ_PLACAR)
    assert placar == ciclo.placar
    # The stored AVALIACOES input reproduces the stored scoreboard through the CLI formula.
    from jobs.debate.placar import calcular, ler_entrada

    assert calcular(ler_entrada(_json(demo, "placar-entrada.json"))) == {
        k: v for k, v in placar.items() if k != "atualizado_em"
    }
    assert _json(demo, "placar-v1.json")["metodo"] == "v1"
    estado = _json(demo, "estado.json")
    assert estado["turno_em_andamento"] == "t-f0033"  # the last turn waits for the end of the debate
    revisadas = _json(demo, "checagens-revisadas.json")["checagens"]
    assert any(r["revisado"] and r["motivo"] for r in revisadas)
    vereditos = {r["veredito"] for r in revisadas}
    assert {"verdadeiro", "falso", "impreciso", "sem_dados"} <= vereditos


def test_cycle_is_idempotent_and_evaluates_only_new_turns(demo: Path) -> None:
    primeiro = executar(demo)
    assert primeiro.mudou and len(primeiro.turnos_avaliados_agora) > 10
    antes = _bytes(demo)
    assert atualizar(demo) is False
    assert _bytes(demo) == antes
    escrever_transcricao(
        demo, [(450, 470, "RUI", "Quero dizer mais uma coisa: a abstenção passou de 30%.")], inicio=35
    )
    segundo = executar(demo)
    # The open turn (Helena's closing statement) is now closed by Rui's long utterance: only it is new;
    # Rui's new turn stays open, and no other turn is evaluated again.
    assert segundo.turnos_avaliados_agora[:1] == ["t-f0033"]
    assert "t-f0004" not in segundo.turnos_avaliados_agora
    assert _json(demo, "estado.json")["turno_em_andamento"] == "t-f0035"


def test_the_scoreboard_time_changes_only_with_the_scoreboard(demo: Path) -> None:
    """`atualizado_em` says when the scoreboard last changed; a cycle with nothing new keeps it, so
    the job stays idempotent."""

    def as_(minuto: int) -> dt.datetime:
        return dt.datetime(2026, 10, 15, 22, minuto, 30, 123, tzinfo=dt.UTC)

    assert executar(demo, relogio=lambda: as_(1)).placar["atualizado_em"] == "2026-10-15T22:01:30+00:00"
    antes = _bytes(demo)
    segundo = executar(demo, relogio=lambda: as_(2))
    assert not segundo.mudou and _bytes(demo) == antes
    assert segundo.placar["atualizado_em"] == "2026-10-15T22:01:30+00:00"
    escrever_transcricao(demo, [(450, 470, "RUI", "Quero dizer mais uma coisa.")], inicio=35)
    executar(demo, relogio=lambda: as_(3))
    assert _json(demo, ARQ_PLACAR)["atualizado_em"] == "2026-10-15T22:03:30+00:00"


def test_post_cutoff_debate_has_one_reading(criar_debate: Criar) -> None:
    pasta = criar_debate(
        [(0, 10, "JOR", "Qual é o seu plano para a saúde?"), (10, 30, "HELENA", "Vou abrir 300 leitos.")],
        data="2026-10-18",
        extra="encerrado = true",
    )
    executar(pasta)
    assert not (pasta / "placar-v1.json").exists()
    assert _json(pasta, "placar.json")["candidatos"][0]["turnos_avaliados"] == 1


def test_bad_input_keeps_the_last_good_outputs(demo: Path, caplog: pytest.LogCaptureFixture) -> None:
    executar(demo)
    antes = _bytes(demo)
    toml = (demo / "debate.toml").read_text(encoding="utf-8")
    (demo / "debate.toml").write_text(
        toml.replace('papel = "moderador"', 'papel = "plateia"'), encoding="utf-8"
    )
    with caplog.at_level(logging.ERROR, logger="eleicoes.debate"):
        assert atualizar(demo) is False
    assert "plateia" in caplog.text and "não existe" in caplog.text
    depois = _bytes(demo)
    del depois["debate.toml"], antes["debate.toml"]
    assert depois == antes
    (demo / "debate.toml").write_text(toml, encoding="utf-8")
    (demo / "edicoes.toml").write_text("[checagens.x]\nveredito = 'talvez'\n", encoding="utf-8")
    assert atualizar(demo) is False
    assert "talvez" in caplog.text


def test_bad_transcript_lines_are_skipped_with_a_warning(criar_debate: Criar) -> None:
    pasta = criar_debate(
        [(0, 10, "JOR", "Qual é o seu plano para a saúde?"), (10, 30, "HELENA", "Vou abrir 300 leitos.")],
        extra="encerrado = true",
    )
    with (pasta / "transcricao.jsonl").open("a", encoding="utf-8") as f:
        f.write("{isto não é json}\n")
        f.write('{"id": "f0009", "inicio_s": 40, "fim_s": 30, "locutor": "RUI", "texto": "x"}\n')
        f.write('{"id": "f0010", "inicio_s": 50, "fim_s": 60, "locutor": "RUI", "tex')  # being written
    ciclo = executar(pasta)
    assert len(ciclo.avisos) == 2
    assert any("linha 3" in a and "JSON inválido" in a for a in ciclo.avisos)
    assert _json(pasta, "estado.json")["falas"] == 2


def test_openai_failure_falls_back_to_rules_with_a_notice(criar_debate: Criar) -> None:
    pasta = criar_debate(
        [(0, 10, "JOR", "Qual é o seu plano para a saúde?"), (10, 30, "HELENA", "Vou abrir 300 leitos.")],
        extra="encerrado = true",
    )
    with ChatServer([erro(500), erro(500)]) as servidor:
        analise = ConfigAnalise(
            backend="regras",
            base_url=servidor.url,
            modelo="m",
            chave_env="",
            tentativas=2,
            espera_s=0,
            tempo_limite_s=2,
        )
        ciclo = executar(pasta, DebateConfig(avaliador="openai", analise=analise))
    avaliacao = _json(pasta, "avaliacao.json")["turnos"]["t-f0002"]["avaliacao"]
    assert avaliacao["avaliador"] == "regras-1" and "IA falhou" in avaliacao["aviso"]
    assert any("IA falhou" in a for a in ciclo.avisos)


def test_config_section() -> None:
    assert de_dict({}) == DebateConfig()
    assert de_dict({"aparte_max_s": 6}).aparte_max_s == 6
    for ruim, trecho in (
        ({"aparte_max_s": "dez"}, "aparte_max_s"),
        ({"avaliador": "gpt"}, "avaliador"),
        ({"busca": "web"}, "busca_url"),
        ({"outra": 1}, "desconhecida"),
    ):
        with pytest.raises(ErroConfig, match=trecho):
            de_dict(ruim)


def test_editor_commands(demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    dados = str(demo.parent)
    assert main(["debate", "atualizar", demo.name, "--dados", dados]) == 0
    placar_antes = _json(demo, "placar.json")
    revisadas = {r["id"]: r for r in _json(demo, "checagens-revisadas.json")["checagens"]}
    falso = next(cid for cid, r in revisadas.items() if r["veredito"] == "falso")
    dono = revisadas[falso]["candidato"]
    # Hide a false check: it leaves the page data and the score at once.
    assert (
        main(
            [
                "debate",
                "editar",
                demo.name,
                "--dados",
                dados,
                "--editor",
                "ana",
                "checagem",
                falso,
                "--ocultar",
            ]
        )
        == 0
    )
    entrada = _json(demo, "placar-entrada.json")
    assert next(c for c in entrada["checagens"] if c["id"] == falso)["oculta"] is True
    nota = {c["id"]: c["nota"] for c in _json(demo, "placar.json")["candidatos"]}
    assert nota[dono] > {c["id"]: c["nota"] for c in placar_antes["candidatos"]}[dono]
    # Correct a verdict: the editor wins over the review and over v1.
    assert (
        main(
            [
                "debate",
                "editar",
                demo.name,
                "--dados",
                dados,
                "checagem",
                falso,
                "--mostrar",
                "--veredito",
                "verdadeiro",
                "--motivo",
                "fonte da redação",
            ]
        )
        == 0
    )
    r = next(x for x in _json(demo, "checagens-revisadas.json")["checagens"] if x["id"] == falso)
    assert (r["veredito"], r["editada"], r["oculta"]) == ("verdadeiro", True, False)
    assert (
        next(c for c in _json(demo, "placar-v1-entrada.json")["checagens"] if c["id"] == falso)["veredito"]
        == "verdadeiro"
    )
    # Mark the question, correct a speaker, end the debate.
    assert (
        main(
            [
                "debate",
                "editar",
                demo.name,
                "--dados",
                dados,
                "pergunta",
                "t-f0031",
                "--texto",
                "Por que votar no senhor?",
            ]
        )
        == 0
    )
    assert (
        next(p for p in _json(demo, "perguntas.json")["perguntas"] if p["turno"] == "t-f0031")["texto"]
        == "Por que votar no senhor?"
    )
    assert (
        main(
            [
                "debate",
                "editar",
                demo.name,
                "--dados",
                dados,
                "locutor",
                "VOZ_07",
                "--papel",
                "eleitor",
                "--nome",
                "Joana (eleitora)",
            ]
        )
        == 0
    )
    assert main(["debate", "editar", demo.name, "--dados", dados, "encerrar"]) == 0
    assert _json(demo, "estado.json")["turno_em_andamento"] is None
    edicoes = (demo / "edicoes.toml").read_text(encoding="utf-8")
    assert "(ana): checagem" in edicoes and "Joana (eleitora)" in edicoes
    # Bad edits are refused and the file stays as it was.
    assert (
        main(
            [
                "debate",
                "editar",
                demo.name,
                "--dados",
                dados,
                "locutor",
                "VOZ_07",
                "--papel",
                "candidato",
                "--candidato",
                "ninguem",
            ]
        )
        == 1
    )
    assert "não participa" in capsys.readouterr().err
    assert (demo / "edicoes.toml").read_text(encoding="utf-8") == edicoes
    assert main(["debate", "editar", demo.name, "--dados", dados, "checagem", falso, "--desfazer"]) == 0
    assert falso not in tomllib.loads((demo / "edicoes.toml").read_text(encoding="utf-8")).get(
        "checagens", {}
    )

"""A damaged transcript is refused, never used to rebuild (issue 15, "Debate"): the last good state
is kept, a warning is logged and the status (`estado.json`) alerts the editor. Lines and times are
bounded."""

from __future__ import annotations

import json
import logging
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from jobs.debate.armazenamento import ARQ_CONFERENCIA, LINHA_MAX_BYTES, TEXTO_MAX
from jobs.debate.pipeline import ARQ_ESTADO, atualizar, executar
from tests.debate.conftest import copiar_demo, fazer_raiz


@pytest.fixture(scope="module")
def primeiro_ciclo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project with the sample debate after its first engine cycle, once for the module: every
    test starts from there (the debate's stages, the claim memory's embedding cache)."""
    raiz = fazer_raiz(tmp_path_factory.mktemp("guarda") / "projeto")
    executar(copiar_demo(raiz))
    return raiz


@pytest.fixture
def executado(raiz: Path, demo: Path, primeiro_ciclo: Path) -> Path:
    """This test's copy of that project; the sample debate's folder in it."""
    shutil.rmtree(raiz)
    shutil.copytree(primeiro_ciclo, raiz, symlinks=True)
    return demo


def _json(pasta: Path, nome: str) -> Any:
    return json.loads((pasta / nome).read_text(encoding="utf-8"))


def _estagios(pasta: Path) -> dict[str, bytes]:
    """Every stage the cycle writes, except the status (which carries the alert)."""
    return {
        p.name: p.read_bytes()
        for p in sorted(pasta.iterdir())
        if p.suffix == ".json" and p.name != ARQ_ESTADO
    }


def _encolher(t: bytes) -> bytes:
    return t[: t.rfind(b"\n", 0, len(t) - 1) + 1]  # the last line gone


def _cortar_no_meio(t: bytes) -> bytes:
    return t[: len(t) // 2]


def _binario(t: bytes) -> bytes:
    return bytes(range(256)) * (len(t) // 256 + 2)


def _lixo(t: bytes) -> bytes:
    return ("isto não é uma transcrição\n" * (len(t) // 20 + 1)).encode()


def _linha_perdida_e_outras_novas(t: bytes) -> bytes:
    linhas = t.splitlines(keepends=True)
    novas = [
        json.dumps(
            {"id": f"f09{i}", "inicio_s": 900 + i, "fim_s": 901 + i, "locutor": "MED", "texto": "Bloco."}
        )
        + "\n"
        for i in range(10)
    ]
    return b"".join(linhas[:3] + linhas[4:]) + "".join(novas).encode()


def _linha_reescrita(t: bytes) -> bytes:
    return t.replace(b"Sistema", b"sistema", 1) if b"Sistema" in t else t.replace(b"a", b"e", 1)


@pytest.mark.parametrize(
    "estragar",
    [
        lambda t: b"",
        _encolher,
        _cortar_no_meio,
        _binario,
        _lixo,
        _linha_perdida_e_outras_novas,
        _linha_reescrita,
    ],
    ids=["vazia", "encolheu", "truncada", "binaria", "lixo", "perdeu-linha", "linha-reescrita"],
)
def test_damaged_transcript_is_refused_and_the_last_good_state_kept(
    executado: Path, estragar: Callable[[bytes], bytes], caplog: pytest.LogCaptureFixture
) -> None:
    demo = executado
    placar = (demo / "placar.json").read_bytes()
    antes = _estagios(demo)
    boa = (demo / "transcricao.jsonl").read_bytes()
    (demo / "transcricao.jsonl").write_bytes(estragar(boa))
    with caplog.at_level(logging.WARNING, logger="eleicoes.debate"):
        ciclo = executar(demo)
    assert "transcrição recusada" in caplog.text
    assert any("transcrição recusada" in a for a in ciclo.avisos)
    assert ciclo.arquivos_gravados == [ARQ_ESTADO]
    assert _estagios(demo) == antes  # nothing rebuilt from the damaged file
    assert (demo / "placar.json").read_bytes() == placar
    estado = _json(demo, ARQ_ESTADO)
    assert estado["transcricao_recusada"]
    # The good transcript back: accepted again, the alert is gone, the scoreboard the same.
    (demo / "transcricao.jsonl").write_bytes(boa)
    assert atualizar(demo) is True
    assert "transcricao_recusada" not in _json(demo, ARQ_ESTADO)
    assert (demo / "placar.json").read_bytes() == placar


def test_folder_from_before_the_fingerprint_compares_utterance_counts(executado: Path) -> None:
    demo = executado
    (demo / ARQ_CONFERENCIA).unlink()
    placar = (demo / "placar.json").read_bytes()
    (demo / "transcricao.jsonl").write_bytes(b"\x00\x01 lixo\n")
    ciclo = executar(demo)
    assert any("transcrição recusada" in a for a in ciclo.avisos)
    assert (demo / "placar.json").read_bytes() == placar


def test_growing_transcript_is_accepted(executado: Path) -> None:
    demo = executado
    linha = {"id": "f0900", "inicio_s": 900, "fim_s": 910, "locutor": "MED", "texto": "Boa noite."}
    with (demo / "transcricao.jsonl").open("a", encoding="utf-8") as f:
        f.write(json.dumps(linha) + "\n")
    ciclo = executar(demo)
    assert not any("recusada" in a for a in ciclo.avisos)
    assert _json(demo, ARQ_CONFERENCIA)["ids"][-1] == "f0900"


def test_huge_line_and_absurd_times_are_skipped(executado: Path) -> None:
    demo = executado
    n = _json(demo, ARQ_ESTADO)["falas"]
    enorme = {
        "id": "f0901",
        "inicio_s": 900,
        "fim_s": 910,
        "locutor": "RUI",
        "texto": "a" * (LINHA_MAX_BYTES + 1),
    }
    longo = {"id": "f0902", "inicio_s": 911, "fim_s": 912, "locutor": "RUI", "texto": "a " * TEXTO_MAX}
    tempo = {"id": "f0903", "inicio_s": 1e308, "fim_s": 1e308, "locutor": "RUI", "texto": "Fim."}
    with (demo / "transcricao.jsonl").open("a", encoding="utf-8") as f:
        for linha in (enorme, longo, tempo):
            f.write(json.dumps(linha) + "\n")
    ciclo = executar(demo)
    assert any("limite de" in a and "bytes" in a for a in ciclo.avisos)
    assert any("caracteres" in a for a in ciclo.avisos)
    assert any("24 horas" in a for a in ciclo.avisos)
    assert _json(demo, ARQ_ESTADO)["falas"] == n

"""Fixtures: debate folders written in a temporary project (real files, the real engine)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DEMO = REPO / "data" / "debates" / "demo-governo-2026-10-15"

PROGRAMA = """
titulo = "Debate de teste"
data = {data}
emissora = "TV Teste"
demonstracao = true
{extra}

[[participantes]]
locutor = "MED"
nome = "Mediadora"
papel = "moderador"
candidato = ""

[[participantes]]
locutor = "JOR"
nome = "Jornalista"
papel = "jornalista"
candidato = ""

[[participantes]]
locutor = "HELENA"
nome = "Helena Prado"
papel = "candidato"
candidato = "helena-prado"

[[participantes]]
locutor = "RUI"
nome = "Rui Amaral"
papel = "candidato"
candidato = "rui-amaral"
"""

Fala = tuple[float, float, str, str]
Criar = Callable[..., Path]


def escrever_transcricao(pasta: Path, falas: Sequence[Fala], inicio: int = 1) -> None:
    """Append utterances (start, end, speaker, text) to transcricao.jsonl."""
    with (pasta / "transcricao.jsonl").open("a", encoding="utf-8") as arquivo:
        for i, (a, b, loc, texto) in enumerate(falas, start=inicio):
            linha = {"id": f"f{i:04d}", "inicio_s": a, "fim_s": b, "locutor": loc, "texto": texto}
            arquivo.write(json.dumps(linha, ensure_ascii=False) + "\n")


def fazer_raiz(root: Path) -> Path:
    """`root` as the `raiz` fixture makes it (for a module-scoped copy)."""
    shutil.copytree(REPO / "content", root / "content")
    (root / "data" / "debates").mkdir(parents=True)
    return root


@pytest.fixture
def raiz(tmp_path: Path) -> Path:
    """A project root with the desk's demo checks (the local index reads them)."""
    return fazer_raiz(tmp_path / "projeto")


@pytest.fixture
def criar_debate(raiz: Path) -> Criar:
    """Write a debate folder: program (optionally with blocks) and transcript."""

    def criar(falas: Sequence[Fala], nome: str = "teste", data: str = "2026-10-20", extra: str = "") -> Path:
        pasta = raiz / "data" / "debates" / nome
        pasta.mkdir(parents=True, exist_ok=True)
        (pasta / "debate.toml").write_text(PROGRAMA.format(data=data, extra=extra), encoding="utf-8")
        escrever_transcricao(pasta, falas)
        return pasta

    return criar


@pytest.fixture
def demo(raiz: Path) -> Path:
    """A copy of the sample debate (program and transcript only: the engine recomputes the rest)."""
    return copiar_demo(raiz)


def copiar_demo(raiz: Path) -> Path:
    """The sample debate's program and transcript copied into `raiz` (the `demo` fixture)."""
    pasta = raiz / "data" / "debates" / DEMO.name
    pasta.mkdir(parents=True)
    for nome in ("debate.toml", "transcricao.jsonl"):
        shutil.copy(DEMO / nome, pasta / nome)
    return pasta

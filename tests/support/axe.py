"""axe-core run inside a page open in the DevTools harness (`tests/support/navegador.py`).

The axe script comes from the `axe-playwright-python` wheel (the `dev` extra), read from the
installed package's folder: nothing is downloaded and playwright itself is never imported or run.
`ir(aba, url)` loads another page in the same tab;
`violacoes(aba)` injects it once per page, runs `axe.run()` on the whole document (axe's default
rules: WCAG 2.x A/AA and best practices) and returns every violation, one per failing element.
"""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from tests.support.navegador import Aba

PACOTE = "axe_playwright_python"


@dataclass(frozen=True)
class Violacao:
    """One element failing one axe rule."""

    regra: str
    impacto: str
    alvo: str
    ajuda: str
    resumo: str

    def __str__(self) -> str:
        return f"{self.regra} ({self.impacto}) em {self.alvo}: {self.ajuda}\n    {self.resumo}"


def disponivel() -> bool:
    """Whether the wheel that ships axe is installed (the `dev` extra)."""
    return importlib.util.find_spec(PACOTE) is not None


@cache
def script() -> str:
    """axe.min.js as shipped in the wheel (its folder found without importing the package)."""
    spec = importlib.util.find_spec(PACOTE)
    assert spec is not None and spec.submodule_search_locations, f"{PACOTE} não está instalado"
    pasta = Path(next(iter(spec.submodule_search_locations)))
    return (pasta / "axe.min.js").read_text(encoding="utf-8")


def versao() -> str:
    """The axe-core version of the script."""
    primeira = script().split("\n", 1)[0]  # "/*! axe v4.12.1"
    return primeira.rsplit(" ", 1)[-1]


# Runs axe on the whole document (OPCOES: axe's options, JSON) and keeps only what the report needs.
RODAR = """(async () => {
  const r = await axe.run(document, Object.assign({resultTypes: ['violations']}, OPCOES));
  return JSON.stringify(r.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => ({target: n.target.join(' '), summary: n.failureSummary || ''})),
  })));
})()"""


def _avaliar_promessa(aba: Aba, expressao: str) -> Any:
    answer = aba.navegador.send(
        "Runtime.evaluate",
        {"expression": expressao, "returnByValue": True, "awaitPromise": True},
        aba.session,
    )
    if "exceptionDetails" in answer:
        detalhes = answer["exceptionDetails"]
        texto = detalhes.get("exception", {}).get("description") or detalhes.get("text")
        raise RuntimeError(f"axe: {texto}")
    return answer["result"].get("value")


def violacoes(aba: Aba, regras: Sequence[str] = ()) -> list[Violacao]:
    """Every axe violation of the page open in `aba` (axe injected once per page); with `regras`,
    only those rules run."""
    if not aba.avaliar("typeof window.axe === 'object'"):
        _avaliar_promessa(aba, script() + "\n;true")
    opcoes = {"runOnly": {"type": "rule", "values": list(regras)}} if regras else {}
    bruto = json.loads(_avaliar_promessa(aba, RODAR.replace("OPCOES", json.dumps(opcoes))))
    return [
        Violacao(v["id"], v["impact"] or "", n["target"], v["help"], n["summary"].replace("\n", " "))
        for v in bruto
        for n in v["nodes"]
    ]

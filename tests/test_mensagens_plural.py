"""The jobs' summary lines agree in number ("1 checagem", "1 problema") and a failed audit says why
(issue 23, point 12: "1 checagens", "(1 problemas)", "FALHOU … (0 problemas)")."""

from __future__ import annotations

from pathlib import Path

from jobs.checagens.validar import Resultado, resumo
from jobs.tse.audit import ResultadoAuditoria
from site_builder.conteudo.regras import Problema


def _problema(arquivo: str) -> Problema:
    return Problema(arquivo, "titulo", "campo obrigatório", 1)


def test_validar_summary_agrees_in_number() -> None:
    assert resumo(Resultado(checagens=1, candidatos=1)) == "tudo certo; verificados: 1 checagem e 1 candidato"
    assert (
        resumo(Resultado(checagens=2, candidatos=0)) == "tudo certo; verificados: 2 checagens e 0 candidatos"
    )
    um = Resultado(problemas=[_problema("a.md")], checagens=1, candidatos=3)
    assert resumo(um) == "1 problema em 1 arquivo (verificados: 1 checagem e 3 candidatos)"
    dois = Resultado(problemas=[_problema("a.md"), _problema("b.md")], checagens=2, candidatos=1)
    assert resumo(dois) == "2 problemas em 2 arquivos (verificados: 2 checagens e 1 candidato)"


def test_audit_verdict_agrees_in_number_and_names_a_differing_output() -> None:
    pasta = Path("data/tse/6258/presidente/2026-10-25T20-00-00Z")
    assert ResultadoAuditoria(pasta, assinaturas=1).veredito() == (
        f"ok: {pasta} reproduzido byte a byte (1 assinatura do TSE conferida)"
    )
    um = ResultadoAuditoria(pasta, problemas=["x: SHA-256 diferente do registrado em captura.json"])
    assert um.veredito() == f"FALHOU: {pasta} não é reproduzido (1 problema)"
    so_diff = ResultadoAuditoria(pasta, diff="--- saida.json (guardada)\n+++ refeita\n")
    verdict = so_diff.veredito()
    assert "0 problemas" not in verdict
    assert verdict == f"FALHOU: {pasta} não é reproduzido (o saida.json refeito difere do guardado)"

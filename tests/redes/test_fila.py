"""The queue: ranking by checkability, reach and harm; exclusions; the same formula for everyone."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from jobs.checagens.acervo import Decisao, registrar_decisoes
from jobs.checagens.configuracao import ConfigChecagens
from jobs.checagens.fila import ALCANCE_REFERENCIA, alcance_normalizado, montar_fila, prioridade
from jobs.checagens.memoria import memoria_do_projeto
from tests.redes.conftest import capturar_post
from tests.support.paginas import ServidorPaginas

T0 = dt.datetime(2026, 10, 20, 12, 0, tzinfo=dt.UTC)


def test_formula_properties() -> None:
    assert alcance_normalizado(None) == alcance_normalizado(0) == 0.0
    assert alcance_normalizado(ALCANCE_REFERENCIA) == pytest.approx(1.0)
    assert alcance_normalizado(10 * ALCANCE_REFERENCIA) == 1.0
    assert 0 < alcance_normalizado(1_000) < alcance_normalizado(100_000) < 1
    assert prioridade(0.0, 10**6, 1.0) == 0.0, "an uncheckable claim never rises"
    assert prioridade(1.0, 10**6, 1.0) == 100.0
    assert prioridade(0.8, 5000, 0.5) < prioridade(0.8, 50_000, 0.5) < prioridade(0.8, 50_000, 1.0)
    assert prioridade(0.5, 5000, 0.5) < prioridade(0.9, 5000, 0.5)


def test_queue_ranks_excludes_and_is_candidate_blind(
    projeto: Path, config: ConfigChecagens, servidor: ServidorPaginas
) -> None:
    saude = "O hospital estadual fechou 40 leitos de UTI em 2025."
    estrada = "A prefeitura asfaltou 12 quilômetros de estrada em 2024."
    post_h = f"{saude} {estrada} Vamos abrir 500 leitos até 2028. Acho que a oposição mente muito."
    h = capturar_post(
        projeto, config, servidor, "http://redes.example/h/1", post_h, "helena-prado", 200_000, T0
    )
    # the same sentence by the other candidate, same reach: must score exactly the same
    r = capturar_post(projeto, config, servidor, "http://redes.example/r/1", saude, "rui-amaral", 200_000, T0)
    pouco = capturar_post(
        projeto,
        config,
        servidor,
        "http://redes.example/r/2",
        saude,
        "rui-amaral",
        300,
        T0 + dt.timedelta(hours=1),
    )
    fila, avisos = montar_fila(projeto, config)
    assert avisos == []
    textos = [(i.afirmacao.texto, i.afirmacao.captura.candidato) for i in fila]
    assert all(i.afirmacao.tipo == "checavel" for i in fila)
    assert not any("Vamos abrir" in t or "Acho" in t for t, _ in textos), "promise and opinion never enter"
    por_id = {i.afirmacao.id: i for i in fila}
    h_saude = next(
        i for i in fila if i.afirmacao.captura.id == h.captura.id and "hospital" in i.afirmacao.texto
    )
    r_saude = por_id[r.afirmacoes[0]["id"]]
    assert h_saude.prioridade == r_saude.prioridade, "same claim, same reach: same score for both candidates"
    assert [a.id for a in r_saude.repeticoes] == [pouco.afirmacoes[0]["id"]], "repeat grouped"
    h_estrada = next(i for i in fila if "estrada" in i.afirmacao.texto)
    assert h_estrada.prioridade < h_saude.prioridade, "health weighs more than roads"
    posicoes = [i.prioridade for i in fila]
    assert posicoes == sorted(posicoes, reverse=True)

    so_rui, _ = montar_fila(projeto, config, candidato="rui-amaral")
    assert {i.afirmacao.captura.candidato for i in so_rui} == {"rui-amaral"}

    registrar_decisoes(
        projeto / "data" / "redes",
        [Decisao(h_saude.afirmacao.id, "descartada", "2026-10-21T00:00:00Z", "ed")],
    )
    depois, _ = montar_fila(projeto, config)
    assert h_saude.afirmacao.id not in {i.afirmacao.id for i in depois}
    assert len(depois) == len(fila) - 1


def test_queue_shows_memory_suggestions_and_survives_a_broken_capture(
    projeto: Path, config: ConfigChecagens, servidor: ServidorPaginas
) -> None:
    capturar_post(
        projeto,
        config,
        servidor,
        "http://redes.example/h/2",
        "O estado abriu 300 novos leitos de UTI em 2025.",
    )
    quebrada = projeto / "data" / "redes" / "helena-prado" / "2026-01-01T00-00-00Z-deadbeef"
    quebrada.mkdir(parents=True)
    (quebrada / "captura.json").write_text("{não é json", encoding="utf-8")
    memoria, _ = memoria_do_projeto(projeto, config)
    fila, avisos = montar_fila(projeto, config, memoria)
    assert len(fila) == 1 and fila[0].memoria[0].checagem.id == "leitos"
    assert fila[0].memoria[0].sugestao == "ocorrencia"
    assert len(avisos) == 1 and "manifesto ilegível" in avisos[0]


def test_limit(projeto: Path, config: ConfigChecagens, servidor: ServidorPaginas) -> None:
    texto = " ".join(f"A cidade registrou {n} homicídios em {2000 + n}." for n in range(1, 8))
    capturar_post(projeto, config, servidor, "http://redes.example/h/3", texto)
    assert len(montar_fila(projeto, config, limite=3)[0]) == 3


def test_method_page_states_the_formula_the_code_uses() -> None:
    from jobs.checagens import fila

    pagina = (Path(__file__).resolve().parents[2] / "content" / "metodologia" / "checagens.md").read_text(
        encoding="utf-8"
    )

    def br(x: float) -> str:
        return f"{x:g}".replace(".", ",")

    formula = (
        f"prioridade = 100 × checabilidade × ({br(fila.BASE)} + {br(fila.PESO_ALCANCE)} × alcance + "
        f"{br(fila.PESO_DANO)} × dano)"
    )
    assert formula in pagina
    assert fila.ALCANCE_REFERENCIA == 1_000_000 and "1 milhão de pessoas vale 1" in pagina
    assert round(alcance_normalizado(1000), 2) == 0.5 and "por mil pessoas vale cerca de 0,5" in pagina

"""The debate page and the /debates/ listing, built by the real site builder from stored stages."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from jobs.debate.pipeline import executar
from jobs.debate.placar import peso_turno
from site_builder.build import build_site
from site_builder.conteudo.vereditos import VEREDITOS
from tests.debate.conftest import REPO, Criar, copiar_demo, fazer_raiz


@pytest.fixture(scope="module")
def construido(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The sample debate run through the engine and its site built, once for the module: the
    project (stages, build caches) and the site."""
    base = tmp_path_factory.mktemp("pagina")
    raiz = fazer_raiz(base / "projeto")
    demo = copiar_demo(raiz)
    shutil.copytree(REPO / "templates", raiz / "templates")
    executar(demo)
    # The desk's checks served the checker; the build only needs the debate (and stays independent of
    # the desk's pages).
    shutil.rmtree(raiz / "content" / "checagens")
    (raiz / "content" / "checagens").mkdir()
    out = base / "public"
    build_site(raiz, out)
    return raiz, out


@pytest.fixture
def site(raiz: Path, demo: Path, tmp_path: Path, construido: tuple[Path, Path]) -> Path:
    """This test's `raiz` as the module's build left it, and a copy of that site to read."""
    base_raiz, base_out = construido
    shutil.rmtree(raiz)
    shutil.copytree(base_raiz, raiz, symlinks=True)
    out = tmp_path / "public"
    shutil.copytree(base_out, out, symlinks=True)
    return out


def _texto(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_debate_page_shows_every_part(site: Path) -> None:
    html = (site / "debates" / "demo-governo-2026-10-15" / "index.html").read_text(encoding="utf-8")
    texto = _texto(html)
    assert "Debate de demonstração." in texto  # sample content is marked
    # Honest labels: the rule-based backend is named as such, and nothing is called AI.
    assert "análise automática por regras" in texto and "podem conter erros" in texto
    assert "por IA" not in texto and "inteligência artificial" not in texto
    assert "Avaliação: análise automática por regras." in texto
    assert "Checagem automática: afirmação separada por análise automática por regras" in texto
    assert "(s)" not in texto and "(ns)" not in texto  # plurals agree with their numbers
    assert "VOZ_" not in texto
    assert "lidera o placar" in texto  # headline
    for metrica in (
        "Veracidade",
        "Respostas diretas",
        "Substância",
        "Propostas",
        "Clareza",
        "Respeito",
        "Tempo de fala",
    ):
        assert metrica in texto
    assert "Pergunta de Paulo Tavares" in texto and "Sem pergunta:" in texto
    assert "Tipo: adiamento" in texto and "A pergunta não foi respondida." in texto
    assert "Trecho que responde" in texto
    assert "Quanto ou meta" in texto and "até 2028" in texto
    assert "ataque disfarçado de proposta" in texto
    assert 'class="selo-revisado"' in html and "Motivo da revisão:" in texto
    assert 'class="selo selo-falso"' in html and "Fontes:" in texto
    assert 'href="https://resultados.tse.jus.br/' in html
    # Before 18 Oct 2026: both readings side by side and what changed.
    assert "Primeira versão (v1)" in texto and "O que mudou" in texto
    assert "Turno em andamento" in texto
    publicado = site / "debates" / "demo-governo-2026-10-15" / "placar.json"
    assert (
        publicado.read_bytes()
        == (site.parent / "projeto" / "data" / "debates" / publicado.parent.name / "placar.json").read_bytes()
    )


def test_listing_and_later_debates(raiz: Path, site: Path, criar_debate: Criar, tmp_path: Path) -> None:
    indice = _texto((site / "debates" / "index.html").read_text(encoding="utf-8"))
    assert "Debate de demonstração: governo do estado" in indice
    assert "com as leituras do método atual e da v1" in indice
    depois = criar_debate(
        [(0, 10, "JOR", "Qual é o seu plano para a saúde?"), (10, 30, "HELENA", "Vou abrir 300 leitos.")],
        nome="depois-da-band",
        data="2026-10-20",
        extra="encerrado = true",
    )
    executar(depois)
    criar_debate([], nome="ainda-nao")  # no cycle yet: listed as waiting, no crash
    out = tmp_path / "public2"
    build_site(raiz, out)
    pagina = _texto((out / "debates" / "depois-da-band" / "index.html").read_text(encoding="utf-8"))
    assert "Primeira versão (v1)" not in pagina
    assert "ainda não dá para apontar" in pagina.lower()
    assert "1 parte respondida de 1" in pagina or "0 partes respondidas de 1" in pagina
    assert "Aguardando o primeiro ciclo" in _texto(
        (out / "debates" / "index.html").read_text(encoding="utf-8")
    )


def test_broken_stage_file_skips_the_debate_with_a_warning(
    raiz: Path, site: Path, demo: Path, tmp_path: Path
) -> None:
    (demo / "turnos.json").write_text("{quebrado", encoding="utf-8")
    out = tmp_path / "public3"
    relatorio = build_site(raiz, out)
    assert any("turnos.json" in a and "JSON inválido" in a for a in relatorio.avisos)
    assert not (out / "debates" / demo.name / "index.html").exists()


def test_engine_writes_what_the_page_shows(raiz: Path, site: Path, demo: Path, tmp_path: Path) -> None:
    """The page data is the engine's (`pagina.json`); the builder formats it and computes nothing."""
    pagina = json.loads((demo / "pagina.json").read_text(encoding="utf-8"))
    turnos = json.loads((demo / "turnos.json").read_text(encoding="utf-8"))["turnos"]
    assert [leitura["metodo"] for leitura in pagina["leituras"]] == ["v2", "v1"]
    assert set(pagina["turnos"]) == {t["id"] for t in turnos}
    assert pagina["turnos"][turnos[0]["id"]]["peso_s"] == peso_turno(turnos[0]["duracao_s"])
    assert pagina["vereditos"] == {v.codigo: v.rotulo for v in VEREDITOS.values()}
    # What the stored page data says is what the page shows.
    pagina["leituras"][0]["manchete"] = "Manchete gravada pelo motor."
    pagina["vereditos"]["falso"] = "Rótulo gravado pelo motor"
    (demo / "pagina.json").write_text(json.dumps(pagina, ensure_ascii=False), encoding="utf-8")
    out = tmp_path / "public4"
    build_site(raiz, out)
    html = (out / "debates" / demo.name / "index.html").read_text(encoding="utf-8")
    assert "Manchete gravada pelo motor." in html and "Rótulo gravado pelo motor" in html
    assert "Manchete gravada pelo motor." in (out / "debates" / "index.html").read_text(encoding="utf-8")


def test_page_data_of_another_cycle_withholds_the_debate(
    raiz: Path, site: Path, demo: Path, tmp_path: Path
) -> None:
    """Files of two cycles (read while the engine writes) never mix on a page: the debate waits."""
    pagina = json.loads((demo / "pagina.json").read_text(encoding="utf-8"))
    turno = next(iter(pagina["turnos"]))
    del pagina["turnos"][turno]
    (demo / "pagina.json").write_text(json.dumps(pagina), encoding="utf-8")
    out = tmp_path / "public5"
    relatorio = build_site(raiz, out)
    assert any(f"turno {turno} não conferem" in a for a in relatorio.avisos)
    assert not (out / "debates" / demo.name / "index.html").exists()


def test_live_debate_without_turns_has_no_empty_section(
    raiz: Path, site: Path, criar_debate: Criar, tmp_path: Path
) -> None:
    ao_vivo = criar_debate([(0, 10, "MED", "Boa noite, começa o debate.")], nome="ao-vivo", data="2026-10-25")
    executar(ao_vivo)
    out = tmp_path / "public6"
    build_site(raiz, out)
    html = (out / "debates" / "ao-vivo" / "index.html").read_text(encoding="utf-8")
    assert "ao vivo" in _texto(html)
    assert "Turno a turno" not in html and "<ol" not in html.split("h-placar", 1)[1]
    assert "Primeira versão (v1)" not in html


def test_refused_transcript_and_held_turns_are_stated_on_the_page(
    raiz: Path, site: Path, demo: Path, tmp_path: Path
) -> None:
    (demo / "transcricao.jsonl").write_bytes(b"")
    executar(demo)  # refused: the last good state stays, the status says why
    out = tmp_path / "public7"
    build_site(raiz, out)
    texto = _texto((out / "debates" / demo.name / "index.html").read_text(encoding="utf-8"))
    assert "Atualização suspensa:" in texto and "encolheu" in texto
    assert "lidera o placar" in texto  # the last valid scoreboard is still shown

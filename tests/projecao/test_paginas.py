"""The projection pages built from a night of stored readings: content, history, API, incremental."""

from __future__ import annotations

import hashlib
import html
import itertools
import json
import re
import shutil
from pathlib import Path

import pytest

from site_builder.build import build_site
from site_builder.projecao_dados import UF_NOMES
from tests.projecao.conftest import make_project
from tests.projecao.noite import runoff_capture, set_latest

RUNOFF = "projecao/6258-presidente/index.html"
FIRST_ROUND = "projecao/6257-presidente/index.html"
GOVERNOR = "projecao/6259-governador-pa/index.html"


def saidas(project: Path, eleicao: str, race: str) -> dict[str, dict[str, object]]:
    folder = project / "data" / "tse" / eleicao / race
    return {
        p.name: json.loads((p / "saida.json").read_bytes()) for p in sorted(folder.iterdir()) if p.is_dir()
    }


def br(value: float) -> str:
    """Two decimals with a comma (written independently of site_builder.br_format)."""
    return f"{value:.2f}".replace(".", ",")


def values(page: str) -> dict[str, str]:
    """data-campo -> data-valor of every number shown on a page."""
    return dict(re.findall(r'data-campo="([^"]+)" data-valor="([^"]*)"', page))


def text(page: str) -> str:
    """The visible text of a page, tags removed, whitespace collapsed."""
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


@pytest.fixture(scope="module")
def built(night: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The night's site, built once for the tests that only read it (their `project` is a copy
    of the same content and readings)."""
    root = tmp_path_factory.mktemp("paginas")
    out = root / "public"
    report = build_site(make_project(root / "projeto", night), out, strict=True)  # no warning, no broken link
    assert report.avisos == []
    return out


def test_each_race_has_page_history_api_and_downloads(project: Path, built: Path) -> None:
    index = json.loads((built / "api/projecao/index.json").read_bytes())
    assert [c["id"] for c in index["corridas"]] == [
        "6258-presidente",
        "6257-presidente",
        "6259-governador-pa",
    ]
    for race in index["corridas"]:
        eleicao, pasta = race["id"].split("-", 1)
        source = project / "data" / "tse" / eleicao / pasta
        latest = (source / "latest").read_text(encoding="utf-8").strip()
        assert race["captura"] == latest
        api = json.loads((built / "api/projecao" / f"{race['id']}.json").read_bytes())
        stored = (source / latest / "saida.json").read_bytes()
        # the model's keys unchanged, plus the last publishable reading (issue 21)
        ultima = api.pop("ultima_publicavel")
        assert api == json.loads(stored)
        assert race["saida_sha256"] == hashlib.sha256(stored).hexdigest()
        assert (ultima or {}).get("captura") == race["ultima_publicavel"]
        if ultima is not None:
            kept = built / f"projecao/{race['id']}/capturas/{ultima['captura']}/saida.json"
            assert ultima["forecast"] == json.loads(kept.read_bytes())["forecast"]
            assert ultima["saida_sha256"] == hashlib.sha256(kept.read_bytes()).hexdigest()
        assert (built / f"projecao/{race['id']}/index.html").is_file()
        history = (built / f"projecao/{race['id']}/capturas/index.html").read_text(encoding="utf-8")
        for capture in sorted(p for p in source.iterdir() if p.is_dir()):
            published = built / f"projecao/{race['id']}/capturas/{capture.name}"
            assert f'href="/projecao/{race["id"]}/capturas/{capture.name}/"' in history
            names = sorted(p.name for p in capture.iterdir())
            assert "saida.json" in names and "captura.json" in names
            for name in names:
                assert (published / name).read_bytes() == (capture / name).read_bytes(), name
            sums = (published / "SHA256SUMS").read_text(encoding="utf-8").splitlines()
            assert sums == [f"{hashlib.sha256((capture / n).read_bytes()).hexdigest()}  {n}" for n in names]
            page = (published / "index.html").read_text(encoding="utf-8")
            assert f"eleicoes auditar data/tse/{eleicao}/{pasta}/{capture.name}" in page
            cargo = "--cargo presidente" if pasta == "presidente" else "--cargo governador --uf pa"
            assert f"PYTHONPATH=eleicoes-codigo python3 -m model.cli projetar {capture.name} {cargo}" in page
    sitemap = (built / "sitemap.xml").read_text(encoding="utf-8")
    assert "/projecao/6258-presidente/</loc>" in sitemap
    assert "/capturas/2026" not in sitemap  # capture listings stay out of the sitemap


def test_publishable_runoff_page_shows_the_output(project: Path, built: Path) -> None:
    saida = saidas(project, "6258", "presidente")["2026-10-25T20-20-00Z"]
    page = (built / RUNOFF).read_text(encoding="utf-8")
    shown, plain = values(page), text(page)
    forecast = saida["forecast"]
    assert isinstance(forecast, dict)
    for cand in forecast["candidatos"]:
        n = cand["numero"]
        assert shown[f"projecao-{n}-pct"] == repr(cand["pct"])
        assert shown[f"projecao-{n}-min"] == repr(cand["intervalo"][0])
        assert shown[f"projecao-{n}-votos"] == repr(cand["votos_projetados"])
    assert shown["projecao-tendencia"] == "13" and "Tendência: Helena Prado" in plain
    assert forecast["definido_matematicamente"] is True and "Definido matematicamente" in plain
    erro = forecast["erro_medio_esperado"]
    assert shown["projecao-erro-projecao"] == repr(erro["projecao"])
    assert shown["projecao-erro-parcial"] == repr(erro["parcial"])
    assert f"A projeção errou em média, nos testes, ±{br(erro['projecao'])} ponto" in plain
    assert f"a parcial bruta, na mesma faixa, errou em média ±{br(erro['parcial'])} ponto" in plain
    assert "Confiança: alta" in plain
    correction = (
        f"correção da deriva das urnas tardias: +{br(forecast['correcao_pp'])} ponto para Helena Prado"
    )
    assert correction in plain
    assert "Atualizado em 25 de outubro de 2026, 17:20:00 (horário de Brasília)" in plain
    assert "Não é o resultado oficial." in plain and 'href="/metodologia/projecao/"' in page
    # Decided: even every remaining vote would not let the trailing candidate overtake.
    assert 'data-bloco="virada"' in page and "Nem todos esses votos bastariam: Rui Amaral precisaria" in plain
    assert float(shown["virada-necessario"]) > 100 > float(shown["virada-esperado"]) > 0
    assert 'data-bloco="nao-publicada"' not in page
    assert '<svg class="grafico"' in page and "<title id=" in page and "<desc id=" in page
    assert "Válidos restantes (estimativa)" in plain
    assert plain.count("Exterior") == 1 and "SP" in plain


def test_non_publishable_reading_shows_only_the_partial(project: Path, built: Path) -> None:
    readings = saidas(project, "6257", "presidente")
    first, latest = readings["2026-10-04T21-36-05Z"], readings["2026-10-04T21-39-46Z"]
    assert first["publicavel"] is True and latest["publicavel"] is False
    page = (built / FIRST_ROUND).read_text(encoding="utf-8")
    shown, plain = values(page), text(page)
    assert 'data-bloco="projecao"' not in page and 'data-bloco="virada"' not in page
    assert "Projeção não publicada nesta leitura" in plain
    # RS has no file in this capture: its electorate comes from the previous capture, never unknown.
    criterios = latest["criterios"]
    assert isinstance(criterios, list)
    sem_arquivo = next(c for c in criterios if c["id"] == "eleitorado_sem_arquivo_valido")
    assert sem_arquivo["valor"] is not None and "valor desconhecido" not in plain
    assert f"Falta arquivo válido do TSE para parte do eleitorado: {br(sem_arquivo['valor'])}%" in plain
    assert "rs: arquivo ausente" in plain
    # Seed: this reading shows only the partial and what failed: no projection of its own.
    assert not [k for k in shown if k.startswith("projecao-")]
    # Issue 21: what readers knew stays, labelled with its time: the last publishable projection.
    assert "Última projeção publicável, 18:36" in plain
    assert 'href="/projecao/6257-presidente/capturas/2026-10-04T21-36-05Z/"' in page
    block = page[page.index('data-bloco="ultima-publicavel"') :]
    forecast = first["forecast"]
    assert isinstance(forecast, dict)
    for cand in (c for c in forecast["candidatos"] if c["numero"] in (13, 22)):  # the top two
        assert shown[f"anterior-{cand['numero']}-pct"] == repr(cand["pct"])
        assert shown[f"anterior-{cand['numero']}-min"] == repr(cand["intervalo"][0])
        assert shown[f"resumo-{cand['numero']}-pct"] == repr(cand["pct"])
        assert f'data-campo="anterior-{cand["numero"]}-pct"' in block
    assert shown["resumo-veredito"] == str(forecast["tendencia"] if forecast["tendencia"] else "indefinido")
    latest_forecast = latest["forecast"]
    assert isinstance(latest_forecast, dict)
    for cand in latest_forecast["candidatos"]:  # the current reading's own projection never appears
        if cand["numero"] in (13, 22) and cand["pct"] not in [c["pct"] for c in forecast["candidatos"]]:
            assert repr(cand["pct"]) not in page
    # the chart and its data table keep the publishable reading's projection and band
    assert "projeção (faixa)" in plain
    lider = next(c for c in forecast["candidatos"] if c["numero"] == 13)
    assert f"{br(lider['pct'])}% ({br(lider['intervalo'][0])}% a {br(lider['intervalo'][1])}%)" in plain
    parcial = latest["parcial"]
    assert isinstance(parcial, dict)
    for cand in parcial["candidatos"]:
        assert shown[f"parcial-{cand['numero']}-votos"] == repr(cand["votos"])
        assert shown[f"parcial-{cand['numero']}-pct"] == repr(cand["pct"])
    assert "Válidos restantes (estimativa)" not in plain


def test_governor_page_in_degraded_mode(built: Path) -> None:
    plain = text((built / GOVERNOR).read_text(encoding="utf-8"))
    assert f"Projeção: Governador {UF_NOMES['pa']}, 1º turno de 2026" in plain
    assert "Modo degradado" in plain


def test_home_and_section_list_the_races(project: Path, built: Path) -> None:
    home = text((built / "index.html").read_text(encoding="utf-8"))
    runoff = saidas(project, "6258", "presidente")["2026-10-25T20-20-00Z"]["forecast"]
    first_round = saidas(project, "6257", "presidente")["2026-10-04T21-39-46Z"]["parcial"]
    assert isinstance(runoff, dict) and isinstance(first_round, dict)
    helena = next(c for c in runoff["candidatos"] if c["numero"] == 13)
    flavio = next(c for c in first_round["candidatos"] if c["numero"] == 22)
    headline = f"Projeção: Helena Prado {br(helena['pct'])}% (±{br(helena['faixa'])} ponto)"
    decided = "Tendência: Helena Prado · definido matematicamente"
    assert f"Presidente, 2º turno de 2026 : {decided} . {headline}" in home
    # not publishable now: the last publishable projection's trend, labelled with its time (issue 21)
    first_forecast = saidas(project, "6257", "presidente")["2026-10-04T21-36-05Z"]["forecast"]
    assert isinstance(first_forecast, dict) and first_forecast["tendencia"] == 22
    assert (
        "1º turno de 2026 : Tendência (última projeção publicável, 18:36): Flavio Bolsonaro . "
        f"Projeção não publicável agora. Parcial oficial: Flavio Bolsonaro {br(flavio['pct'])}%" in home
    )
    assert "Última projeção publicável, 18:36: " in home
    assert "Não é o resultado oficial" in home
    section = (built / "projecao/index.html").read_text(encoding="utf-8")
    assert section.count('<li>\n    <h2><a href="/projecao/') == 3
    assert 'href="/api/projecao/index.json"' in section
    assert "Ainda não há apuração em andamento" not in section


def test_bad_readings_warn_and_keep_the_last_good_one(project: Path, tmp_path: Path) -> None:
    race = project / "data" / "tse" / "6257" / "presidente"
    good = "2026-10-04T21-39-46Z"
    for name, saida in (
        ("2026-10-04T21-45-00Z", b'{"modelo": '),
        ("2026-10-04T21-46-00Z", b"\xff\xfe\x00"),
        ("2026-10-04T21-47-00Z", None),
    ):
        shutil.copytree(race / good, race / name)
        if saida is None:
            (race / name / "saida.json").unlink()
        else:
            (race / name / "saida.json").write_bytes(saida)
        set_latest(race, name)
    (race / "rascunho").mkdir()
    out = tmp_path / "public"
    report = build_site(project, out)
    avisos = "\n".join(report.avisos)
    assert "2026-10-04T21-45-00Z/saida.json: JSON inválido" in avisos
    assert "2026-10-04T21-46-00Z/saida.json: o arquivo não está em UTF-8" in avisos
    assert "2026-10-04T21-47-00Z: leitura sem saida.json" in avisos
    assert "rascunho: nome inesperado" in avisos
    page = text((out / FIRST_ROUND).read_text(encoding="utf-8"))
    assert "Atualizado em 4 de outubro de 2026, 18:39:46" in page
    assert not (out / "projecao/6257-presidente/capturas/2026-10-04T21-45-00Z").exists()
    # The pointer is gone or garbage: the newest readable capture is shown, with a warning.
    (race / "latest").write_bytes(b"\x00lixo")
    report = build_site(project, out)
    assert any("latest: ponteiro ausente ou inválido" in a for a in report.avisos)


def test_reading_without_a_verified_signature_is_marked_on_the_page(project: Path, tmp_path: Path) -> None:
    """captura.json says which readings had no verified `.jws` (issue 15): the race page says so."""
    out = tmp_path / "public"
    build_site(project, out, strict=True)
    assert "sem assinatura conferida" not in text((out / RUNOFF).read_text(encoding="utf-8"))
    race = project / "data" / "tse" / "6258" / "presidente"
    latest = race / (race / "latest").read_text(encoding="utf-8").strip()
    captura = json.loads((latest / "captura.json").read_bytes())
    entries = captura["arquivos"]
    entries["sp-c0001-e006258-u.json"]["assinatura"] = "ausente"
    entries["rj-c0001-e006258-u.json"]["assinatura"] = "verificada"
    (latest / "captura.json").write_text(json.dumps(captura), encoding="utf-8")
    build_site(project, out, strict=True)
    page = text((out / RUNOFF).read_text(encoding="utf-8"))
    assert (
        "Leitura sem assinatura conferida. 1 arquivo do TSE desta leitura foi usado sem a assinatura" in page
    )


def test_latest_pointer_is_the_commit_point(project: Path, tmp_path: Path) -> None:
    race = project / "data" / "tse" / "6258" / "presidente"
    set_latest(race, "2026-10-25T20-10-00Z")
    out = tmp_path / "public"
    build_site(project, out, strict=True)
    page = text((out / RUNOFF).read_text(encoding="utf-8"))
    assert "Atualizado em 25 de outubro de 2026, 17:10:00" in page
    assert "Para a virada, Rui Amaral precisa de mais de" in page
    assert not (out / "projecao/6258-presidente/capturas/2026-10-25T20-20-00Z").exists()


def test_a_new_reading_rerenders_only_its_race(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "public"
    build_site(project, out, strict=True)
    others = {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file() and "/6258-" not in str(p)}
    race = project / "data" / "tse" / "6258" / "presidente"
    name = runoff_capture(race, 3, 99.0)
    set_latest(race, name)
    report = build_site(project, out, strict=True)
    base = "projecao/6258-presidente/"
    new_files = [*sorted(p.name for p in (race / name).iterdir()), "SHA256SUMS", "index.html"]
    expected = {
        base + "index.html",
        base + "capturas/index.html",
        "api/projecao/6258-presidente.json",
        base + "compartilhar.png",  # the share image shows the new numbers
        *(f"{base}capturas/{name}/{f}" for f in new_files),
        # listings that show each race's headline, and the sitemap
        "index.html",
        "projecao/index.html",
        "api/projecao/index.json",
        "sitemap.xml",  # the race's lastmod is its latest reading
    }
    assert set(report.renderizados) == expected
    assert "Atualizado em 25 de outubro de 2026, 17:30:00" in text((out / RUNOFF).read_text(encoding="utf-8"))
    touched = [p for p, m in others.items() if p.stat().st_mtime_ns != m]
    assert sorted(str(p.relative_to(out)) for p in touched) == [
        "api/projecao/index.json",
        "index.html",
        "projecao/index.html",
        "sitemap.xml",
    ]
    again = build_site(project, out, strict=True)
    assert again.renderizados == [] and again.escritos == []


def test_every_projection_page_is_accessible_html(built: Path) -> None:
    pages = sorted((built / "projecao").rglob("*.html"))
    assert len(pages) > 10
    for page in pages:
        source = page.read_text(encoding="utf-8")
        assert source.startswith('<!doctype html>\n<html lang="pt-BR">'), page
        assert source.count("<h1>") == 1, page
        assert 'class="aviso-projecao" role="note"' in source or page.name != "index.html", page
        assert 'href="/metodologia/projecao/"' in source, page
    race = (built / RUNOFF).read_text(encoding="utf-8")
    headings = re.findall(r"<h([1-6])[ >]", race)
    assert headings[0] == "1" and all(int(b) - int(a) <= 1 for a, b in itertools.pairwise(headings))


def test_each_archived_reading_shows_its_own_numbers(project: Path, built: Path) -> None:
    """Issue 21, item 5: a reading's page shows its % counted, projection, bands, verdict and every
    criterion (met or not), from its own saida.json, beside its hashes."""
    readings = saidas(project, "6258", "presidente")
    assert [s["publicavel"] for s in readings.values()] == [False, True, True]
    for name, saida in readings.items():
        page = (built / f"projecao/6258-presidente/capturas/{name}/index.html").read_text(encoding="utf-8")
        shown = values(page)
        assert 'data-bloco="numeros-leitura"' in page and "SHA256SUMS" in page
        assert shown["leitura-apurado"] == repr(saida["apurado_pct"])
        parcial = saida["parcial"]
        assert isinstance(parcial, dict)
        for cand in parcial["candidatos"]:
            assert shown[f"leitura-parcial-{cand['numero']}-votos"] == repr(cand["votos"])
        criterios = saida["criterios"]
        assert isinstance(criterios, list)
        for c in criterios:
            assert f'data-criterio="{c["id"]}" data-ok="{"sim" if c["ok"] else "nao"}"' in page
        forecast = saida["forecast"]
        assert isinstance(forecast, dict)
        if not saida["publicavel"]:
            assert shown["leitura-veredito"] == "nao-publicavel"
            assert not [k for k in shown if k.startswith("leitura-") and k.endswith("-min")]
            continue
        for cand in forecast["candidatos"]:
            n = cand["numero"]
            assert shown[f"leitura-{n}-pct"] == repr(cand["pct"])
            assert shown[f"leitura-{n}-min"] == repr(cand["intervalo"][0])
            assert shown[f"leitura-{n}-max"] == repr(cand["intervalo"][1])
        trend = forecast["tendencia"]
        assert shown["leitura-tendencia"] == (str(trend) if isinstance(trend, int) else "indefinido")
        assert ("leitura-definido" in shown) == bool(forecast["definido_matematicamente"])

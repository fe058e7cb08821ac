"""What a reader sees beyond the numbers (issue 17): real file sizes, time in words, the history
of projections and unmet criteria, candidate names as written, demonstration notices everywhere."""

from __future__ import annotations

import json
from pathlib import Path

from site_builder.build import build_site
from tests.projecao.noite import project as run_model
from tests.projecao.test_paginas import text

RUNOFF = "projecao/6258-presidente"
FIRST = "projecao/6257-presidente"


def test_capture_page_shows_each_file_real_size(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "public"
    build_site(project, out, strict=True)
    capture = "2026-10-04T21-36-05Z"
    page = text((out / FIRST / "capturas" / capture / "index.html").read_text(encoding="utf-8"))
    source = project / "data/tse/6257/presidente" / capture
    for path in sorted(source.iterdir()):
        size = f"{path.stat().st_size:,}".replace(",", ".")
        assert f"{path.name} {size} " in page, path.name


def test_update_line_and_history_say_it_in_words(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "public"
    build_site(project, out, strict=True)
    race = text((out / FIRST / "index.html").read_text(encoding="utf-8"))
    assert "leitura das 18:39:46" in race and "leitura 2026-10-04T21-39-46Z" not in race
    history = text((out / FIRST / "capturas/index.html").read_text(encoding="utf-8"))
    saidas = {
        p.name: json.loads((p / "saida.json").read_bytes())
        for p in sorted((project / "data/tse/6257/presidente").iterdir())
        if p.is_dir()
    }
    published, withheld = saidas["2026-10-04T21-36-05Z"], saidas["2026-10-04T21-39-46Z"]
    # A publishable reading shows its projection; one that was not, the criteria it failed, by name.
    lula = next(c for c in published["forecast"]["candidatos"] if c["numero"] == 13)
    assert f"Lula {lula['pct']:.2f}%".replace(".", ",") in history
    for cid in withheld["criterios_nao_atendidos"]:
        descricao = next(c["descricao"] for c in withheld["criterios"] if c["id"] == cid)
        assert descricao in history
    capture = text((out / FIRST / "capturas/2026-10-04T21-39-46Z/index.html").read_text(encoding="utf-8"))
    assert "critérios não atendidos: Eleitorado em partes sem arquivo válido" in capture


def test_a_simulated_night_says_demonstration_on_every_surface(project: Path, tmp_path: Path) -> None:
    race = project / "data/tse/6258/presidente"
    for folder in sorted(p for p in race.iterdir() if p.is_dir()):
        for tse in folder.glob("*-u.json"):
            tse.write_bytes(tse.read_bytes().replace(b'"f": "o"', b'"f": "s"'))
        run_model(folder)
    out = tmp_path / "public"
    build_site(project, out, strict=True)
    latest = (race / "latest").read_text(encoding="utf-8").strip()
    pages = {
        "início": out / "index.html",
        "índice": out / "projecao/index.html",
        "disputa": out / RUNOFF / "index.html",
        "histórico": out / RUNOFF / "capturas/index.html",
        "leitura": out / RUNOFF / "capturas" / latest / "index.html",
    }
    for where, path in pages.items():
        assert "emonstração" in text(path.read_text(encoding="utf-8")), where
    api = json.loads((out / "api/projecao/6258-presidente.json").read_bytes())
    assert api["demonstracao"] is True
    index = {c["id"]: c for c in json.loads((out / "api/projecao/index.json").read_bytes())["corridas"]}
    assert index["6258-presidente"]["demonstracao"] is True
    assert index["6257-presidente"]["demonstracao"] is False  # the real 1st-round captures
    assert "emonstração" not in text((out / FIRST / "index.html").read_text(encoding="utf-8"))


def test_municipal_president_mode_says_its_band_is_borrowed(project: Path, tmp_path: Path) -> None:
    race = project / "data/tse/6258/presidente"
    latest = race / (race / "latest").read_text(encoding="utf-8").strip() / "saida.json"
    saida = json.loads(latest.read_bytes())
    out = tmp_path / "public"
    build_site(project, out, strict=True)
    assert "ainda não foi calibrada" not in text((out / RUNOFF / "index.html").read_text(encoding="utf-8"))
    saida["modo"] = "presidente_municipio"  # as the model writes it when municipal files are collected
    latest.write_text(json.dumps(saida), encoding="utf-8")
    build_site(project, out, strict=True)
    page = text((out / RUNOFF / "index.html").read_text(encoding="utf-8"))
    assert "a versão por município ainda não foi calibrada nas mesmas noites" in page

"""Issue 22 item 3: paths built from network or configuration data stay inside the data folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobs.tse.config import Corrida
from jobs.tse.store import Conteudo, race_dir, write_snapshot
from jobs.tse.validacao import ValidacaoError, check_member, check_on_base


@pytest.mark.parametrize(
    "nome",
    [
        "../x.json",
        "/etc/x.json",
        "rejeitados/../../x.json",
        ".oculto",
        "a\\b.json",
        "a/b.json",
        "",
        "rejeitados/",
    ],
)
def test_a_member_name_that_could_leave_the_folder_is_refused(nome: str) -> None:
    with pytest.raises(ValidacaoError):
        check_member(nome)


def test_tse_names_and_refused_copies_are_members() -> None:
    for nome in ("sp-c0001-e006258-u.json", "rejeitados/sp-c0001-e006258-u.jws", "mun-e006258-cm.json"):
        assert check_member(nome) == nome


def test_write_snapshot_never_writes_outside_the_race_folder(tmp_path: Path) -> None:
    race = tmp_path / "dados" / "tse" / "6258" / "presidente"
    with pytest.raises(ValidacaoError):
        write_snapshot(
            race,
            "2026-10-25T20-00-00Z",
            {"../../../../esc-c0001-e006258-u.json": Conteudo(b"{}")},
            {"arquivos": {}},
            lambda staging, anterior: b"{}\n",
        )
    assert sorted(p.name for p in tmp_path.rglob("*") if p.is_file()) == []
    assert not (race / "2026-10-25T20-00-00Z").exists()


@pytest.mark.parametrize(
    "corrida",
    [Corrida("governador", "6260", "../../esc", "uf"), Corrida("presidente", "../6258", "br", "uf")],
)
def test_race_folder_is_built_only_from_known_codes(tmp_path: Path, corrida: Corrida) -> None:
    with pytest.raises(ValidacaoError):
        race_dir(tmp_path, corrida)


def test_on_base_keeps_scheme_host_port_and_prefix() -> None:
    base = "https://resultados.tse.jus.br/espelho"
    assert check_on_base(f"{base}/oficial/x.json", base)
    for url in (
        "https://resultados.tse.jus.br/outro/oficial/x.json",
        "http://resultados.tse.jus.br/espelho/oficial/x.json",
        "https://resultados.tse.jus.br:444/espelho/oficial/x.json",
        "https://resultados.tse.jus.br.evil.invalid/espelho/x.json",
        "https://resultados.tse.jus.br/espelho/../x.json",
        "https://resultados.tse.jus.br/espelho/%2e%2e/x.json",
        "https://a@resultados.tse.jus.br/espelho/x.json",
    ):
        with pytest.raises(ValidacaoError):
            check_on_base(url, base)

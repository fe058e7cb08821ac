"""URL lists from the TSE's config files only."""

from __future__ import annotations

import json

import pytest

from jobs.tse.catalog import CatalogError, Municipio, parse_catalogue, parse_municipalities, race_plan
from jobs.tse.config import ConfigTse, Corrida
from tests.tse.conftest import DATASETS

SIM = DATASETS / "tse" / "2022" / "ele2022_simulado_9577" / "ele-c.json"
CM_2022 = DATASETS / "tse" / "2022" / "ele2022_544" / "mun-e000544-cm.json"


def catalogue_2026() -> bytes:
    """An ele-c.json in the 2026 layout (cycle in `pl[].c`, templates in `arq[]`)."""
    root = {
        "dg": "20/10/2026",
        "hg": "10:00:00",
        "f": "o",
        "idg": "7",
        "arq": [
            {"tp": "cm", "dir": "<base>/<ambiente>/<ciclo>/<cd_eleicao>/config"},
            {"tp": "e|ab|u", "dir": "<base>/<ambiente>/<ciclo>/<cd_eleicao>/dados/<uf>"},
        ],
        "pl": [
            {
                "cd": "3221",
                "c": "ele2026",
                "e": [
                    {"cd": "6258", "t": "2", "abr": [{"cd": "br", "cp": [{"cd": "1", "ds": "Presidente"}]}]},
                    {"cd": "6260", "t": "2", "abr": [{"cd": "br", "cp": [{"cd": "3", "ds": "Governador"}]}]},
                ],
            }
        ],
    }
    return json.dumps(root).encode()


def test_real_2022_catalogue_and_municipality_config_parse() -> None:
    cat = parse_catalogue(SIM.read_bytes())
    assert set(cat.eleicoes) == {"9577", "9579"}
    assert cat.eleicoes["9577"].cargos == frozenset({1}) and cat.eleicoes["9577"].ciclo == "ele2022"
    muns = parse_municipalities(CM_2022.read_bytes())
    assert len(muns) == 28 and "zz" in muns
    assert sum(len(m) for m in muns.values()) == 5570 + 181
    df = muns["df"]
    assert len(df) == 1 and df[0].codigo == "97012" and len(df[0].zonas) == 19


def test_president_by_uf_lists_the_28_parts_and_br() -> None:
    cfg = ConfigTse(url_base="http://h")
    cat = parse_catalogue(catalogue_2026())
    muns = parse_municipalities(CM_2022.read_bytes())
    plano = race_plan(cat, muns, cfg, Corrida("presidente", "6258", "br", "uf"))
    assert len(plano.partes) == 28 and plano.cobertura == ()
    assert plano.partes[0].url == "http://h/oficial/ele2026/6258/dados/ac/ac-c0001-e006258-u.json"
    assert plano.partes[0].url_jws.endswith("/ac/ac-c0001-e006258-u.jws")
    assert plano.agregado is not None and plano.agregado.url.endswith(
        "/6258/dados/br/br-c0001-e006258-u.json"
    )
    mun = race_plan(cat, muns, cfg, Corrida("presidente", "6258", "br", "municipio"))
    assert len(mun.partes) == 5751 and len(mun.cobertura) == 28
    assert mun.cobertura[0].url == "http://h/oficial/ele2026/6258/dados/ac/ac-e006258-ab.json"


def test_governor_by_municipality_and_df_by_zone() -> None:
    cfg = ConfigTse(url_base="http://h")
    cat = parse_catalogue(catalogue_2026())
    muns = parse_municipalities(CM_2022.read_bytes())
    ac = race_plan(cat, muns, cfg, Corrida("governador", "6260", "ac", "municipio"))
    assert len(ac.partes) == 22 and "ac01007-c0003-e006260-u.json" in {a.nome for a in ac.partes}
    assert ac.agregado is not None and ac.agregado.nome == "ac-c0003-e006260-u.json"
    assert [c.nome for c in ac.cobertura] == ["ac-e006260-ab.json"]
    df = race_plan(cat, muns, cfg, Corrida("governador", "6260", "df", "zona"))
    assert len(df.partes) == 19 and "df97012-z0001-c0003-e006260-u.json" in {a.nome for a in df.partes}
    assert all("0007" not in a.nome and "z0012" not in a.nome for a in df.partes)


def test_nothing_is_guessed_for_what_the_catalogue_lacks() -> None:
    cfg = ConfigTse(url_base="http://h")
    cat = parse_catalogue(catalogue_2026())
    muns = parse_municipalities(CM_2022.read_bytes())
    with pytest.raises(CatalogError, match="não está no catálogo"):
        race_plan(cat, muns, cfg, Corrida("presidente", "6257", "br", "uf"))
    with pytest.raises(CatalogError, match="não tem o cargo governador"):
        race_plan(cat, muns, cfg, Corrida("governador", "6258", "ac", "municipio"))
    with pytest.raises(CatalogError, match="ciclo"):
        race_plan(cat, muns, cfg.com(ciclo="ele2030"), Corrida("presidente", "6258", "br", "uf"))
    sem_ac = {k: v for k, v in muns.items() if k != "ac"}
    # A UF in no municipality config: no municipal URL is guessed, only the UF file (degraded mode).
    plano = race_plan(cat, sem_ac, cfg, Corrida("governador", "6260", "ac", "municipio"))
    assert plano.partes == () and plano.cobertura == ()
    assert [a.nome for a in plano.arquivos] == ["ac-c0003-e006260-u.json"]
    for bad in (b"{", b"[]", b'{"pl": []}'):
        with pytest.raises(CatalogError):
            parse_catalogue(bad)
    with pytest.raises(CatalogError):
        parse_municipalities(b'{"abr": []}')


# ----------------------------------------------------------------------------- issue 22, items 2-3


def _catalogue_with(template: str) -> bytes:
    root = json.loads(catalogue_2026())
    root["arq"][1]["dir"] = template
    return json.dumps(root).encode()


@pytest.mark.parametrize(
    "template",
    [
        "<base>@outro-host.invalid/<ambiente>/<ciclo>/<cd_eleicao>/dados/<uf>",
        "<base>.outro-host.invalid/<ambiente>/<ciclo>/<cd_eleicao>/dados/<uf>",
        "<base>:8080/<ambiente>/<ciclo>/<cd_eleicao>/dados/<uf>",
        "<base>/<ambiente>/../../<ciclo>/<cd_eleicao>/dados/<uf>",
        "<base>/<ambiente>/%2e%2e/<cd_eleicao>/dados/<uf>",
        "<base>/<ambiente>/<ciclo>/<cd_eleicao>/dados/<uf>?x=<uf>",
        "<base>/<ambiente>/<ciclo>/<cd_eleicao>/dados/<host>",
        "<base>//outro-host.invalid/<uf>",
    ],
)
def test_a_catalogue_template_off_the_base_refuses_the_catalogue(template: str) -> None:
    """Issue 22 item 2: `@other-host` moved every request to another host (string replacement)."""
    with pytest.raises(CatalogError, match="recusado"):
        parse_catalogue(_catalogue_with(template))


def test_every_url_of_a_plan_stays_on_the_configured_base() -> None:
    import urllib.parse

    cfg = ConfigTse(url_base="https://resultados.tse.jus.br/espelho")
    cat = parse_catalogue(catalogue_2026())
    muns = parse_municipalities(CM_2022.read_bytes())
    plano = race_plan(cat, muns, cfg, Corrida("presidente", "6258", "br", "municipio"))
    urls = [a.url for a in plano.arquivos] + [a.url_jws for a in plano.arquivos]
    urls += [a.url for a in plano.cobertura]
    for url in urls:
        u = urllib.parse.urlsplit(url)
        assert (u.scheme, u.netloc) == ("https", "resultados.tse.jus.br")
        assert u.path.startswith("/espelho/oficial/ele2026/6258/dados/") and ".." not in u.path


def _cm(uf: str = "AC", mun: object = "01120", zona: object = "0008") -> bytes:
    return json.dumps({"abr": [{"cd": uf, "ds": "X", "mu": [{"cd": mun, "nm": "X", "z": [zona]}]}]}).encode()


@pytest.mark.parametrize(
    ("cm", "motivo"),
    [
        (_cm(uf="../../../../esc"), "UF desconhecido"),
        (_cm(uf="xx"), "UF desconhecido"),
        (_cm(uf="br"), "UF desconhecido"),
        (_cm(mun="../../esc"), "município"),
        (_cm(mun="²"), "município"),
        (_cm(mun="123456"), "município"),
        (_cm(zona="../1"), "zona"),
        (_cm(zona="٣"), "zona"),
    ],
)
def test_codes_of_the_municipality_config_are_checked_before_any_path(cm: bytes, motivo: str) -> None:
    """Issue 22 item 3: a UF or municipality code like `../../../../esc` wrote outside the data folder."""
    with pytest.raises(CatalogError, match=motivo):
        parse_municipalities(cm)


def test_good_codes_are_padded_and_kept() -> None:
    muns = parse_municipalities(_cm(uf="ZZ", mun=1120, zona=8))
    assert muns == {"zz": (Municipio("01120", ("0008",)),)}

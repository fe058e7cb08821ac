"""URL lists built only from the TSE's own config files: `comum/config/ele-c.json` and `mun-e<ele>-cm.json`.

The TSE publishes no directory listing and many 404s can get an IP blocked (TSE-FORMAT.md §1.4), so
the job never guesses: an election must be in the catalogue with the race's cargo, and every part
(UF, municipality, zone) must be in the municipality config, before its file is asked for.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from jobs.tse.config import ConfigTse, Corrida

# Spec layout (TSE-FORMAT.md §1.1), used when `arq[]` of ele-c.json carries no template for a type.
DEFAULT_TEMPLATES = {
    "cm": "<base>/<ambiente>/<ciclo>/<cd_eleicao>/config",
    "u": "<base>/<ambiente>/<ciclo>/<cd_eleicao>/dados/<uf>",
    "ab": "<base>/<ambiente>/<ciclo>/<cd_eleicao>/dados/<uf>",
}


class CatalogError(ValueError):
    """A config file that cannot be used, or a race it does not offer (Portuguese message)."""


@dataclass(frozen=True)
class Eleicao:
    """One election of the catalogue."""

    codigo: str
    turno: str
    ciclo: str | None
    cargos: frozenset[int]


@dataclass(frozen=True)
class Catalogo:
    """Parsed `ele-c.json`: elections by code and URL templates by file type."""

    eleicoes: dict[str, Eleicao]
    modelos: dict[str, str]


@dataclass(frozen=True)
class Municipio:
    """One locality of `mun-e<ele>-cm.json` (5-digit TSE code and its zones)."""

    codigo: str
    zonas: tuple[str, ...]


@dataclass(frozen=True)
class Arquivo:
    """One file to poll: its TSE name, the folder URL it lives in and the part it describes."""

    nome: str
    pasta_url: str
    parte: str  # "sp", "sp71072", "df97012-z0001", "br"

    @property
    def url(self) -> str:
        """URL of the `.json`."""
        return f"{self.pasta_url}/{self.nome}"

    @property
    def nome_jws(self) -> str:
        """Name of the signed twin."""
        return self.nome[: -len(".json")] + ".jws"

    @property
    def url_jws(self) -> str:
        """URL of the signed twin."""
        return f"{self.pasta_url}/{self.nome_jws}"


@dataclass(frozen=True)
class PlanoCorrida:
    """Every file one race needs: parts, the aggregate/reference file and the coverage files."""

    corrida: Corrida
    partes: tuple[Arquivo, ...]
    agregado: Arquivo | None  # br file (president) or the UF file (governor)
    cobertura: tuple[Arquivo, ...]  # `-ab.json` files, municipal mode only

    @property
    def arquivos(self) -> tuple[Arquivo, ...]:
        """Parts plus the aggregate, in a stable order."""
        return self.partes + ((self.agregado,) if self.agregado else ())


def _load(raw: bytes, nome: str) -> Any:
    try:
        return json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise CatalogError(f"{nome}: JSON inválido ({exc})") from exc


def _templates(arq: Any) -> dict[str, str]:
    """`arq[]` entries → {file type: folder template}; tolerant of the spellings seen in the wild."""
    out: dict[str, str] = {}
    if not isinstance(arq, list):
        return out
    for item in arq:
        if not isinstance(item, dict):
            continue
        tipos = item.get("tp")
        modelo = next((v for v in item.values() if isinstance(v, str) and v.startswith("<base>")), None)
        if modelo is None or tipos is None:
            continue
        lista = tipos if isinstance(tipos, list) else str(tipos).split("|")
        for tp in lista:
            out.setdefault(str(tp).strip().lower(), modelo.rstrip("/"))
    return out


def parse_catalogue(raw: bytes) -> Catalogo:
    """Parse `ele-c.json` (EA11): `pl[].e[]` elections with their cargos, `arq[]` URL templates."""
    root = _load(raw, "ele-c.json")
    if not isinstance(root, dict) or not isinstance(root.get("pl"), list):
        raise CatalogError("ele-c.json: falta a lista 'pl' de pleitos")
    eleicoes: dict[str, Eleicao] = {}
    for pl in root["pl"]:
        if not isinstance(pl, dict):
            continue
        ciclo = pl.get("c", root.get("c"))
        for e in pl.get("e", []) if isinstance(pl.get("e"), list) else []:
            if not isinstance(e, dict) or not str(e.get("cd", "")).isdigit():
                continue
            cargos: set[int] = set()
            for abr in e.get("abr", []) if isinstance(e.get("abr"), list) else []:
                for cp in abr.get("cp", []) if isinstance(abr, dict) else []:
                    if isinstance(cp, dict) and str(cp.get("cd", "")).isdigit():
                        cargos.add(int(cp["cd"]))
            codigo = str(int(e["cd"]))
            eleicoes[codigo] = Eleicao(
                codigo, str(e.get("t", "")), str(ciclo) if ciclo else None, frozenset(cargos)
            )
    if not eleicoes:
        raise CatalogError("ele-c.json: nenhuma eleição no catálogo")
    return Catalogo(eleicoes, _templates(root.get("arq")))


def parse_municipalities(raw: bytes, nome: str = "mun-cm.json") -> dict[str, tuple[Municipio, ...]]:
    """Parse `mun-e<ele>-cm.json` (EA12): {uf (lower case, `zz` abroad): municipalities}."""
    root = _load(raw, nome)
    if not isinstance(root, dict) or not isinstance(root.get("abr"), list):
        raise CatalogError(f"{nome}: falta a lista 'abr' de UFs")
    out: dict[str, tuple[Municipio, ...]] = {}
    for grupo in root["abr"]:
        if not isinstance(grupo, dict) or not isinstance(grupo.get("cd"), str):
            continue
        muns: list[Municipio] = []
        for m in grupo.get("mu", []) if isinstance(grupo.get("mu"), list) else []:
            if not isinstance(m, dict) or not str(m.get("cd", "")).isdigit():
                continue
            zonas = tuple(str(z).zfill(4) for z in m.get("z", []) if str(z).isdigit())
            muns.append(Municipio(str(m["cd"]).zfill(5), zonas))
        out[grupo["cd"].lower()] = tuple(muns)
    if not out:
        raise CatalogError(f"{nome}: nenhuma UF")
    return out


def catalogue_url(config: ConfigTse) -> str:
    """URL of the election catalogue."""
    return f"{config.url_base}/{config.ambiente}/comum/config/ele-c.json"


def _fill(modelo: str, config: ConfigTse, eleicao: str, uf: str = "") -> str:
    return (
        modelo.replace("<base>", config.url_base)
        .replace("<ambiente>", config.ambiente)
        .replace("<ciclo>", config.ciclo)
        .replace("<cd_eleicao>", eleicao)
        .replace("<uf>", uf)
    )


def _folder(cat: Catalogo, tipo: str, config: ConfigTse, eleicao: str, uf: str = "") -> str:
    return _fill(cat.modelos.get(tipo, DEFAULT_TEMPLATES[tipo]), config, eleicao, uf)


def municipalities_url(cat: Catalogo, config: ConfigTse, eleicao: str) -> str:
    """URL of `mun-e<ele6>-cm.json` of one election."""
    return f"{_folder(cat, 'cm', config, eleicao)}/mun-e{int(eleicao):06d}-cm.json"


def check_race(cat: Catalogo, config: ConfigTse, corrida: Corrida) -> None:
    """CatalogError unless the catalogue lists the race's election, cycle and cargo."""
    e = cat.eleicoes.get(corrida.eleicao)
    if e is None:
        raise CatalogError(f"eleição {corrida.eleicao} não está no catálogo do TSE (ele-c.json)")
    if e.ciclo is not None and e.ciclo != config.ciclo:
        raise CatalogError(f"eleição {corrida.eleicao} é do ciclo {e.ciclo}, não {config.ciclo}")
    if e.cargos and corrida.codigo_cargo not in e.cargos:
        raise CatalogError(f"eleição {corrida.eleicao} não tem o cargo {corrida.cargo} no catálogo")


def race_plan(
    cat: Catalogo, muns: dict[str, tuple[Municipio, ...]], config: ConfigTse, corrida: Corrida
) -> PlanoCorrida:
    """The files of one race, named by the spec (TSE-FORMAT.md §1.2) from catalogue entries only."""
    check_race(cat, config, corrida)
    ele6 = f"{int(corrida.eleicao):06d}"
    suf = f"-c{corrida.codigo_cargo:04d}-e{ele6}-u.json"

    def data(uf: str, parte: str) -> Arquivo:
        return Arquivo(f"{parte}{suf}", _folder(cat, "u", config, corrida.eleicao, uf), parte)

    def coverage(uf: str) -> Arquivo:
        return Arquivo(f"{uf}-e{ele6}-ab.json", _folder(cat, "ab", config, corrida.eleicao, uf), uf)

    if corrida.cargo == "presidente":
        agregado = Arquivo(f"br{suf}", _folder(cat, "u", config, corrida.eleicao, "br"), "br")
        ufs = sorted(muns)
        if corrida.nivel == "uf":
            return PlanoCorrida(corrida, tuple(data(uf, uf) for uf in ufs), agregado, ())
        partes = tuple(data(uf, uf + m.codigo) for uf in ufs for m in muns[uf])
        return PlanoCorrida(corrida, partes, agregado, tuple(coverage(uf) for uf in ufs))
    uf = corrida.uf
    if uf not in muns:
        raise CatalogError(f"UF {uf} não está em mun-e{ele6}-cm.json da eleição {corrida.eleicao}")
    referencia = data(uf, uf)
    if corrida.nivel == "uf":
        return PlanoCorrida(corrida, (), referencia, ())
    if corrida.nivel == "zona":
        partes = tuple(data(uf, f"{uf}{m.codigo}-z{z}") for m in muns[uf] for z in sorted(m.zonas))
        return PlanoCorrida(corrida, partes, referencia, ())
    partes = tuple(data(uf, uf + m.codigo) for m in muns[uf])
    return PlanoCorrida(corrida, partes, referencia, (coverage(uf),))

"""URL lists built only from the TSE's own config files: `comum/config/ele-c.json` and `mun-e<ele>-cm.json`.

The TSE publishes no directory listing and many 404s can get an IP blocked (TSE-FORMAT.md §1.4), so
the job never guesses: an election must be in the catalogue with the race's cargo, and every part
(UF, municipality, zone) must be in the municipality config, before its file is asked for.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from jobs.tse.config import ConfigTse, Corrida
from jobs.tse.validacao import (
    ABRANGENCIAS,
    MARCADOR,
    MUNICIPIO,
    ZONA,
    ValidacaoError,
    check_on_base,
    check_segment,
    check_template,
    check_tse_name,
    check_uf,
    is_election_code,
)
from model.tse_files import TseFormatError, load_json

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
    # President by municipality: the UF files, asked first every cycle to decide which
    # municipalities can have changed (`jobs/tse/agenda_municipal.py`); kept with the snapshot.
    referencias: tuple[Arquivo, ...] = ()

    @property
    def arquivos(self) -> tuple[Arquivo, ...]:
        """Parts, the UF reference files and the aggregate, in a stable order."""
        return self.partes + self.referencias + ((self.agregado,) if self.agregado else ())


def _load(raw: bytes, nome: str) -> Any:
    try:
        return load_json(raw, nome)
    except TseFormatError as exc:
        raise CatalogError(f"{nome}: JSON inválido ({exc})") from exc


def _templates(arq: Any) -> dict[str, str]:
    """`arq[]` entries → {file type: folder template}; tolerant of the spellings seen in the wild.

    A template is only accepted when it is `<base>/` followed by known placeholders and plain
    segments (`jobs/tse/validacao.py`): one that is not refuses the whole catalogue (CatalogError),
    so the poller keeps the last good one."""
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
        try:
            modelo = check_template(modelo.rstrip("/"), f"ele-c.json arq {str(tipos)[:20]}")
        except ValidacaoError as exc:
            raise CatalogError(f"{exc}; catálogo recusado") from exc
        for tp in lista:
            out.setdefault(str(tp).strip().lower(), modelo)
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
            if not isinstance(e, dict) or not is_election_code(str(e.get("cd", ""))):
                continue
            cargos: set[int] = set()
            for abr in e.get("abr", []) if isinstance(e.get("abr"), list) else []:
                for cp in abr.get("cp", []) if isinstance(abr, dict) else []:
                    if isinstance(cp, dict) and is_election_code(str(cp.get("cd", ""))):
                        cargos.add(int(cp["cd"]))
            codigo = str(int(e["cd"]))
            eleicoes[codigo] = Eleicao(
                codigo, str(e.get("t", "")), str(ciclo) if ciclo else None, frozenset(cargos)
            )
    if not eleicoes:
        raise CatalogError("ele-c.json: nenhuma eleição no catálogo")
    return Catalogo(eleicoes, _templates(root.get("arq")))


def parse_municipalities(raw: bytes, nome: str = "mun-cm.json") -> dict[str, tuple[Municipio, ...]]:
    """Parse `mun-e<ele>-cm.json` (EA12): {uf (lower case, `zz` abroad): municipalities}.

    Every code becomes part of a URL and a file name, so each is checked against the known sets
    first: UF among the 27 + `zz`, municipality 5 ASCII digits, zone 4. A file with any other
    code is refused whole (CatalogError): the poller keeps the last good one."""
    root = _load(raw, nome)
    if not isinstance(root, dict) or not isinstance(root.get("abr"), list):
        raise CatalogError(f"{nome}: falta a lista 'abr' de UFs")
    out: dict[str, tuple[Municipio, ...]] = {}
    for grupo in root["abr"]:
        if not isinstance(grupo, dict) or not isinstance(grupo.get("cd"), str):
            continue
        uf = grupo["cd"].lower()
        if uf not in ABRANGENCIAS - {"br"}:
            raise CatalogError(f"{nome}: código de UF desconhecido {grupo['cd'][:20]!r}; arquivo recusado")
        muns: list[Municipio] = []
        for m in grupo.get("mu", []) if isinstance(grupo.get("mu"), list) else []:
            if not isinstance(m, dict):
                continue
            codigo = _code(m.get("cd"), MUNICIPIO, nome, f"município de {uf}")
            lista = m.get("z", [])
            if not isinstance(lista, list):
                raise CatalogError(f"{nome}: zonas de {uf}{codigo} não são uma lista; arquivo recusado")
            zonas = tuple(_code(z, ZONA, nome, f"zona de {uf}{codigo}") for z in lista)
            muns.append(Municipio(codigo, zonas))
        out[uf] = tuple(muns)
    if not out:
        raise CatalogError(f"{nome}: nenhuma UF")
    return out


def _code(valor: Any, padrao: Any, nome: str, oque: str) -> str:
    """A municipality or zone code zero-padded from ASCII digits; CatalogError otherwise."""
    texto = str(valor) if isinstance(valor, str | int) and not isinstance(valor, bool) else ""
    largura = 5 if padrao is MUNICIPIO else 4
    codigo = texto.zfill(largura) if texto.isascii() and texto.isdigit() else texto
    if padrao.fullmatch(codigo) is None:
        raise CatalogError(f"{nome}: código de {oque} inválido {texto[:20]!r}; arquivo recusado")
    return codigo


def _on_base(url: str, config: ConfigTse) -> str:
    try:
        return check_on_base(url, config.url_base)
    except ValidacaoError as exc:
        raise CatalogError(str(exc)) from exc


def catalogue_url(config: ConfigTse) -> str:
    """URL of the election catalogue."""
    return _on_base(f"{config.url_base}/{config.ambiente}/comum/config/ele-c.json", config)


def _fill(modelo: str, config: ConfigTse, eleicao: str, uf: str = "") -> str:
    """The folder URL of a template, segment by segment from validated values, never by string
    replacement over the whole template: the result is checked to stay on the configured base."""
    if not is_election_code(eleicao):
        raise CatalogError(f"código de eleição inválido {eleicao[:20]!r}")
    try:
        valores = {
            "ambiente": check_segment(config.ambiente, "ambiente"),
            "ciclo": check_segment(config.ciclo, "ciclo"),
            "cd_eleicao": eleicao,
            "uf": check_uf(uf, "pasta de dados") if uf else "",
        }
        segmentos = []
        for parte in check_template(modelo, "modelo de URL")[len("<base>/") :].split("/"):
            m = MARCADOR.fullmatch(parte)
            if m is None:
                segmentos.append(parte)
            elif m[1] in valores and valores[m[1]]:
                segmentos.append(valores[m[1]])
            else:
                raise ValidacaoError(f"o modelo de URL pede <{m[1]}>, que esta pasta não tem")
    except ValidacaoError as exc:
        raise CatalogError(str(exc)) from exc
    return _on_base("/".join([config.url_base, *segmentos]), config)


def _folder(cat: Catalogo, tipo: str, config: ConfigTse, eleicao: str, uf: str = "") -> str:
    return _fill(cat.modelos.get(tipo, DEFAULT_TEMPLATES[tipo]), config, eleicao, uf)


def municipalities_url(cat: Catalogo, config: ConfigTse, eleicao: str) -> str:
    """URL of `mun-e<ele6>-cm.json` of one election."""
    if not is_election_code(eleicao):
        raise CatalogError(f"código de eleição inválido {eleicao[:20]!r}")
    return _on_base(f"{_folder(cat, 'cm', config, eleicao)}/mun-e{int(eleicao):06d}-cm.json", config)


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

    def checked(arq: Arquivo) -> Arquivo:
        try:
            check_tse_name(arq.nome)
        except ValidacaoError as exc:
            raise CatalogError(str(exc)) from exc
        _on_base(arq.url, config)
        return arq

    def data(uf: str, parte: str) -> Arquivo:
        return checked(Arquivo(f"{parte}{suf}", _folder(cat, "u", config, corrida.eleicao, uf), parte))

    def coverage(uf: str) -> Arquivo:
        return checked(Arquivo(f"{uf}-e{ele6}-ab.json", _folder(cat, "ab", config, corrida.eleicao, uf), uf))

    if corrida.cargo == "presidente":
        agregado = Arquivo(f"br{suf}", _folder(cat, "u", config, corrida.eleicao, "br"), "br")
        ufs = sorted(muns)
        if corrida.nivel == "uf":
            return PlanoCorrida(corrida, tuple(data(uf, uf) for uf in ufs), agregado, ())
        partes = tuple(data(uf, uf + m.codigo) for uf in ufs for m in muns[uf])
        referencias = tuple(data(uf, uf) for uf in ufs)
        return PlanoCorrida(corrida, partes, agregado, tuple(coverage(uf) for uf in ufs), referencias)
    uf = corrida.uf
    referencia = data(uf, uf)
    if corrida.nivel == "uf" or uf not in muns:
        # A UF in no municipality config has no municipal file to ask for: the UF file alone is
        # the seed's degraded mode (jobs/tse/degradado.py), never a guessed municipal URL.
        return PlanoCorrida(corrida, (), referencia, ())
    if corrida.nivel == "zona":
        partes = tuple(data(uf, f"{uf}{m.codigo}-z{z}") for m in muns[uf] for z in sorted(m.zonas))
        return PlanoCorrida(corrida, partes, referencia, ())
    partes = tuple(data(uf, uf + m.codigo) for m in muns[uf])
    return PlanoCorrida(corrida, partes, referencia, (coverage(uf),))

"""Parse TSE result files (2024-2026 `-u.json`, 2022 `-v.json`) into exact integer records.

All numbers in TSE files are strings; integers are parsed with `int`, decimal-comma values with
`decimal.Decimal`, so nothing is rounded on the way in. Bad input raises `TseFormatError` with a
Portuguese message that ends up in the output (`estratos[].motivo`), never a traceback.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

# TSE `dg/hg` are Brasília time (TSE-FORMAT.md §2.3); Brazil has had no DST since 2019.
BRASILIA = dt.timezone(dt.timedelta(hours=-3), "BRT")

# <uf>[<mun5>][-z<zona4>]-c<cargo4>-e<ele6>-<u|v>.json (TSE-FORMAT.md §1.2 and §1.3).
FILE_NAME = re.compile(
    r"^(?P<uf>[a-z]{2})(?P<mun>\d{5})?(?:-z(?P<zona>\d{4}))?-c(?P<cargo>\d{4})-e(?P<ele>\d{6})-(?P<fmt>[uv])\.json$"
)


class TseFormatError(ValueError):
    """A TSE file that cannot be read; the message is Portuguese and meant for editors."""


# No count in a TSE file reaches a trillion (the whole electorate is ~156 million): a longer number is
# refused before `int()` sees it (Python refuses strings over 4,300 digits with a ValueError).
MAX_DIGITS = 12
# ASCII digits only: `str.isdigit()` is true for "²" or "٣", which `int()` then refuses or misreads.
INTEGER = re.compile(rf"-?[0-9]{{1,{MAX_DIGITS}}}")
# What JSON parsing can raise on hostile bytes: bad syntax or encoding (ValueError, which covers
# UnicodeDecodeError and Python's int digit limit) and nesting deeper than the interpreter's stack.
JSON_ERRORS = (ValueError, RecursionError)


def load_json(raw: bytes | str, nome: str | None = None) -> Any:
    """`json.loads` that never lets hostile bytes escape as another exception: TseFormatError
    (its message names `nome` when given)."""
    onde = f" em {nome}" if nome else ""
    try:
        return json.loads(raw)
    except RecursionError as exc:
        raise TseFormatError(f"JSON malformado{onde}: aninhado fundo demais para ser lido") from exc
    except ValueError as exc:
        raise TseFormatError(f"JSON malformado{onde}: {str(exc)[:200]}") from exc


def count_value(value: Any) -> int | None:
    """A TSE count (an ASCII-digit string, or an int in 2022 files) as int; None when it is not one."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if abs(value) < 10**MAX_DIGITS else None
    if isinstance(value, str) and INTEGER.fullmatch(value.strip()):
        return int(value.strip())
    return None


@dataclass(frozen=True)
class FileName:
    """The parts of a TSE result file name."""

    nome: str
    uf: str
    municipio: str | None
    zona: str | None
    cargo: int
    eleicao: str
    formato: str

    @property
    def parte(self) -> str:
        """The part (stratum) id this file describes: `sp`, `sp71072`, `df97012-z0001`."""
        out = self.uf + (self.municipio or "")
        return out + (f"-z{self.zona}" if self.zona else "")


def parse_file_name(nome: str) -> FileName | None:
    """Split a TSE result file name; None when the name is not a result file."""
    m = FILE_NAME.match(nome)
    if m is None:
        return None
    return FileName(
        nome=nome,
        uf=m["uf"],
        municipio=m["mun"],
        zona=m["zona"],
        cargo=int(m["cargo"]),
        eleicao=str(int(m["ele"])),
        formato=m["fmt"],
    )


@dataclass(frozen=True)
class Candidate:
    """One candidate's votes in one file. `valido` is False for annulled / sub judice votes."""

    numero: int
    nome: str
    votos: int
    valido: bool


@dataclass(frozen=True)
class ResultRecord:
    """One abrangência (UF, municipality or zone) of a TSE result file, exact integers."""

    eleicao: str
    turno: int
    cargo: int | None
    tpabr: str
    cdabr: str
    gerado_em: dt.datetime | None
    totalizado_local: str
    secoes: int
    secoes_totalizadas: int
    eleitorado: int
    eleitorado_totalizado: int
    votos_totais: int
    vvc: int
    vv: int
    van: int
    vansj: int
    vb: int
    vn: int
    vnt: int
    candidatos: tuple[Candidate, ...]
    simulado: bool = False  # `"f": "s"`: the file comes from a simulation, not an election
    # Fields only some layouts carry (None: absent, the identity that needs them is not checked).
    comparecimento: int | None = None  # `e.c` (2022: `c`), turnout: must equal `tv`
    secoes_nao_totalizadas: int | None = None  # `s.snt`: ts = st + snt
    eleitorado_nao_totalizado: int | None = None  # `e.esnt`: te = est + esnt

    @property
    def secoes_pct(self) -> float:
        """Share of sections totalized, in percent."""
        return 100.0 * self.secoes_totalizadas / self.secoes if self.secoes else 0.0


def parse_int(value: Any, campo: str) -> int:
    """A TSE integer string ("9145124") as int; TseFormatError otherwise."""
    out = count_value(value)
    if out is None:
        shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:40] + "…"
        raise TseFormatError(f"campo {campo} não é um inteiro de até {MAX_DIGITS} dígitos: {shown}")
    return out


def _opt_int(block: dict[str, Any], key: str, campo: str) -> int | None:
    """An optional count: None when absent, TseFormatError when present and not a count."""
    return parse_int(block[key], campo) if key in block else None


def parse_decimal(value: Any, campo: str) -> Decimal:
    """A TSE decimal-comma string ("46,580693503") as an exact Decimal."""
    if not isinstance(value, str | int):
        raise TseFormatError(f"campo {campo} não é um número: {value!r}")
    texto = str(value).strip().replace(",", ".")
    if len(texto) > 40:
        raise TseFormatError(f"campo {campo} não é um número: {texto[:40]!r}…")
    try:
        return Decimal(texto)
    except InvalidOperation as exc:
        raise TseFormatError(f"campo {campo} não é um número: {value!r}") from exc


def parse_brasilia(data: Any, hora: Any) -> dt.datetime | None:
    """`dd/mm/aaaa` + `hh:mm:ss` on the Brasília clock; None when empty or malformed."""
    if not isinstance(data, str) or not isinstance(hora, str) or not data or not hora:
        return None
    try:
        naive = dt.datetime.strptime(f"{data} {hora}", "%d/%m/%Y %H:%M:%S")
    except ValueError:
        return None
    return naive.replace(tzinfo=BRASILIA)


def _get(block: dict[str, Any], key: str, where: str) -> Any:
    if key not in block:
        raise TseFormatError(f"campo {where}.{key} ausente")
    return block[key]


def _block(root: dict[str, Any], key: str) -> dict[str, Any]:
    value = root.get(key)
    if not isinstance(value, dict):
        raise TseFormatError(f"bloco {key} ausente ou inválido")
    return value


def _dicts(value: Any, where: str) -> list[dict[str, Any]]:
    if not isinstance(value, list) or not all(isinstance(x, dict) for x in value):
        raise TseFormatError(f"lista {where} inválida")
    return value


def _candidates_u(root: dict[str, Any]) -> tuple[Candidate, ...]:
    cargos = root.get("carg")
    if not isinstance(cargos, list) or len(cargos) != 1 or not isinstance(cargos[0], dict):
        raise TseFormatError("lista carg ausente ou com mais de um cargo")
    out: list[Candidate] = []
    agrs = cargos[0].get("agr")
    if not isinstance(agrs, list):
        raise TseFormatError("lista carg.agr ausente")
    for agr in agrs:
        for par in agr.get("par", []) if isinstance(agr, dict) else []:
            for cand in par.get("cand", []) if isinstance(par, dict) else []:
                if not isinstance(cand, dict):
                    raise TseFormatError("candidato inválido")
                # dvt is absent before the first totalization (zero-vote files): votes are 0 anyway.
                dvt = cand.get("dvt", "Válido")
                out.append(
                    Candidate(
                        numero=parse_int(_get(cand, "n", "cand"), "cand.n"),
                        nome=str(cand.get("nmu") or cand.get("nm") or ""),
                        votos=parse_int(_get(cand, "vap", "cand"), "cand.vap"),
                        valido=isinstance(dvt, str) and dvt.startswith("Válido"),
                    )
                )
    if not out:
        raise TseFormatError("nenhum candidato no arquivo")
    return tuple(sorted(out, key=lambda c: c.numero))


def _record_u(root: dict[str, Any]) -> ResultRecord:
    s, e, v = _block(root, "s"), _block(root, "e"), _block(root, "v")
    cargos = root.get("carg")
    cargo = None
    if isinstance(cargos, list) and cargos and isinstance(cargos[0], dict) and "cd" in cargos[0]:
        cargo = parse_int(cargos[0]["cd"], "carg.cd")
    return ResultRecord(
        eleicao=str(parse_int(_get(root, "ele", "raiz"), "ele")),
        turno=parse_int(_get(root, "t", "raiz"), "t"),
        cargo=cargo,
        tpabr=str(_get(root, "tpabr", "raiz")).lower(),
        cdabr=str(_get(root, "cdabr", "raiz")).lower(),
        gerado_em=parse_brasilia(root.get("dg"), root.get("hg")),
        totalizado_local=f"{root.get('dt') or ''} {root.get('ht') or ''}".strip(),
        secoes=parse_int(_get(s, "ts", "s"), "s.ts"),
        secoes_totalizadas=parse_int(_get(s, "st", "s"), "s.st"),
        eleitorado=parse_int(_get(e, "te", "e"), "e.te"),
        eleitorado_totalizado=parse_int(_get(e, "est", "e"), "e.est"),
        votos_totais=parse_int(_get(v, "tv", "v"), "v.tv"),
        vvc=parse_int(_get(v, "vvc", "v"), "v.vvc"),
        vv=parse_int(_get(v, "vv", "v"), "v.vv"),
        van=parse_int(_get(v, "van", "v"), "v.van"),
        vansj=parse_int(_get(v, "vansj", "v"), "v.vansj"),
        vb=parse_int(_get(v, "vb", "v"), "v.vb"),
        vn=parse_int(_get(v, "vn", "v"), "v.vn"),
        vnt=parse_int(_get(v, "vnt", "v"), "v.vnt"),
        candidatos=_candidates_u(root),
        simulado=str(root.get("f", "")).lower() == "s",
        comparecimento=_opt_int(e, "c", "e.c"),
        secoes_nao_totalizadas=_opt_int(s, "snt", "s.snt"),
        eleitorado_nao_totalizado=_opt_int(e, "esnt", "e.esnt"),
    )


def _records_v(root: dict[str, Any]) -> list[ResultRecord]:
    """2022 legacy `-v` file: one record per `abr[]` row (a municipal file has one row per zone)."""
    abrs = root.get("abr")
    if not isinstance(abrs, list) or not abrs:
        raise TseFormatError("lista abr ausente")
    eleicao = str(parse_int(_get(root, "ele", "raiz"), "ele"))
    turno = parse_int(_get(root, "t", "raiz"), "t")
    cargo = parse_int(root["carper"], "carper") if "carper" in root else None
    gerado = parse_brasilia(root.get("dg"), root.get("hg"))
    simulado = str(root.get("f", "")).lower() == "s"
    out: list[ResultRecord] = []
    for a in abrs:
        if not isinstance(a, dict):
            raise TseFormatError("linha abr inválida")
        tpabr = str(_get(a, "tpabr", "abr")).lower()
        cdabr = str(_get(a, "cdabr", "abr")).lower()
        if tpabr == "zona":
            cdabr = cdabr.zfill(4)  # 2022 zones come unpadded ("6")
        te = parse_int(_get(a, "e", "abr"), "abr.e")
        # 2022: e = ea (apurado) + ena (não apurado) + esni (não instaladas); totalized = e - ena.
        ena = parse_int(_get(a, "ena", "abr"), "abr.ena")
        cands = tuple(
            sorted(
                (
                    Candidate(
                        numero=parse_int(_get(c, "n", "cand"), "cand.n"),
                        nome=str(c.get("nmu") or c.get("nm") or ""),
                        votos=parse_int(_get(c, "vap", "cand"), "cand.vap"),
                        valido=str(c.get("dvt", "Válido")).startswith("Válido"),
                    )
                    for c in _dicts(a.get("cand", []), "abr.cand")
                ),
                key=lambda c: c.numero,
            )
        )
        if not cands:
            raise TseFormatError("nenhum candidato no arquivo")
        out.append(
            ResultRecord(
                eleicao=eleicao,
                turno=turno,
                cargo=cargo,
                tpabr="mu" if tpabr == "mu" else tpabr,
                cdabr=cdabr,
                gerado_em=gerado,
                totalizado_local=f"{a.get('dt') or ''} {a.get('ht') or ''}".strip(),
                secoes=parse_int(_get(a, "s", "abr"), "abr.s"),
                secoes_totalizadas=parse_int(_get(a, "st", "abr"), "abr.st"),
                eleitorado=te,
                eleitorado_totalizado=te - ena,
                votos_totais=parse_int(_get(a, "tv", "abr"), "abr.tv"),
                vvc=parse_int(_get(a, "vvc", "abr"), "abr.vvc"),
                vv=parse_int(_get(a, "vv", "abr"), "abr.vv"),
                van=parse_int(_get(a, "van", "abr"), "abr.van"),
                vansj=parse_int(_get(a, "vansj", "abr"), "abr.vansj"),
                vb=parse_int(_get(a, "vb", "abr"), "abr.vb"),
                vn=parse_int(_get(a, "vn", "abr"), "abr.vn"),
                vnt=parse_int(_get(a, "vnt", "abr"), "abr.vnt"),
                candidatos=cands,
                simulado=simulado,
                comparecimento=_opt_int(a, "c", "abr.c"),
                secoes_nao_totalizadas=_opt_int(a, "snt", "abr.snt"),
                eleitorado_nao_totalizado=ena,
            )
        )
    return out


def parse_result(raw: bytes, formato: str = "u") -> list[ResultRecord]:
    """Parse the bytes of a `-u.json` (one record) or 2022 `-v.json` (one record per `abr` row).

    Any bytes give records or TseFormatError (tests/model/test_tse_files_propriedades.py): no
    other exception escapes, whatever the nesting, digits or types in the file.
    """
    root = load_json(raw)
    if not isinstance(root, dict):
        raise TseFormatError("o arquivo não é um objeto JSON")
    try:
        if formato == "v":
            return _records_v(root)
        return [_record_u(root)]
    except (AttributeError, TypeError, KeyError, IndexError, RecursionError) as exc:
        raise TseFormatError(f"estrutura inesperada: {type(exc).__name__}") from exc


def consistency_problems(rec: ResultRecord) -> list[str]:
    """The TSE identities a record breaks (Portuguese), empty when the record adds up.

    Seed, publication criteria: "válidos e consistentes (… somas batem, totalizado ≤ eleitorado)".
    Every structural identity of the format (TSE-FORMAT.md §2.3) is checked: no negative count;
    ts = st + snt and te = est + esnt (when the file carries snt/esnt); tv = c (turnout, when
    present) ≤ totalized electorate ≤ electorate; tv = vb + vn + vnt + van + vansj + vv;
    vvc = vv + van + vansj; one entry per candidate number; Σ valid candidates = vv and
    Σ all candidates = vvc. Every real file in datasets/tse passes them, except the 2022
    simulation's `br` file, whose candidates carry no `dvt` although 1,068,930 votes are
    `vansj` (tests/model/test_identidades.py): it is refused, as it always was. Simulated files
    (`"f": "s"`) get no tolerance: the project's generator writes them consistent.
    """
    problems: list[str] = []
    counts = {
        "ts": rec.secoes,
        "st": rec.secoes_totalizadas,
        "snt": rec.secoes_nao_totalizadas,
        "te": rec.eleitorado,
        "est": rec.eleitorado_totalizado,
        "esnt": rec.eleitorado_nao_totalizado,
        "c": rec.comparecimento,
        "tv": rec.votos_totais,
        "vvc": rec.vvc,
        "vv": rec.vv,
        "van": rec.van,
        "vansj": rec.vansj,
        "vb": rec.vb,
        "vn": rec.vn,
        "vnt": rec.vnt,
    }
    negativos = [k for k, v in counts.items() if v is not None and v < 0]
    negativos += [f"votos do {c.numero}" for c in rec.candidatos if c.votos < 0]
    if negativos:
        problems.append("valores negativos (" + ", ".join(negativos) + ")")
    snt, esnt, comparecimento = rec.secoes_nao_totalizadas, rec.eleitorado_nao_totalizado, rec.comparecimento
    if snt is not None and rec.secoes != rec.secoes_totalizadas + snt:
        problems.append(f"ts ({rec.secoes}) ≠ st+snt ({rec.secoes_totalizadas + snt})")
    if rec.secoes_totalizadas > rec.secoes:
        problems.append(f"seções totalizadas ({rec.secoes_totalizadas}) > seções ({rec.secoes})")
    if esnt is not None and rec.eleitorado != rec.eleitorado_totalizado + esnt:
        problems.append(f"te ({rec.eleitorado}) ≠ est+esnt ({rec.eleitorado_totalizado + esnt})")
    if rec.eleitorado_totalizado > rec.eleitorado:
        problems.append(
            f"eleitorado totalizado ({rec.eleitorado_totalizado}) > eleitorado ({rec.eleitorado})"
        )
    if comparecimento is not None and rec.votos_totais != comparecimento:
        problems.append(f"tv ({rec.votos_totais}) ≠ comparecimento c ({comparecimento})")
    if comparecimento is not None and comparecimento > rec.eleitorado_totalizado:
        problems.append(
            f"comparecimento ({comparecimento}) > eleitorado totalizado ({rec.eleitorado_totalizado})"
        )
    if rec.votos_totais > rec.eleitorado_totalizado:
        problems.append(
            f"votos totais ({rec.votos_totais}) > eleitorado totalizado ({rec.eleitorado_totalizado})"
        )
    soma_tv = rec.vb + rec.vn + rec.vnt + rec.van + rec.vansj + rec.vv
    if rec.votos_totais != soma_tv:
        problems.append(f"tv ({rec.votos_totais}) ≠ vb+vn+vnt+van+vansj+vv ({soma_tv})")
    if rec.vvc != rec.vv + rec.van + rec.vansj:
        problems.append(f"vvc ({rec.vvc}) ≠ vv+van+vansj ({rec.vv + rec.van + rec.vansj})")
    numeros = [c.numero for c in rec.candidatos]
    repetidos = sorted({n for n in numeros if numeros.count(n) > 1})
    if repetidos:
        problems.append("candidato listado mais de uma vez: " + ", ".join(map(str, repetidos)))
    soma_cand = sum(c.votos for c in rec.candidatos if c.valido)
    if soma_cand != rec.vv:
        problems.append(f"soma dos votos válidos dos candidatos ({soma_cand}) ≠ vv ({rec.vv})")
    soma_todos = sum(c.votos for c in rec.candidatos)
    if soma_todos != rec.vvc:
        problems.append(f"soma dos votos de todos os candidatos ({soma_todos}) ≠ vvc ({rec.vvc})")
    return problems


def candidate_set_problems(rec: ResultRecord, referencia: ResultRecord) -> list[str]:
    """The candidates of a race are fixed for the night: the same numbers as the reference reading
    (the file's last valid reading, itself checked against the one before, back to the first)."""
    agora = {c.numero for c in rec.candidatos}
    antes = {c.numero for c in referencia.candidatos}
    if agora == antes:
        return []
    partes = []
    if agora - antes:
        partes.append("novos: " + ", ".join(map(str, sorted(agora - antes))))
    if antes - agora:
        partes.append("ausentes: " + ", ".join(map(str, sorted(antes - agora))))
    return ["candidatos diferentes dos da primeira leitura válida da noite (" + "; ".join(partes) + ")"]


def decrease_problems(rec: ResultRecord, anterior: ResultRecord) -> list[str]:
    """Totals that went down against the previous reading of the same file (Portuguese)."""
    problems: list[str] = []
    pairs = [
        ("seções totalizadas", rec.secoes_totalizadas, anterior.secoes_totalizadas),
        ("eleitorado totalizado", rec.eleitorado_totalizado, anterior.eleitorado_totalizado),
        ("votos totais", rec.votos_totais, anterior.votos_totais),
        ("votos válidos", rec.vv, anterior.vv),
    ]
    before = {c.numero: c.votos for c in anterior.candidatos}
    pairs += [(f"votos do {c.numero}", c.votos, before.get(c.numero, 0)) for c in rec.candidatos]
    for nome, agora, antes in pairs:
        if agora < antes:
            problems.append(f"{nome} diminuiu em relação à leitura anterior ({antes} → {agora})")
    return problems

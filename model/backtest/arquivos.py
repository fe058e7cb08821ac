"""TSE-format files of a simulated night: EA20 results (`-u.json`), coverage (`-ab.json`), configs.

The numbers of one part at one capture (`Contagem`) become either a `ResultRecord` (what the model
reads, for the in-memory replay) or the bytes of the TSE file (for snapshot folders and the night
folder the replay server serves). Every identity the model checks holds by construction:
`tv = vb + vn + vnt + van + vansj + vv`, `vvc = vv + van + vansj`, candidates' votes = `vv`,
`st <= ts`, `est <= te`, plus `ts = st + snt`, `te = est + esnt`, `esi = c + a`. Percentages follow
TSE's rules (2 decimals rounded half up, never 100,00 or 0,00 unless exact; 9-decimal fields print
"0" and "100" bare).
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

from model.strata import UF_UTC_OFFSET
from model.tse_files import BRASILIA, Candidate, ResultRecord

CARGOS = {1: "Presidente", 3: "Governador"}


@dataclass(frozen=True)
class Contagem:
    """The numbers of one file: one part (UF, municipality, zone or the nation) at one capture."""

    eleicao: str
    turno: int
    cargo: int
    tpabr: str  # "br", "uf", "mu", "zona"
    cdabr: str  # "br", "sp", "71072", "0001"
    uf: str  # for the local-time fields
    candidatos: tuple[tuple[int, str, str, int], ...]  # (number, name, party, votes)
    vb: int
    vn: int
    abstencoes: int  # abstentions among the electorate already totalized
    eleitorado: int  # te
    secoes: int  # ts
    secoes_totalizadas: int  # st
    gerado_em: dt.datetime  # generation instant (UTC)
    totalizado_em: dt.datetime | None  # last totalization (UTC); None when nothing counted

    @property
    def vv(self) -> int:
        """Valid votes (all candidates here are valid)."""
        return sum(c[3] for c in self.candidatos)

    @property
    def tv(self) -> int:
        """Total votes = turnout."""
        return self.vv + self.vb + self.vn

    @property
    def est(self) -> int:
        """Electorate of the sections totalized."""
        return self.tv + self.abstencoes

    @property
    def final(self) -> bool:
        """Every section totalized."""
        return self.secoes_totalizadas >= self.secoes


def registro(c: Contagem) -> ResultRecord:
    """The record the model would parse from `arquivo_u(c)` (tests check they agree)."""
    return ResultRecord(
        eleicao=c.eleicao,
        turno=c.turno,
        cargo=c.cargo,
        tpabr=c.tpabr,
        cdabr=c.cdabr,
        gerado_em=c.gerado_em.astimezone(BRASILIA).replace(microsecond=0),
        totalizado_local=_local(c.totalizado_em, c.uf),
        secoes=c.secoes,
        secoes_totalizadas=c.secoes_totalizadas,
        eleitorado=c.eleitorado,
        eleitorado_totalizado=c.est,
        votos_totais=c.tv,
        vvc=c.vv,
        vv=c.vv,
        van=0,
        vansj=0,
        vb=c.vb,
        vn=c.vn,
        vnt=0,
        candidatos=tuple(Candidate(n, nome, v, True) for n, nome, _, v in sorted(c.candidatos)),
        simulado=True,  # `arquivo_u` writes "f": "s"
        comparecimento=c.tv,
        secoes_nao_totalizadas=c.secoes - c.secoes_totalizadas,
        eleitorado_nao_totalizado=c.eleitorado - c.est,
    )


def _local(t: dt.datetime | None, uf: str) -> str:
    """`dt ht` of the place (UF's standard offset; abroad shown on the Brasília clock here)."""
    if t is None:
        return ""
    tz = dt.timezone(dt.timedelta(hours=UF_UTC_OFFSET.get(uf, -3)))
    return t.astimezone(tz).strftime("%d/%m/%Y %H:%M:%S")


def pct2(num: int, den: int) -> str:
    """TSE 2-decimal percentage with decimal comma, half up; never 100,00/0,00 unless exact."""
    if den == 0:
        return "0,00"
    v = (Decimal(num) * 100 / Decimal(den)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    if v == 100 and num != den:
        v = Decimal("99.99")
    if v == 0 and num != 0:
        v = Decimal("0.01")
    return f"{v:.2f}".replace(".", ",")


def pctn(num: int, den: int) -> str:
    """TSE 9-decimal percentage: "0" and "100" bare, else 9 decimals with a comma."""
    if den == 0 or num == 0:
        return "0"
    if num == den:
        return "100"
    v = (Decimal(num) * 100 / Decimal(den)).quantize(Decimal("0.000000001"), rounding=ROUND_HALF_UP)
    return f"{v:.9f}".replace(".", ",")


def _p(prefix: str, num: int, den: int) -> dict[str, str]:
    return {f"p{prefix}": pct2(num, den), f"p{prefix}n": pctn(num, den)}


def bloco_s(ts: int, st: int) -> dict[str, str]:
    """Sections block (all installed and counted once totalized)."""
    return {
        "ts": str(ts),
        "st": str(st),
        **_p("st", st, ts),
        "snt": str(ts - st),
        **_p("snt", ts - st, ts),
        "si": str(st),
        **_p("si", st, st),
        "sni": "0",
        **_p("sni", 0, st),
        "sa": str(st),
        **_p("sa", st, st),
        "sna": "0",
        **_p("sna", 0, st),
    }


def bloco_e(te: int, est: int, comparecimento: int) -> dict[str, str]:
    """Electorate block: te = est + esnt, est = esi, esi = c + a."""
    a = est - comparecimento
    return {
        "te": str(te),
        "est": str(est),
        **_p("est", est, te),
        "esnt": str(te - est),
        **_p("esnt", te - est, te),
        "esi": str(est),
        **_p("esi", est, est),
        "esni": "0",
        **_p("esni", 0, est),
        "esa": str(est),
        **_p("esa", est, est),
        "esna": "0",
        **_p("esna", 0, est),
        "c": str(comparecimento),
        **_p("c", comparecimento, est),
        "a": str(a),
        **_p("a", a, est),
    }


def _and(c: Contagem) -> str:
    if c.secoes_totalizadas == 0:
        return "n"
    return "f" if c.final else "p"


def conteudo_u(c: Contagem, idg: int) -> dict[str, Any]:
    """The EA20 object of one part (keys in TSE's order)."""
    g = c.gerado_em.astimezone(BRASILIA)
    local = _local(c.totalizado_em, c.uf)
    counted = c.secoes_totalizadas > 0
    ranked = sorted(c.candidatos, key=lambda x: (-x[3], x[0]))
    winner = ranked[0][0] if c.final and ranked else None
    agr = []
    for n, nome, partido, votos in sorted(c.candidatos):
        cand: dict[str, Any] = {
            "n": str(n),
            "sqcand": f"2800{n:08d}",
            "nm": nome,
            "nmu": nome,
            "dt": "",
        }
        if counted:  # zero-vote files carry no `dvt` (TSE-FORMAT.md §2.2)
            cand["dvt"] = "Válido"
        cand |= {
            "seq": str(1 + [x[0] for x in ranked].index(n)),
            "e": "s" if n == winner else "n",
            "st": ("Eleito" if n == winner else "Não eleito") if c.final else "",
            "vap": str(votos),
            "pvap": pct2(votos, c.vv),
            "pvapn": pctn(votos, c.vv),
            "vs": [],
        }
        par = {"n": str(n), "sg": partido, "nm": partido, "nfed": "", "tvtn": str(votos), "tvan": str(votos)}
        agr.append(
            {
                "n": f"2800{n:08d}",
                "nm": partido,
                "tp": "i",
                "com": partido,
                "vag": "0",
                "par": [par | {"cand": [cand]}],
            }
        )
    root: dict[str, Any] = {
        "ele": c.eleicao,
        "t": str(c.turno),
        "f": "s",
        "sup": "n",
        "tpabr": c.tpabr,
        "cdabr": c.cdabr,
        "dg": g.strftime("%d/%m/%Y"),
        "hg": g.strftime("%H:%M:%S"),
        "idg": str(idg),
        "dt": local.split(" ")[0] if local else "",
        "ht": local.split(" ")[1] if local else "",
        "dv": "s",
        "tf": "s" if c.final else "n",
        "and": _and(c),
    }
    if c.final:
        root |= {"esae": "n", "mnae": []}
    else:
        root["md"] = "n"
    nome_cargo = CARGOS.get(c.cargo, str(c.cargo))
    root["carg"] = [
        {"cd": str(c.cargo), "nmn": nome_cargo, "nmm": nome_cargo, "nmf": nome_cargo, "nv": "1", "agr": agr}
    ]
    tv, vv = c.tv, c.vv
    root["s"] = bloco_s(c.secoes, c.secoes_totalizadas)
    root["e"] = bloco_e(c.eleitorado, c.est, tv)
    root["v"] = {
        "tv": str(tv),
        "vvc": str(vv),
        **_p("vvc", vv, tv),
        "vv": str(vv),
        **_p("vv", vv, vv),
        "vnom": str(vv),
        **_p("vnom", vv, vv),
        "van": "0",
        **_p("van", 0, vv),
        "vansj": "0",
        **_p("vansj", 0, vv),
        "vb": str(c.vb),
        **_p("vb", c.vb, tv),
        "tvn": str(c.vn),
        **_p("tvn", c.vn, tv),
        "vn": str(c.vn),
        **_p("vn", c.vn, c.vn),
        "vnt": "0",
        **_p("vnt", 0, c.vn),
        "vsan": "0",
        "vscv": "0",
    }
    return root


def serializar(obj: Any) -> bytes:
    """TSE-like bytes: leading newline, `" : "` spacing, UTF-8, no trailing newline."""
    return ("\n" + json.dumps(obj, ensure_ascii=False, separators=(", ", " : "))).encode("utf-8")


def arquivo_u(c: Contagem, idg: int) -> bytes:
    """Bytes of the EA20 result file of `c`."""
    return serializar(conteudo_u(c, idg))


def nome_u(parte: str, cargo: int, eleicao: str) -> str:
    """TSE name of a result file: `sp-c0001-e000545-u.json`, `df97012-z0001-c0003-e006260-u.json`."""
    return f"{parte}-c{cargo:04d}-e{int(eleicao):06d}-u.json"


def nome_ab(abrangencia: str, eleicao: str) -> str:
    """TSE name of a coverage file: `br-e006258-ab.json`, `sp-e006260-ab.json`."""
    return f"{abrangencia}-e{int(eleicao):06d}-ab.json"


@dataclass(frozen=True)
class LinhaCobertura:
    """One row of a coverage file (EA14/EA15): a UF or a municipality at one capture."""

    tpabr: str  # "br", "uf", "mun"
    cdabr: str
    uf: str
    eleitorado: int
    eleitorado_totalizado: int
    comparecimento: int
    secoes: int
    secoes_totalizadas: int
    totalizado_em: dt.datetime | None
    municipios: tuple[int, int, int] | None = None  # (not received, partial, final) for UF/BR rows


def _linha_ab(r: LinhaCobertura) -> dict[str, Any]:
    local = _local(r.totalizado_em, r.uf)
    andamento = "n" if r.secoes_totalizadas == 0 else ("f" if r.secoes_totalizadas >= r.secoes else "p")
    out: dict[str, Any] = {
        "and": andamento,
        "tpabr": r.tpabr,
        "cdabr": r.cdabr,
        "dt": local.split(" ")[0] if local else "",
        "ht": local.split(" ")[1] if local else "",
    }
    if r.municipios is not None:
        nr, pt, f = r.municipios
        total = nr + pt + f
        keys = ("ufsnr", "ufspt", "ufsf") if r.tpabr == "br" else ("munnr", "munpt", "munf")
        for k, v in zip(keys, (nr, pt, f), strict=True):
            out[k] = str(v)
            out[f"p{k}"] = pct2(v, total)
            out[f"p{k}n"] = pctn(v, total)
    out["s"] = bloco_s(r.secoes, r.secoes_totalizadas)
    out["e"] = bloco_e(r.eleitorado, r.eleitorado_totalizado, r.comparecimento)
    return out


def arquivo_ab(
    eleicao: str, turno: int, gerado_em: dt.datetime, idg: int, linhas: list[LinhaCobertura]
) -> bytes:
    """Bytes of a coverage file (no cargo): `br-e<ele>-ab.json` or `<uf>-e<ele>-ab.json`."""
    g = gerado_em.astimezone(BRASILIA)
    root = {
        "ele": eleicao,
        "t": str(turno),
        "f": "s",
        "dg": g.strftime("%d/%m/%Y"),
        "hg": g.strftime("%H:%M:%S"),
        "idg": str(idg),
        "abr": [_linha_ab(r) for r in linhas],
    }
    return serializar(root)


def config_municipios(cm_2022: dict[str, Any], ufs: set[str], gerado_em: dt.datetime) -> bytes:
    """`mun-e<ele>-cm.json` listing only the municipalities of `ufs` (lower-case codes, as in 2026)."""
    g = gerado_em.astimezone(BRASILIA)
    abr = []
    for grp in sorted(cm_2022["abr"], key=lambda x: str(x["cd"])):
        uf = str(grp["cd"]).lower()
        if uf not in ufs:
            continue
        mus = [
            {
                "cd": str(m["cd"]),
                "cdi": str(m.get("cdi", "")),
                "nm": str(m["nm"]),
                "c": "s" if str(m["c"]).upper() == "S" else "n",
                "z": sorted(str(z) for z in m.get("z", [])),
            }
            for m in grp["mu"]
        ]
        abr.append({"cd": uf, "ds": str(grp["ds"]), "mu": mus})
    root = {"dg": g.strftime("%d/%m/%Y"), "hg": g.strftime("%H:%M:%S"), "idg": "1", "f": "s", "abr": abr}
    return serializar(root)


def catalogo(ciclo: str, eleicoes: list[tuple[str, int, int, list[str]]], gerado_em: dt.datetime) -> bytes:
    """`comum/config/ele-c.json`: one pleito with the given (code, round, cargo, UFs) elections."""
    g = gerado_em.astimezone(BRASILIA)
    es = []
    for cd, turno, cargo, ufs in eleicoes:
        tipo = "federal" if cargo == 1 else "estadual"
        es.append(
            {
                "cd": cd,
                "cdt2": "",
                "nm": f"Eleição simulada ({tipo}) - {turno}º turno",
                "t": str(turno),
                "tp": "8" if cargo == 1 else "1",
                "abr": [
                    {
                        "cd": "br" if cargo == 1 else uf,
                        "cp": [{"cd": str(cargo), "ds": CARGOS[cargo], "tp": "1"}],
                    }
                    for uf in (ufs if cargo != 1 else ["br"])
                ],
            }
        )
    root = {
        "dg": g.strftime("%d/%m/%Y"),
        "hg": g.strftime("%H:%M:%S"),
        "f": "s",
        "c": ciclo,
        "pl": [{"cd": "9999", "cdpr": "", "dt": g.strftime("%d/%m/%Y"), "dtlim": "", "e": es}],
    }
    return serializar(root)


def escrever_atomico(path: Path, data: bytes) -> None:
    """Write `data` to `path` through a temporary file and `os.replace`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_bytes(data)
    tmp.replace(path)

"""Synthetic runoff nights for the tests, the benchmark and the demo (DEMONSTRATION data).

Each part gets final totals (electorate, turnout, blank, null, votes of two FICTIONAL candidates
split by the 1st-round share of the model's baseline), and capture k shows a deterministic fraction
of them. Every TSE identity holds (`tv = vb+vn+vnt+van+vansj+vv`, `vvc = vv+van+vansj`, candidates
= `vv`, `st ≤ ts`, `est ≤ te`) and every total grows from one capture to the next, so the files pass
the model's checks unless a replay fault breaks them on purpose.

Like the real feed (docs/NOITE.md, "O que o TSE publica a cada ciclo"), every capture regenerates
every file: `dg/hg` are the capture's generation time and `idg` grows, while `dt/ht` stay at the
last moment the part's numbers changed (so they freeze when a part finishes, or while nothing new
arrives), and the counts stay as they were.
"""

from __future__ import annotations

import csv
import datetime as dt
import json
import math
import zlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jobs.tse.night import NightError, datasets_dir, write_capture, write_meta
from model.baselines import Baseline
from model.strata import UF_UTC_OFFSET
from model.tse_files import BRASILIA

# Fictional candidates of the demonstration content (content/candidatos/), on the finalists' numbers.
FICTIONAL_NAMES = ("HELENA PRADO", "RUI AMARAL")
TURNOUT = 0.79
VALID = 0.93
VOTERS_PER_SECTION = 350


@dataclass(frozen=True)
class Totais:
    """Final numbers of one part."""

    parte: str  # "sp", "ac01007", "df97012-z0001"
    eleitorado: int
    comparecimento: int
    brancos: int
    nulos: int
    votos: tuple[tuple[int, int], ...]  # (ballot number, votes)

    @property
    def secoes(self) -> int:
        """Sections of the part (about 350 voters each)."""
        return max(1, math.ceil(self.eleitorado / VOTERS_PER_SECTION))


def totals_from_baseline(base: Baseline, swing: float = 0.0) -> list[Totais]:
    """Final totals per part from a 1st-round baseline: the finalists keep their two-party share
    there, moved by `swing` (points of the first finalist)."""
    a, b = base.finalistas
    out = []
    for parte, bp in sorted(base.partes.items()):
        te = bp.eleitorado or 0
        if te <= 0:
            continue
        va, vb_ = bp.votos.get(a, 0), bp.votos.get(b, 0)
        share = va / (va + vb_) if va + vb_ else 0.5
        share = min(0.99, max(0.01, share + swing / 100))
        c = math.floor(te * TURNOUT)
        vv = math.floor(c * VALID)
        brancos = (c - vv) * 2 // 5
        votos_a = math.floor(vv * share)
        out.append(Totais(parte, te, c, brancos, c - vv - brancos, ((a, votos_a), (b, vv - votos_a))))
    return out


def totals_from_csv(path: Path, ufs: Iterable[str] | None = None) -> list[Totais]:
    """Final totals per municipality from `datasets/results/pres_2t_2022_mun.csv` (2022 runoff)."""
    filtro = {u.lower() for u in ufs} if ufs is not None else None
    linhas: dict[str, dict[str, Any]] = {}
    with path.open(encoding="utf-8") as fh:
        for r in csv.DictReader(fh):
            uf = r["uf"].lower()
            if filtro is not None and uf not in filtro:
                continue
            parte = uf + r["cd_tse"].zfill(5)
            d = linhas.setdefault(
                parte,
                {
                    "te": int(r["eleitorado_derivado"]),
                    "a": int(r["abstencoes"]),
                    "vb": int(r["brancos"]),
                    "vn": int(r["nulos"]),
                    "votos": {},
                },
            )
            d["votos"][int(r["nr"])] = int(r["votos"])
    out = []
    for parte, d in sorted(linhas.items()):
        votos = tuple(sorted(d["votos"].items()))
        c = d["vb"] + d["vn"] + sum(v for _, v in votos)
        te = max(d["te"], c)
        out.append(Totais(parte, te, c, d["vb"], d["vn"], votos))
    return out


def fraction(parte: str, nivel: float) -> float:
    """Counted fraction of a part when the night is at `nivel` (0..1): a fixed per-part offset of
    ±10 points, so parts arrive at different times, clamped to [0, 1]; grows with `nivel`."""
    offset = (zlib.crc32(parte.encode()) % 21 - 10) / 100
    return min(1.0, max(0.0, nivel + offset))


@dataclass(frozen=True)
class Numeros:
    """A part's numbers at one instant (or a sum of parts)."""

    ts: int
    st: int
    te: int
    est: int
    vb: int
    vn: int
    votos: tuple[tuple[int, int], ...]

    @property
    def vv(self) -> int:
        """Valid votes."""
        return sum(v for _, v in self.votos)


def numbers_at(t: Totais, f: float) -> Numeros:
    """The part's numbers with a fraction `f` of it counted (floors, so they only grow with f)."""
    return Numeros(
        ts=t.secoes,
        st=math.floor(t.secoes * f),
        te=t.eleitorado,
        est=math.floor(t.eleitorado * f),
        vb=math.floor(t.brancos * f),
        vn=math.floor(t.nulos * f),
        votos=tuple((n, math.floor(v * f)) for n, v in t.votos),
    )


def add(ns: Sequence[Numeros]) -> Numeros:
    """Sum of parts (the UF or national file)."""
    votos: dict[int, int] = {}
    for n in ns:
        for num, v in n.votos:
            votos[num] = votos.get(num, 0) + v
    return Numeros(
        ts=sum(n.ts for n in ns),
        st=sum(n.st for n in ns),
        te=sum(n.te for n in ns),
        est=sum(n.est for n in ns),
        vb=sum(n.vb for n in ns),
        vn=sum(n.vn for n in ns),
        votos=tuple(sorted(votos.items())),
    )


def _pct(x: int, total: int) -> str:
    return f"{100 * x / total:.2f}".replace(".", ",") if total else "0,00"


def result_file(
    tpabr: str,
    cdabr: str,
    n: Numeros,
    *,
    eleicao: str,
    turno: int,
    cargo: int,
    hora: dt.datetime,
    nomes: dict[int, str],
    uf: str,
    idg: int | None = None,
    totalizado: dt.datetime | None = None,
) -> bytes:
    """An EA20 `-u.json` (TSE-FORMAT.md §2) with the numbers `n`, generated at `hora` (`dg/hg`,
    and `idg` when given); `dt/ht` is `totalizado` (default `hora`): when the numbers last changed."""
    hg = hora.astimezone(BRASILIA)
    quando = totalizado if totalizado is not None else hora
    local = quando.astimezone(dt.timezone(dt.timedelta(hours=UF_UTC_OFFSET.get(uf, -3))))
    vv = n.vv
    ordem = sorted(n.votos, key=lambda nv: -nv[1])
    cand = [
        {
            "n": str(num),
            "nm": nomes.get(num, f"CANDIDATO {num}"),
            "nmu": nomes.get(num, f"CANDIDATO {num}"),
            "dvt": "Válido",
            "seq": str(i),
            "e": "n",
            "st": "",
            "vap": str(v),
            "pvap": _pct(v, vv),
        }
        for i, (num, v) in enumerate(ordem, 1)
    ]
    tv = n.vb + n.vn + vv
    root = {
        "ele": eleicao,
        "t": str(turno),
        "f": "s",  # simulado (TSE-FORMAT.md): generated files, never a real night
        "sup": "n",
        "tpabr": tpabr,
        "cdabr": cdabr,
        "dg": hg.strftime("%d/%m/%Y"),
        "hg": hg.strftime("%H:%M:%S"),
        **({"idg": str(idg)} if idg is not None else {}),
        "dt": local.strftime("%d/%m/%Y") if n.est else "",
        "ht": local.strftime("%H:%M:%S") if n.est else "",
        "dv": "s",
        "tf": "n",
        "and": "f" if n.st >= n.ts else ("p" if n.st else "n"),
        "md": "n",
        "carg": [{"cd": str(cargo), "agr": [{"par": [{"cand": [c]} for c in cand]}]}],
        "s": {"ts": str(n.ts), "st": str(n.st), "pst": _pct(n.st, n.ts), "snt": str(n.ts - n.st)},
        "e": {
            "te": str(n.te),
            "est": str(n.est),
            "pest": _pct(n.est, n.te),
            "esnt": str(n.te - n.est),
            # Turnout is the votes cast (tv = c, TSE-FORMAT.md), not a separate floor of the
            # part's turnout, which would miss the sum of the floored votes by a few dozen.
            "c": str(tv),
            "a": str(n.est - tv),
        },
        "v": {
            "tv": str(tv),
            "vvc": str(vv),
            "vv": str(vv),
            "vnom": str(vv),
            "van": "0",
            "vansj": "0",
            "vb": str(n.vb),
            "tvn": str(n.vn),
            "vn": str(n.vn),
            "vnt": "0",
        },
    }
    return ("\n" + json.dumps(root, ensure_ascii=False)).encode("utf-8")


@dataclass
class Geracao:
    """What the generator remembers across the captures of one night: every file's numbers and the
    moment they last changed (its `dt/ht`), and the TSE's generation counter `idg`."""

    idg: int = 1_000_000
    anteriores: dict[str, tuple[Numeros, dt.datetime]] = field(default_factory=dict)

    def gerar(self, nome: str, n: Numeros, hora: dt.datetime) -> tuple[int, dt.datetime]:
        """(`idg`, `dt/ht` instant) of `nome` regenerated at `hora` with the numbers `n`."""
        antes = self.anteriores.get(nome)
        totalizado = antes[1] if antes is not None and antes[0] == n else hora
        self.anteriores[nome] = (n, totalizado)
        self.idg += 1
        return self.idg, totalizado


def capture_files(
    partes: Sequence[Totais],
    nivel: float,
    hora: dt.datetime,
    *,
    eleicao: str,
    turno: int,
    cargo: int,
    agregado: str | None,
    nomes: dict[int, str],
    geracao: Geracao | None = None,
) -> dict[str, bytes]:
    """The files of one capture: one per part plus the aggregate (`br`, or the UF for a governor).

    Every file is regenerated at `hora` with the next `idg`, finished or not, as the TSE does; a
    file whose numbers did not change since the previous capture of `geracao` keeps its `dt/ht`
    (updated in place).
    """
    ele6 = f"{int(eleicao):06d}"
    out: dict[str, bytes] = {}
    numeros = []
    geracao = geracao if geracao is not None else Geracao()
    for t in partes:
        n = numbers_at(t, fraction(t.parte, nivel))
        numeros.append(n)
        nome = f"{t.parte}-c{cargo:04d}-e{ele6}-u.json"
        uf = t.parte[:2]
        if "-z" in t.parte:
            tpabr, cdabr = "zona", t.parte[-4:]
        elif len(t.parte) == 7:
            tpabr, cdabr = "mu", t.parte[2:]
        else:
            tpabr, cdabr = "uf", uf
        idg, totalizado = geracao.gerar(nome, n, hora)
        out[nome] = result_file(
            tpabr, cdabr, n, eleicao=eleicao, turno=turno, cargo=cargo, hora=hora, nomes=nomes, uf=uf,
            idg=idg, totalizado=totalizado,
        )  # fmt: skip
    if agregado is not None:
        tp = "br" if agregado == "br" else "uf"
        nome = f"{agregado}-c{cargo:04d}-e{ele6}-u.json"
        soma = add(numeros)
        idg, totalizado = geracao.gerar(nome, soma, hora)
        out[nome] = result_file(
            tp, agregado, soma, eleicao=eleicao, turno=turno, cargo=cargo, hora=hora, nomes=nomes,
            uf=agregado, idg=idg, totalizado=totalizado,
        )  # fmt: skip
    return out


def write_night(
    destino: Path,
    partes: Sequence[Totais],
    instantes: Sequence[tuple[dt.datetime, float]],
    *,
    eleicao: str,
    turno: int = 2,
    cargo: int = 1,
    agregado: str | None = "br",
    descricao: str = "Noite sintética de demonstração (candidatos fictícios).",
    atraso_s: float = 20.0,
) -> Path:
    """A night folder with one capture per (instant, counted level); files generated `atraso_s`
    before the capture, as the TSE's `hg` precedes the moment a poller reads it."""
    write_meta(destino, descricao)
    numeros = sorted({n for t in partes for n, _ in t.votos})
    nomes = {
        n: FICTIONAL_NAMES[i] if i < len(FICTIONAL_NAMES) else f"CANDIDATO {n}" for i, n in enumerate(numeros)
    }
    geracao = Geracao()
    for instante, nivel in instantes:
        hora = instante - dt.timedelta(seconds=atraso_s)
        arquivos = capture_files(
            partes, nivel, hora, eleicao=eleicao, turno=turno, cargo=cargo, agregado=agregado, nomes=nomes,
            geracao=geracao,
        )  # fmt: skip
        write_capture(destino, instante, arquivos)
    return destino


def schedule(
    inicio: dt.datetime, niveis: Sequence[float], passo_min: float = 10.0
) -> list[tuple[dt.datetime, float]]:
    """Captures every `passo_min` minutes from `inicio`, at the given counted levels."""
    return [(inicio + dt.timedelta(minutes=passo_min * i), nivel) for i, nivel in enumerate(niveis)]


def make_synthetic_night(
    destino: Path,
    inicio: dt.datetime,
    niveis: Sequence[float],
    passo_min: float = 10.0,
    governadores: Sequence[str] = (),
    presidente_por_municipio: bool = False,
) -> int:
    """A runoff night (president by UF, or by municipality with `presidente_por_municipio`, and
    governor by municipality for `governadores`) with fictional candidates, from the shipped
    1st-round baselines (the 2022 runoff by municipality for the municipal president); returns the
    number of captures."""
    from model.baselines import load_baselines

    bases = load_baselines()
    instantes = schedule(inicio, niveis, passo_min)
    base = bases.get("6258-presidente-br-uf")
    if base is None:
        raise NightError("base do 1º turno do presidente não encontrada em model/baselines/")
    if presidente_por_municipio:
        # The 5,570 municipalities of the 2022 runoff (fictional names), their UF files and `br`:
        # the poller's `nivel = "municipio"` for the president (docs/OPERACAO.md).
        csv_mun = datasets_dir() / "results" / "pres_2t_2022_mun.csv"
        if not csv_mun.is_file():
            raise NightError(f"arquivo municipal do 2º turno de 2022 não encontrado: {csv_mun}")
        write_president_municipal_night(destino, totals_from_csv(csv_mun), instantes)
    else:
        write_night(destino, totals_from_baseline(base), instantes, eleicao="6258", cargo=1, agregado="br")
    for uf in governadores:
        base = bases.get(f"6260-governador-{uf}-municipio")
        if base is None:
            raise NightError(f"sem base municipal do governador para {uf} em model/baselines/")
        write_night(destino, totals_from_baseline(base), instantes, eleicao="6260", cargo=3, agregado=uf)
    return len(instantes)


Nivel = float | Mapping[str, float]  # one counted level for the whole night, or one per UF


def write_president_municipal_night(
    destino: Path,
    partes: Sequence[Totais],
    instantes: Sequence[tuple[dt.datetime, Nivel]],
    *,
    eleicao: str = "6258",
    turno: int = 2,
    descricao: str = "Noite sintética do presidente por município (candidatos fictícios).",
    atraso_s: float = 20.0,
    fracao: Callable[[Totais, float], float] | None = None,
) -> Path:
    """A president night by municipality: every municipality's file, each UF's file (the sum of its
    municipalities) and `br`, one capture per (instant, level). A level may be given per UF (a UF
    missing from the mapping stays where it was). Only files whose numbers changed are written to
    a capture: the replay serves the others regenerated (fresh `dg/hg`, `idg`), as the TSE does.
    `fracao(totals, level)` is a part's counted fraction at a level (default `fraction`)."""
    write_meta(destino, descricao)
    numeros_cand = sorted({n for t in partes for n, _ in t.votos})
    nomes = {
        n: FICTIONAL_NAMES[i] if i < len(FICTIONAL_NAMES) else f"CANDIDATO {n}"
        for i, n in enumerate(numeros_cand)
    }
    geracao = Geracao()
    ele6 = f"{int(eleicao):06d}"
    niveis_uf: dict[str, float] = {}
    escritos: dict[str, Numeros] = {}
    for instante, nivel in instantes:
        hora = instante - dt.timedelta(seconds=atraso_s)
        if isinstance(nivel, Mapping):
            niveis_uf.update(nivel)
        por_uf: dict[str, list[Numeros]] = {}
        linhas: list[tuple[str, str, str, str, Numeros]] = []
        for t in partes:
            uf = t.parte[:2]
            nv = niveis_uf.get(uf, 0.0) if isinstance(nivel, Mapping) else nivel
            n = numbers_at(t, fracao(t, nv) if fracao is not None else fraction(t.parte, nv))
            por_uf.setdefault(uf, []).append(n)
            linhas.append((f"{t.parte}-c0001-e{ele6}-u.json", "mu", t.parte[2:], uf, n))
        for uf, ns in sorted(por_uf.items()):
            linhas.append((f"{uf}-c0001-e{ele6}-u.json", "uf", uf, uf, add(ns)))
        todos = [n for ns in por_uf.values() for n in ns]
        linhas.append((f"br-c0001-e{ele6}-u.json", "br", "br", "br", add(todos)))
        arquivos: dict[str, bytes] = {}
        for nome, tpabr, cdabr, uf, n in linhas:
            if escritos.get(nome) == n:
                continue  # unchanged: served regenerated by the replay
            escritos[nome] = n
            idg, totalizado = geracao.gerar(nome, n, hora)
            arquivos[nome] = result_file(
                tpabr, cdabr, n, eleicao=eleicao, turno=turno, cargo=1, hora=hora, nomes=nomes, uf=uf,
                idg=idg, totalizado=totalizado,
            )  # fmt: skip
        write_capture(destino, instante, arquivos)
    return destino

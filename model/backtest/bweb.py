"""Optional real arrival order: TSE "BU na Web" files (`bweb_<turno>_<UF>_<stamp>.zip` or the `.csv`).

When a user has them, `eleicoes backtest --bweb FILES` replays the real night section by section
instead of (besides) the simulated ones. Only these columns are read (Latin-1, `;`, quoted, one row
per section x cargo x votável; TSE-FORMAT.md §6):

    SG_UF, CD_MUNICIPIO, NR_ZONA, NR_SECAO, CD_CARGO_PERGUNTA, NR_VOTAVEL, QT_VOTOS,
    QT_APTOS, QT_COMPARECIMENTO, DT_BU_RECEBIDO

`DT_BU_RECEBIDO` (Brasília, `dd/mm/aaaa hh:mm:ss`) orders the sections; `NR_VOTAVEL` 95 = blank,
96 = null, 97 = annulled (counted as null); abstentions = QT_APTOS - QT_COMPARECIMENTO. Each
section becomes one batch of the night, so the replay machinery is the simulated one.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import zipfile
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from model.backtest.chegada import Lote
from model.backtest.dados import REGIAO_DA_UF, Disputa, Unidade
from model.backtest.simulador import Alocacao, Noite
from model.tse_files import BRASILIA

COLUNAS = (
    "SG_UF",
    "CD_MUNICIPIO",
    "NR_ZONA",
    "NR_SECAO",
    "CD_CARGO_PERGUNTA",
    "NR_VOTAVEL",
    "QT_VOTOS",
    "QT_APTOS",
    "QT_COMPARECIMENTO",
    "DT_BU_RECEBIDO",
)
BRANCO, NULO, ANULADO = 95, 96, 97


class BwebError(ValueError):
    """A bweb file that cannot be used (Portuguese message)."""


@dataclass
class _Secao:
    uf: str
    municipio: str
    recebido: dt.datetime
    aptos: int
    comparecimento: int
    votos: dict[int, int]


def _rows(path: Path) -> Iterator[dict[str, str]]:
    def read(fh: io.TextIOBase) -> Iterator[dict[str, str]]:
        reader = csv.DictReader(fh, delimiter=";", quotechar='"')
        missing = [c for c in COLUNAS if c not in (reader.fieldnames or [])]
        if missing:
            raise BwebError(f"{path.name}: colunas ausentes: {', '.join(missing)}")
        yield from reader

    if path.suffix.lower() == ".zip":
        with zipfile.ZipFile(path) as z:
            names = [n for n in z.namelist() if n.lower().endswith(".csv")]
            if not names:
                raise BwebError(f"{path.name}: nenhum .csv dentro do zip")
            for name in sorted(names):
                with z.open(name) as raw:
                    yield from read(io.TextIOWrapper(raw, encoding="latin-1", newline=""))
        return
    with path.open(encoding="latin-1", newline="") as fh:
        yield from read(fh)


def ler_secoes(arquivos: Iterable[Path], cargo: int = 1) -> list[_Secao]:
    """Every section of `cargo` in the files, with its receipt time and votes."""
    out: dict[tuple[str, str, str, str], _Secao] = {}
    for path in arquivos:
        try:
            for r in _rows(path):
                if int(r["CD_CARGO_PERGUNTA"]) != cargo:
                    continue
                key = (r["SG_UF"].lower(), r["CD_MUNICIPIO"].zfill(5), r["NR_ZONA"], r["NR_SECAO"])
                sec = out.get(key)
                if sec is None:
                    t = dt.datetime.strptime(r["DT_BU_RECEBIDO"].strip(), "%d/%m/%Y %H:%M:%S")
                    sec = _Secao(
                        key[0],
                        key[1],
                        t.replace(tzinfo=BRASILIA),
                        int(r["QT_APTOS"]),
                        int(r["QT_COMPARECIMENTO"]),
                        {},
                    )
                    out[key] = sec
                n = int(r["NR_VOTAVEL"])
                n = NULO if n == ANULADO else n
                sec.votos[n] = sec.votos.get(n, 0) + int(r["QT_VOTOS"])
        except (OSError, KeyError, ValueError, zipfile.BadZipFile) as exc:
            if isinstance(exc, BwebError):
                raise
            raise BwebError(f"{path.name}: arquivo bweb ilegível: {exc}") from exc
    if not out:
        raise BwebError("nenhuma seção do cargo nos arquivos bweb")
    return [out[k] for k in sorted(out)]


def noite_bweb(
    secoes: Sequence[_Secao], n_capturas: int, candidatos: Sequence[int] | None = None, eleicao: str = "545"
) -> tuple[Noite, Alocacao]:
    """A night whose batches are the real sections in receipt order, and the president's allocation."""
    cands = (
        tuple(sorted(candidatos))
        if candidatos
        else tuple(sorted({n for s in secoes for n in s.votos if n not in (BRANCO, NULO)}))
    )
    units: dict[str, int] = {}
    unidades: list[Unidade] = []
    for s in secoes:
        uid = f"{s.uf}{s.municipio}"
        if uid not in units:
            units[uid] = len(unidades)
            unidades.append(
                Unidade(uid, s.uf, s.municipio, "", uid, False, REGIAO_DA_UF.get(s.uf, "ZZ"), 0, 0)
            )
    fechamento = min(s.recebido for s in secoes).replace(hour=17, minute=0, second=0).astimezone(dt.UTC)
    order = sorted(range(len(secoes)), key=lambda i: (secoes[i].recebido, i))
    lotes, counts = [], []
    for i in order:
        s = secoes[i]
        minuto = (s.recebido - fechamento).total_seconds() / 60.0
        lotes.append(Lote(units[f"{s.uf}{s.municipio}"], 1, minuto))
        abst = s.aptos - s.comparecimento
        counts.append(
            (*(s.votos.get(n, 0) for n in cands), s.votos.get(BRANCO, 0), s.votos.get(NULO, 0), abst)
        )
    first, last = lotes[0].minuto, lotes[-1].minuto
    n = max(2, n_capturas)
    caps = tuple(first + (last - first) * k / (n - 1) for k in range(n))
    import bisect

    seen = tuple(min(bisect.bisect_left(caps, lo.minuto - 1e-9), n - 1) for lo in lotes)
    unidades = [
        Unidade(
            u.id,
            u.uf,
            u.municipio,
            u.zona,
            u.nome,
            u.capital,
            u.regiao,
            0,
            sum(1 for lo in lotes if lo.unidade == i),
        )
        for i, u in enumerate(unidades)
    ]
    noite = Noite(-1, tuple(unidades), tuple(lotes), caps, seen, fechamento)
    votos: dict[str, list[int]] = {}
    for lote, c in zip(lotes, counts, strict=True):
        uid = unidades[lote.unidade].id
        acc = votos.setdefault(uid, [0] * len(c))
        for j, v in enumerate(c):
            acc[j] += v
    disputa = Disputa(
        "presidente",
        1,
        eleicao,
        None,
        cands,
        {n: str(n) for n in cands},
        {k: tuple(v) for k, v in votos.items()},
    )
    return noite, Alocacao(disputa, tuple(counts))

"""A simulated night written as a night folder for the replay server (PINS.md, "TSE night folders").

    NIGHT_DIR/noite.json
    NIGHT_DIR/oficial/comum/config/ele-c.json
    NIGHT_DIR/oficial/ele2026/<ele>/config/mun-e<ele6>-cm.json     (elections with municipal parts)
    NIGHT_DIR/capturas/<YYYY-MM-DDTHH-MM-SSZ>/<TSE files> + captura.json

Each capture folder is also a snapshot folder `eleicoes projetar` reads. Every file still counting
is regenerated at every capture (new `dg/hg`); its `dt/ht` (last totalization) changes only when
its counts change, and so does its row in the coverage files (`-ab.json`), which is what a
coverage-first poller looks at. A final file (100 % of sections) is frozen: same bytes from then on.
The 2022 results can be relabelled with 2026 codes (`--eleicao-presidente 6258`); candidates keep
their 2022 numbers and names. "DF por zona" is the presidential race inside DF written as a
governor race by zone (DF had no governor runoff in 2022), as in the seed's simulations.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from model.backtest.arquivos import (
    Contagem,
    LinhaCobertura,
    arquivo_ab,
    arquivo_u,
    catalogo,
    config_municipios,
    escrever_atomico,
    nome_ab,
    nome_u,
)
from model.backtest.chegada import ParametrosChegada
from model.backtest.dados import Dados2022
from model.backtest.replay import CorridaSimulada, contagens, preparar
from model.backtest.simulador import Noite, alocar, series, simular_noite
from model.strata import ELECTIONS

# The 2026 runoff: polls close at 17:00 Brasília on 25/10/2026.
FECHAMENTO_2026 = dt.datetime(2026, 10, 25, 20, 0, tzinfo=dt.UTC)


@dataclass(frozen=True)
class ConfigNoite:
    """What to write."""

    semente: int = 0
    capturas: int = 60
    eleicao_presidente: str = "6258"
    eleicao_governador: str = "6260"
    governadores: tuple[str, ...] = ("am", "es")
    df_zonas: bool = True
    municipios_presidente: bool = False
    ciclo: str = "ele2026"


def _turno(eleicao: str) -> int:
    known = ELECTIONS.get(str(int(eleicao)))
    return known.turno if known else 2


def corridas_da_noite(
    dados: Dados2022, params: ParametrosChegada, cfg: ConfigNoite
) -> tuple[Noite, list[CorridaSimulada]]:
    """The night of `cfg.semente` and the races to write, relabelled with the configured codes."""
    fech = (
        FECHAMENTO_2026
        if cfg.eleicao_presidente.startswith("62")
        else dt.datetime(2022, 10, 30, 20, tzinfo=dt.UTC)
    )
    noite = simular_noite(dados, params, cfg.semente, cfg.capturas, fechamento=fech)
    pres = alocar(noite, dados.presidente, params.dispersao_intra)
    ep, eg = cfg.eleicao_presidente, cfg.eleicao_governador
    out = [
        preparar(
            noite,
            pres,
            chave="presidente",
            variante="uf",
            nivel="municipio" if cfg.municipios_presidente else "uf",
            cargo="presidente",
            eleicao=ep,
            turno=_turno(ep),
            uf=None,
            baselines={},
        )
    ]
    if cfg.municipios_presidente:
        out.append(
            preparar(
                noite,
                pres,
                chave="presidente",
                variante="uf",
                nivel="uf",
                cargo="presidente",
                eleicao=ep,
                turno=_turno(ep),
                uf=None,
                baselines={},
            )
        )
    for uf in cfg.governadores:
        race = dados.governadores.get(uf)
        if race is None:
            raise ValueError(f"sem 2º turno de governador em 2022 para {uf.upper()}")
        aloc = alocar(noite, race, params.dispersao_intra)
        units = [u.id for u in dados.unidades_da_uf(uf)]
        out.append(
            preparar(
                noite,
                aloc,
                chave=f"governador-{uf}",
                variante="governador_municipio",
                nivel="municipio",
                cargo="governador",
                eleicao=eg,
                turno=_turno(eg),
                uf=uf,
                baselines={},
                unidades=units,
            )
        )
    if cfg.df_zonas and any(u.zona for u in dados.unidades):
        zones = [u.id for u in dados.unidades_da_uf("df") if u.zona]
        out.append(
            preparar(
                noite,
                pres,
                chave="governador-df",
                variante="governador_zona",
                nivel="zona",
                cargo="governador",
                eleicao=eg,
                turno=_turno(eg),
                uf="df",
                baselines={},
                unidades=zones,
                partes=series(noite, pres, "zona", zones),
            )
        )
    return noite, out


def _stamp(t: dt.datetime) -> str:
    return t.astimezone(dt.UTC).strftime("%Y-%m-%dT%H-%M-%SZ")


def _linha(
    tp: str, cd: str, uf: str, ks: Sequence[Contagem], muns: tuple[int, int, int] | None
) -> LinhaCobertura:
    times = [k.totalizado_em for k in ks if k.totalizado_em is not None]
    return LinhaCobertura(
        tpabr=tp,
        cdabr=cd,
        uf=uf,
        eleitorado=sum(k.eleitorado for k in ks),
        eleitorado_totalizado=sum(k.est for k in ks),
        comparecimento=sum(k.tv for k in ks),
        secoes=sum(k.secoes for k in ks),
        secoes_totalizadas=sum(k.secoes_totalizadas for k in ks),
        totalizado_em=max(times) if times else None,
        municipios=muns,
    )


def _tally(ks: Sequence[Contagem]) -> tuple[int, int, int]:
    nr = sum(1 for k in ks if k.secoes_totalizadas == 0)
    f = sum(1 for k in ks if k.final)
    return nr, len(ks) - nr - f, f


def coberturas(
    por_eleicao: dict[tuple[str, int], dict[str, list[Contagem]]], gerado_em: dt.datetime, idg: int
) -> dict[str, bytes]:
    """EA15 `<uf>-e<ele>-ab.json` (UF row + one row per municipality/zone) and EA14 `br-e<ele>-ab.json`
    (BR row + one row per UF) for every election with municipal or zone parts."""
    out: dict[str, bytes] = {}
    for (ele, turno), by_uf in sorted(por_eleicao.items()):
        uf_rows = []
        for uf, ks in sorted(by_uf.items()):
            muns = _tally(ks)
            rows = [_linha("uf", uf, uf, ks, muns)]
            rows += [_linha("mun", k.cdabr, uf, [k], None) for k in sorted(ks, key=lambda k: k.cdabr)]
            out[nome_ab(uf, ele)] = arquivo_ab(ele, turno, gerado_em, idg, rows)
            uf_rows.append(rows[0])
        everything = [k for ks in by_uf.values() for k in ks]
        ufs_tally = (
            sum(1 for r in uf_rows if r.secoes_totalizadas == 0),
            sum(1 for r in uf_rows if 0 < r.secoes_totalizadas < r.secoes),
            sum(1 for r in uf_rows if r.secoes_totalizadas >= r.secoes),
        )
        br = _linha("br", "br", "br", everything, ufs_tally)
        out[nome_ab("br", ele)] = arquivo_ab(ele, turno, gerado_em, idg, [br, *uf_rows])
    return out


def escrever_noite(
    pasta: Path,
    dados: Dados2022,
    params: ParametrosChegada,
    cfg: ConfigNoite,
    progresso: Callable[[int, int], None] | None = None,
) -> list[Path]:
    """Write the night folder; returns the capture folders in order."""
    noite, corridas = corridas_da_noite(dados, params, cfg)
    t0 = noite.instante(0)
    escrever_atomico(
        pasta / "noite.json",
        (
            json.dumps(
                {
                    "ciclo": cfg.ciclo,
                    "ambiente": "oficial",
                    "descricao": f"Noite SIMULADA (semente {cfg.semente}) a partir dos resultados "
                    "finais do 2º turno de 2022 por município; ordem de chegada modelada "
                    "(model/backtest), não a real. Não é apuração real.",
                },
                ensure_ascii=False,
                indent=1,
            )
            + "\n"
        ).encode("utf-8"),
    )
    eleicoes = [(cfg.eleicao_presidente, _turno(cfg.eleicao_presidente), 1, ["br"])]
    if cfg.governadores or cfg.df_zonas:
        ufs = sorted({*cfg.governadores, *(["df"] if cfg.df_zonas else [])})
        eleicoes.append((cfg.eleicao_governador, _turno(cfg.eleicao_governador), 3, ufs))
    escrever_atomico(pasta / "oficial/comum/config/ele-c.json", catalogo(cfg.ciclo, eleicoes, t0))
    mun_ufs: dict[str, set[str]] = {}
    for c in corridas:
        if any(len(p) > 2 for p in c.partes):
            mun_ufs.setdefault(c.eleicao, set()).update(p[:2] for p in c.partes if len(p) > 2)
    for ele, ufs_e in mun_ufs.items():
        path = pasta / f"oficial/{cfg.ciclo}/{ele}/config/mun-e{int(ele):06d}-cm.json"
        escrever_atomico(path, config_municipios(dados.config_municipios, ufs_e, t0))
    frozen: dict[str, bytes] = {}
    folders = []
    n = len(noite.capturas)
    for k in range(n):
        t = noite.instante(k)
        folder = pasta / "capturas" / _stamp(t)
        files: dict[str, bytes] = {}
        por_eleicao: dict[tuple[str, int], dict[str, list[Contagem]]] = {}
        for c in corridas:
            conts = contagens(c, noite, k)
            code = 1 if c.cargo == "presidente" else 3
            for parte, cont in conts.items():
                if len(parte) > 2 and parte != c.agregado_id:
                    por_eleicao.setdefault((c.eleicao, c.turno), {}).setdefault(parte[:2], []).append(cont)
                name = nome_u(parte, code, c.eleicao)
                if name in frozen:
                    files[name] = frozen[name]
                    continue
                raw = arquivo_u(cont, 1_000_000 + k)
                files[name] = raw
                if cont.final:
                    frozen[name] = raw
        files.update(coberturas(por_eleicao, t, 1_000_000 + k))
        baixado = (t + dt.timedelta(seconds=20)).isoformat().replace("+00:00", "Z")
        captura = {
            "arquivos": {
                name: {"baixado_em": baixado, "status": 200, "etag": hashlib.md5(raw).hexdigest()}  # noqa: S324
                for name, raw in sorted(files.items())
            }
        }
        for name, raw in files.items():
            escrever_atomico(folder / name, raw)
        escrever_atomico(folder / "captura.json", (json.dumps(captura, indent=1) + "\n").encode("utf-8"))
        folders.append(folder)
        if progresso:
            progresso(k + 1, n)
    return folders

"""Benchmark: the president by municipality polled live at a TSE-safe rate (issue 25, item 2).

A whole synthetic runoff night for the president by municipality (the 5,570 municipalities of
`datasets/results/pres_2t_2022_mun.csv`, 2022 runoff totals on fictional candidates, plus the 27
UF files, `br` and the 27 UF coverage files the replay generates from the municipal files, as the
TSE does) served by the replay server in its own process, stepping on its own clock; the real
poller (`run_cycle`) at the default `[tse]` settings (20 requests/s, bucket 20, 8 connections,
240 s cycle deadline, a cycle every 30 s or right after a longer one), with the municipal agenda
(`jobs/tse/agenda_municipal.py`). Per cycle it prints and records: requests, bytes read (decoded;
coverage files apart), cycle time, the agenda's choices, and the share of counting municipal files
that are current by the rule of docs/NOITE.md ("President by municipality, live"): fetched with an
`hg` at most 5 minutes old, or confirmed by a coverage file at most 5 minutes old.

Two profiles (`--perfil`):

* `comprimido` — the worst case: the count from 5 % to 100 % in `--capturas` captures `--passo-s`
  seconds apart (default 10 × 60 s), a municipality finishing at a level between 0.3 and 1.0
  ranked by its electorate: every counting file changes at every capture.
* `realista` — a night of `--minutos-noite` (default 180) minutes of the REAL 2022 runoff arrival
  curve by region (`datasets/timeseries/regioes/apuracao_por_minuto_regiao.csv`, sections counted
  per minute after 17:00), sampled in `--capturas` captures `--passo-s` seconds apart; inside each
  region a municipality finishes when its region reaches a share between 0.3 (the smallest
  electorate) and 1.0 (the largest), ranked by electorate, as the 2022 results imply (small ones
  first). A municipality's file changes only when its sections totalized do (whole sections), so
  each moves on its own schedule. The night's clock runs `minutos-noite × 60 / (capturas ×
  passo-s)` times faster than the poller's: the change per cycle is that many times a real one's.

Every time constant of the poller and of the seed (5 minutes, the cycle deadline, the rate) is real.

Run from the repo root: `python benchmarks/municipal_bench.py [--perfil P] [--capturas N] [--passo-s S]`.
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.report import write_section  # noqa: E402
from jobs.tse.agenda_municipal import SEGUNDOS_POR_CICLO, budget  # noqa: E402
from jobs.tse.config import TSE_MAX_PER_SECOND, ConfigTse, Corrida  # noqa: E402
from jobs.tse.cycle import PollState, RaceResult, run_cycle  # noqa: E402
from jobs.tse.synthetic import Totais, totals_from_csv, write_president_municipal_night  # noqa: E402
from model.calibration import load_calibration  # noqa: E402
from model.cobertura import Cobertura, confirmation, parse_coverage_file  # noqa: E402

DATASETS = ROOT.parent / "shared" / "datasets"
MUN_CSV = DATASETS / "results" / "pres_2t_2022_mun.csv"
CURVA_CSV = DATASETS / "timeseries" / "regioes" / "apuracao_por_minuto_regiao.csv"
REGIAO = {
    **dict.fromkeys(("ac", "am", "ap", "pa", "ro", "rr", "to"), "Norte"),
    **dict.fromkeys(("al", "ba", "ce", "ma", "pb", "pe", "pi", "rn", "se"), "Nordeste"),
    **dict.fromkeys(("df", "go", "ms", "mt"), "Centro-Oeste"),
    **dict.fromkeys(("es", "mg", "rj", "sp"), "Sudeste"),
    **dict.fromkeys(("pr", "rs", "sc"), "Sul"),
    "zz": "Exterior",
}
CORRIDA = Corrida("presidente", "6258", "br", "municipio")
LIMITE = dt.timedelta(minutes=5)
RATELIMIT_HEADER = 2000  # `x-ratelimit-limit` of the TSE's answers (TSE-FORMAT.md §1.4); window unknown
MUNICIPAL = re.compile(r"^[a-z]{2}\d{5}-c0001-e006258-u\.json$")


def finishing_levels(partes: list[Totais]) -> dict[str, float]:
    """The night level at which each municipality finishes: 0.3 for the smallest electorate, 1.0
    for the largest, linear in its rank (big cities last, as on a real night)."""
    ordem = sorted(partes, key=lambda t: (t.eleitorado, t.parte))
    n = max(1, len(ordem) - 1)
    return {t.parte: 0.3 + 0.7 * i / n for i, t in enumerate(ordem)}


def arrival_curves(eleicao: str = "2022_2t") -> dict[str, list[tuple[float, float]]]:
    """{region: [(minutes after 17:00, share of its sections counted 0..1)]} of the real curve."""
    out: dict[str, list[tuple[float, float]]] = {}
    with CURVA_CSV.open(encoding="utf-8") as fh:
        for r in csv.DictReader(fh):
            if r["eleicao"] == eleicao:
                out.setdefault(r["regiao"], []).append(
                    (float(r["t_min_desde_17h"]), float(r["pct_secoes"]) / 100)
                )
    return {k: sorted(v) for k, v in out.items()}


def level_at(curva: list[tuple[float, float]], t: float) -> float:
    """The curve's share at minute t (the last point at or before t: it steps when a BU arrives)."""
    nivel = 0.0
    for minuto, pct in curva:
        if minuto > t:
            break
        nivel = pct
    return nivel


def make_realistic_night(
    dest: Path, capturas: int, passo_s: float, inicio: dt.datetime, minutos: float, desde_min: float = 0.0
) -> int:
    """The `realista` profile's night folder; returns the number of municipalities."""
    partes = totals_from_csv(MUN_CSV)
    curvas = arrival_curves()
    fim: dict[str, float] = {}
    for regiao in set(REGIAO.values()):
        grupo = sorted(
            (t for t in partes if REGIAO[t.parte[:2]] == regiao), key=lambda t: (t.eleitorado, t.parte)
        )
        n = max(1, len(grupo) - 1)
        fim.update({t.parte: 0.3 + 0.7 * i / n for i, t in enumerate(grupo)})
    instantes: list[tuple[dt.datetime, dict[str, float]]] = []
    for k in range(capturas):
        t_noite = desde_min + minutos * (k + 1) / capturas
        niveis = {uf: level_at(curvas[regiao], t_noite) for uf, regiao in REGIAO.items()}
        instantes.append((inicio + dt.timedelta(seconds=passo_s * k), niveis))
    write_president_municipal_night(
        dest,
        partes,
        instantes,
        descricao="benchmark: presidente por município, curva real de 2022 (candidatos fictícios)",
        fracao=lambda t, nv: min(1.0, nv / fim[t.parte]),
    )
    return len(partes)


def make_night(dest: Path, capturas: int, passo_s: float, inicio: dt.datetime) -> int:
    """The night folder; returns the number of municipalities."""
    partes = totals_from_csv(MUN_CSV)
    fim = finishing_levels(partes)
    niveis = [0.05 + 0.95 * k / max(1, capturas - 1) for k in range(capturas)]
    instantes = [(inicio + dt.timedelta(seconds=passo_s * k), nv) for k, nv in enumerate(niveis)]
    write_president_municipal_night(
        dest,
        partes,
        instantes,
        descricao="benchmark: presidente por município, contagem comprimida (candidatos fictícios)",
        fracao=lambda t, nv: min(1.0, nv / fim[t.parte]),
    )
    return len(partes)


class Servidor:
    """`eleicoes tse servidor` in its own process, stepping every `passo_s` on its own clock."""

    def __init__(self, night: Path, passo_s: float) -> None:
        self.proc = subprocess.Popen(
            [
                sys.executable, "-m", "eleicoes", "tse", "servidor", "--replay", str(night),
                "--porta", "0", "--intervalo", str(passo_s),
            ],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            text=True,
        )  # fmt: skip
        assert self.proc.stdout is not None
        for _ in range(10):
            m = re.search(r"servindo em (http://127\.0\.0\.1:\d+)", self.proc.stdout.readline())
            if m:
                self.url_base = m.group(1)
                return
        raise RuntimeError("servidor de reprodução não iniciou")

    def parar(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=10)


def freshness(state: PollState, agora: dt.datetime) -> tuple[float, float, int, int]:
    """(% of municipal files held with `hg` under 5 min, % of those still counting that are current
    by the rule of docs/NOITE.md — `hg` under 5 min, or confirmed by a coverage file under 5 min —,
    how many are still counting, how many of those only a coverage file keeps current) at `agora`."""
    rs = next(iter(state.corridas.values()))
    coberturas: dict[str, Cobertura | None] = {}
    for nome, cob in rs.cobertura.items():
        try:
            coberturas[nome] = parse_coverage_file(cob.corpo, nome[:2])
        except ValueError:
            coberturas[nome] = None
    lidos = [le for n, le in rs.leituras.items() if MUNICIPAL.match(n) and le.corpo is not None]
    total = len(lidos) or 1
    frescos = sum(1 for le in lidos if le.gerado_em is not None and agora - le.gerado_em <= LIMITE)
    contando = [le for le in lidos if le.em_apuracao]
    atuais = so_cobertura = 0
    for le in contando:
        if le.gerado_em is not None and agora - le.gerado_em <= LIMITE:
            atuais += 1
            continue
        base = le.entrada.get("cobertura")
        if not isinstance(base, dict) or le.corpo is None:
            continue
        fatos = _counts(le.nome, le.corpo)
        quando = confirmation(
            coberturas.get(str(base.get("arquivo"))), le.nome[:7], base.get("carimbo"), *fatos
        )
        if quando is not None and agora - quando <= LIMITE:
            atuais += 1
            so_cobertura += 1
    return 100 * frescos / total, 100 * atuais / (len(contando) or 1), len(contando), so_cobertura


def _counts(nome: str, corpo: bytes) -> tuple[int, int]:
    from model.tse_files import parse_result

    r = parse_result(corpo, "u")[0]
    return r.secoes_totalizadas, r.eleitorado_totalizado


class Contador:
    """Bytes of the bodies the poller read (decoded), coverage files apart: wraps `get_many`."""

    def __init__(self, state: PollState) -> None:
        self.bytes = 0
        self.cobertura = 0
        original = state.cliente.get_many

        def contar(pedidos: Any) -> Any:
            respostas = original(pedidos)
            for p, r in zip(pedidos, respostas, strict=True):
                n = len(r.corpo) if r.corpo is not None else 0
                self.bytes += n
                if p.url.endswith("-ab.json"):
                    self.cobertura += n
            return respostas

        state.cliente.get_many = contar  # type: ignore[method-assign]


def run(night: Path, capturas: int, passo_s: float, taxa: float, rajada: int) -> list[dict[str, Any]]:
    """Poll the whole night once at `taxa` requests/s; one row per cycle."""
    with tempfile.TemporaryDirectory() as tmp:
        server = Servidor(night, passo_s)
        dados = Path(tmp) / "data"
        cfg = ConfigTse(
            url_base=server.url_base,
            corridas=(CORRIDA,),
            relogio="servidor",
            git=False,
            pasta_dados=dados,
            repositorio_git=dados,
            calibracao_sha256=load_calibration().sha256,
            raiz=Path(tmp),
            requisicoes_por_segundo=taxa,
            rajada=rajada,
        )
        state = PollState.criar(cfg)
        contador = Contador(state)
        linhas: list[dict[str, Any]] = []
        partida = time.monotonic()
        fim_noite = partida + passo_s * (capturas - 1)
        try:
            while True:
                comeco = time.monotonic()
                antes_b, antes_c = contador.bytes, contador.cobertura
                res = run_cycle(cfg, state)
                duracao = time.monotonic() - comeco
                r: RaceResult = res.corridas[0]
                agora = state.cliente.relogio_servidor.estimativa() or dt.datetime.now(dt.UTC)
                frescos, frescos_c, contando, so_cob = freshness(state, agora)
                linha: dict[str, Any] = {
                    "ciclo": len(linhas) + 1,
                    "inicio_s": comeco - partida,
                    "pedidos": r.pedidos,
                    "duracao_s": duracao,
                    "agenda": r.agenda,
                    "frescos": frescos,
                    "frescos_contando": frescos_c,
                    "contando": contando,
                    "so_cobertura": so_cob,
                    "bytes": contador.bytes - antes_b,
                    "bytes_cobertura": contador.cobertura - antes_c,
                    "publicavel": r.publicavel,
                    "nao_atendidos": r.nao_atendidos,
                    "apurado": r.apurado_pct,
                }
                linhas.append(linha)
                print(
                    f"ciclo {linha['ciclo']}: {r.pedidos} pedidos em {duracao:.1f} s, "
                    f"{linha['bytes'] / 1e6:.1f} MB ({linha['bytes_cobertura'] / 1e6:.1f} MB de cobertura); "
                    f"{frescos:.1f} % dos arquivos municipais com menos de 5 min; {frescos_c:.1f} % dos "
                    f"{contando} ainda em apuração atuais ({so_cob} pela cobertura); {r.linha()}",
                    flush=True,
                )
                if time.monotonic() > fim_noite + 2 * passo_s:
                    break  # two steps after the last capture: the last cycles show the finished night
                time.sleep(max(0.0, cfg.intervalo_s - (time.monotonic() - comeco)))
        finally:
            state.fechar()
            server.parar()
    return linhas


def table(linhas: list[dict[str, Any]]) -> str:
    """One run's per-cycle table and its summary line."""
    rows = [
        "| cycle | starts at (s) | requests | MB read (coverage) | cycle time | agenda: never read / "
        "failed / to refresh / moved | left for later | confirmed, not asked | counting files current "
        "(by coverage) | counted | publishable |",
        "|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---|",
    ]
    for x in linhas:
        ag = x["agenda"]
        regras = " / ".join(str(v) for v in ag.por_regra) if ag is not None else "—"
        pub = "yes" if x["publicavel"] else "no (" + ", ".join(x["nao_atendidos"]) + ")"
        apurado = "—" if x["apurado"] is None else f"{x['apurado']:.1f} %"
        rows.append(
            f"| {x['ciclo']} | {x['inicio_s']:.0f} | {x['pedidos']} | {x['bytes'] / 1e6:.1f} "
            f"({x['bytes_cobertura'] / 1e6:.1f}) | {x['duracao_s']:.1f} s | {regras} | "
            f"{ag.adiados if ag is not None else '—'} | {ag.confirmados if ag is not None else '—'} | "
            f"{x['frescos_contando']:.1f} % of {x['contando']} ({x['so_cobertura']}) | {apurado} | {pub} |"
        )
    return "\n".join(rows) + "\n\n" + summary(linhas) + "\n\n"


def _median(xs: list[float]) -> float:
    return sorted(xs)[len(xs) // 2]


def summary(linhas: list[dict[str, Any]]) -> str:
    """Requests, bytes and time per cycle (max, median), and the cycles publishable."""
    pedidos = [float(x["pedidos"]) for x in linhas]
    duracoes = [x["duracao_s"] for x in linhas]
    mb = [x["bytes"] / 1e6 for x in linhas]
    n_pub = sum(1 for x in linhas if x["publicavel"])
    primeiro = next((x["ciclo"] for x in linhas if x["publicavel"]), None)
    return (
        f"Requests per cycle: max {max(pedidos):.0f}, median {_median(pedidos):.0f}; MB read per cycle: max "
        f"{max(mb):.1f}, median {_median(mb):.1f}; cycle time: max {max(duracoes):.1f} s, median "
        f"{_median(duracoes):.1f} s; publishable in {n_pub} of {len(linhas)} cycles"
        + (f" (first at cycle {primeiro})" if primeiro is not None else "")
        + "."
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--perfil", choices=("comprimido", "realista", "ambos"), default="ambos")
    parser.add_argument("--capturas", type=int, default=10, help="capturas do perfil comprimido")
    parser.add_argument("--capturas-realista", type=int, default=36, help="capturas do perfil realista")
    parser.add_argument("--minutos-noite", type=float, default=180.0, help="minutos da curva real (realista)")
    parser.add_argument(
        "--inicio-min", type=float, default=0.0, help="minuto da curva real na 1ª captura (realista)"
    )
    parser.add_argument("--passo-s", type=float, default=60.0, help="segundos entre capturas")
    parser.add_argument(
        "--taxas", default="20", help="requisições/s de cada rodada, separadas por vírgula (rajada = taxa)"
    )
    args = parser.parse_args(argv)
    taxas = [float(x) for x in args.taxas.split(",") if x.strip()]
    for taxa in taxas:
        if 2 * taxa > TSE_MAX_PER_SECOND:
            parser.error(
                f"taxa {taxa:g} + rajada {taxa:g} passa de {TSE_MAX_PER_SECOND}/s: não é segura no TSE"
            )
    cfg = ConfigTse()
    perfis = ("realista", "comprimido") if args.perfil == "ambos" else (args.perfil,)
    body = ""
    t0 = time.perf_counter()
    inicio = dt.datetime(2026, 10, 25, 20, 0, tzinfo=dt.UTC)
    n_mun = 0
    for perfil in perfis:
        pasta = tempfile.TemporaryDirectory()
        night = Path(pasta.name) / "noite"
        if perfil == "realista":
            capturas = args.capturas_realista
            n_mun = make_realistic_night(
                night, capturas, args.passo_s, inicio, args.minutos_noite, args.inicio_min
            )
            fator = args.minutos_noite * 60 / (capturas * args.passo_s)
            titulo = (
                f"**Realistic night** — the real 2022 runoff arrival curve by region, from "
                f"{args.inicio_min:g} to {args.inicio_min + args.minutos_noite:g} minutes after 17:00 (to "
                f"{level_at(arrival_curves()['Brasil'], args.inicio_min + args.minutos_noite):.1%} of "
                f"the sections; the poller starts with nothing read) in {capturas} captures "
                f"{args.passo_s:g} s apart: the night's clock runs "
                f"{fator:.1f}× the poller's, so each cycle sees {fator:.1f}× a real cycle's change; small "
                "municipalities finish first within each region"
            )
        else:
            capturas = args.capturas
            n_mun = make_night(night, capturas, args.passo_s, inicio)
            titulo = (
                f"**Compressed worst case** — 5 % to 100 % in {capturas} captures {args.passo_s:g} s apart: "
                "every counting file changes at every capture"
            )
        print(f"noite {perfil}: {n_mun} municípios, {capturas} capturas ({time.perf_counter() - t0:.0f} s)")
        for taxa in taxas:
            linhas = run(night, capturas, args.passo_s, taxa, int(taxa))
            teto = budget(taxa, cfg.prazo_ciclo_s, int(taxa), 0)
            body += (
                f"{titulo}; **{taxa:g} requests/s, bucket {int(taxa)}** ({60 * taxa:,.0f} per minute, "
                + ("under" if 60 * taxa <= RATELIMIT_HEADER else "over")
                + f" the {RATELIMIT_HEADER:,} of the TSE's `x-ratelimit-limit` if its window is a minute); "
                f"the agenda caps a cycle's municipal requests at {teto:,} minus those already sent:\n\n"
                + table(linhas)
            )
            print(summary(linhas), flush=True)
        pasta.cleanup()
    total_s = time.perf_counter() - t0
    varredura = n_mun + 28  # every municipal file, the 27 UF files and br
    body += (
        f"{n_mun:,} municipalities + 27 UF files + `br` + 27 coverage files (`<uf>-e006258-ab.json`, "
        "generated by the replay from the municipal files and regenerated at every capture, as the TSE "
        f"does); the other `[tse]` settings default ({cfg.conexoes} connections, `prazo_ciclo_s` "
        f"{cfg.prazo_ciclo_s:g}, `SEGUNDOS_POR_CICLO` = {SEGUNDOS_POR_CICLO:g}, a cycle every "
        f"{cfg.intervalo_s:g} s or right after a longer one); the replay server in its own process on its "
        f"own clock. A full sweep would be {varredura:,} requests "
        f"({varredura / cfg.requisicoes_por_segundo:.0f} s at the default "
        f"{cfg.requisicoes_por_segundo:g}/s). "
        '"Counting files current" = municipal files still counting whose `hg` is at most 5 minutes before '
        "the server's clock at the end of the cycle, or whose coverage row, in a coverage file at most "
        "5 minutes old, still shows the stamp and counts seen when the file was fetched (in parentheses: "
        "how many only the coverage keeps current); finished files are final, exempt and never asked "
        "again. MB read = decoded bodies (the replay gzips; the coverage files generated here carry only "
        "the fields the job reads, so a real one is larger: the real SP file is ~537 KB). Cycle time "
        f"includes the model and the snapshot (every new raw file written). Whole run {total_s / 60:.1f} "
        f"min; 1-minute load average of the shared machine at the end: {os.getloadavg()[0]:.1f} (2 cores "
        "shared with other jobs: the processing part of each cycle is slower than on an idle machine).\n"
    )
    print(body)
    janela = args.perfil == "realista" and args.inicio_min > 0
    write_section(
        "President by municipality, live: a window of the night"
        if janela
        else "President by municipality, live (municipal agenda)",
        f"python benchmarks/municipal_bench.py --perfil {args.perfil} --capturas {args.capturas} "
        f"--capturas-realista {args.capturas_realista} --minutos-noite {args.minutos_noite:g} "
        + (f"--inicio-min {args.inicio_min:g} " if janela else "")
        + f"--passo-s {args.passo_s:g} --taxas {args.taxas}",
        body,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

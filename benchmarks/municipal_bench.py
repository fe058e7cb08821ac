"""Benchmark: the president by municipality polled live at a TSE-safe rate (issue 25, item 2).

A whole synthetic runoff night for the president by municipality (the 5,570 municipalities of
`datasets/results/pres_2t_2022_mun.csv`, 2022 runoff totals on fictional candidates, plus the 27
UF files and `br`) served by the replay server in its own process, stepping on its own clock; the
real poller (`run_cycle`) at the default `[tse]` settings (20 requests/s, bucket 20, 8 connections,
240 s cycle deadline, a cycle every 30 s or right after a longer one), with the municipal agenda
(`jobs/tse/agenda_municipal.py`). Per cycle it prints and records: requests, cycle time, the
agenda's choices, and the share of municipal files held whose `hg` is under 5 minutes old at the
end of the cycle (all of them, and those still counting: the ones the seed's time rows apply to).

What is compressed: the count. A real night takes about 3 hours to reach 98 %; here it runs from
5 % to 100 % in `--capturas` captures `--passo-s` seconds apart (default 10 × 60 s), with small
municipalities finishing first (a part finishes at a level between 0.3 and 1.0 ranked by its
electorate) as in a real night. Every time constant of the poller and of the seed (5 minutes, the
cycle deadline, the rate) is real: a compressed count only makes every counting file change at
every capture, the worst case for the agenda.

Run from the repo root: `python benchmarks/municipal_bench.py [--capturas N] [--passo-s S]`.
"""

from __future__ import annotations

import argparse
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

DATASETS = ROOT.parent / "shared" / "datasets"
MUN_CSV = DATASETS / "results" / "pres_2t_2022_mun.csv"
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


def freshness(state: PollState, agora: dt.datetime) -> tuple[float, float, int]:
    """(% of municipal files held with `hg` under 5 min, the same among those still counting,
    how many are still counting) at `agora`."""
    rs = next(iter(state.corridas.values()))
    lidos = [le for n, le in rs.leituras.items() if MUNICIPAL.match(n) and le.corpo is not None]
    total = len(lidos) or 1
    frescos = sum(1 for le in lidos if le.gerado_em is not None and agora - le.gerado_em <= LIMITE)
    contando = [le for le in lidos if le.em_apuracao]
    frescos_c = sum(1 for le in contando if le.gerado_em is not None and agora - le.gerado_em <= LIMITE)
    return 100 * frescos / total, 100 * frescos_c / (len(contando) or 1), len(contando)


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
        linhas: list[dict[str, Any]] = []
        partida = time.monotonic()
        fim_noite = partida + passo_s * (capturas - 1)
        try:
            while True:
                comeco = time.monotonic()
                res = run_cycle(cfg, state)
                duracao = time.monotonic() - comeco
                r: RaceResult = res.corridas[0]
                agora = state.cliente.relogio_servidor.estimativa() or dt.datetime.now(dt.UTC)
                frescos, frescos_c, contando = freshness(state, agora)
                linha = {
                    "ciclo": len(linhas) + 1,
                    "inicio_s": comeco - partida,
                    "pedidos": r.pedidos,
                    "duracao_s": duracao,
                    "agenda": r.agenda,
                    "frescos": frescos,
                    "frescos_contando": frescos_c,
                    "contando": contando,
                    "publicavel": r.publicavel,
                    "nao_atendidos": r.nao_atendidos,
                    "apurado": r.apurado_pct,
                }
                linhas.append(linha)
                print(
                    f"ciclo {linha['ciclo']}: {r.pedidos} pedidos em {duracao:.1f} s; "
                    f"{frescos:.1f} % dos arquivos municipais com menos de 5 min "
                    f"({frescos_c:.1f} % dos {contando} ainda em apuração); {r.linha()}",
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
    """One run's per-cycle table."""
    rows = [
        "| cycle | starts at (s) | requests | cycle time | agenda: never read / failed / to refresh / "
        "UF advanced | left for later | municipal files under 5 min | of those still counting "
        "| counted | publishable |",
        "|---:|---:|---:|---:|---|---:|---:|---:|---:|---|",
    ]
    for x in linhas:
        ag = x["agenda"]
        regras = " / ".join(str(v) for v in ag.por_regra) if ag is not None else "—"
        pub = "yes" if x["publicavel"] else "no (" + ", ".join(x["nao_atendidos"]) + ")"
        apurado = "—" if x["apurado"] is None else f"{x['apurado']:.1f} %"
        rows.append(
            f"| {x['ciclo']} | {x['inicio_s']:.0f} | {x['pedidos']} | {x['duracao_s']:.1f} s | {regras} | "
            f"{ag.adiados if ag is not None else '—'} | {x['frescos']:.1f} % | "
            f"{x['frescos_contando']:.1f} % of {x['contando']} | {apurado} | {pub} |"
        )
    pedidos = [x["pedidos"] for x in linhas]
    duracoes = [x["duracao_s"] for x in linhas]
    n_pub = sum(1 for x in linhas if x["publicavel"])
    return (
        "\n".join(rows)
        + f"\n\nRequests per cycle: max {max(pedidos)}, median {sorted(pedidos)[len(pedidos) // 2]}; "
        f"cycle time: max {max(duracoes):.1f} s, median {sorted(duracoes)[len(duracoes) // 2]:.1f} s; "
        f"publishable in {n_pub} of {len(linhas)} cycles.\n\n"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--capturas", type=int, default=10, help="capturas da noite comprimida")
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
    body = ""
    t0 = time.perf_counter()
    pasta = tempfile.TemporaryDirectory()
    night = Path(pasta.name) / "noite"
    n_mun = make_night(night, args.capturas, args.passo_s, dt.datetime(2026, 10, 25, 20, 0, tzinfo=dt.UTC))
    print(
        f"noite: {n_mun} municípios, {args.capturas} capturas ({time.perf_counter() - t0:.0f} s para gerar)"
    )
    for taxa in taxas:
        linhas = run(night, args.capturas, args.passo_s, taxa, int(taxa))
        teto = budget(taxa, cfg.prazo_ciclo_s, int(taxa), 0)
        body += (
            f"**{taxa:g} requests/s, bucket {int(taxa)}** (rate + bucket {2 * taxa:g} ≤ "
            f"{TSE_MAX_PER_SECOND}, the job's TSE cap; {60 * taxa:,.0f} per minute, "
            + ("under" if 60 * taxa <= RATELIMIT_HEADER else "over")
            + f" the {RATELIMIT_HEADER:,} of the TSE's `x-ratelimit-limit` if its window is a minute, "
            "which nobody has documented"
            + ("" if 60 * taxa <= RATELIMIT_HEADER else ": a comparison, not a recommendation")
            + f"); the agenda caps a cycle's municipal requests at {teto:,} minus those already sent:\n\n"
            + table(linhas)
        )
    total_s = time.perf_counter() - t0
    pasta.cleanup()
    varredura = n_mun + 28  # every municipal file, the 27 UF files and br
    comprimido = args.passo_s * (args.capturas - 1) / 60
    body += (
        f"{n_mun:,} municipalities + 27 UF files + `br`; {args.capturas} captures {args.passo_s:g} s "
        f"apart (the count compressed from ~3 hours to {comprimido:.0f} minutes, small municipalities "
        f"finishing first: every counting file changes at every capture, the agenda's worst case); the "
        f"other `[tse]` settings default ({cfg.conexoes} connections, `prazo_ciclo_s` "
        f"{cfg.prazo_ciclo_s:g}, `SEGUNDOS_POR_CICLO` = {SEGUNDOS_POR_CICLO:g}, a cycle every "
        f"{cfg.intervalo_s:g} s or right after a longer one); the replay server in its own process on "
        f"its own clock. A full sweep would be {varredura:,} requests "
        f"({varredura / cfg.requisicoes_por_segundo:.0f} s at the default "
        f"{cfg.requisicoes_por_segundo:g}/s). "
        '"Under 5 min" = the municipal files held whose `hg` is at most 5 minutes before the server\'s '
        "clock at the end of the cycle; the seed's time rows apply to those still counting (finished "
        "ones are final and never asked again). Cycle time includes the model and the snapshot (every "
        f"new raw file written). Whole run {total_s / 60:.1f} min; 1-minute load average of the shared "
        f"machine at the end: {os.getloadavg()[0]:.1f} (2 cores shared with other jobs: the processing "
        "part of each cycle is slower than on an idle machine).\n"
    )
    print(body)
    write_section(
        "President by municipality, live (municipal agenda)",
        f"python benchmarks/municipal_bench.py --capturas {args.capturas} --passo-s {args.passo_s:g} "
        f"--taxas {args.taxas}",
        body,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Snapshot store growth over a whole election night polled every 30 s (issue 21, item 1).

A synthetic runoff night (president by UF: 28 parts + `br`, fictional candidates) with one capture
every `--intervalo` seconds for `--horas` hours, in which, as on the real feed, every file is
regenerated at every capture (`hg`/`idg` advance; finished parts keep their counts and `dt/ht`).
The real polling job polls the real replay server on loopback once per capture, with git commits
on; the steps are driven through the admin endpoint (`POST /_replay/avancar`), nothing sleeps. At
the end: snapshots and commits written, the working tree's size (on disk, where unchanged files
are hard links, and as a checkout, where each file is its own copy), and the git repository's
size (`git count-objects -v`, loose objects before `git gc`, the pack after it).

`--comparar` reruns the same night with the poller deciding "new data" from the bytes (the rule
before issue 21): the figures show what the counts-and-`ht` rule saves.

    python benchmarks/snapshot_store_bench.py [--horas 5] [--intervalo 30] [--comparar] [--sem-registro]
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.report import write_section  # noqa: E402
from jobs.tse import cycle as cycle_module  # noqa: E402
from jobs.tse.audit import audit_snapshot  # noqa: E402
from jobs.tse.config import config_tse  # noqa: E402
from jobs.tse.cycle import PollState, run_cycle  # noqa: E402
from jobs.tse.replay import make_server  # noqa: E402
from jobs.tse.synthetic import totals_from_baseline, write_night  # noqa: E402
from model.baselines import load_baselines  # noqa: E402

START = dt.datetime(2026, 10, 25, 20, 0, tzinfo=dt.UTC)  # 17:00 in Brasília: the polls close
FULL_AT_H = 3.0  # hours after the close when the last part finishes (then only regeneration)
MB = 1024 * 1024
REAL_CM = REPO.parent / "shared" / "datasets" / "tse" / "2022" / "ele2022_544" / "mun-e000544-cm.json"


def level(horas: float) -> float:
    """Counted level of the night `horas` after the close: fast at first, every part finished
    (level 1.1, past each part's ±10-point offset) at FULL_AT_H, then flat."""
    return min(1.1, 1.1 * float((max(0.0, horas) / FULL_AT_H) ** 0.7))


def make_night(dest: Path, horas: float, intervalo_s: float) -> int:
    """The night folder; returns its number of captures."""
    passos = round(horas * 3600 / intervalo_s) + 1
    instantes = [
        (START + dt.timedelta(seconds=intervalo_s * k), level(intervalo_s * k / 3600)) for k in range(passos)
    ]
    base = load_baselines()["6258-presidente-br-uf"]
    atraso = min(20.0, intervalo_s / 2)
    write_night(dest, totals_from_baseline(base), instantes, eleicao="6258", atraso_s=atraso)
    # The real municipality config (2022, 533,695 B) instead of the small one the replay would
    # generate: every snapshot carries it, as on the real night.
    config = dest / "oficial" / "ele2026" / "6258" / "config"
    config.mkdir(parents=True)
    (config / "mun-e006258-cm.json").write_bytes(REAL_CM.read_bytes())
    return passos


@dataclass
class Figures:
    """What one run measured."""

    regra: str
    ciclos: int
    snapshots: int
    commits: int
    so_regenerados: int  # cycles where every 200 was a regenerated file (nothing new)
    publicavel_final: bool
    auditoria_ok: bool
    arquivos: int
    disco_mb: float
    checkout_mb: float
    git_soltos_mb: float
    git_objetos_soltos: int
    git_pack_mb: float
    ciclo_mediana_s: float
    total_s: float


def _count_objects(repo: Path) -> dict[str, int]:
    out = subprocess.run(
        ["git", "-C", str(repo), "count-objects", "-v"], capture_output=True, text=True, check=True
    ).stdout
    return {k: int(v) for k, v in (line.split(": ") for line in out.splitlines())}


def _tree_sizes(folder: Path) -> tuple[int, int, int]:
    """(files, bytes on disk with hard links counted once, bytes as a checkout) under `folder`,
    `.git` excluded."""
    vistos: set[int] = set()
    arquivos = disco = checkout = 0
    for raiz, pastas, nomes in os.walk(folder):
        pastas[:] = [p for p in pastas if p != ".git"]
        for nome in nomes:
            st = os.lstat(os.path.join(raiz, nome))
            arquivos += 1
            checkout += st.st_size
            if st.st_ino not in vistos:
                vistos.add(st.st_ino)
                disco += st.st_size
    return arquivos, disco, checkout


def _advance(url: str) -> None:
    req = urllib.request.Request(url + "/_replay/avancar", data=b"", method="POST")
    with urllib.request.urlopen(req, timeout=60) as r:  # loopback only
        json.loads(r.read())


@contextmanager
def _bytes_rule() -> Iterator[None]:
    """The poller's rule before issue 21: any new bytes are new data."""
    original = cycle_module.data_key

    def by_bytes(nome: str, corpo: bytes | None) -> str | None:
        return None if corpo is None else hashlib.sha256(corpo).hexdigest()

    cycle_module.data_key = by_bytes
    try:
        yield
    finally:
        cycle_module.data_key = original


def run(night: Path, work: Path, passos: int, regra: str) -> Figures:
    """Poll the whole night once per capture into a fresh git repository."""
    dados = work / "data"
    dados.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(dados)], check=True)
    # No automatic `git gc` during the night: "before gc" is then every object as the commits wrote it.
    subprocess.run(["git", "-C", str(dados), "config", "gc.auto", "0"], check=True)
    replay = make_server(night)
    replay.iniciar()
    t0 = time.perf_counter()
    tempos: list[float] = []
    so_regenerados = 0
    publicavel = False
    try:
        raw = {
            "url_base": replay.url_base,
            "relogio": "servidor",
            "git": True,
            "pasta_dados": str(dados),
            "repositorio_git": str(dados),
            "requisicoes_por_segundo": 1000,
            "rajada": 1000,
            "corridas": [{"cargo": "presidente", "eleicao": "6258", "nivel": "uf"}],
        }
        config = config_tse(raw, work)
        state = PollState.criar(config)
        try:
            for k in range(passos):
                if k:
                    _advance(replay.url_base)
                t = time.perf_counter()
                res = run_cycle(config, state)
                tempos.append(time.perf_counter() - t)
                [r] = res.corridas
                if r.erro:
                    raise SystemExit(f"ciclo {k}: {r.erro}")
                if r.regenerados and not r.novos:
                    so_regenerados += 1
                publicavel = r.publicavel is True
                if k % 60 == 0:
                    print(f"  [{regra}] ciclo {k}/{passos}: {r.linha()}", flush=True)
        finally:
            state.fechar()
    finally:
        replay.parar()
    total = time.perf_counter() - t0
    race = dados / "tse" / "6258" / "presidente"
    snaps = sorted(p for p in race.iterdir() if p.is_dir() and not p.name.startswith("."))
    git_log = ["git", "-C", str(dados), "rev-list", "--count", "HEAD"]
    commits = int(subprocess.run(git_log, capture_output=True, text=True, check=True).stdout)
    arquivos, disco, checkout = _tree_sizes(dados)
    antes = _count_objects(dados)
    subprocess.run(["git", "-C", str(dados), "gc", "-q"], check=True)
    depois = _count_objects(dados)
    return Figures(
        regra=regra,
        ciclos=passos,
        snapshots=len(snaps),
        commits=commits,
        so_regenerados=so_regenerados,
        publicavel_final=publicavel,
        auditoria_ok=audit_snapshot(snaps[-1]).ok,
        arquivos=arquivos,
        disco_mb=disco / MB,
        checkout_mb=checkout / MB,
        git_soltos_mb=(antes["size"] + antes["size-pack"]) * 1024 / MB,
        git_objetos_soltos=antes["count"] + antes["in-pack"],
        git_pack_mb=(depois["size-pack"] + depois["size"]) * 1024 / MB,
        ciclo_mediana_s=statistics.median(tempos),
        total_s=total,
    )


def table(rows: list[Figures], horas: float, intervalo_s: float, tamanho_medio: float) -> str:
    """The Markdown block for docs/PERFORMANCE.md."""
    linhas = [
        f"A {horas:g}-hour synthetic runoff night (president by UF: 28 parts + `br`), one capture every "
        f"{intervalo_s:g} s, every file regenerated at every capture as the real TSE does (the last part "
        f"finishes {FULL_AT_H:g} h after the close; then only `hg`/`idg` move). The real poller, replay "
        "server (steps through its admin endpoint) and git commits. Synthetic result files average "
        f"{tamanho_medio / 1024:.1f} KiB (two candidates); each snapshot also carries the real municipality "
        f"config (2022's `mun-e000544-cm.json`, {REAL_CM.stat().st_size / 1024:.0f} KiB).",
        "",
        "| new data decided by | cycles | snapshots | commits | cycles with only regenerated files | "
        "files in tree | tree on disk (hard links) | tree as a checkout | git loose objects (before gc) | "
        "git after `git gc` | cycle median | total | last reading publishable | audit of the last |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|",
    ]
    for f in rows:
        linhas.append(
            f"| {f.regra} | {f.ciclos} | {f.snapshots} | {f.commits} | {f.so_regenerados} | {f.arquivos:,} | "
            f"{f.disco_mb:.1f} MB | {f.checkout_mb:.1f} MB | {f.git_soltos_mb:.1f} MB "
            f"({f.git_objetos_soltos:,} objects) | {f.git_pack_mb:.1f} MB | "
            f"{f.ciclo_mediana_s * 1000:.0f} ms | "
            f"{f.total_s:.0f} s | {'yes' if f.publicavel_final else 'no'} | "
            f"{'ok' if f.auditoria_ok else 'FAILED'} |"
        )
    return "\n".join(linhas) + "\n"


def main() -> None:
    """Build the night, poll it, measure, and record the figures."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--horas", type=float, default=5.0, help="duração da noite (padrão 5)")
    parser.add_argument("--intervalo", type=float, default=30.0, help="segundos entre capturas (padrão 30)")
    parser.add_argument("--comparar", action="store_true", help="também com a regra antiga (bytes)")
    parser.add_argument("--sem-registro", action="store_true", help="não grava docs/PERFORMANCE.md")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        night = Path(tmp) / "noite"
        passos = make_night(night, args.horas, args.intervalo)
        arquivos = list((night / "capturas").glob("*/*-u.json"))
        tamanho_medio = sum(p.stat().st_size for p in arquivos) / len(arquivos)
        print(f"noite: {passos} capturas, {len(arquivos)} arquivos", flush=True)
        rows = [run(night, Path(tmp) / "dados", passos, "counts and `dt/ht` (`data_key`)")]
        if args.comparar:
            with _bytes_rule():
                rows.append(run(night, Path(tmp) / "bytes", passos, "bytes (before issue 21)"))
    body = table(rows, args.horas, args.intervalo, tamanho_medio)
    print(body)
    if not args.sem_registro:
        comando = "python benchmarks/snapshot_store_bench.py" + (" --comparar" if args.comparar else "")
        if (args.horas, args.intervalo) != (5.0, 30.0):
            comando += f" --horas {args.horas:g} --intervalo {args.intervalo:g}"
        write_section("Snapshot store over a night", comando, body)


if __name__ == "__main__":
    main()

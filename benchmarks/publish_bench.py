"""Publish benchmark: a built site of 10,000 pages published to S3 (moto, loopback).

The built site is synthetic (pages of the size the builder writes, hashed assets, data JSON, a
sitemap), so the figure measures publishing alone. moto's standalone server runs in its own process
on 127.0.0.1 (as a real store would be another process). Measures the first publish (everything
uploaded), a publish with nothing changed and a publish after one page changed (the file replaced
by rename, as the builder does), and records them in docs/PERFORMANCE.md.

    python benchmarks/publish_bench.py [--paginas 10000] [--rodadas 5]
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.report import median, write_section  # noqa: E402
from jobs.publish.config import PublishConfig  # noqa: E402
from jobs.publish.publisher import PublishReport, publicar  # noqa: E402
from jobs.publish.targets import boto3_client, open_target  # noqa: E402
from site_builder.assets import hashed_name  # noqa: E402

TARGET = 5.0
PAGE_BYTES = 4200  # a fact-check page as the builder writes it is about 4 KiB


def make_built_site(out: Path, pages: int) -> None:
    """A built site: hashed assets, `pages` HTML pages, live JSON, listings and a sitemap."""
    css = (REPO / "templates" / "static" / "estilo.css").read_bytes()
    css_path = f"static/{hashed_name('estilo.css', css)}"
    (out / "static").mkdir(parents=True)
    (out / css_path).write_bytes(css)
    head = f'<!doctype html><html lang="pt-BR"><link rel="stylesheet" href="/{css_path}">'
    filler = "<p>Os números conferem em parte: o aumento existe, mas a base é outra.</p>"
    for i in range(pages):
        page = out / "checagens" / f"bench-{i:05d}" / "index.html"
        page.parent.mkdir(parents=True)
        body = f"{head}<h1>Afirmação sintética número {i}</h1>"
        body += filler * ((PAGE_BYTES - len(body)) // len(filler))
        page.write_text(body, encoding="utf-8")
    (out / "index.html").write_text(f"{head}<h1>Início</h1>", encoding="utf-8")
    (out / "404.html").write_text(f"{head}<h1>Página não encontrada</h1>", encoding="utf-8")
    (out / "projecao" / "presidente").mkdir(parents=True)
    (out / "projecao" / "presidente" / "saida.json").write_text('{"apurado_pct": 42.0}', encoding="utf-8")
    urls = "".join(f"<url><loc>/checagens/bench-{i:05d}/</loc></url>" for i in range(pages))
    (out / "sitemap.xml").write_text(f"<urlset>{urls}</urlset>", encoding="utf-8")


def replace_page(out: Path, i: int, run: int) -> None:
    """Change one page the way the builder does: a new file renamed over the old one."""
    page = out / "checagens" / f"bench-{i:05d}" / "index.html"
    temp = page.with_name(".index.html.tmp")
    temp.write_bytes(page.read_bytes() + f"<p>Atualização {run}.</p>".encode())
    temp.replace(page)


def free_port() -> int:
    """A free TCP port on loopback."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start_moto(port: int) -> subprocess.Popen[bytes]:
    """moto's standalone server in its own process; returns once it answers."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/moto-api/", timeout=1).close()
            return proc
        except OSError:
            if time.monotonic() > deadline:
                proc.kill()
                raise
            time.sleep(0.1)


def timed_publish(config: PublishConfig, out: Path, target: object) -> tuple[float, PublishReport]:
    """Seconds of one publish and its report."""
    started = time.perf_counter()
    report = publicar(config, out, destino=target)  # type: ignore[arg-type]
    return time.perf_counter() - started, report


def main() -> None:
    """Run the benchmark and record the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--paginas", type=int, default=10_000)
    parser.add_argument("--rodadas", type=int, default=5)
    parser.add_argument("--sem-registro", action="store_true", help="não grava docs/PERFORMANCE.md")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    os.environ.setdefault("AWS_ACCESS_KEY_ID", "bench")
    os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "bench")
    load_before = os.getloadavg()[0]
    port = free_port()
    moto = start_moto(port)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "public"
            make_built_site(out, args.paginas)
            files = [p for p in out.rglob("*") if p.is_file()]
            total_bytes = sum(p.stat().st_size for p in files)
            endpoint = f"http://127.0.0.1:{port}"
            config = PublishConfig(
                destino="s3", endpoint=endpoint, bucket="site-bench", estado=Path(tmp) / "estado"
            )
            listing = dataclasses.replace(config, verificar_bucket_s=0)
            boto3_client("s3", config, endpoint).create_bucket(Bucket="site-bench")
            target = open_target(config)
            first = [timed_publish(config, out, target)]
            cases: dict[str, list[tuple[float, PublishReport]]] = {"noop": [], "one": [], "noop-list": []}
            cases["one-list"] = []
            for run in range(args.rodadas):
                cases["noop"].append(timed_publish(config, out, target))
                cases["noop-list"].append(timed_publish(listing, out, target))
                replace_page(out, (run * 997) % args.paginas, 2 * run)
                cases["one"].append(timed_publish(config, out, target))
                replace_page(out, (run * 991 + 5) % args.paginas, 2 * run + 1)
                cases["one-list"].append(timed_publish(listing, out, target))
    finally:
        moto.terminate()
        moto.wait(10)
    assert first[0][1].plano.unchanged == 0
    assert all(not r.mudou for _, r in cases["noop"] + cases["noop-list"])
    assert {r.listagem for _, r in cases["one"]} == {"manifesto"}
    assert {r.listagem for _, r in cases["one-list"]} == {"destino"}

    def row(name: str, runs: list[tuple[float, PublishReport]], target: str = "") -> str:
        uploaded = "/".join(str(n) for n in sorted({len(r.enviados) for _, r in runs}))
        seconds = median([s for s, _ in runs])
        return f"| {name} | {seconds:.3f} s | {uploaded} | {runs[0][1].listagem} | {target} |"

    lines = [
        f"Synthetic built site: {args.paginas:,} pages of ~{PAGE_BYTES / 1024:.1f} KiB plus home, 404, "
        f"hashed CSS, live JSON and sitemap ({len(files):,} files, {total_bytes / 1024 / 1024:.1f} MiB). "
        f"moto's standalone S3 server in its own process on 127.0.0.1; {config.paralelo} uploads in "
        f"flight; median of {args.rodadas} runs (first publish: one run). Every publish hashes the build "
        "(stat cache) and compares size + MD5 + headers with the manifest, and reads every object it "
        "uploads back with a HEAD (size + ETag); the bucket itself is listed "
        "in full when the last full listing is older than `verificar_bucket_s` "
        f"({config.verificar_bucket_s:g} s by default; rows marked `destino`), otherwise the manifest "
        "stands for it (`manifesto`). The machine was shared: 1-minute load average "
        f"{load_before:.1f} at the start and {os.getloadavg()[0]:.1f} at the end.",
        "",
        "| Case | Time | Objects uploaded | Compared against | Target |",
        "|---|---|---|---|---|",
        row("First publish (empty bucket)", first),
        row("Nothing changed", cases["noop"]),
        row("One page changed", cases["one"], f"< {TARGET:g} s"),
        row("Nothing changed, full bucket listing", cases["noop-list"]),
        row("One page changed, full bucket listing", cases["one-list"], f"< {TARGET:g} s"),
    ]
    body = "\n".join(lines)
    print(body)
    if not args.sem_registro:
        write_section("Publish", "python benchmarks/publish_bench.py", body)


if __name__ == "__main__":
    main()

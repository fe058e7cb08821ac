"""`eleicoes demo` and `eleicoes servir`: build the sample site and serve it on loopback."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from jobs.serve import DEFAULT_HOST, DEFAULT_PORT, make_server
from site_builder.build import build_site
from site_builder.errors import BuildError


def register(sub: Any) -> None:
    """Add `demo` and `servir` to the `eleicoes` parser."""
    demo = sub.add_parser(
        "demo",
        help="gera o site com os dados de exemplo e o serve em http://127.0.0.1:8000",
        description="Roda o job principal com os padrões embutidos: build completo e servidor local.",
    )
    _server_arguments(demo)
    demo.add_argument("--sem-servidor", action="store_true", help="só gera o site, sem servir")
    demo.set_defaults(func=run_demo)
    serve = sub.add_parser(
        "servir",
        help="serve uma pasta já gerada em http://127.0.0.1:8000",
        description="Servidor estático local (só loopback) com a página 404 do site.",
    )
    _server_arguments(serve)
    serve.set_defaults(func=run_serve)


def _server_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--porta", type=int, default=DEFAULT_PORT, help="porta do servidor (padrão: 8000)")
    parser.add_argument("--saida", type=Path, default=Path("public"), help="pasta do site (padrão: public/)")


def run_demo(args: argparse.Namespace) -> int:
    """Build the sample site from this checkout, then serve it until interrupted."""
    try:
        report = build_site(Path.cwd(), args.saida, strict=True)
    except BuildError as exc:
        print(f"erro: {exc}", file=sys.stderr)
        return exc.exit_code
    print(report.resumo())
    if args.sem_servidor:
        return 0
    return run_serve(args)


def run_serve(args: argparse.Namespace) -> int:
    """Serve the output folder on loopback until Ctrl+C."""
    if not (args.saida / "index.html").is_file():
        print(f"erro: {args.saida}/index.html não existe; rode 'eleicoes build' antes.", file=sys.stderr)
        return 1
    server = make_server(args.saida, DEFAULT_HOST, args.porta)
    print(f"site em http://{DEFAULT_HOST}:{server.server_address[1]}/ (Ctrl+C para parar)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("servidor encerrado.")
    finally:
        server.server_close()
    return 0

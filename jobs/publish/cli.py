"""`eleicoes publicar [--destino ...] [--seco]`: send the built site to its bucket or folder."""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path
from typing import Any

from jobs.configuracao import ConfigSectionError
from jobs.publish.config import PublishConfig, load_publish_config
from jobs.publish.publisher import PublishError, publicar
from site_builder.lock import print_waiting, project_lock


def register(sub: Any) -> None:
    """Add `publicar` to the `eleicoes` parser."""
    parser = sub.add_parser(
        "publicar",
        help="envia o site gerado (public/) ao bucket S3 ou à pasta de publicação",
        description=(
            "Publica public/ no destino de [publicar] em eleicoes.toml, enviando só o que mudou: "
            "assets, depois dados, depois páginas, e por fim remove o que saiu do site."
        ),
    )
    parser.add_argument(
        "--destino",
        default=None,
        help="substitui o destino da configuração: s3://BUCKET[/PREFIXO] ou o caminho de uma pasta",
    )
    parser.add_argument("--seco", action="store_true", help="só mostra o plano, sem enviar nada")
    parser.add_argument("--entrada", type=Path, default=Path("public"), help="site gerado (padrão: public/)")
    parser.add_argument("--raiz", type=Path, default=None, help="pasta do projeto (padrão: a atual)")
    parser.add_argument("--config", type=Path, default=None, help="arquivo de configuração (eleicoes.toml)")
    parser.set_defaults(func=run_publish)


def with_target(cfg: PublishConfig, destino: str, root: Path) -> PublishConfig:
    """`cfg` pointed at `destino`: `s3://bucket/prefix` or a folder path."""
    if destino.startswith("s3://"):
        bucket, _, prefix = destino[len("s3://") :].partition("/")
        if prefix and not prefix.endswith("/"):
            prefix += "/"
        return dataclasses.replace(cfg, destino="s3", bucket=bucket, prefixo=prefix)
    folder = Path(destino.removeprefix("pasta:"))
    return dataclasses.replace(cfg, destino="pasta", pasta=folder if folder.is_absolute() else root / folder)


def run_publish(args: argparse.Namespace) -> int:
    """Publish (or, with --seco, print the plan) under the project lock."""
    root: Path = args.raiz or Path.cwd()
    try:
        cfg = load_publish_config(root, args.config)
        if args.destino:
            cfg = with_target(cfg, args.destino, root)
    except ConfigSectionError as exc:
        print(f"erro: {exc}", file=sys.stderr)
        return 2
    public_dir: Path = args.entrada if args.entrada.is_absolute() else root / args.entrada

    try:
        with project_lock(root, "eleicoes publicar", on_wait=print_waiting):
            report = publicar(cfg, public_dir, seco=args.seco, progresso=True)
    except PublishError as exc:
        print(f"erro: {exc}", file=sys.stderr)
        print("o site publicado continua consistente; rode de novo para concluir.", file=sys.stderr)
        return 1
    if args.seco:
        for line in report.plano.lines():
            print(line)
    for warning in report.avisos:
        print(f"aviso: {warning}", file=sys.stderr)
    if report.invalidados:
        print("CDN invalidada: " + " ".join(report.invalidados))
    print(report.resumo())
    return 0

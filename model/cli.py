"""Model CLI: `projetar` (snapshot -> output JSON) and `baseline` (1st-round files -> baselines).

Registered into the project's `eleicoes` console script (`eleicoes.py`), and runnable alone with
`python -m model.cli ...` (standard library only), so an auditor needs nothing else.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from model.baselines import (
    BASELINES_DIR,
    Baseline,
    baseline_from_derived_governor,
    baseline_from_records,
    baseline_to_json,
    load_baselines,
)
from model.calibration import CALIBRATION_PATH, CalibrationError, load_calibration
from model.forecast import ProjectionError, project, to_json_bytes
from model.ptbr_cli import ArgumentParser, describe_os_error
from model.snapshot import SnapshotError, parse_iso, previous_snapshot_dir, read_output, read_snapshot
from model.tse_files import ResultRecord, TseFormatError, parse_file_name, parse_result


def _err(msg: str | Exception) -> int:
    """Print one Portuguese error line; returns the exit status."""
    if isinstance(msg, OSError):
        msg = describe_os_error(msg)
    print(f"erro: {msg}", file=sys.stderr)
    return 2


def cmd_projetar(args: argparse.Namespace) -> int:
    """Print the projection of one snapshot folder as JSON (the bytes the polling job stores)."""
    pasta = Path(args.snapshot)
    agora = None
    if args.agora:
        agora = parse_iso(args.agora)
        if agora is None:
            return _err(f"--agora inválido (use ISO 8601, ex. 2026-10-25T20:00:00Z): {args.agora}")
    try:
        snap = read_snapshot(pasta)
        anterior = None
        prev_dir = None
        if args.anterior != "nenhum":
            prev_dir = Path(args.anterior) if args.anterior else previous_snapshot_dir(pasta)
            anterior = read_snapshot(prev_dir) if prev_dir is not None else None
        cal = load_calibration(Path(args.calibracao) if args.calibracao else CALIBRATION_PATH)
        baselines = load_baselines(Path(args.baselines) if args.baselines else BASELINES_DIR)
        out = project(
            snap,
            calibracao=cal,
            baselines=baselines,
            cargo=args.cargo,
            uf=args.uf,
            eleicao=args.eleicao,
            agora=agora,
            anterior=anterior,
            corrigir_deriva=not args.sem_correcao,
            saida_anterior=read_output(prev_dir),
        )
    except (SnapshotError, CalibrationError, ProjectionError, ValueError, OSError) as exc:
        return _err(exc)
    verif = out.get("verificacao_deriva") or {}
    if verif.get("estado") == "fora":
        print(
            f"aviso: deriva observada fora da faixa tolerada (razão {verif.get('razao_observada')}, "
            f"faixa {verif.get('faixa_tolerada')}): projeção publicada sem a correção da deriva",
            file=sys.stderr,
        )
    sys.stdout.buffer.write(to_json_bytes(out))
    sys.stdout.flush()
    return 0


def _records_by_part(paths: list[Path], nivel: str | None = None) -> dict[str, ResultRecord]:
    """Final records keyed by part id. A municipal 2022 `-v` file holds the municipality and each of
    its zones: `nivel="zona"` takes the zone rows (`df97012-z0001`...), otherwise the municipality row."""
    out: dict[str, ResultRecord] = {}
    for path in paths:
        fname = parse_file_name(path.name)
        if fname is None:
            raise ValueError(f"nome de arquivo do TSE não reconhecido: {path.name}")
        recs = parse_result(path.read_bytes(), fname.formato)
        if nivel == "zona" and fname.municipio and not fname.zona:
            zones = [r for r in recs if r.tpabr == "zona"]
            if not zones:
                raise ValueError(f"{path.name}: nenhuma zona no arquivo")
            for r in zones:
                out[f"{fname.uf}{fname.municipio}-z{r.cdabr.zfill(4)}"] = r
            continue
        want = "mu" if fname.municipio and not fname.zona else None
        match = [r for r in recs if r.tpabr == want] if want and len(recs) > 1 else recs
        out[fname.parte] = match[0]
    return out


def build_default_baselines(datasets: Path) -> list[Baseline]:
    """The shipped baselines, rebuilt from the 1st-round 2026 final data in `datasets` (docs/MODELO.md)."""
    out: list[Baseline] = []
    pres = sorted((datasets / "tse/2026-1t-final/presidente-uf").glob("*-c0001-e006257-u.json"))
    pres = [p for p in pres if not p.name.startswith("br-")]
    out.append(
        baseline_from_records(
            "6258",
            "presidente",
            "br",
            "uf",
            _records_by_part(pres),
            "TSE 6257 final, arquivos <uf>-c0001-e006257-u.json assinados "
            "(datasets/tse/2026-1t-final/presidente-uf)",
        )
    )
    cm = json.loads((datasets / "tse/2022/ele2022_544/mun-e000544-cm.json").read_bytes())
    ibge_to_tse = {m["cdi"]: m["cd"] for g in cm["abr"] for m in g["mu"] if m.get("cdi")}
    folder = datasets / "tse/2026-1t-final/governador-municipios-derivado"
    for uf in ("AC", "AM", "ES", "RJ", "RN", "TO"):  # DF: only 1 municipality there, the DF runs by zone
        derived = json.loads((folder / f"{uf}.json").read_bytes())
        fonte = (
            f"6259 final por município, derivado de terceiros (alexandreprass/apuracao-tse-2026 {uf}.json, "
            "datasets/tse/2026-1t-final/governador-municipios-derivado); IBGE→TSE por mun-e000544-cm.json"
        )
        out.append(baseline_from_derived_governor("6260", uf, derived, ibge_to_tse, fonte))
    return out


def write_baseline(b: Baseline, saida: Path) -> Path:
    """Write one baseline as sorted, indented JSON; returns its path."""
    saida.mkdir(parents=True, exist_ok=True)
    path = saida / f"{b.chave}.json"
    text = json.dumps(baseline_to_json(b), ensure_ascii=False, sort_keys=True, indent=1) + "\n"
    path.write_text(text, encoding="utf-8")
    return path


def cmd_baseline(args: argparse.Namespace) -> int:
    """Build baselines in `model/baselines/` from 1st-round final files."""
    saida = Path(args.saida) if args.saida else BASELINES_DIR
    try:
        if args.datasets:
            built = build_default_baselines(Path(args.datasets))
        else:
            if not args.arquivos or not args.eleicao:
                return _err("informe --datasets, ou --eleicao e os arquivos finais do 1º turno")
            recs = _records_by_part([Path(a) for a in args.arquivos], args.nivel)
            nivel = args.nivel or ("uf" if all(len(p) == 2 for p in recs) else "municipio")
            if any("-z" in p for p in recs):
                nivel = "zona"
            uf = "br" if args.cargo == "presidente" else (args.uf or "").lower()
            if not uf:
                return _err("informe --uf para o governador")
            fonte = "arquivos finais do 1º turno: " + ", ".join(
                sorted(Path(a).name for a in args.arquivos)[:5]
            )
            built = [baseline_from_records(args.eleicao, args.cargo, uf, nivel, recs, fonte)]
    except (TseFormatError, ValueError, KeyError, OSError) as exc:
        return _err(exc)
    for b in built:
        print(f"{write_baseline(b, saida)}: {len(b.partes)} partes, finalistas {b.finalistas}")
    return 0


def register(sub: Any) -> None:
    """Add `projetar` and `baseline` to an argparse subparsers object."""
    p = sub.add_parser(
        "projetar",
        help="projeta o resultado final a partir de um snapshot do TSE",
        description="Lê SNAPSHOT_DIR (arquivos brutos do TSE + captura.json) e imprime o JSON da projeção.",
    )
    p.add_argument(
        "snapshot", metavar="SNAPSHOT_DIR", help="pasta do snapshot: arquivos brutos do TSE e captura.json"
    )
    p.add_argument(
        "--cargo",
        choices=["presidente", "governador"],
        default=None,
        help="disputa a projetar (padrão: a registrada no captura.json do snapshot, "
        "senão a deduzida dos nomes dos arquivos)",
    )
    p.add_argument("--uf", default=None, help="UF do governador (ex.: ac; padrão: a do snapshot)")
    p.add_argument(
        "--agora", default=None, help="instante ISO 8601 usado como 'agora' (padrão: último baixado_em)"
    )
    p.add_argument("--eleicao", default=None, help="código da eleição (padrão: o dos arquivos do snapshot)")
    p.add_argument(
        "--anterior",
        default=None,
        help="snapshot anterior, para checar totais que diminuem (padrão: pasta irmã anterior; "
        "'nenhum' desliga)",
    )
    p.add_argument(
        "--sem-correcao", action="store_true", help="modo presidente_sem_correcao (sem correção da deriva)"
    )
    p.add_argument("--calibracao", default=None, help=argparse.SUPPRESS)
    p.add_argument("--baselines", default=None, help=argparse.SUPPRESS)
    p.set_defaults(func=cmd_projetar)

    b = sub.add_parser(
        "baseline",
        help="gera model/baselines/ a partir dos arquivos finais do 1º turno",
        description="Gera as bases do 1º turno (votos dos dois finalistas por parte).",
    )
    b.add_argument("arquivos", nargs="*", metavar="ARQUIVO", help="arquivos -u.json finais do 1º turno")
    b.add_argument("--eleicao", default=None, help="código do 2º turno a que a base serve (ex.: 6258)")
    b.add_argument(
        "--cargo",
        choices=["presidente", "governador"],
        default="presidente",
        help="cargo (padrão: presidente)",
    )
    b.add_argument("--uf", default=None, help="UF do governador (ex.: ac)")
    b.add_argument(
        "--nivel",
        choices=["uf", "municipio", "zona"],
        default=None,
        help="nível das partes (padrão: deduzido dos nomes; 'zona' lê as zonas de um arquivo municipal -v)",
    )
    b.add_argument(
        "--datasets", default=None, help="reconstrói as bases distribuídas a partir de shared/datasets"
    )
    b.add_argument("--saida", default=None, help="pasta de saída (padrão: model/baselines)")
    b.set_defaults(func=cmd_baseline)

    from model.backtest import cli as backtest_cli  # `backtest` and `simular-noite` (issue 5)

    backtest_cli.register(sub)


def main(argv: Sequence[str] | None = None) -> int:
    """Stand-alone entry point: `python -m model.cli projetar SNAPSHOT_DIR`."""
    parser = ArgumentParser(prog="python -m model.cli", description="Modelo de projeção (stdlib).")
    sub = parser.add_subparsers(dest="comando", metavar="COMANDO", required=True)
    register(sub)
    args = parser.parse_args(argv)
    status: int = args.func(args)
    return status


if __name__ == "__main__":
    sys.exit(main())

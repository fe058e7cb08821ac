"""Run the model on a snapshot folder exactly as `eleicoes projetar` does, so the stored `saida.json`
is byte for byte what an auditor gets from the same folder with the same command.

`model/cli.py` `cmd_projetar`: read the folder, take the previous sibling snapshot for the
decreasing-totals check, load the shipped calibration and baselines, `project`, `to_json_bytes`.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jobs.tse.config import Corrida
from model.baselines import Baseline, load_baselines
from model.calibration import Calibration, load_calibration
from model.forecast import project, to_json_bytes
from model.snapshot import Snapshot, parse_iso, previous_snapshot_dir, read_output, read_snapshot

LOG = logging.getLogger(__name__)


@dataclass(frozen=True)
class ArgsProjecao:
    """The `eleicoes projetar` options of one race."""

    cargo: str
    uf: str | None
    sem_correcao: bool
    # "Now" of the cycle when it is later than every `baixado_em` of the capture (files that failed
    # this cycle keep their old download time): the seed's file age is then measured at the cycle's
    # time, so a TSE that stops answering ages the held reading out (docs/NOITE.md).
    agora: str | None = None

    def opcoes(self) -> list[str]:
        """Command-line options, in the order `eleicoes projetar` documents them."""
        out = [] if self.cargo == "presidente" else ["--cargo", self.cargo]
        if self.uf:
            out += ["--uf", self.uf]
        if self.sem_correcao:
            out.append("--sem-correcao")
        if self.agora:
            out += ["--agora", self.agora]
        return out

    def comando(self, pasta: str) -> str:
        """The one command that reruns this projection."""
        return " ".join(["eleicoes", "projetar", pasta, *self.opcoes()])


def args_for(corrida: Corrida, corrigir_deriva: bool) -> ArgsProjecao:
    """Options of a race: governors name their UF; the drift switch only exists for the president."""
    if corrida.cargo == "presidente":
        return ArgsProjecao("presidente", None, not corrigir_deriva)
    return ArgsProjecao("governador", corrida.uf, False)


def project_folder(
    pasta: Path,
    args: ArgsProjecao,
    *,
    anterior: Path | None = None,
    anterior_automatico: bool = True,
    calibracao: Calibration | None = None,
    baselines: dict[str, Baseline] | None = None,
) -> bytes:
    """The output bytes of `eleicoes projetar pasta <opções>`.

    `anterior_automatico` (the CLI default) takes the previous sibling of `pasta`; the polling job
    writes in a staging folder and names the previous snapshot itself with `anterior`.
    """
    snap = read_snapshot(pasta)
    prev_dir = previous_snapshot_dir(pasta) if anterior_automatico and anterior is None else anterior
    prev = read_snapshot(prev_dir) if prev_dir is not None else None
    out = project_snapshot(
        snap, args, prev, calibracao=calibracao, baselines=baselines, saida_anterior=read_output(prev_dir)
    )
    verif = out.get("verificacao_deriva") or {}
    if verif.get("estado") == "fora":
        LOG.warning(
            "%s: deriva observada fora da faixa tolerada (razão %s, faixa %s): projeção sem correção",
            pasta.name,
            verif.get("razao_observada"),
            verif.get("faixa_tolerada"),
        )
    return to_json_bytes(out)


def project_snapshot(
    snap: Snapshot,
    args: ArgsProjecao,
    anterior: Snapshot | None,
    *,
    calibracao: Calibration | None = None,
    baselines: dict[str, Baseline] | None = None,
    saida_anterior: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The model's output for a snapshot already read (from a folder, or held in memory by the job);
    `saida_anterior` is the previous snapshot's stored output (the live drift check's state)."""
    return project(
        snap,
        calibracao=calibracao if calibracao is not None else load_calibration(),
        baselines=baselines if baselines is not None else load_baselines(),
        cargo=args.cargo,
        uf=args.uf,
        eleicao=None,
        agora=parse_iso(args.agora) if args.agora else None,
        anterior=anterior,
        corrigir_deriva=not args.sem_correcao,
        saida_anterior=saida_anterior,
    )

"""The frozen calibration file `model/calibracao.json`: drift curve, band tables, expected errors.

The file's SHA-256 goes into every output (`modelo.calibracao_sha256`): seed, "Como auditar" —
"qualquer alteração durante a apuração muda o hash".
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CALIBRATION_PATH = Path(__file__).resolve().parent / "calibracao.json"


class CalibrationError(ValueError):
    """The calibration file is missing or malformed."""


Row = tuple[float, float] | None


@dataclass(frozen=True)
class RegraVerificacao:
    """Live drift check settings (`model/drift_check.py`): tolerated observed/predicted drift ratio,
    % counted range of the readings compared, minimum weight of finished UFs and readings."""

    razao_min: float
    razao_max: float
    apurado_min: float
    apurado_max: float
    peso_minimo_pct: float
    leituras_minimas: int


@dataclass(frozen=True)
class Calibration:
    """Parsed calibration plus the SHA-256 of the exact bytes it came from."""

    id: str
    sha256: str
    limites_pct: tuple[float, ...]
    faixas: dict[str, tuple[Row, ...]]
    erro_medio_presidente: tuple[Row, ...]
    deriva_grade: tuple[float, ...]
    deriva_pp: tuple[float, ...]
    deriva_candidato: int
    erro_parcial_grade: tuple[float, ...]
    erro_parcial_pp: tuple[float, ...]
    verificacao_deriva: RegraVerificacao | None = None  # absent in older files: check disabled


def _rows(value: Any, n: int) -> tuple[Row, ...]:
    if not isinstance(value, list) or len(value) != n:
        raise CalibrationError("tabela de faixas com número de linhas errado")
    return tuple(None if r is None else (float(r[0]), float(r[1])) for r in value)


def _regra(value: Any) -> RegraVerificacao | None:
    if value is None:
        return None
    return RegraVerificacao(
        razao_min=float(value["faixa_tolerada"][0]),
        razao_max=float(value["faixa_tolerada"][1]),
        apurado_min=float(value["apurado_pct"][0]),
        apurado_max=float(value["apurado_pct"][1]),
        peso_minimo_pct=float(value["peso_minimo_pct"]),
        leituras_minimas=int(value["leituras_minimas"]),
    )


def parse_calibration(raw: bytes) -> Calibration:
    """Parse calibration bytes; the hash is of these exact bytes."""
    try:
        root = json.loads(raw)
        lim = tuple(float(x) for x in root["faixas"]["limites_pct"])
        n = len(lim) - 1
        faixas = {
            k: _rows(root["faixas"][k], n)
            for k in (
                "presidente",
                "presidente_sem_correcao",
                "governador_municipio",
                "governador_zona",
                "governador_degradado",
            )
        }
        cal = Calibration(
            id=str(root["id"]),
            sha256=hashlib.sha256(raw).hexdigest(),
            limites_pct=lim,
            faixas=faixas,
            erro_medio_presidente=_rows(root["faixas"]["presidente_erro_medio"], n),
            deriva_grade=tuple(float(x) for x in root["deriva"]["grade_pct"]),
            deriva_pp=tuple(float(x) for x in root["deriva"]["deriva_pp"]),
            deriva_candidato=int(root["deriva"]["candidato_referencia"]),
            erro_parcial_grade=tuple(float(x) for x in root["erro_parcial"]["grade_pct"]),
            erro_parcial_pp=tuple(float(x) for x in root["erro_parcial"]["erro_parcial_pp"]),
            verificacao_deriva=_regra(root.get("verificacao_deriva")),
        )
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise CalibrationError(f"calibração inválida: {exc}") from exc
    if len(cal.deriva_grade) != len(cal.deriva_pp) or len(cal.erro_parcial_grade) != len(cal.erro_parcial_pp):
        raise CalibrationError("calibração inválida: grade e valores com tamanhos diferentes")
    return cal


def load_calibration(path: Path = CALIBRATION_PATH) -> Calibration:
    """Read and parse the calibration file (default: the one shipped in `model/`)."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise CalibrationError(f"calibração não encontrada: {path}") from exc
    return parse_calibration(raw)

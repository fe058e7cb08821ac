"""Small deterministic SVG line charts for docs/BACKTEST.md (no dependencies, stable bytes)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape

LARGURA, ALTURA = 640, 360
MARGEM_E, MARGEM_D, MARGEM_C, MARGEM_B = 56, 16, 36, 44


@dataclass(frozen=True)
class Serie:
    """One line: label, colour, dashed or not, (x, y) points."""

    rotulo: str
    cor: str
    pontos: Sequence[tuple[float, float]]
    tracejada: bool = False


def _f(x: float) -> str:
    return f"{x:.1f}"


def grafico(
    titulo: str,
    series: Sequence[Serie],
    *,
    eixo_x: str,
    eixo_y: str,
    y_min: float,
    y_max: float,
    x_min: float = 0.0,
    x_max: float = 100.0,
    passo_y: float = 0.5,
) -> str:
    """An SVG line chart with axes, grid, legend and title."""
    pw = LARGURA - MARGEM_E - MARGEM_D
    ph = ALTURA - MARGEM_C - MARGEM_B

    def px(x: float) -> float:
        return MARGEM_E + pw * (x - x_min) / (x_max - x_min)

    def py(y: float) -> float:
        y = min(max(y, y_min), y_max)
        return MARGEM_C + ph * (1 - (y - y_min) / (y_max - y_min))

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{LARGURA}" height="{ALTURA}" '
        f'viewBox="0 0 {LARGURA} {ALTURA}" font-family="sans-serif" font-size="11">',
        f"<title>{escape(titulo)}</title>",
        f'<rect x="0" y="0" width="{LARGURA}" height="{ALTURA}" fill="#ffffff"/>',
        f'<text x="{LARGURA / 2:.1f}" y="18" text-anchor="middle" font-size="13">{escape(titulo)}</text>',
    ]
    n_y = round((y_max - y_min) / passo_y)
    for i in range(n_y + 1):
        y = y_min + i * passo_y
        out.append(
            f'<line x1="{MARGEM_E}" y1="{_f(py(y))}" x2="{LARGURA - MARGEM_D}" y2="{_f(py(y))}" '
            f'stroke="{"#888888" if abs(y) < 1e-9 else "#e5e5e5"}" stroke-width="1"/>'
        )
        out.append(f'<text x="{MARGEM_E - 6}" y="{_f(py(y) + 4)}" text-anchor="end">{y:.2f}</text>')
    for x in range(int(x_min), int(x_max) + 1, 10):
        out.append(
            f'<line x1="{_f(px(x))}" y1="{MARGEM_C}" x2="{_f(px(x))}" y2="{ALTURA - MARGEM_B}" '
            'stroke="#f0f0f0" stroke-width="1"/>'
        )
        out.append(f'<text x="{_f(px(x))}" y="{ALTURA - MARGEM_B + 14}" text-anchor="middle">{x}</text>')
    out.append(
        f'<text x="{MARGEM_E + pw / 2:.1f}" y="{ALTURA - 8}" text-anchor="middle">{escape(eixo_x)}</text>'
    )
    out.append(
        f'<text x="14" y="{MARGEM_C + ph / 2:.1f}" text-anchor="middle" '
        f'transform="rotate(-90 14 {MARGEM_C + ph / 2:.1f})">{escape(eixo_y)}</text>'
    )
    for i, s in enumerate(series):
        pts = " ".join(f"{_f(px(x))},{_f(py(y))}" for x, y in s.pontos)
        dash = ' stroke-dasharray="5 4"' if s.tracejada else ""
        if pts:
            out.append(f'<polyline fill="none" stroke="{s.cor}" stroke-width="2"{dash} points="{pts}"/>')
        ly = MARGEM_C + 10 + 16 * i
        lx = LARGURA - MARGEM_D - 250
        out.append(
            f'<line x1="{lx}" y1="{ly}" x2="{lx + 22}" y2="{ly}" stroke="{s.cor}" stroke-width="2"{dash}/>'
        )
        out.append(f'<text x="{lx + 28}" y="{ly + 4}">{escape(s.rotulo)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"

"""The night's chart, drawn at build time as inline SVG (no JavaScript): for each candidate, the
projection and its band against the % of the electorate counted, with the official partial beside it.

Pure: records in, SVG markup out. Text is escaped here; every number is formatted the Brazilian way.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from markupsafe import Markup, escape

from site_builder import br_format

WIDTH, HEIGHT = 720, 380
LEFT, RIGHT, TOP, BOTTOM = 56, 170, 16, 52
STEPS = (0.05, 0.1, 0.2, 0.25, 0.5, 1.0, 2.0, 2.5, 5.0, 10.0, 20.0, 25.0)
MAX_TICKS = 7
MAX_MARKERS = 40  # beyond this many readings, dots would blur into the line
LABEL_GAP = 34  # px between the end labels of two candidates (two lines each)
NAME_CHARS = 22  # longer names are cut with an ellipsis in the chart (the tables show them whole)


@dataclass(frozen=True)
class Ponto:
    """One reading of one candidate."""

    apurado: float  # % of the electorate counted (x)
    parcial: float  # official partial share, %
    projecao: float | None  # None when the reading was not publishable
    faixa_min: float | None = None
    faixa_max: float | None = None


@dataclass(frozen=True)
class Serie:
    """One candidate over the night."""

    nome: str
    cor: str  # #RRGGBB
    pontos: tuple[Ponto, ...]


def _nice_step(span: float) -> float:
    for step in STEPS:
        if span / step <= MAX_TICKS - 1:
            return step
    return STEPS[-1]


def _domain(values: Sequence[float], min_span: float, low: float, high: float) -> tuple[float, float, float]:
    lo, hi = min(values), max(values)
    if hi - lo < min_span:
        middle = (lo + hi) / 2
        lo, hi = middle - min_span / 2, middle + min_span / 2
    pad = (hi - lo) * 0.08
    lo, hi = max(low, lo - pad), min(high, hi + pad)
    step = _nice_step(hi - lo)
    lo, hi = math.floor(lo / step) * step, math.ceil(hi / step) * step
    return max(low, lo), min(high, hi), step


def _ticks(lo: float, hi: float, step: float) -> list[float]:
    count = round((hi - lo) / step)
    return [round(lo + i * step, 6) for i in range(count + 1)]


def _decimals(step: float) -> int:
    if step >= 1:
        return 0
    return 1 if round(step * 10, 6) == int(step * 10) else 2


def _runs(points: Sequence[Ponto]) -> list[list[Ponto]]:
    """Consecutive publishable readings: the projection is drawn only where it was published."""
    runs: list[list[Ponto]] = []
    current: list[Ponto] = []
    for p in points:
        if p.projecao is None:
            if current:
                runs.append(current)
            current = []
        else:
            current.append(p)
    if current:
        runs.append(current)
    return runs


def _spread(wanted: list[float], gap: float, top: float, bottom: float) -> list[float]:
    """Vertical positions for end labels: as wanted, pushed apart to at least `gap`."""
    order = sorted(range(len(wanted)), key=lambda i: wanted[i])
    placed = [0.0] * len(wanted)
    last = top - gap
    for i in order:
        placed[i] = max(wanted[i], last + gap)
        last = placed[i]
    overflow = last - bottom
    if overflow > 0:
        for i in order:
            placed[i] -= overflow
    return placed


def chart_svg(series: Sequence[Serie], *, ident: str, titulo: str, descricao: str) -> Markup:
    """An accessible inline SVG (role img, title, desc, text labels); empty markup without data."""
    all_points = [p for s in series for p in s.pontos]
    if not all_points:
        return Markup("")
    ys = [p.parcial for p in all_points]
    ys += [v for p in all_points for v in (p.projecao, p.faixa_min, p.faixa_max) if v is not None]
    y_lo, y_hi, y_step = _domain(ys, 2.0, 0.0, 100.0)
    x_lo, x_hi, x_step = _domain([p.apurado for p in all_points], 10.0, 0.0, 100.0)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(value: float) -> float:
        return LEFT + (value - x_lo) / (x_hi - x_lo) * plot_w

    def y(value: float) -> float:
        return TOP + (y_hi - value) / (y_hi - y_lo) * plot_h

    def pts(pairs: Sequence[tuple[float, float]]) -> str:
        return " ".join(f"{x(a):.1f},{y(b):.1f}" for a, b in pairs)

    out: list[str] = [
        f'<svg class="grafico" viewBox="0 0 {WIDTH} {HEIGHT}" width="100%" role="img" '
        f'aria-labelledby="{ident}-titulo {ident}-desc" xmlns="http://www.w3.org/2000/svg" '
        'font-family="system-ui, sans-serif" font-size="13">',
        f'<title id="{ident}-titulo">{escape(titulo)}</title>',
        f'<desc id="{ident}-desc">{escape(descricao)}</desc>',
    ]
    y_dec = _decimals(y_step)
    for tick in _ticks(y_lo, y_hi, y_step):
        out.append(
            f'<line x1="{LEFT}" x2="{LEFT + plot_w}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" stroke="#d5d9de"/>'
        )
        out.append(
            f'<text x="{LEFT - 6}" y="{y(tick) + 4:.1f}" text-anchor="end" fill="#555555">'
            f"{br_format.pct(tick, y_dec)}</text>"
        )
    for tick in _ticks(x_lo, x_hi, x_step):
        out.append(
            f'<line x1="{x(tick):.1f}" x2="{x(tick):.1f}" y1="{TOP + plot_h}" y2="{TOP + plot_h + 5}" '
            'stroke="#555555"/>'
        )
        out.append(
            f'<text x="{x(tick):.1f}" y="{TOP + plot_h + 19}" text-anchor="middle" fill="#555555">'
            f"{br_format.pct(tick, _decimals(x_step))}</text>"
        )
    out.append(
        f'<line x1="{LEFT}" x2="{LEFT + plot_w}" y1="{TOP + plot_h}" y2="{TOP + plot_h}" stroke="#555555"/>'
    )
    out.append(
        f'<text x="{LEFT + plot_w / 2:.1f}" y="{HEIGHT - 8}" text-anchor="middle" fill="#1a1a1a">'
        "% do eleitorado apurado</text>"
    )
    labels: list[tuple[float, str, str, str]] = []
    for serie in series:
        cor = escape(serie.cor)
        few = len(serie.pontos) <= MAX_MARKERS
        for run in _runs(serie.pontos):
            upper = [(p.apurado, p.faixa_max) for p in run if p.faixa_max is not None]
            lower = [(p.apurado, p.faixa_min) for p in run if p.faixa_min is not None]
            if len(run) > 1 and len(upper) == len(lower) == len(run):
                out.append(f'<polygon points="{pts(upper + lower[::-1])}" fill="{cor}" fill-opacity="0.16"/>')
            elif len(upper) == len(lower) == 1:
                (ax, top_v), (_, low_v) = upper[0], lower[0]
                out.append(
                    f'<line x1="{x(ax):.1f}" x2="{x(ax):.1f}" y1="{y(top_v):.1f}" y2="{y(low_v):.1f}" '
                    f'stroke="{cor}" stroke-opacity="0.3" stroke-width="8"/>'
                )
            line = [(p.apurado, p.projecao) for p in run if p.projecao is not None]
            if len(line) > 1:
                out.append(f'<polyline points="{pts(line)}" fill="none" stroke="{cor}" stroke-width="2.5"/>')
            out += [
                f'<circle cx="{x(a):.1f}" cy="{y(b):.1f}" r="3.5" fill="{cor}"/>'
                for a, b in (line if few else line[-1:])
            ]
        partial = [(p.apurado, p.parcial) for p in serie.pontos]
        if len(partial) > 1:
            out.append(
                f'<polyline points="{pts(partial)}" fill="none" stroke="{cor}" stroke-width="1.5" '
                'stroke-dasharray="5 4"/>'
            )
        out += [
            f'<rect x="{x(a) - 3:.1f}" y="{y(b) - 3:.1f}" width="6" height="6" fill="#ffffff" '
            f'stroke="{cor}"/>'
            for a, b in (partial if few else partial[-1:])
        ]
        last = serie.pontos[-1]
        value = last.projecao if last.projecao is not None else last.parcial
        kind = "projeção" if last.projecao is not None else "parcial"
        nome = serie.nome if len(serie.nome) <= NAME_CHARS else serie.nome[: NAME_CHARS - 1] + "…"
        labels.append((y(value), nome, f"{br_format.pct(value)} ({kind})", serie.cor))
    placed = _spread([w for w, _, _, _ in labels], LABEL_GAP, TOP + 6, TOP + plot_h - LABEL_GAP)
    label_x = LEFT + plot_w + 8
    for (_, nome, valor, colour), pos in zip(labels, placed, strict=True):
        # The candidate's colour marks the label; the text stays dark (a candidate file's colour
        # is not checked for contrast).
        out.append(f'<rect x="{label_x}" y="{pos - 10:.1f}" width="4" height="27" fill="{escape(colour)}"/>')
        out.append(
            f'<text x="{label_x + 8}" y="{pos:.1f}" fill="#1a1a1a" font-weight="700">'
            f'<tspan x="{label_x + 8}">{escape(nome)}</tspan>'
            f'<tspan x="{label_x + 8}" dy="15">{escape(valor)}</tspan></text>'
        )
    out.append("</svg>")
    return Markup("\n".join(out))  # noqa: S704 - every interpolated text is escaped above

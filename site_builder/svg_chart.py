"""The night's chart, drawn at build time as inline SVG (no JavaScript): for each candidate, the
projection and its band against the % of the electorate counted, with the official partial beside it.

Pure: records in, SVG markup out. Text is escaped here; every number is formatted the Brazilian way.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from markupsafe import Markup, escape

from site_builder import br_format

STEPS = (0.05, 0.1, 0.2, 0.25, 0.5, 1.0, 2.0, 2.5, 5.0, 10.0, 20.0, 25.0)
MAX_MARKERS = 40  # beyond this many readings, dots would blur into the line
LABEL_GAP = 34  # px between the end labels of two candidates (two lines each)
NAME_CHARS = 22  # longer names are cut with an ellipsis in the chart (the tables show them whole)


@dataclass(frozen=True)
class Leiaute:
    """The geometry of one layout of the chart, in SVG user units.

    The page scales the SVG to its box, so a text of `font_size` units is `font_size × box width
    ÷ width` CSS px. The stylesheet (estilo.css, "Gráfico no celular") picks the layout per
    viewport so that this stays at 12 px or more.
    """

    nome: str  # data-leiaute, the stylesheet's hook
    width: int
    left: int
    right: int  # room right of the plot: the candidates' end labels (wide) or a margin (narrow)
    top: int
    plot_h: int
    font_size: int
    max_ticks: int
    legend_below: bool  # names and values under the plot instead of beside the lines' ends


# 720 units, 13-unit text: shown from a 46rem (736 px) viewport up, whose box is at least 689 px
# (page margins and a scroll bar off): 13 × 689 ÷ 720 = 12.4 px. Issue 21: scaled into a phone's
# 328 px box it gave 5.9 px.
LARGO = Leiaute("largo", 720, 56, 170, 16, 312, 13, 7, legend_below=False)
# 340 units, 14-unit text: 14 × 328 ÷ 340 = 13.5 px in a 360 px phone (16 px page margins).
ESTREITO = Leiaute("estreito", 340, 48, 22, 12, 200, 14, 5, legend_below=True)
AXIS_BLOCK = 52  # below the plot: tick marks, tick labels and the axis title
LEGEND_LINE = 18  # one line of a label (name, then value), in units
LEGEND_ITEM = 44  # narrow layout: from one candidate's label under the plot to the next


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


def _nice_step(span: float, max_ticks: int) -> float:
    for step in STEPS:
        if span / step <= max_ticks - 1:
            return step
    return STEPS[-1]


def _domain(
    values: Sequence[float], min_span: float, low: float, high: float, max_ticks: int
) -> tuple[float, float, float]:
    lo, hi = min(values), max(values)
    if hi - lo < min_span:
        middle = (lo + hi) / 2
        lo, hi = middle - min_span / 2, middle + min_span / 2
    pad = (hi - lo) * 0.08
    lo, hi = max(low, lo - pad), min(high, hi + pad)
    step = _nice_step(hi - lo, max_ticks)
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


def chart_svg(
    series: Sequence[Serie], *, ident: str, titulo: str, descricao: str, estreito: bool = True
) -> Markup:
    """The chart as accessible inline SVG (role img, title, desc, text labels); empty without data.

    With `estreito` (the default) two SVGs follow each other, the wide layout and one drawn for
    phones (`ESTREITO`: fewer ticks, larger text, the names under the plot); the stylesheet
    (`.grafico[data-leiaute]`) shows one per viewport. The one not shown is `display: none`, which
    also takes it out of the accessibility tree: a screen reader meets the chart once, with its
    title and description, at any width. Without `estreito`, the wide layout alone.
    """
    if not any(s.pontos for s in series):
        return Markup("")
    layouts = (LARGO, ESTREITO) if estreito else (LARGO,)
    drawn = [
        _draw(series, layout, ident if layout is LARGO else f"{ident}-{layout.nome}", titulo, descricao)
        for layout in layouts
    ]
    return Markup("\n".join(drawn))  # noqa: S704 - every interpolated text is escaped in _draw


def _draw(series: Sequence[Serie], lay: Leiaute, ident: str, titulo: str, descricao: str) -> str:
    """One layout of the chart: SVG markup with every text escaped."""
    all_points = [p for s in series for p in s.pontos]
    ys = [p.parcial for p in all_points]
    ys += [v for p in all_points for v in (p.projecao, p.faixa_min, p.faixa_max) if v is not None]
    y_lo, y_hi, y_step = _domain(ys, 2.0, 0.0, 100.0, lay.max_ticks)
    x_lo, x_hi, x_step = _domain([p.apurado for p in all_points], 10.0, 0.0, 100.0, lay.max_ticks)
    left, top, plot_h = lay.left, lay.top, lay.plot_h
    plot_w = lay.width - left - lay.right
    base = top + plot_h  # the x axis
    legend_top = base + AXIS_BLOCK + LEGEND_LINE
    height = legend_top + len(series) * LEGEND_ITEM - LEGEND_LINE if lay.legend_below else base + AXIS_BLOCK
    lift = round(lay.font_size * 0.3)  # from a text's middle to its baseline

    def x(value: float) -> float:
        return left + (value - x_lo) / (x_hi - x_lo) * plot_w

    def y(value: float) -> float:
        return top + (y_hi - value) / (y_hi - y_lo) * plot_h

    def pts(pairs: Sequence[tuple[float, float]]) -> str:
        return " ".join(f"{x(a):.1f},{y(b):.1f}" for a, b in pairs)

    out: list[str] = [
        f'<svg class="grafico" viewBox="0 0 {lay.width} {height}" data-leiaute="{lay.nome}" width="100%" '
        f'role="img" aria-labelledby="{ident}-titulo {ident}-desc" xmlns="http://www.w3.org/2000/svg" '
        f'font-family="system-ui, sans-serif" font-size="{lay.font_size}">',
        f'<title id="{ident}-titulo">{escape(titulo)}</title>',
        f'<desc id="{ident}-desc">{escape(descricao)}</desc>',
    ]
    y_dec = _decimals(y_step)
    for tick in _ticks(y_lo, y_hi, y_step):
        out.append(
            f'<line x1="{left}" x2="{left + plot_w}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" stroke="#d5d9de"/>'
        )
        out.append(
            f'<text x="{left - 6}" y="{y(tick) + lift:.1f}" text-anchor="end" fill="#555555">'
            f"{br_format.pct(tick, y_dec)}</text>"
        )
    for tick in _ticks(x_lo, x_hi, x_step):
        out.append(
            f'<line x1="{x(tick):.1f}" x2="{x(tick):.1f}" y1="{base}" y2="{base + 5}" stroke="#555555"/>'
        )
        out.append(
            f'<text x="{x(tick):.1f}" y="{base + lay.font_size + 6}" text-anchor="middle" fill="#555555">'
            f"{br_format.pct(tick, _decimals(x_step))}</text>"
        )
    out.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{base}" y2="{base}" stroke="#555555"/>')
    out.append(
        f'<text x="{left + plot_w / 2:.1f}" y="{base + AXIS_BLOCK - 8}" text-anchor="middle" fill="#1a1a1a">'
        "% do eleitorado apurado</text>"
    )
    labels: list[tuple[float, str, str, str]] = []
    for serie in series:
        if not serie.pontos:
            continue
        out += _lines(serie, x, y, pts)
        last = serie.pontos[-1]
        value = last.projecao if last.projecao is not None else last.parcial
        kind = "projeção" if last.projecao is not None else "parcial"
        nome = serie.nome if len(serie.nome) <= NAME_CHARS else serie.nome[: NAME_CHARS - 1] + "…"
        labels.append((value, nome, f"{br_format.pct(value)} ({kind})", serie.cor))
    if lay.legend_below:
        # Under the plot, in the order of the lines' ends (highest first).
        ordered = sorted(labels, key=lambda label: -label[0])
        placed = [float(legend_top + i * LEGEND_ITEM) for i in range(len(ordered))]
        label_x = 2
    else:
        ordered = labels
        placed = _spread([y(v) for v, _, _, _ in labels], LABEL_GAP, top + 6, base - LABEL_GAP)
        label_x = left + plot_w + 8
    for (_, nome, valor, colour), pos in zip(ordered, placed, strict=True):
        # The candidate's colour marks the label; the text stays dark (a candidate file's colour
        # is not checked for contrast).
        out.append(
            f'<rect x="{label_x}" y="{pos - 10:.1f}" width="4" height="{LEGEND_LINE + 12}" '
            f'fill="{escape(colour)}"/>'
        )
        out.append(
            f'<text x="{label_x + 8}" y="{pos:.1f}" fill="#1a1a1a" font-weight="700">'
            f'<tspan x="{label_x + 8}">{escape(nome)}</tspan>'
            f'<tspan x="{label_x + 8}" dy="{lay.font_size + 2}">{escape(valor)}</tspan></text>'
        )
    out.append("</svg>")
    return "\n".join(out)


def _lines(
    serie: Serie,
    x: Callable[[float], float],
    y: Callable[[float], float],
    pts: Callable[[Sequence[tuple[float, float]]], str],
) -> list[str]:
    """One candidate's band, projection line and official partial, in the layout's coordinates."""
    out: list[str] = []
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
        f'<rect x="{x(a) - 3:.1f}" y="{y(b) - 3:.1f}" width="6" height="6" fill="#ffffff" stroke="{cor}"/>'
        for a, b in (partial if few else partial[-1:])
    ]
    return out

"""Numbers and times as Brazilian readers write them (`43,67%`, `52.396.733`, `18:39:46`)."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

MESES = (
    "janeiro", "fevereiro", "março", "abril", "maio", "junho",
    "julho", "agosto", "setembro", "outubro", "novembro", "dezembro",
)  # fmt: skip


def decimal(value: float, casas: int = 2) -> str:
    """`1234.5` -> `1.234,50`: point for thousands, comma for decimals."""
    text = f"{value:,.{casas}f}"  # 1,234.50
    return text.replace(",", "\x00").replace(".", ",").replace("\x00", ".")


def plural(n: int, singular: str, varios: str) -> str:
    """`1 fala`, `2 falas`, `0 falas`: the count with the noun agreeing."""
    return f"{inteiro(n)} {singular if n == 1 else varios}"


def inteiro(value: int) -> str:
    """`52396733` -> `52.396.733`."""
    return f"{value:,d}".replace(",", ".")


def pct(value: float, casas: int = 2) -> str:
    """`43.6707` -> `43,67%`."""
    return decimal(value, casas) + "%"


def pontos(value: float, casas: int = 2) -> str:
    """A size in percentage points with the Portuguese plural: `0,86 ponto`, `3,77 pontos`."""
    return f"{decimal(value, casas)} {'ponto' if abs(round(value, casas)) < 2 else 'pontos'}"


def com_sinal(value: float, casas: int = 2) -> str:
    """`0.47` -> `+0,47`, `-1.2` -> `−1,20` (true minus sign, as print does)."""
    text = decimal(abs(value), casas)
    if round(value, casas) == 0:
        return text
    return ("+" if value > 0 else "\u2212") + text


def hora(value: dt.datetime, fuso: str) -> str:
    """`18:39:46` in the time zone `fuso`."""
    return value.astimezone(ZoneInfo(fuso)).strftime("%H:%M:%S")


def data_hora(value: dt.datetime, fuso: str) -> str:
    """`4 de outubro de 2026, 18:39:46` in the time zone `fuso`."""
    local = value.astimezone(ZoneInfo(fuso))
    return f"{local.day} de {MESES[local.month - 1]} de {local.year}, {local:%H:%M:%S}"


def iso_utc(value: dt.datetime) -> str:
    """`2026-10-04T21:39:46Z` (for `<time datetime>`)."""
    return value.astimezone(dt.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")

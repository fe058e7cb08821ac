"""Publication criteria: every row of the seed's table "Quando a projeção não é publicada".

"Todos os critérios abaixo precisam valer; se algum falhar, o site mostra só a parcial oficial e a
lista do que faltou (criterios_nao_atendidos)." Each criterion reports id, ok, measured value and
limit; a value that cannot be measured (None) fails unless the rule exempts it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Rule:
    """One row of the seed's table for one race type."""

    id: str
    descricao: str
    comparacao: str  # "<=" or ">="
    limite: float
    unidade: str


# Seed table, column "Presidente".
PRESIDENT_RULES = (
    Rule("arquivos_validos", "Arquivos do TSE válidos e consistentes (todos)", "<=", 0, "arquivos inválidos"),
    Rule("eleitorado_apurado", "Eleitorado em seções totalizadas ≥ 10%", ">=", 10.0, "%"),
    Rule("partes_com_votos", "Partes com algum voto totalizado ≥ 50% das 28", ">=", 50.0, "% das partes"),
    Rule("eleitorado_sem_arquivo_valido", "Eleitorado em partes sem arquivo válido = 0%", "<=", 0.0, "%"),
    Rule("eleitorado_sem_base", "Eleitorado projetado sem base do 1º turno ≤ 5%", "<=", 5.0, "%"),
    Rule("eleitorado_leitura_preservada", "Eleitorado com leitura preservada = 0%", "<=", 0.0, "%"),
    Rule(
        "diferenca_horario",
        "Diferença de horário entre os arquivos ainda em apuração ≤ 5 min (mais antigo × mais novo)",
        "<=",
        5.0,
        "min",
    ),
    Rule("idade_arquivo_referencia", "Idade do arquivo mais antigo entre as UFs ≤ 5 min", "<=", 5.0, "min"),
)

# Seed table, column "Governador".
GOVERNOR_RULES = (
    Rule("arquivos_validos", "Arquivos do TSE válidos e consistentes (todos)", "<=", 0, "arquivos inválidos"),
    Rule("eleitorado_apurado", "Eleitorado em seções totalizadas ≥ 20%", ">=", 20.0, "%"),
    Rule(
        "partes_com_votos",
        "Partes com algum voto totalizado ≥ 50% dos municípios/zonas",
        ">=",
        50.0,
        "% das partes",
    ),
    Rule("eleitorado_sem_arquivo_valido", "Eleitorado em partes sem arquivo válido ≤ 2%", "<=", 2.0, "%"),
    Rule("eleitorado_sem_base", "Eleitorado projetado sem base do 1º turno ≤ 5%", "<=", 5.0, "%"),
    Rule("eleitorado_leitura_preservada", "Eleitorado com leitura preservada ≤ 2%", "<=", 2.0, "%"),
    Rule(
        "diferenca_horario",
        "Diferença de horário ≤ 5 min entre cada município/zona ainda em apuração e o arquivo da UF",
        "<=",
        5.0,
        "min",
    ),
    Rule("idade_arquivo_referencia", "Idade do arquivo da UF ≤ 5 min", "<=", 5.0, "min"),
)


@dataclass(frozen=True)
class Measurements:
    """Measured values, one per rule id; None = could not be measured; `isentos` = exempt ids."""

    valores: dict[str, float | None]
    isentos: frozenset[str] = frozenset()
    notas: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Criterion:
    """The outcome of one rule."""

    rule: Rule
    ok: bool
    valor: float | None
    nota: str | None

    def to_json(self) -> dict[str, Any]:
        """Output object of one criterion."""
        valor = self.valor if self.valor is None else round(self.valor, 4)
        return {
            "id": self.rule.id,
            "descricao": self.rule.descricao,
            "ok": self.ok,
            "valor": valor,
            "limite": self.rule.limite,
            "comparacao": self.rule.comparacao,
            "unidade": self.rule.unidade,
            "nota": self.nota,
        }


def rules_for(cargo: str) -> tuple[Rule, ...]:
    """The seed's rules for `presidente` or `governador`."""
    return PRESIDENT_RULES if cargo == "presidente" else GOVERNOR_RULES


def evaluate(cargo: str, m: Measurements) -> list[Criterion]:
    """Check every rule of the race type against the measurements, in the seed's order."""
    notas = dict(m.notas)
    out: list[Criterion] = []
    for rule in rules_for(cargo):
        valor = m.valores.get(rule.id)
        if rule.id in m.isentos:
            ok = True
        elif valor is None:
            ok = False
        elif rule.comparacao == "<=":
            ok = valor <= rule.limite + 1e-12
        else:
            ok = valor >= rule.limite - 1e-12
        out.append(Criterion(rule, ok, valor, notas.get(rule.id)))
    return out

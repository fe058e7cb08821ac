"""Themes of a claim and how much potential harm each carries: the one table for triage.

The seed: "Afirmações que podem causar prejuízo (saúde, segurança, o processo eleitoral) têm
prioridade." Those three weigh 1.0; other public-policy themes weigh less. Keywords are matched
on accent-free, lower-case text, as whole words or word prefixes (a trailing `*`).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass


@dataclass(frozen=True)
class Tema:
    """A theme: id (also used in JSON), weight of its potential harm 0..1 and its keywords."""

    id: str
    nome: str
    peso_dano: float
    palavras: tuple[str, ...]


def _lista(palavras: str) -> tuple[str, ...]:
    """Keywords written as one comma-separated string (keeps the table compact)."""
    return tuple(p.strip() for p in palavras.split(",") if p.strip())


TEMAS: tuple[Tema, ...] = (
    Tema(
        "saude",
        "Saúde",
        1.0,
        _lista(
            "saude, sus, hospita*, leito*, uti, vacina*, remedio*, medicament*, doenca*, epidemia*,"
            "pandemia*,"
            "covid*, dengue, cancer, medico*, enfermeir*, posto* de saude, mortalidade, obito*, cura*,"
            "tratamento*, ivermectina, cloroquina, anvisa"
        ),
    ),
    Tema(
        "seguranca",
        "Segurança",
        1.0,
        _lista(
            "seguranca, homicidio*, crime*, criminal*, violencia*, violent*, policia*, policiai*, arma*,"
            "assalto*, roubo*, furto*, faccao, faccoes, presidio*, preso, presos, trafico, assassinat*,"
            "feminicidio*, estupro*, latrocinio*, milicia*"
        ),
    ),
    Tema(
        "processo_eleitoral",
        "Processo eleitoral",
        1.0,
        _lista(
            "urna*, eleic*, eleitor*, eleitora*, voto*, votacao, votar, fraude*, tse, tre, apuracao,"
            "titulo de eleitor, secao eleitora*, zona eleitora*, biometria, mesario*, boletim de urna,"
            "justica eleitoral, cedula*"
        ),
    ),
    Tema(
        "meio_ambiente",
        "Meio ambiente",
        0.6,
        _lista("desmatamento, queimada*, floresta*, amazonia, enchente*, clima*, poluicao, seca*"),
    ),
    Tema(
        "economia",
        "Economia",
        0.5,
        _lista(
            "inflacao, desemprego, emprego*, pib, salario*, imposto*, juros, divida*, renda, economia,"
            "gasolina, combustive*, preco*, dolar, orcamento*, deficit, tributo*"
        ),
    ),
    Tema(
        "educacao",
        "Educação",
        0.5,
        _lista(
            "educacao, escola*, merenda, professor*, universidade*, aluno*, creche*, ensino, analfabet*,"
            "ideb, enem"
        ),
    ),
    Tema(
        "assistencia_social",
        "Assistência social",
        0.5,
        _lista("bolsa familia, auxilio*, fome, pobreza, miseria, cesta basica, aposentad*, inss"),
    ),
    Tema(
        "corrupcao",
        "Corrupção",
        0.6,
        _lista("corrupcao, corrupt*, desvio*, propina*, condenad*, lavagem, superfaturament*"),
    ),
    Tema(
        "infraestrutura",
        "Infraestrutura",
        0.4,
        _lista("obra*, estrada*, rodovia*, ponte*, metro, saneamento, esgoto, transporte*, onibus"),
    ),
)

# Claims with no theme still carry some harm: a false fact misleads whatever its subject.
DANO_SEM_TEMA = 0.2
# Words that make a claim alarming or a call to act (do not vote, do not vaccinate...).
ALARME: tuple[str, ...] = _lista(
    "mata*, morte*, morre*, perigo*, envenen*, fraudad*, nao vote, nao vacin*, proibid*, golpe*,"
    "manipulad*, causa cancer, epidemia*"
)
PESO_ALARME = 0.3  # what alarm words add on top of the theme weight (the sum is capped at 1)


_SEM_ACENTO = str.maketrans("áàâãäéèêëíìîïóòôõöúùûüçñ", "aaaaaeeeeiiiiooooouuuucn")


def normalizar(texto: str) -> str:
    """Lower-case, accent-free text with single spaces (for keyword matching and similarity)."""
    minusculo = texto.casefold().translate(_SEM_ACENTO)  # fast path for Portuguese letters
    if not minusculo.isascii():
        decomposto = unicodedata.normalize("NFKD", minusculo)
        minusculo = "".join(c for c in decomposto if not unicodedata.combining(c))
    return " ".join(minusculo.split())


def padrao_palavras(palavras: tuple[str, ...]) -> re.Pattern[str]:
    """One regex matching any keyword as whole words; a trailing `*` matches any word ending."""
    partes = []
    for palavra in sorted(palavras, key=len, reverse=True):
        if palavra.endswith("*"):
            partes.append(re.escape(palavra[:-1]) + r"\w*")
        else:
            partes.append(re.escape(palavra))
    return re.compile(r"\b(?:" + "|".join(partes) + r")\b")


_PADROES = tuple((tema, padrao_palavras(tema.palavras)) for tema in TEMAS)
_PADRAO_ALARME = padrao_palavras(ALARME)


def temas_de(texto_normalizado: str) -> tuple[str, ...]:
    """Ids of the themes whose keywords occur in the (normalised) text, in table order."""
    return tuple(tema.id for tema, padrao in _PADROES if padrao.search(texto_normalizado))


def dano_de(texto_normalizado: str, temas: tuple[str, ...]) -> float:
    """Potential harm 0..1: the heaviest theme's weight, plus PESO_ALARME for alarm words."""
    pesos = {tema.id: tema.peso_dano for tema in TEMAS}
    base = max((pesos.get(t, DANO_SEM_TEMA) for t in temas), default=DANO_SEM_TEMA)
    alarme = PESO_ALARME if _PADRAO_ALARME.search(texto_normalizado) else 0.0
    return round(min(1.0, base + alarme), 3)

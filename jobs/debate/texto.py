"""Small Brazilian Portuguese text helpers shared by the rule-based stages.

Sentences, accent-free normalisation, crude stems for topic matching, and numbers as spoken in a
debate ("158,7 milhões", "21%", "R$ 200 bi", "meio milhão", "dois mil").
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

_FIM_FRASE = re.compile(r"(?<=[.!?…])\s+(?=[^\s])|(?<=[;])\s+")
STOPWORDS = frozenset(
    [
        "a",
        "o",
        "as",
        "os",
        "um",
        "uma",
        "uns",
        "umas",
        "de",
        "da",
        "do",
        "das",
        "dos",
        "d",
        "em",
        "na",
        "no",
        "nas",
        "nos",
        "num",
        "numa",
        "e",
        "ou",
        "mas",
        "que",
        "se",
        "por",
        "para",
        "pra",
        "pro",
        "com",
        "sem",
        "sob",
        "sobre",
        "entre",
        "ate",
        "até",
        "como",
        "mais",
        "menos",
        "muito",
        "muita",
        "muitos",
        "muitas",
        "ja",
        "já",
        "nao",
        "não",
        "sim",
        "eu",
        "tu",
        "ele",
        "ela",
        "nos",
        "nós",
        "vos",
        "eles",
        "elas",
        "me",
        "te",
        "lhe",
        "lhes",
        "meu",
        "minha",
        "meus",
        "minhas",
        "seu",
        "sua",
        "seus",
        "suas",
        "nosso",
        "nossa",
        "nossos",
        "nossas",
        "este",
        "esta",
        "estes",
        "estas",
        "esse",
        "essa",
        "esses",
        "essas",
        "isso",
        "isto",
        "aquilo",
        "aquele",
        "aquela",
        "aqui",
        "ali",
        "la",
        "lá",
        "ao",
        "aos",
        "à",
        "às",
        "pelo",
        "pela",
        "pelos",
        "pelas",
        "foi",
        "ser",
        "é",
        "e",
        "era",
        "sao",
        "são",
        "sera",
        "será",
        "tem",
        "ter",
        "tinha",
        "há",
        "ha",
        "vai",
        "vou",
        "vamos",
        "estar",
        "esta",
        "está",
        "estao",
        "estão",
        "quando",
        "onde",
        "qual",
        "quais",
        "quem",
        "porque",
        "por",
        "que",
        "quanto",
        "quanta",
        "quantos",
        "quantas",
        "tambem",
        "também",
        "entao",
        "então",
        "so",
        "só",
        "ainda",
        "bem",
        "agora",
        "depois",
        "antes",
        "cada",
        "todo",
        "toda",
        "todos",
        "todas",
        "outro",
        "outra",
        "outros",
        "outras",
        "mesmo",
        "mesma",
        "lhe",
        "senhor",
        "senhora",
        "senhores",
        "candidato",
        "candidata",
        "candidatos",
        "voce",
        "você",
        "vocês",
        "voces",
        "boa",
        "noite",
        "obrigado",
        "obrigada",
        "gente",
        "coisa",
        "coisas",
        "fazer",
        "faz",
        "feito",
        "vai",
        "ir",
        "tudo",
        "nada",
        "algum",
        "alguma",
        "alguns",
        "algumas",
        "sempre",
        "nunca",
        "dizer",
        "disse",
        "fala",
        "falar",
        "aí",
        "ai",
        "né",
        "ne",
        "então",
        "pois",
        "assim",
        "aqui",
        "hoje",
        "ano",
        "anos",
        "dia",
        "dias",
        "vez",
        "vezes",
    ]
)
# Words that name the act of asking, not its topic: never count as a topic of a question part.
GENERICAS = frozenset(
    [
        "plano",
        "planos",
        "proposta",
        "propostas",
        "posicao",
        "posição",
        "opiniao",
        "opinião",
        "pergunta",
        "perguntas",
        "resposta",
        "governo",
        "gestao",
        "gestão",
        "questao",
        "questão",
        "tema",
        "temas",
        "area",
        "área",
        "politica",
        "política",
        "politicas",
        "políticas",
        "medida",
        "medidas",
        "acao",
        "ação",
        "acoes",
        "ações",
        "projeto",
        "projetos",
        "pretende",
        "pretende",
        "fara",
        "fará",
        "faria",
        "vai",
        "iria",
        "deve",
        "deveria",
        "acha",
        "pensa",
        "explica",
        "explique",
        "diga",
        "responda",
        "concretamente",
        "exatamente",
        "afinal",
        "eleito",
        "eleita",
        "mandato",
        "estado",
        "pais",
        "país",
        "brasil",
        "brasileiro",
        "brasileiros",
        "brasileira",
        "populacao",
        "população",
        "publico",
        "público",
        "publica",
        "pública",
        "sua",
        "seu",
        "respeito",
        "caso",
        "assunto",
    ]
)
INTERROGATIVAS = (
    "qual",
    "quais",
    "como",
    "quando",
    "quanto",
    "quantos",
    "quantas",
    "onde",
    "quem",
    "por que",
    "porque",
    "o que",
    "que",
    "se",
    "vai",
    "pretende",
    "concorda",
    "é a favor",
    "a senhora",
    "o senhor",
    "você",
)


def sem_acento(texto: str) -> str:
    """Lower case without accents (for matching only; pages keep the original text)."""
    decomposto = unicodedata.normalize("NFD", texto.lower())
    return "".join(c for c in decomposto if unicodedata.category(c) != "Mn")


def alinhado(texto: str) -> str:
    """Accent-free lower case with the same length as `texto`, so match offsets map back to it."""
    base = sem_acento(unicodedata.normalize("NFC", texto))
    return base if len(base) == len(texto) else texto.lower()


def frases(texto: str) -> list[str]:
    """Sentences of a text (split after . ! ? … and ;), stripped, non-empty."""
    partes = _FIM_FRASE.split(texto.strip())
    return [p.strip() for p in partes if p and p.strip()]


def frases_com_posicao(texto: str) -> list[tuple[str, int, int]]:
    """Sentences with their character offsets in `texto`."""
    saida = []
    pos = 0
    for frase in frases(texto):
        inicio = texto.find(frase, pos)
        if inicio < 0:  # pragma: no cover - frases() only strips, so the sentence is always found
            inicio = pos
        fim = inicio + len(frase)
        saida.append((frase, inicio, fim))
        pos = fim
    return saida


def palavras(texto: str) -> list[str]:
    """Word tokens, lower case, accents removed."""
    return re.findall(r"[a-z0-9]+", sem_acento(texto))


def radical(palavra: str) -> str:
    """A crude stem: enough to match "segurança"/"seguro" apart and "educação"/"educacional" together."""
    p = palavra
    for sufixo in ("coes", "cao", "mente", "idades", "idade", "istas", "ista", "ais", "oes", "s"):
        if p.endswith(sufixo) and len(p) - len(sufixo) >= 4:
            p = p[: -len(sufixo)]
            break
    return p[:6]


def temas(texto: str) -> set[str]:
    """Stems of the content words of a text (stopwords and generic question words removed)."""
    return {
        radical(p)
        for p in palavras(texto)
        if len(p) > 2 and p not in STOPWORDS and p not in GENERICAS and not p.isdigit()
    }


def similaridade(a: str, b: str) -> float:
    """Jaccard similarity of the content stems of two texts (0..1)."""
    ta, tb = temas(a), temas(b)
    if not ta or not tb:
        return 0.0
    return len(ta & tb) / len(ta | tb)


# ---------------------------------------------------------------- numbers

_UNIDADES_EXTENSO = {
    "zero": 0,
    "um": 1,
    "uma": 1,
    "dois": 2,
    "duas": 2,
    "tres": 3,
    "quatro": 4,
    "cinco": 5,
    "seis": 6,
    "sete": 7,
    "oito": 8,
    "nove": 9,
    "dez": 10,
    "onze": 11,
    "doze": 12,
    "treze": 13,
    "quatorze": 14,
    "catorze": 14,
    "quinze": 15,
    "dezesseis": 16,
    "dezessete": 17,
    "dezoito": 18,
    "dezenove": 19,
    "vinte": 20,
    "trinta": 30,
    "quarenta": 40,
    "cinquenta": 50,
    "sessenta": 60,
    "setenta": 70,
    "oitenta": 80,
    "noventa": 90,
    "cem": 100,
    "cento": 100,
    "duzentos": 200,
    "duzentas": 200,
    "trezentos": 300,
    "trezentas": 300,
    "quatrocentos": 400,
    "quinhentos": 500,
    "seiscentos": 600,
    "setecentos": 700,
    "oitocentos": 800,
    "novecentos": 900,
    "meio": 0.5,
    "meia": 0.5,
}
_MULTIPLICADORES = {
    "mil": 1e3,
    "milhao": 1e6,
    "milhoes": 1e6,
    "mi": 1e6,
    "bilhao": 1e9,
    "bilhoes": 1e9,
    "bi": 1e9,
    "trilhao": 1e12,
    "trilhoes": 1e12,
    "tri": 1e12,
}
_NUM = r"\d{1,3}(?:\.\d{3})+(?:,\d+)?|\d+(?:,\d+)?"
_EXT = "|".join(sorted(_UNIDADES_EXTENSO, key=len, reverse=True))
_MULT = "|".join(sorted(_MULTIPLICADORES, key=len, reverse=True))
_NUMERO = re.compile(
    rf"(?P<rs>r\$\s*)?(?P<n>{_NUM}|(?:{_EXT})(?:\s+e\s+(?:{_EXT}))*)"
    rf"(?:\s+(?P<m>{_MULT})\b(?:\s+e\s+(?P<n2>{_NUM}|{_EXT})\s+(?:mil)\b)?)?"
    r"(?P<pct>\s*%|\s+por\s+cento)?(?P<reais>\s+(?:de\s+)?reais)?",
)


@dataclass(frozen=True)
class Numero:
    """A number found in a text, with its unit ("%", "R$", "ano" or "")."""

    valor: float
    unidade: str
    trecho: str
    inicio: int
    fim: int


def _valor(bruto: str) -> float:
    if bruto[0].isdigit():
        return float(bruto.replace(".", "").replace(",", "."))
    return float(sum(_UNIDADES_EXTENSO[p] for p in bruto.split() if p in _UNIDADES_EXTENSO))


def numeros(texto: str) -> list[Numero]:
    """Numbers stated in a text, as values (multipliers applied) with their unit."""
    base = alinhado(texto)
    achados = []
    for m in _NUMERO.finditer(base):
        bruto = m.group("n")
        # A spelled-out number must stand alone ("uma" inside "alguma" is not a number).
        antes = base[m.start("n") - 1] if m.start("n") > 0 else " "
        depois = base[m.end("n")] if m.end("n") < len(base) else " "
        if antes.isalnum() or depois.isalnum():
            continue
        if bruto in ("um", "uma", "meio", "meia") and not m.group("m") and not m.group("pct"):
            continue  # "um", "uma" alone are articles, not quantities
        valor = _valor(bruto)
        if m.group("m"):
            valor *= _MULTIPLICADORES[m.group("m")]
            if m.group("n2"):
                valor += _valor(m.group("n2")) * 1e3
        if m.group("pct"):
            unidade = "%"
        elif m.group("rs") or m.group("reais"):
            unidade = "R$"
        elif bruto.isdigit() and len(bruto) == 4 and 1900 <= valor <= 2100 and not m.group("m"):
            unidade = "ano"
        else:
            unidade = ""
        achados.append(Numero(valor, unidade, texto[m.start() : m.end()].strip(), m.start(), m.end()))
    return achados


def diferenca_relativa(afirmado: float, referencia: float) -> float:
    """|afirmado − referência| / |referência| (0 when both are zero)."""
    if referencia == 0:
        return 0.0 if afirmado == 0 else 1.0
    return abs(afirmado - referencia) / abs(referencia)

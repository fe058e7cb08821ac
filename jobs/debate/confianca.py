"""Transcript confidence: which machine transcription is trustworthy enough to be scored.

Whisper says how sure it is: per word (probability) and per segment (average log-probability,
no-speech probability, compression ratio, which is high when the decoder loops). A Portuguese
lexicon check adds what the decoder cannot see: garbled audio often comes out as fluent-looking
non-words ("Carmenci", "Fui Macau"). The audio job stores these measures with every utterance
(`confianca` in `transcricao.jsonl`); the engine adds them up over a turn's answer and holds the
turn ("transcrição em revisão": not scored, not checked) when any falls past its threshold, until
an editor confirms or corrects the text (`eleicoes debate editar transcricao`).

Every threshold lives here, once; `benchmarks/confianca_bench.py` measures how many clean and
garbled utterances each lets through (figures in docs/QUALIDADE.md).
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

# Thresholds (docs/QUALIDADE.md, "Confiança da transcrição"). The segment-level ones start from
# faster-whisper's own fallback thresholds (no-speech 0.6, compression 2.4); word probability,
# log-probability and the lexicon share were chosen on the benchmark's first three sentences
# (espeak-ng voices, clean and in noise) and are reported on the others.
PROB_PALAVRA_MIN = 0.4  # mean word probability
LOGPROB_MIN = -0.9  # mean segment average log-probability (per word)
SEM_FALA_MAX = 0.6  # mean no-speech probability (per word)
COMPRESSAO_MAX = 2.4  # mean compression ratio (per word)
LEXICO_MIN = 0.85  # share of words found in the Portuguese lexicon
LEXICO_MIN_PALAVRAS = 4  # fewer words checked than this: the lexicon share says too little

NIVEL_ALTA = "alta"
NIVEL_BAIXA = "baixa"


@dataclass(frozen=True)
class Medidas:
    """Confidence measures of a stretch of transcript, as word-weighted means."""

    palavras: int
    prob: float  # mean word probability
    logprob: float  # mean segment average log-probability
    sem_fala: float  # mean segment no-speech probability
    compressao: float  # mean segment compression ratio
    verificadas: int = 0  # words looked up in the lexicon (alphabetic, not participants' names)
    conhecidas: int = 0  # of those, found

    @property
    def lexico(self) -> float | None:
        """Share of the checked words found in the lexicon (None when none was checked)."""
        return self.conhecidas / self.verificadas if self.verificadas else None

    def para_json(self) -> dict[str, Any]:
        """Plain dict stored with each utterance (`confianca`)."""
        return {k: (round(v, 4) if isinstance(v, float) else v) for k, v in asdict(self).items()}


def de_json(dados: Any) -> Medidas | None:
    """Measures read back from an utterance; None when absent or malformed (no machine data)."""
    if not isinstance(dados, Mapping):
        return None
    try:
        inteiros = {k: dados.get(k, 0) for k in ("palavras", "verificadas", "conhecidas")}
        reais = {k: dados[k] for k in ("prob", "logprob", "sem_fala", "compressao")}
    except KeyError:
        return None
    if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in inteiros.values()):
        return None
    if not all(
        isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) for v in reais.values()
    ):
        return None
    if inteiros["conhecidas"] > inteiros["verificadas"]:
        return None
    return Medidas(
        palavras=int(inteiros["palavras"]),
        prob=float(reais["prob"]),
        logprob=float(reais["logprob"]),
        sem_fala=float(reais["sem_fala"]),
        compressao=float(reais["compressao"]),
        verificadas=int(inteiros["verificadas"]),
        conhecidas=int(inteiros["conhecidas"]),
    )


@dataclass(frozen=True)
class MedidaPalavra:
    """What the machine said about one word: its probability, its Whisper segment's measures, and
    whether the lexicon knows it (None: not looked up, e.g. a number)."""

    prob: float
    logprob: float
    sem_fala: float
    compressao: float
    conhecida: bool | None = None

    def para_json(self) -> dict[str, Any]:
        """The keys stored beside the word in `transcricao.jsonl`."""
        dados: dict[str, Any] = {
            "prob": round(self.prob, 4),
            "logprob": round(self.logprob, 4),
            "sem_fala": round(self.sem_fala, 4),
            "compressao": round(self.compressao, 4),
        }
        if self.conhecida is not None:
            dados["lexico"] = self.conhecida
        return dados


def _real(valor: Any) -> float | None:
    ok = isinstance(valor, int | float) and not isinstance(valor, bool) and math.isfinite(valor)
    return float(valor) if ok else None


def palavra_de_json(dados: Mapping[str, Any]) -> MedidaPalavra | None:
    """A stored word's measures; None when the transcript has none for it (older or hand-made)."""
    prob, logprob = _real(dados.get("prob")), _real(dados.get("logprob"))
    sem_fala, compressao = _real(dados.get("sem_fala")), _real(dados.get("compressao"))
    if prob is None or logprob is None or sem_fala is None or compressao is None:
        return None
    conhecida = dados.get("lexico")
    return MedidaPalavra(
        prob, logprob, sem_fala, compressao, conhecida if isinstance(conhecida, bool) else None
    )


def das_palavras(palavras: Sequence[MedidaPalavra]) -> Medidas | None:
    """The measures of a stretch from its words' own measures (None when it has no word)."""
    n = len(palavras)
    if n == 0:
        return None
    checadas = [w.conhecida for w in palavras if w.conhecida is not None]
    return Medidas(
        palavras=n,
        prob=sum(w.prob for w in palavras) / n,
        logprob=sum(w.logprob for w in palavras) / n,
        sem_fala=sum(w.sem_fala for w in palavras) / n,
        compressao=sum(w.compressao for w in palavras) / n,
        verificadas=len(checadas),
        conhecidas=sum(checadas),
    )


def combinar(partes: Iterable[Medidas]) -> Medidas | None:
    """The measures of several stretches together (word-weighted); None when nothing has words."""
    lista = [m for m in partes if m.palavras > 0]
    total = sum(m.palavras for m in lista)
    if total == 0:
        return None

    def media(campo: Callable[[Medidas], float]) -> float:
        return sum(campo(m) * m.palavras for m in lista) / total

    return Medidas(
        palavras=total,
        prob=media(lambda m: m.prob),
        logprob=media(lambda m: m.logprob),
        sem_fala=media(lambda m: m.sem_fala),
        compressao=media(lambda m: m.compressao),
        verificadas=sum(m.verificadas for m in lista),
        conhecidas=sum(m.conhecidas for m in lista),
    )


def _n(valor: float) -> str:
    return f"{valor:.2f}".replace(".", ",")


def _lexico_baixo(m: Medidas) -> bool:
    lexico = m.lexico
    return lexico is not None and m.verificadas >= LEXICO_MIN_PALAVRAS and lexico < LEXICO_MIN


@dataclass(frozen=True)
class Criterio:
    """One threshold of the gate: its name, when it fails, and how it is explained (Portuguese)."""

    nome: str
    falha: Callable[[Medidas], bool]
    explicar: Callable[[Medidas], str]


_PROB = Criterio(
    f"certeza média das palavras < {_n(PROB_PALAVRA_MIN)}",
    lambda m: m.prob < PROB_PALAVRA_MIN,
    lambda m: f"certeza média das palavras {_n(m.prob)} (mínimo {_n(PROB_PALAVRA_MIN)})",
)
# The three measures of Whisper's segments, judged the same way on an utterance and on an item.
CRITERIOS_SEGMENTO = (
    Criterio(
        f"log-probabilidade média < {_n(LOGPROB_MIN)}",
        lambda m: m.logprob < LOGPROB_MIN,
        lambda m: f"log-probabilidade média {_n(m.logprob)} (mínimo {_n(LOGPROB_MIN)})",
    ),
    Criterio(
        f"probabilidade de não haver fala > {_n(SEM_FALA_MAX)}",
        lambda m: m.sem_fala > SEM_FALA_MAX,
        lambda m: f"probabilidade de não haver fala {_n(m.sem_fala)} (máximo {_n(SEM_FALA_MAX)})",
    ),
    Criterio(
        f"compressão > {_n(COMPRESSAO_MAX)}",
        lambda m: m.compressao > COMPRESSAO_MAX,
        lambda m: f"texto repetitivo: compressão {_n(m.compressao)} (máximo {_n(COMPRESSAO_MAX)})",
    ),
)
_LEXICO = Criterio(
    f"palavras no dicionário < {round(100 * LEXICO_MIN)}% (com {LEXICO_MIN_PALAVRAS} ou mais)",
    _lexico_baixo,
    lambda m: (
        f"{m.verificadas - m.conhecidas} de {m.verificadas} palavras fora do dicionário "
        f"(até {round(100 * (1 - LEXICO_MIN))}% aceitas)"
    ),
)
CRITERIOS = (_PROB, *CRITERIOS_SEGMENTO, _LEXICO)


def motivos(m: Medidas | None) -> tuple[str, ...]:
    """Why a transcript is below the threshold, in Portuguese; empty when it passes (or has no data)."""
    if m is None or m.palavras == 0:
        return ()
    return tuple(c.explicar(m) for c in CRITERIOS if c.falha(m))


def nivel(m: Medidas | None) -> str:
    """ "baixa" when some measure is past its threshold, else "alta"."""
    return NIVEL_BAIXA if motivos(m) else NIVEL_ALTA


# --- the item level ----------------------------------------------------------------------------
# A scored item (a proposal, a checkable claim, an attack, the question a turn answers) is judged
# on its own words, which are few: one misheard word can change what it says ("contratar" heard as
# "contra a"), and a turn's average hides it. So the item level is stricter than the utterance's.
ITEM_PROB_MIN = 0.5  # mean probability of the item's words
ITEM_PROB_PALAVRA_MIN = 0.2  # every word of the item: below this, Whisper was guessing that word
ITEM_FORA_DO_LEXICO_MAX = 0  # words the lexicon does not know (participants' names are known)


@dataclass(frozen=True)
class MedidasItem:
    """Confidence of one scored item's own words."""

    medidas: Medidas  # word-weighted means over the item's words (lexicon: only words checked)
    prob_min: float  # the least sure word
    palavra_min: str  # that word, as transcribed
    fora_do_lexico: tuple[str, ...]  # words the lexicon does not know


@dataclass(frozen=True)
class CriterioItem:
    """One threshold of the item gate."""

    nome: str
    falha: Callable[[MedidasItem], bool]
    explicar: Callable[[MedidasItem], str]


def _do_segmento(c: Criterio) -> CriterioItem:
    return CriterioItem(c.nome, lambda mi: c.falha(mi.medidas), lambda mi: c.explicar(mi.medidas))


CRITERIOS_ITEM = (
    CriterioItem(
        f"certeza média das palavras do item < {_n(ITEM_PROB_MIN)}",
        lambda mi: mi.medidas.prob < ITEM_PROB_MIN,
        lambda mi: f"certeza média das palavras {_n(mi.medidas.prob)} (mínimo {_n(ITEM_PROB_MIN)})",
    ),
    CriterioItem(
        f"alguma palavra do item com certeza < {_n(ITEM_PROB_PALAVRA_MIN)}",
        lambda mi: mi.prob_min < ITEM_PROB_PALAVRA_MIN,
        lambda mi: (
            f"a palavra “{mi.palavra_min}” foi ouvida com certeza {_n(mi.prob_min)} "
            f"(mínimo {_n(ITEM_PROB_PALAVRA_MIN)})"
        ),
    ),
    CriterioItem(
        f"mais de {ITEM_FORA_DO_LEXICO_MAX} palavra(s) do item fora do dicionário",
        lambda mi: len(mi.fora_do_lexico) > ITEM_FORA_DO_LEXICO_MAX,
        lambda mi: "fora do dicionário: " + ", ".join(f"“{p}”" for p in mi.fora_do_lexico),
    ),
    *(_do_segmento(c) for c in CRITERIOS_SEGMENTO),
)


def medir_item(palavras: Sequence[tuple[str, MedidaPalavra]]) -> MedidasItem | None:
    """The item measures of (word, its measures) pairs; None without any."""
    medidas = das_palavras([m for _, m in palavras])
    if medidas is None:
        return None
    menor = min(palavras, key=lambda par: par[1].prob)
    fora = tuple(dict.fromkeys(normalizar_palavra(p) for p, m in palavras if m.conhecida is False))
    return MedidasItem(medidas, menor[1].prob, normalizar_palavra(menor[0]), fora)


def motivos_item(mi: MedidasItem | None) -> tuple[str, ...]:
    """Why an item's words are below the item thresholds (Portuguese); empty when it passes or has
    no machine measures (typed or edited text)."""
    if mi is None:
        return ()
    return tuple(c.explicar(mi) for c in CRITERIOS_ITEM if c.falha(mi))


# --- the lexicon ------------------------------------------------------------------------------


def normalizar_palavra(palavra: str) -> str:
    """Lower case, without surrounding punctuation or hyphens ("-meu," -> "meu")."""
    return unicodedata.normalize("NFC", palavra.strip(" \t-–—.,;:!?…\"'“”‘’()[]«»").lower())


def verificavel(palavra: str) -> bool:
    """Whether a word is looked up: letters only (numbers, symbols and initials are not)."""
    limpa = palavra.replace("-", "")
    return len(limpa) >= 2 and limpa.isalpha()


def _nomes(nomes: Iterable[str]) -> frozenset[str]:
    return frozenset(normalizar_palavra(parte) for nome in nomes for parte in nome.split() if parte.strip())


@dataclass(frozen=True)
class Lexico:
    """Known Portuguese word forms, plus the participants' names of the debate."""

    palavras: frozenset[str]
    nomes: frozenset[str] = frozenset()

    def conhece(self, palavra: str) -> bool:
        """Whether the (normalized) word is known; a hyphenated form is known when all parts are."""
        if palavra in self.palavras or palavra in self.nomes:
            return True
        partes = [p for p in palavra.split("-") if p]
        return len(partes) > 1 and all(p in self.palavras or p in self.nomes for p in partes)

    def situacao(self, bruta: str) -> bool | None:
        """Whether one word as transcribed is known (None: not a word that is looked up)."""
        p = normalizar_palavra(bruta)
        return self.conhece(p) if verificavel(p) else None

    def contar(self, palavras: Iterable[str]) -> tuple[int, int]:
        """(checked, known) over the words that can be looked up."""
        verificadas = conhecidas = 0
        for bruta in palavras:
            p = normalizar_palavra(bruta)
            if not verificavel(p):
                continue
            verificadas += 1
            conhecidas += self.conhece(p)
        return verificadas, conhecidas

    def com_nomes(self, nomes: Iterable[str]) -> Lexico:
        """The same lexicon knowing these names too (the debate's participants)."""
        return Lexico(self.palavras, self.nomes | _nomes(nomes))


def lexico_portugues() -> Lexico:
    """The Portuguese word list shipped by `pyspellchecker` (a project dependency; no download).

    Raises ErroLexico (Portuguese) when the package is missing, so the gate never silently passes
    everything.
    """
    try:
        from spellchecker import SpellChecker
    except ImportError as exc:
        raise ErroLexico(
            "o dicionário de português (pacote pyspellchecker) não está instalado; "
            "instale as dependências do projeto"
        ) from exc
    corretor = SpellChecker(language="pt", distance=1)
    return Lexico(frozenset(normalizar_palavra(p) for p in corretor.word_frequency.dictionary))


class ErroLexico(RuntimeError):  # noqa: N818 - Portuguese names, like the other jobs
    """The lexicon cannot be loaded; the message is in Portuguese."""

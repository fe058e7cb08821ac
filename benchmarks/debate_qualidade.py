"""Quality of the debate analysis backends: the project's Portuguese gold set and two public datasets.

    python benchmarks/debate_qualidade.py                    # rule-based backend, writes docs/QUALIDADE.md
    python benchmarks/debate_qualidade.py --backend openai   # the endpoint of [analise] in eleicoes.toml

Measures (each backend):
- gold set (`tests/debate/dados/ouro-debates.json`, written for this project): precision/recall of
  checkable claims, personal attacks and proposals per utterance; agreement on proposal items; on
  question/answer turns, agreement on question parts, parts answered, evasion band and evasion type;
- CT24 check-worthiness (Spanish tweets, CLEF 2024 dev-test): precision/recall of "check-worthy";
- QEvasion (English interviews, test split): the evasion band against the annotators' majority,
  with the dataset authors' mapping to three classes (Explicit = clear reply; Implicit, Dodging,
  Deflection, Partial, General, Contradictory = ambivalent; Declining, Claims ignorance,
  Clarification = clear non-reply): agreement, macro-F1 and the majority-class baseline.
Writes the "## Debates" section of docs/QUALIDADE.md and the figures the method page quotes to
docs/qualidade-debates.json.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

RAIZ = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(RAIZ))

from jobs.analise.afirmacoes import Analisador, AnalisadorRegras, analisador_de  # noqa: E402
from jobs.analise.config import ConfigAnalise, carregar_config_analise  # noqa: E402
from jobs.analise.turnos import AvaliacaoTurno, AvaliadorTurnos, EntradaTurno, avaliador_de  # noqa: E402
from jobs.debate.checagem import checaveis  # noqa: E402
from site_builder.marked_section import write_marked_section  # noqa: E402

OURO = RAIZ / "tests" / "debate" / "dados" / "ouro-debates.json"
QUALIDADE_MD = RAIZ / "docs" / "QUALIDADE.md"
FIGURAS_JSON = RAIZ / "docs" / "qualidade-debates.json"
DATASETS = Path("/work/shared/datasets/factcheck")
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


def avaliar_ct24(analisador: Analisador, limite: int | None = None) -> PR | None:
    """Check-worthiness on the CLEF 2024 Spanish dev-test tweets (None when the file is absent)."""
    caminho = DATASETS / "CT24_checkworthy_spanish_dev-test.tsv"
    if not caminho.exists():
        return None
    pr = PR()
    with caminho.open(encoding="utf-8") as arquivo:
        leitor = csv.DictReader(arquivo, delimiter="\t", quoting=csv.QUOTE_NONE)
        for i, linha in enumerate(leitor):
            if limite is not None and i >= limite:
                break
            pr.somar(linha["class_label"].strip() == "Yes", bool(checaveis(linha["tweet_text"], analisador)))
    return pr


CLASSES_QEVASION = ("resposta clara", "ambivalente", "sem resposta")
# The authors' mapping (Thomas et al., EMNLP 2024, "I Never Said That"): only Explicit is a clear
# reply; Implicit is ambivalent. "2.9 Diffusion" is not in their final taxonomy; it follows the
# dataset's numbering (2.6-2.9, clear non-reply).
CLASSE_DO_ROTULO_QEVASION = {
    "1.1": "resposta clara",
    "1.2": "ambivalente",
    "2.1": "ambivalente",
    "2.2": "ambivalente",
    "2.3": "ambivalente",
    "2.4": "ambivalente",
    "2.5": "ambivalente",
    "2.6": "sem resposta",
    "2.7": "sem resposta",
    "2.8": "sem resposta",
    "2.9": "sem resposta",
}


def _classe_qevasion(rotulo: str) -> str:
    return CLASSE_DO_ROTULO_QEVASION[rotulo.strip().split(" ")[0]]


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


def avaliar_qevasion(avaliador: AvaliadorTurnos, limite: int | None = None) -> dict[str, Any] | None:
    """Evasion band against the majority of QEvasion's three annotators (None when absent)."""
    caminho = DATASETS / "qevasion" / "test_set.csv"
    if not caminho.exists():
        return None
    acordo = Acordo()
    confusao: Counter[tuple[str, str]] = Counter()
    verdade_total: Counter[str] = Counter()
    with caminho.open(encoding="utf-8") as arquivo:
        for i, linha in enumerate(csv.DictReader(arquivo)):
            if limite is not None and i >= limite:
                break
            votos = Counter(_classe_qevasion(linha[f"Annotator{k}"]) for k in (1, 2, 3))
            verdade = votos.most_common(1)[0][0]
            a = avaliador.avaliar(EntradaTurno(linha["Interview Answer"].strip(), linha["Question"].strip()))
            prevista = _classe_prevista(a)
            acordo.somar(prevista == verdade)
            confusao[(verdade, prevista)] += 1
            verdade_total[verdade] += 1
    classe_maioria, n_maioria = verdade_total.most_common(1)[0] if verdade_total else ("", 0)
    sempre_maioria: Counter[tuple[str, str]] = Counter(
        {(v, classe_maioria): n for v, n in verdade_total.items()}
    )
    return {
        "acordo": acordo,
        "confusao": confusao,
        "f1_macro": f1_macro(confusao, CLASSES_QEVASION),
        "maioria": n_maioria / acordo.total if acordo.total else 0.0,
        "maioria_f1_macro": f1_macro(sempre_maioria, CLASSES_QEVASION),
        "classe_maioria": classe_maioria,
        "classes": verdade_total,
    }


def _tabela_confusao(
    confusao: Counter[tuple[str, str]], linhas: Iterable[str], colunas: Iterable[str]
) -> str:
    colunas = list(colunas)
    saida = ["| verdade \\ previsto | " + " | ".join(colunas) + " |", "|---|" + "---:|" * len(colunas)]
    for v in linhas:
        saida.append(f"| {v} | " + " | ".join(str(confusao[(v, p)]) for p in colunas) + " |")
    return "\n".join(saida)


def relatorio(
    nome: str, ouro: dict[str, Any], ct24: PR | None, qev: dict[str, Any] | None, segundos: float
) -> str:
    """The Markdown of one backend's results."""
    linhas = [
        f"### Backend `{nome}`",
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
    ]
    if ct24 is not None:
        linhas.append(ct24.linha("CT24 (espanhol): tuíte checável"))
    itens = ", ".join(f"{k.replace('_', ' ')} {v.texto()}" for k, v in ouro["itens"].items())
    linhas += [
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
    ]
    if qev is not None:
        linhas += [
            "",
            f"QEvasion (inglês, {qev['acordo'].total} respostas, maioria de 3 anotadores; classes dos "
            "autores do conjunto: só *Explicit* é resposta clara, *Implicit* é ambivalente):",
            "",
            "| medida | este backend | sempre a classe mais comum |",
            "|---|---:|---:|",
            f"| acordo | {qev['acordo'].texto()} | {qev['maioria']:.2f} ({qev['classe_maioria']}) |",
            f"| F1 macro (3 classes) | {qev['f1_macro']:.2f} | {qev['maioria_f1_macro']:.2f} |",
            "",
            _tabela_confusao(qev["confusao"], CLASSES_QEVASION, CLASSES_QEVASION),
        ]
    linhas += ["", f"Tempo total desta avaliação: {segundos:.1f} s."]
    return "\n".join(linhas)


def escrever_secao(corpo: str, caminho: Path = QUALIDADE_MD) -> None:
    """Replace (or append) this project's "## Debates" section, leaving every other section alone."""
    write_marked_section(caminho, "Debates", f"## Debates\n\n{corpo}", CABECALHO)


def figuras_evasao(qev: dict[str, Any]) -> dict[str, Any]:
    """The QEvasion figures the method page quotes (rounded as printed)."""
    return {
        "respostas": qev["acordo"].total,
        "acordo": round(qev["acordo"].taxa, 2),
        "f1_macro": round(qev["f1_macro"], 2),
        "maioria_acordo": round(qev["maioria"], 2),
        "maioria_f1_macro": round(qev["maioria_f1_macro"], 2),
        "classe_maioria": qev["classe_maioria"],
    }


def escrever_figuras(figuras: dict[str, Any], caminho: Path = FIGURAS_JSON) -> None:
    """Merge this run's backends into docs/qualidade-debates.json (other backends are kept)."""
    atual: dict[str, Any] = {}
    if caminho.exists():
        atual = json.loads(caminho.read_text(encoding="utf-8"))
    atual.update(figuras)
    caminho.parent.mkdir(parents=True, exist_ok=True)
    caminho.write_text(
        json.dumps(atual, ensure_ascii=False, indent=1, sort_keys=True) + "\n", encoding="utf-8"
    )


def _medir(backend: str, config: ConfigAnalise, limite: int | None) -> tuple[str, str, dict[str, Any]]:
    inicio = time.perf_counter()
    avaliador = avaliador_de(backend, config)
    analisador: Analisador = analisador_de(config) if backend == "openai" else AnalisadorRegras()
    ouro = avaliar_ouro(avaliador, analisador)
    ct24 = avaliar_ct24(analisador, limite)
    qev = avaliar_qevasion(avaliador, limite)
    texto = relatorio(avaliador.nome, ouro, ct24, qev, time.perf_counter() - inicio)
    return avaliador.nome, texto, {} if qev is None else {"qevasion": figuras_evasao(qev)}


def main(
    argv: list[str] | None = None,
    escrever: Callable[[str], None] = escrever_secao,
    gravar_figuras: Callable[[dict[str, Any]], None] = escrever_figuras,
) -> int:
    """Run the evaluation, write the section and the figures file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=("regras", "openai"), action="append")
    parser.add_argument(
        "--limite", type=int, default=None, help="no máximo N exemplos de cada conjunto externo"
    )
    args = parser.parse_args(argv)
    backends = args.backend or ["regras"]
    config = carregar_config_analise(RAIZ / "eleicoes.toml")
    partes = [
        "Reproduza com `python benchmarks/debate_qualidade.py` (backend de regras, embutido) ou "
        "`python benchmarks/debate_qualidade.py --backend openai` (usa o endereço, o modelo e a chave de "
        "`[analise]` em eleicoes.toml). Conjunto-ouro em `tests/debate/dados/ouro-debates.json`, "
        "escrito para "
        "este projeto; conjuntos externos em `shared/datasets/factcheck/` (CT24 espanhol dev-test; "
        "QEvasion test).",
        "",
        "O backend de regras é uma linha de base honesta: lê palavras, números e frases feitas em "
        "português, não "
        "o sentido. No CT24 (espanhol) e no QEvasion (inglês) ele trabalha fora da língua para a qual foi "
        "escrito, e os números mostram isso. O conjunto-ouro foi escrito e rotulado pela mesma equipe "
        "que escreveu "
        "as regras: os números dele são otimistas (as regras foram ajustadas vendo exemplos parecidos) "
        "e servem "
        "para pegar regressões, não para prometer acerto em debates reais.",
    ]
    figuras: dict[str, Any] = {}
    for backend in backends:
        nome, texto, medidas = _medir(backend, config, args.limite)
        partes += ["", texto]
        figuras[nome] = medidas
    if "openai" not in backends:
        partes += [
            "",
            "### Backend `openai`",
            "",
            "Não medido aqui: esta máquina não tem acesso a um endpoint compatível com OpenAI. Os testes "
            "cobrem o "
            "formato, a validação e as novas tentativas contra um servidor local; para medir a qualidade, "
            "configure `[analise]` e rode o comando acima com `--backend openai`.",
        ]
    corpo = "\n".join(partes)
    escrever(corpo)
    if args.limite is None:  # a partial run must not overwrite the figures the method page quotes
        gravar_figuras(figuras)
    print(corpo)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

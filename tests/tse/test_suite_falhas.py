"""Fault-injection suite (issue 15): the polling job against the replay server and the fault proxy.

Every fault runs the same script on a signed synthetic night (president 6258, `.jws` twins signed
with the test key): a clean first reading, then the fault while the night moves on, then the fault
clears and the night moves on again. Counted per fault:

* survived: no cycle raised or reported an error, every snapshot passes `eleicoes auditar`, and the
  first cycle after the fault clears is publishable with the clean run's numbers;
* readings lost: a file whose last valid reading is no longer in the newest snapshot, replaced by
  bytes the TSE never published, or an earlier snapshot changed;
* wrong projections published: a publishable snapshot whose numbers differ from the clean run at
  the same capture, or any publishable snapshot while the TSE was stalled (stale readings).

The tally is printed and must match the block in docs/OPERACAO.md (regenerate it with
`ATUALIZAR_DOCS=1 .venv/bin/pytest tests/tse/test_suite_falhas.py`).
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from jobs.tse.audit import audit_snapshot
from jobs.tse.client import ServerClock, TseClient
from jobs.tse.config import ConfigTse
from jobs.tse.cycle import RaceResult
from jobs.tse.night import Noite
from tests.support.assinatura import KID, chave_de_teste, public_x, sign, signed_copy
from tests.support.proxy_falhas import ProxyServer
from tests.tse.conftest import PRESIDENT, REPO, Job, Replay, job_config, saida, snapshots, tree

SP = "sp-c0001-e006258-u"
DOC = REPO / "docs" / "OPERACAO.md"
START_MARK = "<!-- suite-falhas: gerado por tests/tse/test_suite_falhas.py -->"
END_MARK = "<!-- fim da suite-falhas -->"
# Faults run at once (one bench per thread): enough to hide the waits, few enough that a clean
# answer on a loaded machine stays far inside the client's timeouts.
SIMULTANEAS = 4


@dataclass(frozen=True)
class Cenario:
    """One fault: where it is injected (replay server or proxy) and what it does, in Portuguese."""

    nome: str
    efeito: str
    replay: dict[str, Any] = field(default_factory=dict)
    proxy: dict[str, Any] = field(default_factory=dict)
    parado: bool = False  # the TSE stalls: same capture, the clock moves on
    config: dict[str, Any] = field(default_factory=dict)  # job configuration for this fault
    local_adiante_s: float = 0.0  # the machine's clock moves this far during the fault (no waiting)


CENARIOS = (
    Cenario("latencia", "toda resposta atrasada 50 ms", replay={"latencia_s": 0.05}),
    Cenario("erro_5xx", "503 no arquivo de SP", replay={"erro_5xx": [SP]}),
    Cenario("tempo_esgotado", "SP não responde", replay={"tempo_esgotado": [SP], "espera_s": 8.0}),
    Cenario("corpo_truncado", "metade do corpo de SP", replay={"truncado": [SP]}),
    Cenario("ausente_404", "SP some (404)", replay={"ausente": [SP]}),
    Cenario("arquivo_congelado", "SP para de ser atualizado", replay={"congelado": [SP]}),
    Cenario("relogio_desviado", "horário de SP 10 min adiantado", replay={"relogio_min": {SP: 10}}),
    Cenario("somas_erradas", "vvc de SP não fecha (sem .jws)", replay={"somas": [SP]}),
    Cenario("jws_adulterado", "um byte da assinatura de SP trocado", replay={"jws_adulterado": [SP]}),
    Cenario(
        "json_adulterado_sem_jws",
        "SP com líderes trocados no .json e .jws removido",
        proxy={"ausente": [f"{SP}.jws"], "adulterado": [f"{SP}.json"]},
    ),
    Cenario("conteudo_jws_adulterado", "conteúdo do .jws de SP trocado", proxy={"adulterado": [f"{SP}.jws"]}),
    Cenario("totais_menores", "SP assinado com metade do apurado", proxy={"totais_menores": [SP]}),
    Cenario("outra_eleicao", "SP assinado com a eleição 6257", proxy={"outra_eleicao": [SP]}),
    Cenario("outra_uf", "o arquivo de MG no lugar do de SP", proxy={"trocado": {SP: "mg-c0001-e006258-u"}}),
    Cenario("esquema_errado", "SP assinado sem o esquema do TSE", proxy={"esquema": [SP]}),
    Cenario("votos_negativos", "SP assinado com votos negativos", proxy={"negativos": [SP]}),
    Cenario("gotejamento", "SP chega 1 byte a cada 50 ms", proxy={"gotejar": [SP], "gotejar_s": 0.05}),
    Cenario("corpo_enorme", "SP com 3 MB (limite 1 MB)", proxy={"enorme": [SP], "enorme_bytes": 3 << 20}),
    Cenario("bomba_gzip", "SP em gzip que vira 64 MB", proxy={"bomba_gzip": [SP], "bomba_bytes": 64 << 20}),
    Cenario("tse_fora_do_ar", "503 em todos os arquivos", replay={"erro_5xx": ["*-u"]}),
    # Issue 22: impossible numbers the TSE itself signed, hostile config files, bad bytes, transport.
    Cenario(
        "votos_acima_do_eleitorado",
        "SP assinado com o líder acima do eleitorado (somas fecham)",
        proxy={"inflado": [SP]},
    ),
    Cenario("candidato_repetido", "SP assinado com o líder listado duas vezes", proxy={"repetido": [SP]}),
    Cenario(
        "candidato_renumerado", "SP assinado com o 2º colocado renumerado (77)", proxy={"renumerado": [SP]}
    ),
    Cenario("digito_sobrescrito", 'SP assinado com "²" em s.ts', proxy={"digitos": [SP]}),
    Cenario("numero_de_5000_digitos", "SP assinado com um número de 5.000 dígitos", proxy={"gigante": [SP]}),
    Cenario("json_profundo", "SP assinado com JSON aninhado 100.000 níveis", proxy={"profundo": [SP]}),
    Cenario(
        "corpo_cortado_na_transferencia", "metade do corpo de SP e a conexão fechada", proxy={"cortado": [SP]}
    ),
    Cenario(
        "cabecalho_gotejado",
        "cabeçalhos de SP 1 byte a cada 50 ms",
        proxy={"gotejar_cabecalho": [SP], "gotejar_s": 0.05},
    ),
    Cenario(
        "catalogo_outro_host",
        "ele-c.json manda os -u.json para outro host (@), com líderes trocados e sem .jws",
        proxy={"catalogo_modelo": "<base>@{mal}/<ambiente>/<ciclo>/<cd_eleicao>/dados/<uf>"},
        config={"catalogo_intervalo_s": 0.0},
    ),
    Cenario(
        "municipio_fora_da_pasta",
        "mun-e006258-cm.json com a UF ../../../../esc",
        proxy={"municipio_codigo": "../../../../esc"},
        config={"catalogo_intervalo_s": 0.0},
    ),
    Cenario("apuracao_parada", "nada novo por 10 min", replay={"avanco_min": 10}, parado=True),
    # Issue 22, item 4: a cycle that cannot complete is never shown as current.
    Cenario(
        "tse_fora_do_ar_6_min",
        "503 em tudo (catálogo incluído) por 6 min do relógio da noite",
        replay={"erro_5xx": ["*"], "avanco_min": 6},
        parado=True,
    ),
    # Issue 22, item 8: a CDN answering cached responses freezes `Date` while the night stalls.
    Cenario(
        "data_congelada",
        "Date do servidor parado no início da noite; 6 min passam no relógio da máquina",
        replay={"data_congelada": "2026-10-25T20:30:00Z"},
        parado=True,
        local_adiante_s=6 * 60.0,
    ),
)


@dataclass
class Resultado:
    """What one fault did."""

    cenario: Cenario
    sobreviveu: bool = False
    perdidas: int = 0
    erradas: int = 0
    leitura_sp: str = ""
    criterios: tuple[str, ...] = ()
    problemas: list[str] = field(default_factory=list)


@dataclass
class Bancada:
    """A replay server over the signed night and the fault proxy in front of it."""

    replay: Replay
    proxy: ProxyServer


@contextmanager
def _bancada(noite: Path) -> Iterator[Bancada]:
    """Start a bench on free loopback ports; stopped on exit."""
    from jobs.tse.replay import make_server

    server = make_server(noite)
    server.iniciar()
    proxy = ProxyServer(server.url_base, assinar=sign)
    proxy.iniciar()
    # Another host a hostile catalogue points at: swapped leaders, no `.jws` twins.
    mal = ProxyServer(server.url_base)
    mal.falhas(adulterado=["*-u.json"], ausente=["*.jws"])
    mal.iniciar()
    proxy.estado.outro_host = mal.url_base.removeprefix("http://")
    try:
        yield Bancada(Replay(server), proxy)
    finally:
        mal.parar()
        proxy.parar()
        server.parar()


@pytest.fixture(scope="module")
def noite_assinada(synthetic_night: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The synthetic night with `.jws` twins signed by the test key (read-only: servers only read it)."""
    return signed_copy(synthetic_night, tmp_path_factory.mktemp("suite") / "noite")


class _Clock:
    """The machine's monotonic clock, moved forward by a fault's script (no real waiting)."""

    def __init__(self) -> None:
        self.adiante = 0.0

    def __call__(self) -> float:
        return time.monotonic() + self.adiante


def _config(url: str, dados: Path, **extra: Any) -> ConfigTse:
    return job_config(
        url,
        dados,
        PRESIDENT,
        jws_kid=KID,
        jws_x=public_x(),
        tempo_limite_s=5.0,  # generous: a loaded machine must not turn a clean answer into a fault
        prazo_total_s=5.0,
        tamanho_maximo_mb=1.0,
        **extra,
    )


def _numbers(out: dict[str, Any]) -> list[tuple[int, float, list[float]]]:
    return [(c["numero"], c["pct"], c["intervalo"]) for c in out["forecast"]["candidatos"]]


def _cycle(job: Job, res: Resultado) -> RaceResult | None:
    try:
        [r] = job.ciclo()
    except Exception as exc:  # the tally counts it: a fault must never crash the job
        res.problemas.append(f"exceção: {type(exc).__name__}: {exc}")
        return None
    if r.erro:
        res.problemas.append(f"erro: {r.erro}")
    return r


def _reading_state(entry: dict[str, Any]) -> str:
    if entry.get("status") is None:
        estado = "sem leitura"
    elif entry.get("preservado"):
        estado = "anterior preservada"
    elif entry.get("http") == 304:
        estado = "a mesma (304)"
    else:
        estado = "nova, aceita"
    if entry.get("rejeitado"):
        estado += "; recusada guardada em rejeitados/"
    return estado


class Bancadas:
    """One bench per thread of the pool, started at its first fault and reused (each fault clears
    the faults and rewinds the night first, as one bench did for the faults in a row)."""

    def __init__(self, noite: Path, pilha: ExitStack) -> None:
        self.noite = noite
        self._pilha = pilha
        self._lock = threading.Lock()
        self._local = threading.local()

    def desta_thread(self) -> Bancada:
        """This thread's bench."""
        bancada: Bancada | None = getattr(self._local, "bancada", None)
        if bancada is None:
            with self._lock:  # ExitStack is not thread-safe
                bancada = self._pilha.enter_context(_bancada(self.noite))
            self._local.bancada = bancada
        return bancada


def run_fault(
    c: Cenario,
    bancadas: Bancadas,
    referencia: dict[int, list[tuple[int, float, list[float]]]],
    dados: Path,
    make_job: Callable[[ConfigTse], Job],
) -> Resultado:
    """The script of one fault (see the module docstring), on its thread's bench."""
    b = bancadas.desta_thread()
    b.replay.limpar()
    b.proxy.limpar()
    return _script(c, bancadas.noite, b.replay, b.proxy, referencia, dados, make_job)


def _script(
    c: Cenario,
    noite: Path,
    replay: Replay,
    proxy: ProxyServer,
    referencia: dict[int, list[tuple[int, float, list[float]]]],
    dados: Path,
    make_job: Callable[[ConfigTse], Job],
) -> Resultado:
    res = Resultado(c)
    replay.avancar(para=0)
    config = _config(proxy.url_base, dados, **c.config)
    job = make_job(config)
    relogio_local = _Clock()
    job.state.cliente.close()
    job.state.cliente = TseClient(config, relogio_servidor=ServerClock(relogio_local))
    race = dados / "tse" / "6258" / "presidente"
    first = _cycle(job, res)
    if first is None or first.publicavel is not True:
        motivo = first.nao_atendidos if first is not None else ()
        res.problemas.append(f"a leitura limpa inicial não é publicável: {motivo}")
        return res
    [s0] = snapshots(race)
    s0_files = tree(s0)
    replay.falhas(**c.replay)
    proxy.falhas(
        **{k: v.format(mal=proxy.estado.outro_host) if isinstance(v, str) else v for k, v in c.proxy.items()}
    )
    relogio_local.adiante = c.local_adiante_s
    visitadas = [0] if c.parado else [0, 1]
    if not c.parado:
        replay.avancar(para=1)
    r = _cycle(job, res)
    night = Noite.abrir(noite)
    allowed: dict[str, set[bytes]] = {}
    for k in visitadas:
        for nome in s0_files:
            versao = night.versao(k, nome)
            if versao is not None:
                allowed.setdefault(nome, set()).add(versao[0].read_bytes())
    durante = snapshots(race)
    latest = durante[-1]
    for nome, data in s0_files.items():
        if not nome.endswith("-u.json"):
            continue
        now = (latest / nome).read_bytes() if (latest / nome).is_file() else None
        if now is None or (now != data and now not in allowed.get(nome, set())):
            res.perdidas += 1
    if tree(s0) != s0_files:
        res.perdidas += 1
    for snap in durante[1:]:
        out = saida(snap)
        if out["publicavel"] and (c.parado or _numbers(out) != referencia[1]):
            res.erradas += 1
    if r is not None:
        cap = json.loads((latest / "captura.json").read_bytes())
        res.leitura_sp = _reading_state(cap["arquivos"][f"{SP}.json"])
        res.criterios = tuple(saida(latest)["criterios_nao_atendidos"])
    replay.limpar()
    proxy.limpar()
    replay.avancar(para=2)
    r2 = _cycle(job, res)
    last = snapshots(race)[-1]
    if r2 is None or r2.publicavel is not True or _numbers(saida(last)) != referencia[2]:
        motivo = r2.nao_atendidos if r2 is not None else ()
        res.problemas.append(f"a coleta não voltou a publicar os números certos depois da falha: {motivo}")
    for snap in snapshots(race):
        auditoria = audit_snapshot(snap, chave_de_teste())
        if not auditoria.ok:
            res.problemas.append(f"auditoria de {snap.name}: {auditoria.problemas} {auditoria.diff[:200]}")
    res.sobreviveu = not res.problemas
    return res


def tally(resultados: list[Resultado]) -> str:
    """The Markdown block recorded in docs/OPERACAO.md."""
    linhas = [
        START_MARK,
        "| falha | efeito | leitura de SP depois da falha | critérios não atendidos | sobreviveu "
        "| leituras perdidas | projeções erradas publicadas |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in resultados:
        criterios = ", ".join(f"`{c}`" for c in r.criterios) or "nenhum (publicável)"
        linhas.append(
            f"| `{r.cenario.nome}` | {r.cenario.efeito} | {r.leitura_sp} | {criterios} | "
            f"{'sim' if r.sobreviveu else 'NÃO'} | {r.perdidas} | {r.erradas} |"
        )
    sobreviveram = sum(r.sobreviveu for r in resultados)
    linhas += [
        "",
        f"Falhas testadas: {len(resultados)}; sobreviveram: {sobreviveram}; leituras perdidas: "
        f"{sum(r.perdidas for r in resultados)}; projeções erradas publicadas: "
        f"{sum(r.erradas for r in resultados)}.",
        END_MARK,
    ]
    return "\n".join(linhas)


def test_every_fault_is_survived_with_no_reading_lost_and_no_wrong_projection(
    noite_assinada: Path,
    job_factory: Callable[[ConfigTse], Job],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    with _bancada(noite_assinada) as b:
        clean = job_factory(_config(b.proxy.url_base, tmp_path / "limpo"))
        referencia: dict[int, list[tuple[int, float, list[float]]]] = {}
        for k in (0, 1, 2):
            b.replay.avancar(para=k)
            [r] = clean.ciclo()
            assert r.publicavel is True
            referencia[k] = _numbers(saida(snapshots(tmp_path / "limpo" / "tse" / "6258" / "presidente")[-1]))
    # Each thread of the pool has its own servers and each fault its own data folder, so a few
    # faults run at once: the ones that wait on purpose (a timeout, a drip cut at the deadline)
    # overlap with the others' work instead of adding up. `map` keeps the tally in CENARIOS order.
    with ExitStack() as pilha, ThreadPoolExecutor(max_workers=SIMULTANEAS) as pool:
        bancadas = Bancadas(noite_assinada, pilha)
        resultados = list(
            pool.map(lambda c: run_fault(c, bancadas, referencia, tmp_path / c.nome, job_factory), CENARIOS)
        )
    bloco = tally(resultados)
    with capsys.disabled():  # the tally is part of `make test`'s output
        print("\n" + bloco)
    for res in resultados:
        assert res.sobreviveu and res.perdidas == 0 and res.erradas == 0, (res.cenario.nome, res.problemas)
    doc = DOC.read_text(encoding="utf-8")
    inicio, fim = doc.index(START_MARK), doc.index(END_MARK) + len(END_MARK)
    if os.environ.get("ATUALIZAR_DOCS") == "1":
        DOC.write_text(doc[:inicio] + bloco + doc[fim:], encoding="utf-8")
        return
    assert doc[inicio:fim] == bloco, "docs/OPERACAO.md desatualizado: rode ATUALIZAR_DOCS=1 com este teste"

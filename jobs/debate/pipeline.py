"""One update cycle of a debate: from the transcript to `placar.json`, every stage stored.

`atualizar(debate_dir, config)` (pinned in PINS.md) is called by the audio job after each append
and by `eleicoes debate atualizar`. It recomputes whatever changed, idempotently: roles, turns and
questions are cheap and recomputed from the whole transcript; evaluations and checks are cached
by a checksum of their inputs, so a finished turn is evaluated once (again only if its text, its
question or the backend changes). Each stage file is written atomically and only when it changes.

Files under `data/debates/<id>/`:
  papeis.json, turnos.json, perguntas.json            stages 1-3
  avaliacao.json                                      stage 4 (per turn, with cache keys)
  checagens.json, checagens-revisadas.json           stages 5-6
  placar-entrada.json, placar.json                    stage 7 (v2: the AVALIACOES input and output)
                                                      (placar.json: `atualizado_em`, kept while unchanged)
  avaliacao-v1.json, placar-v1-entrada.json, placar-v1.json   debates before 18 Oct 2026 (v1)
  itens-em-revisao.json                               scored items held for their words' confidence
  pagina.json                                         stage 8: what the page shows that the engine computes
  estado.json                                         warnings and progress of the last cycle
  transcricao-conferida.json                          fingerprint of the last transcript used
  gravacao.json (read only)                           the audio job's mark that the recording ended
"""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from jobs.analise.afirmacoes import Analisador, AnalisadorRegras, analisador_de
from jobs.analise.llm import ErroAnalise
from jobs.analise.turnos import (
    AvaliacaoTurno,
    AvaliadorRegras,
    AvaliadorTurnos,
    EntradaTurno,
    avaliador_de,
)
from jobs.analise.turnos import de_json as avaliacao_de_json
from jobs.analise.turnos import para_json as avaliacao_para_json
from jobs.debate import checagem as etapa_checagem
from jobs.debate import itens_confianca as etapa_itens
from jobs.debate import pagina as etapa_pagina
from jobs.debate import papeis as etapa_papeis
from jobs.debate import perguntas as etapa_perguntas
from jobs.debate import placar as etapa_placar
from jobs.debate import revisao as etapa_revisao
from jobs.debate import revisao_transcricao as etapa_transcricao
from jobs.debate import turnos as etapa_turnos
from jobs.debate.armazenamento import (
    ARQ_CONFERENCIA,
    Debate,
    ErroDebate,
    Fala,
    chave,
    gravar_json,
    json_bytes,
    ler_debate,
    ler_json,
    ler_transcricao_bruta,
    recusa_transcricao,
    trava,
)
from jobs.debate.checagem import Checagem
from jobs.debate.config import DebateConfig, ErroConfig
from jobs.debate.edicoes import Edicoes, ler_edicoes
from jobs.debate.papeis import PapelLocutor
from jobs.debate.perguntas import PerguntaTurno
from jobs.debate.reuso import MemoriaDebate, memoria_do_debate
from jobs.debate.revisao import ChecagemRevisada
from jobs.debate.turnos import Turno
from jobs.fontes.busca import PASTA_CHECAGENS, BuscaFontes, busca_de, checagens_publicadas

log = logging.getLogger("eleicoes.debate")

ARQ_PAPEIS = "papeis.json"
ARQ_TURNOS = "turnos.json"
ARQ_PERGUNTAS = "perguntas.json"
ARQ_AVALIACAO = "avaliacao.json"
ARQ_AVALIACAO_V1 = "avaliacao-v1.json"
ARQ_CHECAGENS = "checagens.json"
ARQ_REVISADAS = "checagens-revisadas.json"
ARQ_ENTRADA = "placar-entrada.json"
ARQ_PLACAR = "placar.json"
ARQ_ENTRADA_V1 = "placar-v1-entrada.json"
ARQ_PLACAR_V1 = "placar-v1.json"
ARQ_ITENS = "itens-em-revisao.json"
ARQ_PAGINA = "pagina.json"
ARQ_ESTADO = "estado.json"
CHAVE_ATUALIZADO = "atualizado_em"  # placar.json: when its scoreboard last changed (UTC, ISO 8601)
ARQ_GRAVACAO = "gravacao.json"  # written by the audio job when the recording ended: {"encerrada": true, ...}
_RAIZ_CODIGO = Path(__file__).resolve().parents[2]
# Source files whose change must invalidate cached evaluations / checks (new rules, new prompt).
CODIGO_AVALIACAO = ("jobs/analise/turnos.py", "jobs/debate/texto.py", "jobs/analise/temas.py")
CODIGO_CHECAGEM = (
    "jobs/debate/checagem.py",
    "jobs/debate/reuso.py",
    "jobs/checagens/memoria.py",
    "jobs/checagens/similaridade.py",
    "jobs/debate/texto.py",
    "jobs/analise/afirmacoes.py",
    "jobs/analise/temas.py",
    "jobs/fontes/busca.py",
)
AVISO_RESERVA = "A avaliação por IA falhou ({erro}); esta nota foi dada pelas regras embutidas."


@dataclass
class Ciclo:
    """What one cycle computed (returned by `executar` for the CLI, tests and benchmarks)."""

    debate: Debate
    mudou: bool = False
    arquivos_gravados: list[str] = field(default_factory=list)
    turnos_avaliados_agora: list[str] = field(default_factory=list)
    avisos: list[str] = field(default_factory=list)
    placar: dict[str, Any] = field(default_factory=dict)


def atualizar(
    debate_dir: Path,
    config: DebateConfig | None = None,
    relogio: Callable[[], dt.datetime] | None = None,
) -> bool:
    """Run one cycle; True when any stored stage changed. Never raises for bad input: the error is
    logged in Portuguese and the last good outputs stay as they were. `relogio`: as in `executar`."""
    try:
        return executar(debate_dir, config, relogio=relogio).mudou
    except (ErroDebate, ErroConfig, etapa_placar.ErroPlacar) as exc:
        log.error("debate %s não atualizado: %s", debate_dir.name, exc)
        return False


def executar(
    debate_dir: Path,
    config: DebateConfig | None = None,
    *,
    reavaliar: bool = False,
    raiz: Path | None = None,
    relogio: Callable[[], dt.datetime] | None = None,
) -> Ciclo:
    """One cycle; raises ErroDebate (Portuguese) when `debate.toml` or `edicoes.toml` is invalid.

    `reavaliar` drops the cached evaluations and checks (e.g. after the AI backend came back).
    `raiz` is the project root (for the desk's published checks); default: three folders up.
    `relogio` gives the time stamped on a changed scoreboard (the demo passes its night's clock, the
    one its site server sends as `Date`); default: the broadcast's clock when `debate.toml` has
    `inicio` (`relogio_da_transmissao`), else the machine's.
    """
    config = config or DebateConfig()
    pasta = debate_dir
    raiz = raiz or pasta.resolve().parents[2]
    with trava(pasta):
        debate = ler_debate(pasta)
        edicoes = ler_edicoes(pasta, set(debate.candidatos()))
        leitura = ler_transcricao_bruta(pasta)
        estado_antes = ler_json(pasta / ARQ_ESTADO)
        estado_antes = estado_antes if isinstance(estado_antes, dict) else {}
        falas_antes = estado_antes.get("falas", 0)
        recusa = recusa_transcricao(
            leitura, ler_json(pasta / ARQ_CONFERENCIA), falas_antes if isinstance(falas_antes, int) else 0
        )
        if recusa is not None:
            return _recusar(pasta, debate, estado_antes, recusa)
        falas = leitura.falas
        ciclo = Ciclo(debate, avisos=list(leitura.avisos))
        # The editor's `encerrar`/`reabrir` wins; else debate.toml, or the audio job saw the recording end.
        encerrado = (
            edicoes.encerrado
            if edicoes.encerrado is not None
            else debate.encerrado or gravacao_encerrada(pasta)
        )
        papeis, falas = etapa_papeis.identificar(debate, falas, edicoes)
        turnos = etapa_turnos.segmentar(
            falas,
            papeis,
            config.aparte_max_s,
            encerrado,
            lambda f: etapa_perguntas.passa_a_vez(f, papeis.get(f.locutor)),
            debate.blocos,
        )
        turnos = etapa_transcricao.aplicar(turnos, falas, edicoes.transcricoes)
        retidos = [t for t in turnos if t.encerrado and etapa_transcricao.retido(t)]
        perguntas = etapa_perguntas.atribuir(debate, falas, papeis, turnos, edicoes)
        falas_por_id = {f.id: f for f in falas}
        # A question heard with too little confidence is not used to score a direct answer.
        retidos_itens = etapa_itens.perguntas_retidas(perguntas, turnos, falas_por_id)
        pergunta_retida = {r.turno for r in retidos_itens}
        saidas: dict[str, Any] = {
            ARQ_PAPEIS: etapa_papeis.para_json(papeis, edicoes.falas),
            ARQ_TURNOS: etapa_turnos.para_json(turnos),
            ARQ_PERGUNTAS: etapa_perguntas.para_json(perguntas),
        }
        avaliador = avaliador_de(config.backend, config.analise)
        fechados = [t for t in turnos if t.encerrado and not etapa_transcricao.retido(t)]
        por_turno = {p.turno: p for p in perguntas}
        cache = {} if reavaliar else _cache(pasta / ARQ_AVALIACAO, "turnos")
        avaliacoes, guardar = _avaliar(
            [
                (t.id, t.texto, None if t.id in pergunta_retida else por_turno[t.id].texto, t.candidato)
                for t in fechados
            ],
            debate,
            avaliador,
            cache,
            ciclo,
        )
        saidas[ARQ_AVALIACAO] = {"avaliador": avaliador.nome, "turnos": guardar}
        # The desk's published checks are read once per cycle, for the sources and the claim memory
        # (their vectors come from the embeddings cache).
        publicadas = checagens_publicadas(raiz / PASTA_CHECAGENS)
        busca = busca_de(
            config.busca,
            raiz,
            config.busca_url,
            config.busca_tempo_limite_s,
            config.indices_extras,
            publicadas,
        )
        memoria, avisos_memoria = memoria_do_debate(raiz, config.memoria, config.analise, publicadas)
        analisador = analisador_de(config.analise)
        cache_checagens = {} if reavaliar else _cache(pasta / ARQ_CHECAGENS, "turnos")
        checagens, guardar_checagens = _checar(fechados, busca, memoria, analisador, cache_checagens, ciclo)
        ciclo.avisos += avisos_memoria + memoria.memoria.avisos
        saidas[ARQ_CHECAGENS] = {"busca": busca.nome, "memoria": memoria.nome, "turnos": guardar_checagens}
        revisadas = etapa_revisao.revisar(checagens, edicoes)
        saidas[ARQ_REVISADAS] = {"checagens": [etapa_revisao.para_json(r) for r in revisadas]}
        for t in fechados:
            if t.id in avaliacoes:
                do_turno = [c for c in checagens if c.turno == t.id]
                retidos_itens += etapa_itens.itens_do_turno(t, avaliacoes[t.id], do_turno, falas_por_id)
        saidas[ARQ_ITENS] = etapa_itens.para_json(retidos_itens)
        entrada = entrada_v2(
            debate, fechados, perguntas, avaliacoes, revisadas, falas, papeis, retidos, retidos_itens
        )
        entrada_lida = etapa_placar.ler_entrada(entrada)
        ciclo.placar = carimbar(
            etapa_placar.calcular(entrada_lida),
            ler_json(pasta / ARQ_PLACAR),
            relogio or relogio_da_transmissao(debate, falas) or _agora,
        )
        saidas[ARQ_ENTRADA], saidas[ARQ_PLACAR] = entrada, ciclo.placar
        if etapa_placar.METODO_V1 in etapa_placar.metodos_do_debate(debate.data):
            cache_v1 = {} if reavaliar else _cache(pasta / ARQ_AVALIACAO_V1, "falas")
            em_revisao = {f for t in retidos for f in t.falas}
            unidades = [u for u in unidades_v1(falas, papeis) if u[0] not in em_revisao]
            avaliacoes_v1, guardar_v1 = _avaliar(unidades, debate, avaliador, cache_v1, ciclo)
            saidas[ARQ_AVALIACAO_V1] = {"avaliador": avaliador.nome, "falas": guardar_v1}
            checagens_v1 = [c for c in checagens if c.id not in {r.id for r in retidos_itens}]
            entrada1 = entrada_v1(debate, unidades, avaliacoes_v1, checagens_v1, edicoes, falas, papeis)
            saidas[ARQ_ENTRADA_V1] = entrada1
            saidas[ARQ_PLACAR_V1] = etapa_placar.calcular(etapa_placar.ler_entrada(entrada1))
        saidas[ARQ_PAGINA] = etapa_pagina.calcular(
            ciclo.placar,
            saidas.get(ARQ_PLACAR_V1),
            entrada_lida,
            saidas[ARQ_TURNOS],
            saidas[ARQ_AVALIACAO],
            saidas[ARQ_REVISADAS],
            saidas[ARQ_ITENS],
        )
        saidas[ARQ_ESTADO] = {
            "falas": len(falas),
            "turnos": len(turnos),
            "turnos_encerrados": len(fechados),
            "turno_em_andamento": next((t.id for t in turnos if not t.encerrado), None),
            "turnos_em_revisao": [t.id for t in retidos],
            "itens_em_revisao": [r.id for r in retidos_itens],
            "encerrado": encerrado,
            "locutores_sem_identificacao": sorted(
                p.locutor for p in papeis.values() if p.papel == "candidato" and not p.candidato
            ),
            "avisos": sorted(set(ciclo.avisos)),
        }
        saidas[ARQ_CONFERENCIA] = leitura.conferencia
        for nome, dados in saidas.items():
            if gravar_json(pasta / nome, dados):
                ciclo.arquivos_gravados.append(nome)
        ciclo.mudou = bool(ciclo.arquivos_gravados)
        return ciclo


def _recusar(pasta: Path, debate: Debate, estado: dict[str, Any], motivo: str) -> Ciclo:
    """Keep every stage as it was; only the status says the transcript was refused (editor alert)."""
    mensagem = f"transcrição recusada: {motivo}; placar mantido no último estado válido"
    log.warning("debate %s: %s", pasta.name, mensagem)
    ciclo = Ciclo(debate, avisos=[mensagem])
    placar = ler_json(pasta / ARQ_PLACAR)
    ciclo.placar = placar if isinstance(placar, dict) else {}
    if gravar_json(pasta / ARQ_ESTADO, {**estado, "transcricao_recusada": motivo}):
        ciclo.arquivos_gravados.append(ARQ_ESTADO)
    ciclo.mudou = bool(ciclo.arquivos_gravados)
    return ciclo


def carimbar(placar: dict[str, Any], anterior: object, relogio: Callable[[], dt.datetime]) -> dict[str, Any]:
    """The scoreboard with the time it last changed (`atualizado_em`): an unchanged scoreboard keeps
    the stored time, so a cycle with nothing new rewrites nothing."""
    if isinstance(anterior, dict) and isinstance(anterior.get(CHAVE_ATUALIZADO), str):
        sem_hora = {k: v for k, v in anterior.items() if k != CHAVE_ATUALIZADO}
        if json_bytes(sem_hora) == json_bytes(placar):
            return {**placar, CHAVE_ATUALIZADO: anterior[CHAVE_ATUALIZADO]}
    agora = relogio().astimezone(dt.UTC).replace(microsecond=0)
    return {**placar, CHAVE_ATUALIZADO: agora.isoformat()}


def relogio_da_transmissao(debate: Debate, falas: Sequence[Fala]) -> Callable[[], dt.datetime] | None:
    """The debate's own clock, when `debate.toml` says when the broadcast started (`inicio`): that
    start plus the end of the last utterance transcribed, the moment of the broadcast the scoreboard
    reflects. A recording processed later (the demo, a rerun) is then dated on the debate's day and
    hour, never on the day it was processed; a live debate gets the broadcast time its transcript
    reached. None without `inicio` (the caller falls back to the machine's clock)."""
    inicio = debate.inicio
    if inicio is None:
        return None
    fim_s = max((f.fim_s for f in falas), default=0.0)
    return lambda: inicio + dt.timedelta(seconds=fim_s)


def _agora() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def gravacao_encerrada(pasta: Path) -> bool:
    """Whether the audio job saw the recording end (`gravacao.json`): the last open turn then closes."""
    dados = ler_json(pasta / ARQ_GRAVACAO)
    return isinstance(dados, dict) and dados.get("encerrada") is True


def versao_codigo(arquivos: tuple[str, ...]) -> str:
    """Checksum of the code that produced a cached result."""
    digest = hashlib.sha256()
    for rel in arquivos:
        digest.update((_RAIZ_CODIGO / rel).read_bytes())
    return digest.hexdigest()[:12]


def _cache(caminho: Path, chave_lista: str) -> dict[str, dict[str, Any]]:
    dados = ler_json(caminho)
    if not isinstance(dados, dict) or not isinstance(dados.get(chave_lista), dict):
        return {}
    return {k: v for k, v in dados[chave_lista].items() if isinstance(v, dict) and "chave" in v}


def _nomes(debate: Debate, candidato: str) -> tuple[str, tuple[str, ...]]:
    nomes = debate.candidatos()
    return nomes.get(candidato, candidato), tuple(n for c, n in nomes.items() if c != candidato)


def _avaliar(
    unidades: list[tuple[str, str, str | None, str]],
    debate: Debate,
    avaliador: AvaliadorTurnos,
    cache: dict[str, dict[str, Any]],
    ciclo: Ciclo,
) -> tuple[dict[str, AvaliacaoTurno], dict[str, Any]]:
    """Evaluate (or take from the cache) each (id, text, question, candidate) unit."""
    avaliacoes: dict[str, AvaliacaoTurno] = {}
    guardar: dict[str, Any] = {}
    versao = versao_codigo(CODIGO_AVALIACAO)
    for uid, texto, pergunta, candidato in unidades:
        nome, adversarios = _nomes(debate, candidato)
        k = chave(versao, avaliador.nome, texto, pergunta or "", nome, "|".join(adversarios))
        anterior = cache.get(uid)
        avaliacao: AvaliacaoTurno | None = None
        if anterior is not None and anterior.get("chave") == k:
            try:
                avaliacao = avaliacao_de_json(anterior["avaliacao"])
            except (KeyError, TypeError, ValueError):
                avaliacao = None
        if avaliacao is None:
            entrada = EntradaTurno(texto, pergunta, nome, adversarios)
            try:
                avaliacao = avaliador.avaliar(entrada)
            except ErroAnalise as exc:
                reserva = AvaliadorRegras().avaliar(entrada)
                avaliacao = replace(reserva, aviso=AVISO_RESERVA.format(erro=exc))
                ciclo.avisos.append(f"{uid}: {exc}")
            ciclo.turnos_avaliados_agora.append(uid)
        if avaliacao.aviso:
            ciclo.avisos.append(f"{uid}: {avaliacao.aviso}")
        avaliacoes[uid] = avaliacao
        guardar[uid] = {"chave": k, "avaliacao": avaliacao_para_json(avaliacao)}
    return avaliacoes, guardar


def _checar(
    turnos: list[Turno],
    busca: BuscaFontes,
    memoria: MemoriaDebate,
    analisador: Analisador,
    cache: dict[str, dict[str, Any]],
    ciclo: Ciclo,
) -> tuple[list[Checagem], dict[str, Any]]:
    """Claims and first checks of each finished turn (cached per turn)."""
    todas: list[Checagem] = []
    guardar: dict[str, Any] = {}
    versao = versao_codigo(CODIGO_CHECAGEM)
    for t in turnos:
        k = chave(versao, busca.nome, memoria.nome, analisador.nome, t.texto)
        anterior = cache.get(t.id)
        checagens: list[Checagem] | None = None
        if anterior is not None and anterior.get("chave") == k:
            try:
                checagens = [etapa_checagem.de_json(c) for c in anterior["checagens"]]
            except (KeyError, TypeError, ValueError):
                checagens = None
        if checagens is None:
            extraidas_por = analisador.nome
            try:
                afirmacoes = etapa_checagem.checaveis(t.texto, analisador)
            except ErroAnalise as exc:
                ciclo.avisos.append(f"{t.id}: extração de afirmações por IA falhou ({exc}); usadas as regras")
                reserva = AnalisadorRegras()
                afirmacoes, extraidas_por = etapa_checagem.checaveis(t.texto, reserva), reserva.nome
            checagens = [
                etapa_checagem.checar(a, f"{t.id}-c{i}", t.id, t.candidato, busca, memoria, extraidas_por)
                for i, a in enumerate(afirmacoes, start=1)
            ]
        todas += checagens
        guardar[t.id] = {"chave": k, "checagens": [etapa_checagem.para_json(c) for c in checagens]}
    return todas, guardar


def _falas_de_candidatos(falas: list[Fala], papeis: dict[str, PapelLocutor]) -> list[dict[str, Any]]:
    return [
        {"candidato": papeis[f.locutor].candidato, "duracao_s": round(f.duracao_s, 3)}
        for f in falas
        if f.locutor in papeis and papeis[f.locutor].avaliado
    ]


def _candidatos(debate: Debate) -> list[dict[str, str]]:
    return [{"id": c, "nome": n} for c, n in debate.candidatos().items()]


def _turno_placar(
    uid: str, candidato: str, duracao_s: float, pergunta: str | None, a: AvaliacaoTurno
) -> dict[str, Any]:
    tem = bool(pergunta) and a.evasao is not None and bool(a.partes)
    return {
        "id": uid,
        "candidato": candidato,
        "duracao_s": round(duracao_s, 3),
        "pergunta": tem,
        "partes_pergunta": len(a.partes) if tem else 0,
        "partes_respondidas": a.partes_respondidas if tem else 0,
        "evasao": a.evasao if tem and a.evasao is not None else 0,
        "substancia": a.substancia,
        "clareza": a.clareza,
        "ataque_pessoal": a.ataque_pessoal,
        "propostas": [
            {
                "o_que": p.o_que is not None,
                "quanto": p.quanto is not None,
                "como": p.como is not None,
                "prazo": p.prazo is not None,
                "ataque_disfarcado": p.ataque_disfarcado,
            }
            for p in a.propostas
        ],
    }


def entrada_v2(
    debate: Debate,
    turnos: list[Turno],
    perguntas: list[PerguntaTurno],
    avaliacoes: dict[str, AvaliacaoTurno],
    revisadas: list[ChecagemRevisada],
    falas: list[Fala],
    papeis: dict[str, PapelLocutor],
    retidos: list[Turno] | None = None,
    itens_retidos: Sequence[etapa_itens.ItemRetido] = (),
) -> dict[str, Any]:
    """The AVALIACOES input of the current method: evaluated turns and reviewed checks (turns held
    for their transcript are only counted, in `turnos_em_revisao`; items held for their words'
    confidence are left out and counted in `itens_em_revisao`)."""
    por_turno = {p.turno: p for p in perguntas}
    ids_retidos = {r.id for r in itens_retidos}
    pergunta_retida = {r.turno for r in itens_retidos if r.tipo == etapa_itens.PERGUNTA}

    def pergunta(t: Turno) -> str | None:
        return None if t.id in pergunta_retida else por_turno[t.id].texto

    return {
        "metodo": etapa_placar.METODO_V2,
        "candidatos": _candidatos(debate),
        "turnos": [
            _turno_placar(
                t.id,
                t.candidato,
                t.duracao_s,
                pergunta(t),
                etapa_itens.sem_retidos(avaliacoes[t.id], t.id, itens_retidos),
            )
            for t in turnos
            if t.id in avaliacoes
        ],
        "checagens": [
            {
                "id": r.id,
                "candidato": r.checagem.candidato,
                "veredito": r.veredito,
                "confianca": r.confianca,
                "repeticao_de": r.repeticao_de,
                "oculta": r.oculta,
            }
            for r in revisadas
            if r.id not in ids_retidos
        ],
        "falas": _falas_de_candidatos(falas, papeis),
        "turnos_em_revisao": [{"id": t.id, "candidato": t.candidato} for t in retidos or []],
        "itens_em_revisao": [{"id": r.id, "candidato": r.candidato, "tipo": r.tipo} for r in itens_retidos],
    }


def unidades_v1(falas: list[Fala], papeis: dict[str, PapelLocutor]) -> list[tuple[str, str, str | None, str]]:
    """v1 units: each candidate utterance alone; its question was whatever someone else said last
    (time warnings included: the flaw the current method fixed)."""
    unidades = []
    ultima_de_outro: Fala | None = None
    anterior: Fala | None = None
    for f in falas:
        papel = papeis.get(f.locutor)
        if papel is not None and papel.avaliado:
            if anterior is not None and anterior.locutor != f.locutor:
                ultima_de_outro = anterior
            pergunta = (
                ultima_de_outro.texto if ultima_de_outro is not None and ultima_de_outro.texto else None
            )
            unidades.append((f.id, f.texto, pergunta, papel.candidato))
        anterior = f
    return unidades


def entrada_v1(
    debate: Debate,
    unidades: list[tuple[str, str, str | None, str]],
    avaliacoes: dict[str, AvaliacaoTurno],
    checagens: list[Checagem],
    edicoes: Edicoes,
    falas: list[Fala],
    papeis: dict[str, PapelLocutor],
) -> dict[str, Any]:
    """The AVALIACOES input of v1: utterances scored alone and unreviewed verdicts (editor still wins)."""
    duracoes = {f.id: f.duracao_s for f in falas}
    checks = []
    for c in checagens:
        e = edicoes.checagens.get(c.id)
        checks.append(
            {
                "id": c.id,
                "candidato": c.candidato,
                "veredito": (e.veredito if e is not None and e.veredito else c.veredito),
                "confianca": (e.confianca if e is not None and e.confianca else c.confianca),
                "repeticao_de": None,
                "oculta": bool(e is not None and e.oculta),
            }
        )
    return {
        "metodo": etapa_placar.METODO_V1,
        "candidatos": _candidatos(debate),
        "turnos": [
            {**_turno_placar(uid, candidato, duracoes[uid], pergunta, avaliacoes[uid]), "propostas": []}
            for uid, _, pergunta, candidato in unidades
        ],
        "checagens": checks,
        "falas": _falas_de_candidatos(falas, papeis),
    }

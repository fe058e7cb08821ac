"""The audio job: segments in, timed speaker-labelled utterances appended to `transcricao.jsonl`.

One step takes the next segment in order, transcribes it together with the tail held back from the
previous one, commits the words that are safe, closes the utterances followed by a pause, gives
each a speaker, appends them to the transcript (atomic rewrite), saves its state (atomic) and calls
the debate engine. A restart resumes from the state; the transcript itself is the record of what
was committed, so a crash between the two writes neither loses nor doubles a word.

State lives in `data/debates/<id>/audio/`: `estado.json` and the held-back tail as a WAV file.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import importlib
import json
import math
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from jobs.debate.armazenamento import gravar_atomico
from jobs.debate.audio import (
    TAXA,
    Amostras,
    ErroAudio,
    decodificar,
    ler_wav,
    nivel_dbfs,
    para_wav,
)
from jobs.debate.confianca import ErroLexico, Lexico, MedidaPalavra, Medidas, lexico_portugues
from jobs.debate.config_audio import ConfigAudio
from jobs.debate.escolha_modelo import BASE, atraso_s, modelo_para_atraso
from jobs.debate.falantes import (
    Diarizador,
    DiarizadorTimbre,
    EstadoFalantes,
    Identificador,
    IdentificadorRegras,
    Roteiro,
    TrechoVoz,
    aplicar_correcoes,
    identificador_de,
    ler_correcoes_locutor,
    ler_roteiro,
    voz_em,
)
from jobs.debate.modelo_whisper import ErroModelo
from jobs.debate.pipeline import ARQ_GRAVACAO  # the mark that the recording ended
from jobs.debate.segmentos import ErroFonte, Fonte, SegmentoDisponivel, planejar
from jobs.debate.transcricao import (
    CAUDA_MAX_S,
    MARGEM_FALA_MS,
    OpcoesWhisper,
    Palavra,
    PlanoCorte,
    Transcritor,
    cortar_janela,
    detectar_fala,
    pausas_da_janela,
    planejar_corte,
    prompt_da_pasta,
    unir_pausas,
)

PASTA_ESTADO = "audio"
ARQ_ESTADO = "estado.json"
ARQ_TRANSCRICAO = "transcricao.jsonl"
VERSAO_ESTADO = 1
TOLERANCIA_CONTIGUO_S = 0.25  # tail and next segment closer than this are one continuous stream
MAX_OCORRENCIAS = 500
MAX_DURACOES = 50
CONTEXTO_MAX = 12  # recent utterances kept for the identifier
_FIM_DE_FRASE = (".", "?", "!", "…")


class ErroProcessamento(RuntimeError):  # noqa: N818 - Portuguese names, like the other jobs
    """The job cannot go on (state from another source, missing debate); message in Portuguese."""


@dataclass
class EstadoAudio:
    """Everything the job needs to resume exactly where it stopped."""

    fonte: str = ""
    proximo_seq: int | None = None
    inicio_proximo_s: float = 0.0  # video time at which the next segment starts
    vistos: dict[str, str] = field(default_factory=dict)  # segment name -> what happened to it
    seqs: dict[str, str] = field(default_factory=dict)  # str(seq) -> what happened ("processado", ...)
    hashes: dict[str, int] = field(default_factory=dict)  # sha256 of a processed segment -> seq
    duracoes: list[float] = field(default_factory=list)  # recent segment lengths, to estimate gaps
    cauda_arquivo: str = ""
    cauda_inicio_s: float = 0.0
    pendentes: list[dict[str, Any]] = field(default_factory=list)  # committed words of an open utterance
    pausas: list[list[float]] = field(default_factory=list)  # recent silences [start, end], merged
    ultimo_fim_s: float = 0.0  # end of the last committed word
    proximo_id: int = 1
    falantes: EstadoFalantes = field(default_factory=EstadoFalantes)
    diarizacao: dict[str, Any] = field(default_factory=dict)
    voz_da_fala: dict[str, str] = field(default_factory=dict)
    ocorrencias: list[dict[str, Any]] = field(default_factory=list)
    encerrado: bool = False
    modelo_em_uso: str = ""  # "" = the configured model; "base" once the job fell back to it

    def para_json(self) -> dict[str, Any]:
        """Plain JSON-able dict."""
        dados = asdict(self)
        dados["falantes"] = self.falantes.para_json()
        dados["versao"] = VERSAO_ESTADO
        return dados

    @classmethod
    def de_json(cls, dados: dict[str, Any]) -> EstadoAudio:
        """Inverse of para_json."""
        base = cls()
        valores: dict[str, Any] = {}
        for nome in asdict(base):
            if nome in dados:
                valores[nome] = dados[nome]
        valores["falantes"] = EstadoFalantes.de_json(dict(dados.get("falantes", {})))
        return cls(**valores)


@dataclass
class Resumo:
    """What one run did, for the command line and the tests."""

    segmentos: int = 0
    falas: int = 0
    ocorrencias: list[dict[str, Any]] = field(default_factory=list)
    encerrado: bool = False
    modelo_em_uso: str = ""  # "" = the configured model; "base" once the job fell back to it
    aguardando: str = ""
    interrompido: bool = False  # `parar` ended the run before the source was exhausted

    def texto(self) -> str:
        """One Portuguese paragraph."""
        partes = [f"{self.segmentos} segmento(s) processado(s), {self.falas} fala(s) nova(s)"]
        if self.ocorrencias:
            tipos: dict[str, int] = {}
            for o in self.ocorrencias:
                tipos[o["tipo"]] = tipos.get(o["tipo"], 0) + 1
            partes.append("ocorrências: " + ", ".join(f"{n} {t}" for t, n in sorted(tipos.items())))
        if self.encerrado:
            partes.append("gravação encerrada")
        elif self.interrompido:
            partes.append(
                "transcrição interrompida pelo encerramento; o que já foi transcrito está salvo "
                "e a próxima execução retoma do segmento seguinte"
            )
        elif self.aguardando:
            partes.append(self.aguardando)
        return "; ".join(partes) + "."


Motor = Callable[[Path], object]


def motor_padrao(
    config_path: Path, relogio: Callable[[], dt.datetime] | None = None
) -> tuple[Motor | None, str]:
    """`jobs.debate.pipeline.atualizar` with the engine's configuration, when the engine exists;
    `relogio` stamps its scoreboard (None: the engine's default, see `pipeline.executar`)."""
    try:
        pipeline = importlib.import_module("jobs.debate.pipeline")
    except ImportError:
        return (
            None,
            "o motor do debate (jobs.debate.pipeline) não está disponível; só a transcrição será feita",
        )
    atualizar = getattr(pipeline, "atualizar", None)
    if not callable(atualizar):
        return None, "jobs.debate.pipeline não tem atualizar(); só a transcrição será feita"
    try:
        config = importlib.import_module("jobs.debate.config").carregar(config_path)
    except (ImportError, ValueError) as exc:  # the engine's ErroConfig is a ValueError
        return None, f"configuração do motor do debate inválida ({exc}); só a transcrição segue"

    def chamar(debate_dir: Path) -> object:
        return atualizar(debate_dir, config, relogio=relogio)

    return chamar, ""


def identificador_padrao(config_path: Path, avisar: Callable[[str], None] | None = None) -> Identificador:
    """Who-speaks identifier from `[analise]`: the model with backend "openai", else the rules."""
    avisar = avisar or (lambda msg: print(msg, file=sys.stderr, flush=True))
    try:
        config = importlib.import_module("jobs.analise.config").carregar_config_analise(config_path)
    except ValueError as exc:  # ConfigSectionError
        avisar(f"aviso: [analise] inválida ({exc}); quem fala sai das regras")
        return IdentificadorRegras()
    return identificador_de(config, avisar)


def _palavra_json(w: Palavra, voz: str | None) -> dict[str, Any]:
    return {
        "p": w.p,
        "inicio_s": w.inicio_s,
        "fim_s": w.fim_s,
        "prob": w.prob,
        "logprob": w.logprob,
        "sem_fala": w.sem_fala,
        "compressao": w.compressao,
        "voz": voz,
    }


def medidas_do_grupo(grupo: list[dict[str, Any]], lexico: Lexico | None) -> Medidas:
    """Confidence measures of an utterance's words (state saved by older versions lacks some: neutral)."""
    n = len(grupo)

    def media(chave: str, neutro: float) -> float:
        return sum(float(w.get(chave, neutro)) for w in grupo) / n if n else neutro

    verificadas, conhecidas = lexico.contar(str(w["p"]) for w in grupo) if lexico is not None else (0, 0)
    return Medidas(
        palavras=n,
        prob=media("prob", 1.0),
        logprob=media("logprob", 0.0),
        sem_fala=media("sem_fala", 0.0),
        compressao=media("compressao", 1.0),
        verificadas=verificadas,
        conhecidas=conhecidas,
    )


def palavra_gravada(w: dict[str, Any], lexico: Lexico | None) -> dict[str, Any]:
    """A committed word as stored in the transcript: its times and its own confidence measures, so
    the engine can judge each scored item on its own words (`jobs.debate.itens_confianca`)."""
    medida = MedidaPalavra(
        prob=float(w.get("prob", 1.0)),
        logprob=float(w.get("logprob", 0.0)),
        sem_fala=float(w.get("sem_fala", 0.0)),
        compressao=float(w.get("compressao", 1.0)),
        conhecida=lexico.situacao(str(w["p"])) if lexico is not None else None,
    )
    return {"p": w["p"], "inicio_s": w["inicio_s"], "fim_s": w["fim_s"], **medida.para_json()}


def ler_transcricao(caminho: Path) -> list[dict[str, Any]]:
    """The utterances already in the transcript (unreadable lines skipped: the engine reports them)."""
    if not caminho.is_file():
        return []
    falas = []
    for linha in caminho.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            obj = json.loads(linha)
        except json.JSONDecodeError:
            continue
        if isinstance(obj, dict) and isinstance(obj.get("id"), str):
            falas.append(obj)
    return falas


def _numero_fala(fala_id: str) -> int:
    digitos = "".join(c for c in fala_id if c.isdigit())
    return int(digitos) if digitos else 0


class Processador:
    """Runs the audio job for one debate folder."""

    def __init__(
        self,
        debate_dir: Path,
        config: ConfigAudio,
        modelo: Callable[[], Any] | None = None,
        motor: Motor | None = None,
        modelo_reserva: Callable[[], Any] | None = None,
        diarizador: Callable[[dict[str, Any]], Diarizador] | None = None,
        avisar: Callable[[str], None] | None = None,
        relogio: Callable[[], float] = time.monotonic,
        identificador: Identificador | None = None,
        lexico: Callable[[], Lexico] = lexico_portugues,
    ) -> None:
        self.debate_dir = debate_dir
        self.config = config
        self._fabrica_modelo = modelo
        self._fabrica_reserva = modelo_reserva  # base, when the configured model is another one
        self._transcritor: Transcritor | None = None
        self.motor = motor
        if diarizador is None and config.audio_timbre_oitavas > 0:
            oitavas = config.audio_timbre_oitavas

            def diarizador(salvo: dict[str, Any]) -> Diarizador:
                return DiarizadorTimbre(oitavas, salvo)

        self._fabrica_diarizador = diarizador
        self.identificador = identificador or IdentificadorRegras()
        self._recentes: list[tuple[str, str]] | None = None
        self._diarizador: Diarizador | None = None
        self.avisar = avisar or (lambda msg: print(msg, file=sys.stderr, flush=True))
        self.relogio = relogio
        self.pasta_estado = debate_dir / PASTA_ESTADO
        self.transcricao = debate_dir / ARQ_TRANSCRICAO
        self.estado = EstadoAudio()
        self._lacuna_desde: float | None = None
        self._resumo = Resumo()
        self._aviso_roteiro = False
        self._fabrica_lexico = lexico
        self._lexico: Lexico | None = None
        self._sem_lexico = False

    # --- state ----------------------------------------------------------------------------

    def carregar(self, fonte: str) -> None:
        """Load the saved state (or start fresh) and reconcile it with the transcript on disk."""
        caminho = self.pasta_estado / ARQ_ESTADO
        if caminho.is_file():
            try:
                dados = json.loads(caminho.read_text(encoding="utf-8"))
                self.estado = EstadoAudio.de_json(dados)
            except (json.JSONDecodeError, UnicodeDecodeError, TypeError, ValueError) as exc:
                reserva = caminho.with_suffix(".json.ilegivel")
                caminho.replace(reserva)
                self.avisar(
                    f"aviso: estado do áudio ilegível ({exc}); guardado em {reserva.name}. "
                    "Recomeçando do primeiro segmento; falas já gravadas não se repetem."
                )
                self.estado = EstadoAudio()
        if self.estado.fonte and self.estado.fonte != fonte:
            raise ErroProcessamento(
                f"o áudio deste debate vem de {self.estado.fonte!r}, não de {fonte!r}; "
                f"para trocar de fonte, apague {caminho} (as falas já gravadas não se repetem)"
            )
        self.estado.fonte = fonte
        # The transcript is the record of what was committed: a crash after appending but before
        # saving the state must not commit those words again.
        falas = ler_transcricao(self.transcricao)
        if falas:
            ultimo = max(float(f.get("fim_s", 0.0)) for f in falas)
            self.estado.ultimo_fim_s = max(self.estado.ultimo_fim_s, ultimo)
            self.estado.proximo_id = max(
                self.estado.proximo_id, max(_numero_fala(f["id"]) for f in falas) + 1
            )
            self.estado.pendentes = [w for w in self.estado.pendentes if float(w["fim_s"]) > ultimo]

    def _salvar(self, cauda: tuple[Amostras, float] | None) -> None:
        self.pasta_estado.mkdir(parents=True, exist_ok=True)
        if cauda is not None and len(cauda[0]) > 0:
            dados = para_wav(cauda[0])
            nome = f"cauda-{hashlib.sha256(dados).hexdigest()[:16]}.wav"
            gravar_atomico(self.pasta_estado / nome, dados)
            self.estado.cauda_arquivo, self.estado.cauda_inicio_s = nome, round(cauda[1], 4)
        else:
            self.estado.cauda_arquivo, self.estado.cauda_inicio_s = "", 0.0
        self.estado.ocorrencias = self.estado.ocorrencias[-MAX_OCORRENCIAS:]
        self.estado.duracoes = self.estado.duracoes[-MAX_DURACOES:]
        if self._diarizador is not None:
            self.estado.diarizacao = self._diarizador.estado()
        texto = json.dumps(self.estado.para_json(), ensure_ascii=False, indent=1, sort_keys=True)
        gravar_atomico(self.pasta_estado / ARQ_ESTADO, texto.encode("utf-8"))
        for velho in self.pasta_estado.glob("cauda-*.wav"):
            if velho.name != self.estado.cauda_arquivo:
                velho.unlink(missing_ok=True)

    def _cauda(self) -> tuple[Amostras, float] | None:
        if not self.estado.cauda_arquivo:
            return None
        try:
            return ler_wav(self.pasta_estado / self.estado.cauda_arquivo), self.estado.cauda_inicio_s
        except (OSError, ErroAudio, EOFError) as exc:
            self._ocorrencia(
                None, self.estado.cauda_arquivo, "cauda_perdida", f"trecho retido ilegível: {exc}"
            )
            return None

    def _ocorrencia(self, seq: int | None, nome: str, tipo: str, mensagem: str) -> None:
        registro = {"seq": seq, "nome": nome, "tipo": tipo, "mensagem": mensagem}
        self.estado.ocorrencias.append(registro)
        self._resumo.ocorrencias.append(registro)
        rotulo = f"segmento {seq}" if seq is not None else "áudio"
        self.avisar(f"aviso: {rotulo} ({nome}): {mensagem}")

    # --- the loop -------------------------------------------------------------------------

    def rodar(self, fonte: Fonte, seguir: bool = False, parar: threading.Event | None = None) -> Resumo:
        """Process what the source offers; with `seguir`, keep waiting for more until it ends or `parar`.

        `parar` is checked between segments: a stop asked during a window ends the run once that
        window's words and state are saved (a window is never left half done)."""
        self._resumo = Resumo()
        self.carregar(fonte.descricao)
        parar = parar or threading.Event()
        while True:
            if parar.is_set():
                self._resumo.interrompido = True
                break
            try:
                disponiveis = fonte.listar()
            except ErroFonte as exc:
                self.avisar(f"aviso: {exc}")
                if not seguir:
                    self._resumo.aguardando = f"fonte indisponível: {exc}"
                    break
                parar.wait(self.config.audio_intervalo_s)
                continue
            encerrada = fonte.encerrada()
            passo = planejar(
                disponiveis,
                self.estado.proximo_seq,
                set(self.estado.vistos),
                self._lacuna_vencida(disponiveis),
                encerrada,
            )
            for s in passo.descartar:
                self._descartar(s)
            self._conferir_atraso(disponiveis)
            if passo.acao == "processar" and passo.segmento is not None:
                if not self._processar(fonte, passo.segmento):
                    if not seguir:
                        self._resumo.aguardando = f"o segmento {passo.segmento.seq} não pôde ser lido"
                        break
                    parar.wait(self.config.audio_intervalo_s)
            elif passo.acao == "ausente" and passo.seq is not None:
                self._ausente(passo.seq)
            elif passo.acao == "fim":
                if not self.estado.encerrado:
                    self._encerrar()
                self._resumo.encerrado = True
                break
            else:
                if passo.descartar:
                    self._salvar(self._cauda())
                if not seguir:
                    self._resumo.aguardando = self._motivo_espera(disponiveis)
                    break
                parar.wait(self.config.audio_intervalo_s)
        return self._resumo

    def _motivo_espera(self, disponiveis: list[SegmentoDisponivel]) -> str:
        esperado = self.estado.proximo_seq
        if esperado is not None and any(s.seq > esperado for s in disponiveis):
            return f"aguardando o segmento {esperado}, que ainda não chegou"
        if self.estado.cauda_arquivo or self.estado.pendentes:
            return "o fim da última fala aguarda o próximo segmento"
        return "aguardando novos segmentos"

    def _lacuna_vencida(self, disponiveis: list[SegmentoDisponivel]) -> bool:
        esperado = self.estado.proximo_seq
        falta = (
            esperado is not None
            and any(s.seq > esperado and s.pronto for s in disponiveis)
            and not any(s.seq == esperado for s in disponiveis if s.nome not in self.estado.vistos)
        )
        if not falta:
            self._lacuna_desde = None
            return False
        agora = self.relogio()
        if self._lacuna_desde is None:
            self._lacuna_desde = agora
        return agora - self._lacuna_desde >= self.config.audio_espera_lacuna_s

    def _descartar(self, segmento: SegmentoDisponivel) -> None:
        anterior = self.estado.seqs.get(str(segmento.seq), "")
        if anterior == "ausente":
            tipo, msg = (
                "atrasado",
                "chegou depois de dado como ausente; ignorado (a transcrição já passou dele)",
            )
        elif anterior:
            tipo, msg = "duplicado", f"o segmento {segmento.seq} já foi tratado ({anterior}); ignorado"
        else:
            tipo, msg = "atrasado", "chegou fora de ordem depois dos seguintes; ignorado"
        self.estado.vistos[segmento.nome] = tipo
        self._ocorrencia(segmento.seq, segmento.nome, tipo, msg)

    def _duracao_estimada(self, anunciada: float | None) -> float:
        if anunciada is not None:
            return anunciada
        if self.estado.duracoes:
            return float(np.median(self.estado.duracoes))
        return 0.0

    def _lacuna(self, seq: int, duracao: float) -> None:
        """A stretch of the video with no usable audio: close what was open, move the clock on."""
        self._fechar_cauda()
        self.estado.inicio_proximo_s = round(self.estado.inicio_proximo_s + duracao, 4)
        self.estado.proximo_seq = seq + 1

    def _ausente(self, seq: int) -> None:
        duracao = self._duracao_estimada(None)
        self.estado.seqs[str(seq)] = "ausente"
        self._ocorrencia(
            seq, "", "ausente", f"não chegou a tempo; pulado (estimados {duracao:.1f} s sem áudio)"
        )
        self._lacuna(seq, duracao)
        self._lacuna_desde = None
        self._salvar(None)
        self._notificar()

    def _processar(self, fonte: Fonte, segmento: SegmentoDisponivel) -> bool:
        """Handle one segment; False when it could not be read (it is tried again later)."""
        seq, nome = segmento.seq, segmento.nome
        if self.estado.proximo_seq is None:
            self.estado.proximo_seq = seq
        try:
            dados = fonte.ler(segmento)
        except ErroFonte as exc:
            self.avisar(f"aviso: {exc}; nova tentativa no próximo ciclo")
            return False
        self._resumo.segmentos += 1
        resumo = hashlib.sha256(dados).hexdigest()
        try:
            decodificado = decodificar(dados)
        except ErroAudio as exc:
            tipo = "vazio" if not dados or "nenhuma amostra" in str(exc) else "corrompido"
            duracao = self._duracao_estimada(segmento.duracao_s)
            self._marcar(segmento, tipo)
            self._ocorrencia(seq, nome, tipo, f"{exc}; pulado (estimados {duracao:.1f} s sem áudio)")
            self._lacuna(seq, duracao)
            self._salvar(None)
            self._notificar()
            return True
        for aviso in decodificado.avisos:
            self._ocorrencia(seq, nome, "danificado", aviso)
        amostras = decodificado.amostras
        inicio = self.estado.inicio_proximo_s
        duracao = segmento.duracao_s if segmento.duracao_s is not None else decodificado.duracao_s
        silencioso = nivel_dbfs(amostras) < self.config.audio_silencio_dbfs
        if not silencioso and resumo in self.estado.hashes:
            # The recorder sent the same audio again (identical silence is just silence).
            original = self.estado.hashes[resumo]
            self._marcar(segmento, "duplicado")
            self._ocorrencia(seq, nome, "duplicado", f"mesmo conteúdo do segmento {original}; ignorado")
            self._lacuna(seq, self._duracao_estimada(segmento.duracao_s))
            self._salvar(None)
            self._notificar()
            return True
        if silencioso:
            self._ocorrencia(seq, nome, "silencioso", "sem som audível; nenhuma fala")
        cauda = self._cauda()
        if cauda is not None and abs(cauda[1] + len(cauda[0]) / TAXA - inicio) > TOLERANCIA_CONTIGUO_S:
            self._fechar_cauda()
            cauda = None
        if cauda is not None:
            janela, janela_inicio = np.concatenate([cauda[0], amostras]), cauda[1]
        else:
            janela, janela_inicio = amostras, inicio
        janela_fim = janela_inicio + len(janela) / TAXA
        regioes = [] if silencioso and cauda is None else detectar_fala(janela, janela_inicio)
        plano = planejar_corte(regioes, janela_inicio, janela_fim)
        palavras: list[Palavra] = []
        trechos: list[TrechoVoz] = []
        if plano is None and janela_fim - janela_inicio < CAUDA_MAX_S:
            # Speech runs on into the next segment: wait for a pause before transcribing.
            corte_s = janela_inicio
        elif plano is None:
            # Too long without a pause: cut between words, holding back those near the end.
            palavras = self._transcritor_pronto().transcrever(janela, janela_inicio)
            trechos = self._vozes(janela, janela_inicio)
            corte = cortar_janela(
                palavras, janela_fim, self.estado.ultimo_fim_s, self.config.audio_margem_s, final=False
            )
            palavras, corte_s = list(corte.confirmadas), corte.proximo_inicio_s
        elif plano.tem_fala and not self._vale_transcrever(plano, janela_inicio):
            # Whisper costs about the same for 3 s as for 30 s: gather more speech unless an
            # utterance just ended (then its turn may be over, and latency matters).
            corte_s = janela_inicio
        else:
            corte_s = plano.corte_s
            if plano.tem_fala:
                trecho = janela[: max(0, round((corte_s - janela_inicio) * TAXA))]
                palavras = self._transcritor_pronto().transcrever(trecho, janela_inicio)
                trechos = self._vozes(trecho, janela_inicio)
                corte = cortar_janela(
                    palavras, corte_s, self.estado.ultimo_fim_s, self.config.audio_margem_s, final=True
                )
                palavras = list(corte.confirmadas)
        corte_idx = max(0, min(len(janela), round((corte_s - janela_inicio) * TAXA)))
        nova_cauda = (janela[corte_idx:], janela_inicio + corte_idx / TAXA)
        self._anotar_pausas(pausas_da_janela(regioes, janela_inicio, janela_fim))
        novas = self._confirmar(palavras, trechos, final=False)
        self._marcar(segmento, "processado")
        self.estado.hashes[resumo] = seq
        self.estado.duracoes.append(round(duracao, 4))
        self.estado.inicio_proximo_s = round(inicio + duracao, 4)
        self.estado.proximo_seq = seq + 1
        self._salvar(nova_cauda)
        if novas:
            self._notificar()
        return True

    def _vale_transcrever(self, plano: PlanoCorte, janela_inicio: float) -> bool:
        longa = plano.corte_s - janela_inicio >= min(self.config.audio_janela_min_s, CAUDA_MAX_S / 2)
        pausa_longa = plano.pausa_s >= self.config.audio_pausa_s - 2 * MARGEM_FALA_MS / 1000
        return longa or pausa_longa

    def _marcar(self, segmento: SegmentoDisponivel, situacao: str) -> None:
        self.estado.vistos[segmento.nome] = situacao
        self.estado.seqs[str(segmento.seq)] = situacao

    def _encerrar(self) -> None:
        """The recording is over: commit the tail, mark the end for the engine (the last turn closes)."""
        self._fechar_cauda()
        self.estado.encerrado = True
        self._salvar(None)
        marca = {
            "encerrada": True,
            "fim_s": round(self.estado.inicio_proximo_s, 3),
            "fonte": self.estado.fonte,
        }
        texto = json.dumps(marca, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
        gravar_atomico(self.debate_dir / ARQ_GRAVACAO, texto.encode("utf-8"))
        self._notificar()

    def _fechar_cauda(self) -> None:
        """Transcribe the held-back tail as final and close every open utterance."""
        cauda = self._cauda()
        palavras: list[Palavra] = []
        trechos: list[TrechoVoz] = []
        fim = self.estado.ultimo_fim_s
        if cauda is not None and len(cauda[0]) > 0:
            amostras, inicio = cauda
            fim = inicio + len(amostras) / TAXA
            regioes = detectar_fala(amostras, inicio)
            self._anotar_pausas(pausas_da_janela(regioes, inicio, fim))
            if regioes:
                palavras = self._transcritor_pronto().transcrever(amostras, inicio)
                trechos = self._vozes(amostras, inicio)
        corte = cortar_janela(palavras, fim, self.estado.ultimo_fim_s, self.config.audio_margem_s, final=True)
        self.estado.cauda_arquivo, self.estado.cauda_inicio_s = "", 0.0
        self._confirmar(list(corte.confirmadas), trechos, final=True)

    # --- words -> utterances --------------------------------------------------------------

    def _anotar_pausas(self, pausas: list[tuple[float, float]]) -> None:
        """Remember the silences seen (merged across windows) that may still separate pending words."""
        desde = (
            float(self.estado.pendentes[0]["inicio_s"]) if self.estado.pendentes else self.estado.ultimo_fim_s
        )
        todas = [(float(a), float(b)) for a, b in self.estado.pausas] + pausas
        self.estado.pausas = [[a, b] for a, b in unir_pausas(todas) if b >= desde - 1.0]

    def _separa(self, antes: dict[str, Any], depois: dict[str, Any] | None) -> bool:
        """Whether a long enough silence lies between two words (after the first when `depois` is None)."""
        meio_antes = (float(antes["inicio_s"]) + float(antes["fim_s"])) / 2
        if (
            depois is not None
            and float(depois["inicio_s"]) - float(antes["fim_s"]) >= self.config.audio_pausa_s
        ):
            return True
        meio_depois = math.inf if depois is None else (float(depois["inicio_s"]) + float(depois["fim_s"])) / 2
        minimo = self.config.audio_pausa_s - 2 * MARGEM_FALA_MS / 1000
        return any(b - a >= minimo and meio_antes < (a + b) / 2 < meio_depois for a, b in self.estado.pausas)

    def _confirmar(self, palavras: list[Palavra], trechos: list[TrechoVoz], final: bool) -> int:
        """Add committed words; close and write the utterances that ended. Returns how many were written."""
        for w in palavras:
            self.estado.pendentes.append(_palavra_json(w, voz_em(trechos, w.inicio_s, w.fim_s)))
            self.estado.ultimo_fim_s = max(self.estado.ultimo_fim_s, w.fim_s)
        grupos = self._agrupar(self.estado.pendentes)
        if not grupos:
            return 0
        ultimo = grupos[-1]
        fechar_ultimo = final or self._separa(ultimo[-1], None)
        prontos = grupos if fechar_ultimo else grupos[:-1]
        self.estado.pendentes = [] if fechar_ultimo else ultimo
        if not prontos:
            return 0
        roteiro, erro = ler_roteiro(self.debate_dir)
        if erro and not self._aviso_roteiro:
            self.avisar(f"aviso: {erro}; quem fala fica como 'desconhecido' até o roteiro ser corrigido")
            self._aviso_roteiro = True
        self._aplicar_correcoes()
        falas = [self._fala(grupo, roteiro) for grupo in prontos]
        self._gravar_falas(falas)
        self._resumo.falas += len(falas)
        return len(falas)

    def _agrupar(self, palavras: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
        grupos: list[list[dict[str, Any]]] = []
        for w in palavras:
            if grupos:
                atual = grupos[-1]
                anterior = atual[-1]
                duracao = float(anterior["fim_s"]) - float(atual[0]["inicio_s"])
                troca_voz = bool(w.get("voz")) and bool(anterior.get("voz")) and w["voz"] != anterior["voz"]
                longa = duracao >= self.config.audio_fala_max_s and (
                    str(anterior["p"]).endswith(_FIM_DE_FRASE)
                    or duracao >= 1.5 * self.config.audio_fala_max_s
                )
                if not self._separa(anterior, w) and not troca_voz and not longa:
                    atual.append(w)
                    continue
            grupos.append([w])
        return grupos

    def _fala(self, grupo: list[dict[str, Any]], roteiro: Roteiro) -> dict[str, Any]:
        inicio, fim = float(grupo[0]["inicio_s"]), float(grupo[-1]["fim_s"])
        texto = " ".join(str(w["p"]) for w in grupo)
        vozes = [str(w["voz"]) for w in grupo if w.get("voz")]
        voz = max(set(vozes), key=vozes.count) if vozes else None
        recentes = self._contexto()
        locutor = self.identificador.identificar(
            self.estado.falantes, roteiro, texto, inicio, fim, voz, tuple(recentes)
        )
        recentes.append((locutor, texto))
        del recentes[:-CONTEXTO_MAX]
        fala_id = f"f{self.estado.proximo_id:04d}"
        self.estado.proximo_id += 1
        lexico = self._lexico_pronto(roteiro)
        if voz:
            self.estado.voz_da_fala[fala_id] = voz
        return {
            "id": fala_id,
            "inicio_s": round(inicio, 3),
            "fim_s": round(fim, 3),
            "locutor": locutor,
            "texto": texto,
            "palavras": [palavra_gravada(w, lexico) for w in grupo],
            "confianca": medidas_do_grupo(grupo, lexico).para_json(),
        }

    def _lexico_pronto(self, roteiro: Roteiro) -> Lexico | None:
        """The Portuguese lexicon with the participants' names (loaded once; None if it cannot load)."""
        if self._lexico is None and not self._sem_lexico:
            try:
                self._lexico = self._fabrica_lexico()
            except ErroLexico as exc:
                self._sem_lexico = True
                self.avisar(f"aviso: {exc}; a confiança da transcrição usa só as medidas do Whisper")
        if self._lexico is None:
            return None
        return self._lexico.com_nomes(p.nome for p in roteiro.participantes)

    def _contexto(self) -> list[tuple[str, str]]:
        """The last utterances as (speaker, text), from the transcript on first use, then kept in memory."""
        if self._recentes is None:
            falas = ler_transcricao(self.transcricao)[-CONTEXTO_MAX:]
            self._recentes = [(str(f.get("locutor", "")), str(f.get("texto", ""))) for f in falas]
        return self._recentes

    def _aplicar_correcoes(self) -> None:
        correcoes = ler_correcoes_locutor(self.debate_dir)
        if not correcoes:
            return
        ultima = f"f{self.estado.proximo_id - 1:04d}"
        aplicar_correcoes(self.estado.falantes, correcoes, self.estado.voz_da_fala, ultima)

    def _gravar_falas(self, falas: list[dict[str, Any]]) -> None:
        """Append utterances; the file is rewritten through a temp file so no reader sees half a line."""
        linhas = "".join(json.dumps(f, ensure_ascii=False) + "\n" for f in falas).encode("utf-8")
        with self._trava():
            atual = self.transcricao.read_bytes() if self.transcricao.is_file() else b""
            if atual and not atual.endswith(b"\n"):
                atual += b"\n"
            gravar_atomico(self.transcricao, atual + linhas)

    @contextlib.contextmanager
    def _trava(self) -> Iterator[None]:
        try:
            armazenamento = importlib.import_module("jobs.debate.armazenamento")
            trava = armazenamento.trava
        except (ImportError, AttributeError):
            yield
            return
        with trava(self.debate_dir):
            yield

    # --- collaborators --------------------------------------------------------------------

    def _modelo_configurado(self) -> str:
        return self.config.whisper_modelo or self.config.whisper_tamanho

    def _conferir_atraso(self, disponiveis: list[SegmentoDisponivel]) -> None:
        """Fall back to base when the audio waiting to be transcribed exceeds the configured limit."""
        if self._fabrica_reserva is None or self.estado.modelo_em_uso == BASE:
            return
        pendentes = [
            self._duracao_estimada(s.duracao_s)
            for s in disponiveis
            if s.pronto and s.nome not in self.estado.vistos
        ]
        atraso = atraso_s(pendentes)
        em_uso = self._modelo_configurado()
        if modelo_para_atraso(em_uso, atraso, self.config.whisper_atraso_max_s) != em_uso:
            self._trocar_para_base(
                f"{atraso:.1f} s de áudio esperando transcrição (limite "
                f"{self.config.whisper_atraso_max_s:g} s)"
            )

    def _trocar_para_base(self, motivo: str) -> None:
        self.estado.modelo_em_uso = BASE
        self._transcritor = None
        self._ocorrencia(
            None,
            self._modelo_configurado(),
            "modelo_trocado",
            f"{motivo}; a transcrição segue com o modelo base até o fim do debate",
        )

    def _transcritor_pronto(self) -> Transcritor:
        if self._transcritor is None:
            if self._fabrica_modelo is None:
                raise ErroProcessamento("nenhum modelo de transcrição configurado")
            # The debate's names and topic words as the prompt (transcricao.prompt_da_pasta).
            opcoes = OpcoesWhisper(
                self.config.whisper_idioma, self.config.whisper_feixe, prompt_da_pasta(self.debate_dir)
            )
            usar_reserva = self._fabrica_reserva is not None and self.estado.modelo_em_uso == BASE
            fabrica = (
                self._fabrica_reserva if usar_reserva and self._fabrica_reserva else self._fabrica_modelo
            )
            try:
                modelo = fabrica()
            except ErroModelo as exc:
                if self._fabrica_reserva is None or usar_reserva:
                    raise
                self._trocar_para_base(f"o modelo {self._modelo_configurado()} não carregou ({exc})")
                modelo = self._fabrica_reserva()
            self._transcritor = Transcritor(modelo, opcoes)
        return self._transcritor

    def _vozes(self, amostras: Amostras, inicio_s: float) -> list[TrechoVoz]:
        if self._fabrica_diarizador is None:
            return []
        if self._diarizador is None:
            self._diarizador = self._fabrica_diarizador(self.estado.diarizacao)
        return self._diarizador.vozes(amostras, inicio_s)

    def _notificar(self) -> None:
        if self.motor is None:
            return
        try:
            self.motor(self.debate_dir)
        except Exception as exc:  # the engine's failure must not stop the transcription
            self.avisar(
                f"aviso: o motor do debate falhou ({type(exc).__name__}: {exc}); a transcrição continua"
            )

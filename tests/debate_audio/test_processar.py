"""The audio job end to end: generated speech cut into segments, real faster-whisper, real engine."""

from __future__ import annotations

import itertools
import json
import shutil
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from eleicoes import main
from jobs.debate import confianca
from jobs.debate.config_audio import ConfigAudio
from jobs.debate.demo_audio import ROTEIRO_DEMO
from jobs.debate.processar import Processador, ler_transcricao
from jobs.debate.segmentos import FontePasta
from tests.debate_audio.conftest import (
    ANCORAS,
    DURACAO_SEGMENTO_S,
    REPO,
    Gravacao,
    gravar_segmentos,
    normalizar,
    requer_espeak,
)

pytestmark = requer_espeak
TOLERANCIA_S = 0.6


def palavras(transcricao: Path) -> list[dict[str, Any]]:
    """Every word of the transcript, in order."""
    return [w for f in ler_transcricao(transcricao) for w in f["palavras"]]


def conferir_ancoras(gravacao: Gravacao, lista: list[dict[str, Any]]) -> None:
    """Expected words in order, once each, inside their utterance's time span."""
    achadas = []
    for stem, fala in ANCORAS:
        ocorrencias = [w for w in lista if normalizar(w["p"]).startswith(stem)]
        assert len(ocorrencias) <= 1, f"palavra duplicada: {stem}: {ocorrencias}"
        if not ocorrencias:
            continue
        w = ocorrencias[0]
        trecho = gravacao.trechos[fala]
        assert trecho.inicio_s - TOLERANCIA_S <= w["inicio_s"] <= w["fim_s"] <= trecho.fim_s + TOLERANCIA_S, (
            stem,
            w,
            trecho,
        )
        achadas.append(lista.index(w))
    assert len(achadas) >= len(ANCORAS) - 2, f"palavras perdidas: {len(achadas)} de {len(ANCORAS)}"
    assert achadas == sorted(achadas), "palavras fora de ordem"


@pytest.fixture(scope="module")
def referencia(
    tmp_path_factory: pytest.TempPathFactory, gravacao: Gravacao, modelo: Callable[[], Any]
) -> tuple[Path, Path]:
    """One full run through the command line (segments of 3 s, the real engine after each utterance)."""
    modelo()  # load the session model before the CLI asks for the same one
    raiz = tmp_path_factory.mktemp("referencia")
    debate = raiz / "debates" / "debate-teste"
    debate.mkdir(parents=True)
    (debate / "debate.toml").write_text(ROTEIRO_DEMO, encoding="utf-8")
    segmentos = raiz / "segmentos"
    gravar_segmentos(gravacao.amostras, segmentos)
    (segmentos / "FIM").write_text("", encoding="utf-8")
    config = raiz / "eleicoes.toml"
    config.write_text(
        f'[debate]\nwhisper_cache = "{REPO / ".cache" / "whisper-base"}"\nwhisper_threads = 2\n',
        encoding="utf-8",
    )
    status = main(
        [
            "debate",
            "processar",
            "debate-teste",
            "--fonte",
            str(segmentos),
            "--dados",
            str(raiz / "debates"),
            "--config",
            str(config),
        ]
    )
    assert status == 0
    return debate, segmentos


def test_segments_become_timed_words_in_order_across_boundaries(
    gravacao: Gravacao, referencia: tuple[Path, Path]
) -> None:
    debate, _ = referencia
    # The 3 s boundaries fall inside utterances, so words are cut by segment boundaries.
    fronteiras = [k * DURACAO_SEGMENTO_S for k in range(1, 6)]
    assert sum(any(t.inicio_s < f < t.fim_s for t in gravacao.trechos) for f in fronteiras) >= 2
    lista = palavras(debate / "transcricao.jsonl")
    conferir_ancoras(gravacao, lista)
    inicios = [w["inicio_s"] for w in lista]
    assert inicios == sorted(inicios)
    falas = ler_transcricao(debate / "transcricao.jsonl")
    assert [f["id"] for f in falas] == [f"f{i:04d}" for i in range(1, len(falas) + 1)]
    for anterior, seguinte in itertools.pairwise(falas):
        assert anterior["fim_s"] <= seguinte["inicio_s"]


def test_speakers_from_rundown_and_cues(referencia: tuple[Path, Path]) -> None:
    debate, _ = referencia
    falas = ler_transcricao(debate / "transcricao.jsonl")
    por_palavra = {normalizar(w["p"]): f["locutor"] for f in falas for w in f["palavras"]}
    # "a senhora tem dois minutos": the moderator; then the floor goes to the candidate who waited.
    assert por_palavra.get("senhora") == "marta-lins"
    saude = [v for k, v in por_palavra.items() if k.startswith("saude") or k.startswith("medico")]
    assert saude and set(saude) == {"helena-prado"}


def test_every_utterance_has_its_speaker(gravacao: Gravacao, referencia: tuple[Path, Path]) -> None:
    # Three voices of different pitch: the voice changes hand the floor on (rundown order).
    debate, _ = referencia
    falas = ler_transcricao(debate / "transcricao.jsonl")
    assert len(falas) >= len(gravacao.trechos)
    for f in falas:
        meio = (f["inicio_s"] + f["fim_s"]) / 2
        dono = min(gravacao.trechos, key=lambda t: abs((t.inicio_s + t.fim_s) / 2 - meio))
        assert f["locutor"] == dono.locutor, (f["texto"], dono)
    assert json.loads((debate / "audio" / "estado.json").read_text(encoding="utf-8"))["voz_da_fala"]


def test_engine_scores_the_turns(referencia: tuple[Path, Path]) -> None:
    debate, _ = referencia
    placar = json.loads((debate / "placar.json").read_text(encoding="utf-8"))
    assert placar  # the engine ran after the utterances were appended
    turnos = json.loads((debate / "turnos.json").read_text(encoding="utf-8"))
    assert turnos


def test_utterances_carry_transcript_confidence(referencia: tuple[Path, Path]) -> None:
    # Every utterance stores Whisper's measures and the lexicon check, and the engine holds exactly
    # the turns whose answer, measured over its utterances, falls past a threshold.
    debate, _ = referencia
    medidas = {}
    for f in ler_transcricao(debate / "transcricao.jsonl"):
        m = confianca.de_json(f["confianca"])
        assert m is not None and m.palavras == len(f["palavras"])
        assert 0 < m.prob <= 1 and m.verificadas >= 1
        medidas[f["id"]] = m
    turnos = json.loads((debate / "turnos.json").read_text(encoding="utf-8"))["turnos"]
    assert turnos
    for t in turnos:
        abaixo = bool(confianca.motivos(confianca.combinar(medidas[f] for f in t["falas"])))
        assert (t["transcricao"] == "em_revisao") is abaixo, t


def test_restart_in_the_middle_resumes_exactly(
    tmp_path: Path,
    referencia: tuple[Path, Path],
    config_audio: ConfigAudio,
    modelo: Callable[[], Any],
) -> None:
    debate_ref, segmentos_ref = referencia
    debate = tmp_path / "debate-teste"
    debate.mkdir()
    shutil.copy(debate_ref / "debate.toml", debate / "debate.toml")
    segmentos = tmp_path / "segmentos"
    segmentos.mkdir()
    todos = sorted(segmentos_ref.glob("seg_*.wav"))
    for s in todos[:2]:
        shutil.copy(s, segmentos / s.name)
    fonte = FontePasta(segmentos, estavel_s=0.0)
    primeiro = Processador(debate, config_audio, modelo=modelo, avisar=lambda _m: None).rodar(fonte)
    assert primeiro.segmentos == 2 and not primeiro.encerrado
    # A new process: everything it knows comes from disk.
    for s in todos[2:]:
        shutil.copy(s, segmentos / s.name)
    (segmentos / "FIM").write_text("", encoding="utf-8")
    segundo = Processador(debate, config_audio, modelo=modelo, avisar=lambda _m: None).rodar(fonte)
    assert segundo.segmentos == len(todos) - 2 and segundo.encerrado
    # Running again changes nothing: no segment is redone.
    terceiro = Processador(debate, config_audio, modelo=modelo, avisar=lambda _m: None).rodar(fonte)
    assert terceiro.segmentos == 0 and terceiro.falas == 0
    referencia_falas = ler_transcricao(debate_ref / "transcricao.jsonl")
    retomadas = ler_transcricao(debate / "transcricao.jsonl")
    chave = [(f["inicio_s"], f["fim_s"], f["texto"]) for f in referencia_falas]
    assert [(f["inicio_s"], f["fim_s"], f["texto"]) for f in retomadas] == chave


def test_crash_between_transcript_and_state_neither_loses_nor_doubles(
    tmp_path: Path,
    referencia: tuple[Path, Path],
    config_audio: ConfigAudio,
    modelo: Callable[[], Any],
) -> None:
    debate_ref, segmentos_ref = referencia
    debate = tmp_path / "debate-teste"
    debate.mkdir()
    shutil.copy(debate_ref / "debate.toml", debate / "debate.toml")
    segmentos = tmp_path / "segmentos"
    segmentos.mkdir()
    todos = sorted(segmentos_ref.glob("seg_*.wav"))
    fonte = FontePasta(segmentos, estavel_s=0.0)

    def rodar() -> None:
        Processador(debate, config_audio, modelo=modelo, avisar=lambda _m: None).rodar(fonte)

    for s in todos[:2]:
        shutil.copy(s, segmentos / s.name)
    rodar()
    # Add segments one by one until one of them closes an utterance, keeping the state from before it.
    estado_antigo = tmp_path / "estado-antigo"
    for i in range(2, len(todos)):
        shutil.rmtree(estado_antigo, ignore_errors=True)
        shutil.copytree(debate / "audio", estado_antigo)
        falas_antes = len(ler_transcricao(debate / "transcricao.jsonl"))
        shutil.copy(todos[i], segmentos / todos[i].name)
        rodar()
        if len(ler_transcricao(debate / "transcricao.jsonl")) > falas_antes:
            break
    else:
        pytest.fail("nenhum segmento fechou uma fala")
    assert i < len(todos) - 1
    # The crash: the transcript got the new utterances, the state on disk is the one before them.
    shutil.rmtree(debate / "audio")
    shutil.copytree(estado_antigo, debate / "audio")
    for s in todos[i + 1 :]:
        shutil.copy(s, segmentos / s.name)
    (segmentos / "FIM").write_text("", encoding="utf-8")
    rodar()
    lista = palavras(debate / "transcricao.jsonl")
    chaves = [(w["p"], w["inicio_s"]) for w in lista]
    assert len(chaves) == len(set(chaves)), "palavra repetida depois da queda"
    referencia_palavras = [(w["p"], w["inicio_s"]) for w in palavras(debate_ref / "transcricao.jsonl")]
    assert chaves == referencia_palavras


class PedeParadaAoTranscrever:
    """The session's real model; the stop is asked as it starts a window (a Ctrl+C mid-transcription)."""

    def __init__(self, modelo: Any, parar: threading.Event) -> None:
        self.modelo, self.parar = modelo, parar

    def transcribe(self, *args: Any, **kwargs: Any) -> Any:
        self.parar.set()
        return self.modelo.transcribe(*args, **kwargs)


def test_a_stop_during_a_window_ends_the_run_after_it_and_a_rerun_resumes_exactly(
    tmp_path: Path,
    referencia: tuple[Path, Path],
    config_audio: ConfigAudio,
    modelo: Callable[[], Any],
) -> None:
    """Issue 17: a stop asked while Whisper transcribes does not wait for the rest of the backlog,
    and loses nothing: the window in hand is saved, and the next run goes on from the next segment."""
    debate_ref, segmentos_ref = referencia
    debate = tmp_path / "debate-teste"
    debate.mkdir()
    shutil.copy(debate_ref / "debate.toml", debate / "debate.toml")
    todos = sorted(segmentos_ref.glob("seg_*.wav"))
    fonte = FontePasta(segmentos_ref, estavel_s=0.0)  # every segment and the end mark are there
    parar = threading.Event()
    interrompido = Processador(
        debate, config_audio, modelo=lambda: PedeParadaAoTranscrever(modelo(), parar), avisar=lambda _m: None
    ).rodar(fonte, parar=parar)
    assert parar.is_set() and interrompido.interrompido and not interrompido.encerrado
    assert 0 < interrompido.segmentos < len(todos)  # the window finished; the backlog was left
    assert "transcrição interrompida pelo encerramento" in interrompido.texto()
    estado = json.loads((debate / "audio" / "estado.json").read_text(encoding="utf-8"))
    assert list(estado["seqs"].values()) == ["processado"] * interrompido.segmentos
    assert not list(debate.rglob("*.tmp"))
    retomado = Processador(debate, config_audio, modelo=modelo, avisar=lambda _m: None).rodar(fonte)
    assert retomado.encerrado and not retomado.interrompido
    assert interrompido.segmentos + retomado.segmentos == len(todos)  # none redone, none skipped
    chave = [
        (f["inicio_s"], f["fim_s"], f["texto"]) for f in ler_transcricao(debate_ref / "transcricao.jsonl")
    ]
    assert [
        (f["inicio_s"], f["fim_s"], f["texto"]) for f in ler_transcricao(debate / "transcricao.jsonl")
    ] == chave

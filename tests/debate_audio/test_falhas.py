"""Bad segments: corrupt, empty, silent, twice, out of order, missing, late. Logged, never a crash."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from jobs.debate.audio import TAXA, Amostras, nivel_dbfs, para_wav
from jobs.debate.config_audio import ConfigAudio
from jobs.debate.processar import ErroProcessamento, Processador, ler_transcricao
from jobs.debate.segmentos import FontePasta
from tests.debate_audio.conftest import normalizar, requer_espeak, silencio

SEG_S = 4.0


def segmento_com(fala: Amostras, atraso_s: float = 0.3) -> bytes:
    """A 4 s WAV segment with the phrase starting at `atraso_s`."""
    audio = silencio(SEG_S)
    audio[round(atraso_s * TAXA) : round(atraso_s * TAXA) + len(fala)] = fala[
        : round((SEG_S - atraso_s) * TAXA)
    ]
    return para_wav(audio)


def processador(
    debate: Path, config: ConfigAudio, modelo: Callable[[], Any] | None, avisos: list[str]
) -> Processador:
    return Processador(debate, config, modelo=modelo, avisar=avisos.append)


def tipos(p: Processador) -> dict[int | None, str]:
    return {o["seq"]: o["tipo"] for o in p.estado.ocorrencias}


@requer_espeak
def test_corrupt_empty_silent_duplicate_and_out_of_order(
    tmp_path: Path,
    debate_dir: Path,
    config_audio: ConfigAudio,
    modelo: Callable[[], Any],
    fala_curta: Callable[[str, str], Amostras],
) -> None:
    pasta = tmp_path / "segmentos"
    pasta.mkdir()
    noite = fala_curta("Boa noite a todos.", "pt-br")
    saude = fala_curta("A saúde pública precisa de mais médicos.", "pt-br+f3")
    dinheiro = fala_curta("A proposta não diz onde vem o dinheiro.", "pt-br+m3")
    (pasta / "seg_00000.wav").write_bytes(segmento_com(noite))
    (pasta / "seg_00001.wav").write_bytes(
        b"RIFF\x00\x00\x00\x00WAVEfmt lixo" + bytes(range(256)) * 8
    )  # corrupt
    (pasta / "seg_00002.wav").write_bytes(b"")  # empty
    (pasta / "seg_00003.wav").write_bytes(para_wav(silencio(SEG_S)))  # silent
    (pasta / "seg_00004.wav").write_bytes(segmento_com(saude))
    shutil.copy(pasta / "seg_00004.wav", pasta / "seg_00005.wav")  # same content again, next number
    (pasta / "seg_00007.wav").write_bytes(segmento_com(dinheiro))  # 6 is late
    avisos: list[str] = []
    p = processador(debate_dir, config_audio, modelo, avisos)
    resumo = p.rodar(_pasta(pasta))
    assert resumo.segmentos == 6
    assert "aguardando o segmento 6" in resumo.aguardando
    assert tipos(p) == {1: "corrompido", 2: "vazio", 3: "silencioso", 5: "duplicado"}
    assert all(a.startswith("aviso: ") for a in avisos) and len(avisos) == 4
    # Segment 6 arrives after 7: it is taken in order.
    (pasta / "seg_00006.wav").write_bytes(para_wav(silencio(SEG_S)))
    # And a second copy of segment 4 under another name; then the recording ends.
    shutil.copy(pasta / "seg_00004.wav", pasta / "seg_00004-copia.wav")
    (pasta / "FIM").write_text("", encoding="utf-8")
    p = processador(debate_dir, config_audio, modelo, avisos)
    resumo = p.rodar(_pasta(pasta))
    assert resumo.encerrado
    assert p.estado.vistos["seg_00006.wav"] == "processado"
    assert p.estado.vistos["seg_00007.wav"] == "processado"
    assert p.estado.vistos["seg_00004-copia.wav"] == "duplicado"
    # Video times survive the bad segments: each phrase sits in its own segment's slot.
    falas = ler_transcricao(debate_dir / "transcricao.jsonl")
    palavras = [w for f in falas for w in f["palavras"]]

    def quando(stem: str) -> list[float]:
        return [w["inicio_s"] for w in palavras if normalizar(w["p"]).startswith(stem)]

    assert len(quando("noite")) == 1 and 0.0 <= quando("noite")[0] <= SEG_S
    assert len(quando("saude")) == 1 and 4 * SEG_S <= quando("saude")[0] <= 5 * SEG_S
    assert len(quando("dinheiro")) == 1 and 7 * SEG_S <= quando("dinheiro")[0] <= 8 * SEG_S


def _pasta(pasta: Path) -> FontePasta:
    return FontePasta(pasta, estavel_s=0.0)


def test_missing_segment_is_skipped_after_the_wait_and_a_late_one_ignored(
    tmp_path: Path, debate_dir: Path
) -> None:
    # Silent segments need no model: the job never loads Whisper here.
    config = ConfigAudio(audio_espera_lacuna_s=0.0)
    pasta = tmp_path / "segmentos"
    pasta.mkdir()
    for i in (0, 1, 3):
        (pasta / f"seg_{i:05d}.wav").write_bytes(para_wav(silencio(2.0)))
    avisos: list[str] = []
    p = processador(debate_dir, config, None, avisos)
    resumo = p.rodar(_pasta(pasta))
    assert resumo.segmentos == 3
    assert tipos(p)[2] == "ausente"
    assert p.estado.inicio_proximo_s == 8.0  # the missing one counted with the usual length
    (pasta / "seg_00002.wav").write_bytes(para_wav(silencio(2.0)))
    p = processador(debate_dir, config, None, avisos)
    p.rodar(_pasta(pasta))
    assert p.estado.vistos["seg_00002.wav"] == "atrasado"
    assert p.estado.proximo_seq == 4


def test_unreadable_state_restarts_without_doubling(tmp_path: Path, debate_dir: Path) -> None:
    pasta = tmp_path / "segmentos"
    pasta.mkdir()
    (pasta / "seg_00000.wav").write_bytes(para_wav(silencio(2.0)))
    avisos: list[str] = []
    processador(debate_dir, ConfigAudio(), None, avisos).rodar(_pasta(pasta))
    (debate_dir / "audio" / "estado.json").write_text("{ quebrado", encoding="utf-8")
    p = processador(debate_dir, ConfigAudio(), None, avisos)
    p.rodar(_pasta(pasta))
    assert any("ilegível" in a for a in avisos)
    assert (debate_dir / "audio" / "estado.json.ilegivel").exists()
    assert p.estado.proximo_seq == 1


def test_state_from_another_source_is_refused(tmp_path: Path, debate_dir: Path) -> None:
    for nome in ("a", "b"):
        (tmp_path / nome).mkdir()
        (tmp_path / nome / "seg_00000.wav").write_bytes(para_wav(silencio(1.0)))
    processador(debate_dir, ConfigAudio(), None, []).rodar(FontePasta(tmp_path / "a", estavel_s=0))
    with pytest.raises(ErroProcessamento, match="não de"):
        processador(debate_dir, ConfigAudio(), None, []).rodar(FontePasta(tmp_path / "b", estavel_s=0))


def test_noise_level_decides_silence() -> None:
    assert nivel_dbfs(silencio(1.0)) == float("-inf")
    tom = (0.5 * np.sin(2 * np.pi * 440 * np.arange(TAXA) / TAXA)).astype(np.float32)
    assert -10 < nivel_dbfs(tom) < -5

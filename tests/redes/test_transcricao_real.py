"""A video post transcribed by the real faster-whisper model (speech made by espeak-ng)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from jobs.checagens.acervo import afirmacoes_de
from jobs.checagens.captura import capturar
from jobs.checagens.configuracao import ConfigChecagens
from tests.support.paginas import ServidorPaginas

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng ausente")
def test_video_post_gets_a_real_transcript(projeto: Path, servidor: ServidorPaginas, tmp_path: Path) -> None:
    wav = tmp_path / "fala.wav"
    subprocess.run(
        [
            "espeak-ng",
            "-v",
            "pt-br",
            "-s",
            "140",
            "-w",
            str(wav),
            "O estado abriu trezentos novos leitos em dois mil e vinte e cinco.",
        ],
        check=True,
    )
    servidor.rota("/fala.wav", wav.read_bytes(), tipo="audio/wav")
    html = (
        "<html><head><meta property='og:title' content='Vídeo (demonstração)'>"
        f"<meta property='og:video' content='{servidor.url('/fala.wav')}'></head>"
        "<body><p>Assista.</p></body></html>"
    )
    url = servidor.rota("/post/video", html)
    config = ConfigChecagens(
        tempo_limite_s=10, transcrever_videos=True, whisper_cache=str(REPO / ".cache" / "whisper-base")
    )
    resultado = capturar(url, config, projeto, candidato="helena-prado")
    transcricao = (resultado.captura.pasta / "transcricao.txt").read_text(encoding="utf-8").lower()
    assert "novo" in transcricao, transcricao  # espeak voice + base model: loose match
    assert resultado.avisos == []
    assert any(a.origem == "transcricao" for a in afirmacoes_de(resultado.captura))

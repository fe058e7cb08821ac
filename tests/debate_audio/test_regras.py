"""Pure rules of the audio job: segment order, window cuts, speaker cues, configuration."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from eleicoes import main
from jobs.debate.armazenamento import Bloco, Participante
from jobs.debate.config_audio import ConfigAudio, ErroConfig, carregar_config_audio, config_audio
from jobs.debate.falantes import (
    EstadoFalantes,
    Roteiro,
    aplicar_correcoes,
    apresentacao,
    atribuir,
    casar_vozes,
    destinatario,
    fala_de_moderador,
    tempo_anunciado,
    voz_em,
)
from jobs.debate.segmentos import FontePasta, SegmentoDisponivel, ler_playlist, numero_sequencia, planejar
from jobs.debate.transcricao import (
    Palavra,
    cortar_janela,
    pausas_da_janela,
    planejar_corte,
    sem_repeticoes,
    unir_pausas,
)

PARTICIPANTES = (
    Participante("marta-lins", "Marta Lins", "moderador", ""),
    Participante("helena-prado", "Helena Prado", "candidato", "helena-prado"),
    Participante("rui-amaral", "Rui Amaral", "candidato", "rui-amaral"),
)
ROTEIRO = Roteiro(PARTICIPANTES, (Bloco("Bloco 2", "confronto", 600.0, 1200.0),))


def seg(seq: int, nome: str | None = None, pronto: bool = True) -> SegmentoDisponivel:
    return SegmentoDisponivel(seq, nome or f"seg_{seq:05d}.wav", pronto)


# --- segments -------------------------------------------------------------------------------


def test_sequence_number_is_the_last_digits_of_the_stem() -> None:
    assert numero_sequencia("seg_00012.ts") == 12
    assert numero_sequencia("debate2026-parte-7.mp3") == 7
    assert numero_sequencia("gravacao.wav") is None


def test_plan_takes_segments_in_order_once() -> None:
    disponiveis = [seg(2), seg(0), seg(1)]
    assert planejar(disponiveis, None, set(), False, False).segmento == seg(0)
    assert planejar(disponiveis, 1, {"seg_00000.wav"}, False, False).segmento == seg(1)
    passo = planejar(disponiveis, 3, {s.nome for s in disponiveis}, False, False)
    assert passo.acao == "esperar" and not passo.descartar
    assert planejar(disponiveis, 3, {s.nome for s in disponiveis}, False, True).acao == "fim"


def test_plan_waits_for_a_gap_then_skips_it_and_discards_late_or_repeated() -> None:
    disponiveis = [seg(0), seg(2)]
    assert planejar(disponiveis, 1, {"seg_00000.wav"}, False, False).acao == "esperar"
    passo = planejar(disponiveis, 1, {"seg_00000.wav"}, True, False)
    assert passo.acao == "ausente" and passo.seq == 1
    tarde = planejar([*disponiveis, seg(1)], 3, {"seg_00000.wav", "seg_00002.wav"}, False, False)
    assert tarde.descartar == (seg(1),)
    copia = seg(0, "seg_00000 (1).wav")
    assert planejar([copia], 1, {"seg_00000.wav"}, False, False).descartar == (copia,)


def test_plan_waits_for_an_unfinished_file() -> None:
    assert planejar([seg(0, pronto=False)], None, set(), False, False).acao == "esperar"


def test_folder_source_marks_files_still_being_written(tmp_path: Path) -> None:
    (tmp_path / "seg_00000.wav").write_bytes(b"x")
    (tmp_path / "seg_00001.wav").write_bytes(b"x")
    (tmp_path / "notas.txt").write_text("ignorado", encoding="utf-8")
    (tmp_path / ".seg_00002.wav.tmp").write_bytes(b"x")
    agora = os.stat(tmp_path / "seg_00001.wav").st_mtime
    fonte = FontePasta(tmp_path, estavel_s=5.0, relogio=lambda: agora + 1)
    assert [(s.seq, s.pronto) for s in fonte.listar()] == [(0, True), (1, False)]
    assert not fonte.encerrada()
    (tmp_path / "FIM").write_text("", encoding="utf-8")
    assert fonte.encerrada() and all(s.pronto for s in fonte.listar())


def test_playlist_parsing() -> None:
    texto = "#EXTM3U\n#EXT-X-MEDIA-SEQUENCE:10\n#EXTINF:6.0,\na.ts\n#EXTINF:5.5,\nsub/b.aac\n"
    playlist = ler_playlist(texto, "http://127.0.0.1:9/live/index.m3u8")
    assert [(s.seq, s.nome, s.duracao_s) for s in playlist.segmentos] == [
        (10, "http://127.0.0.1:9/live/a.ts", 6.0),
        (11, "http://127.0.0.1:9/live/sub/b.aac", 5.5),
    ]
    assert not playlist.encerrada


# --- windows --------------------------------------------------------------------------------


def w(p: str, ini: float, fim: float) -> Palavra:
    return Palavra(p, ini, fim)


def test_cut_at_the_last_pause() -> None:
    plano = planejar_corte([(0.2, 1.5), (2.3, 3.9)], 0.0, 4.0)
    assert plano is not None and plano.corte_s == pytest.approx(1.9) and plano.tem_fala
    # Silence after the last speech: everything before it is complete.
    plano = planejar_corte([(0.2, 2.0)], 0.0, 4.0)
    assert plano is not None and plano.corte_s == pytest.approx(2.2)
    # Speech runs to the end without a pause: wait for more audio.
    assert planejar_corte([(0.0, 4.0)], 0.0, 4.0) is None
    # No speech: cut near the end, nothing to transcribe.
    plano = planejar_corte([], 0.0, 4.0)
    assert plano is not None and not plano.tem_fala and plano.corte_s == pytest.approx(3.8)


def test_words_held_back_near_the_end_and_duplicates_dropped() -> None:
    palavras = [w("já", 0.5, 0.9), w("dito", 1.0, 1.4), w("novo", 1.6, 2.0), w("cortad", 3.6, 4.0)]
    corte = cortar_janela(palavras, fim_janela_s=4.0, ultimo_fim_s=1.4, margem_s=1.0, final=False)
    assert [x.p for x in corte.confirmadas] == ["novo"]
    assert corte.proximo_inicio_s == pytest.approx(3.0)
    final = cortar_janela(palavras, 4.0, 1.4, 1.0, final=True)
    assert [x.p for x in final.confirmadas] == ["novo", "cortad"]


def test_words_without_length_at_the_committed_end_are_duplicates() -> None:
    # Whisper put "que é o" at one instant, the end of what was committed; the next window hears
    # them again at the same instant (seen after a restart on the demo rundown's prompt).
    palavras = [w("que", 8.506, 8.506), w("é", 8.506, 8.506), w("novo", 8.6, 9.0)]
    final = cortar_janela(palavras, 10.0, 8.506, 1.0, final=True)
    assert [x.p for x in final.confirmadas] == ["novo"]


def test_decoding_loops_are_removed() -> None:
    palavras = [w("Candidato", 0, 0.5)] + [w("-tá", 0.5 + i / 10, 0.6 + i / 10) for i in range(30)]
    assert [x.p for x in sem_repeticoes(palavras)] == ["Candidato", "-tá"]
    frase = [w(p, i, i + 0.5) for i, p in enumerate(["Rui", "Amaral", "Prado,"] * 6 + ["fim"])]
    assert [x.p for x in sem_repeticoes(frase)] == ["Rui", "Amaral", "Prado,", "fim"]
    longa = ["O", "senhor", "tem", "um", "minuto", "para", "comentar."] * 3
    assert [x.p for x in sem_repeticoes([w(p, i, i + 0.5) for i, p in enumerate(longa)])] == longa[:7]
    normal = [w(p, i, i + 0.5) for i, p in enumerate(["muito", "muito", "obrigado", "sim", "sim", "sim"])]
    assert sem_repeticoes(normal) == normal


def test_pauses_of_windows_merge() -> None:
    assert pausas_da_janela([(1.0, 2.0)], 0.0, 3.0) == [(0.0, 1.0), (2.0, 3.0)]
    assert pausas_da_janela([], 3.0, 6.0) == [(3.0, 6.0)]
    assert unir_pausas([(2.0, 3.0), (3.0, 3.4), (5.0, 6.0)]) == [(2.0, 3.4), (5.0, 6.0)]


# --- speakers -------------------------------------------------------------------------------


def test_text_cues() -> None:
    assert apresentacao("Boa noite, eu sou Helena Prado.", PARTICIPANTES) == "helena-prado"
    assert apresentacao("Eu sou Melena Prado e quero falar", PARTICIPANTES) == "helena-prado"  # ASR slip
    assert apresentacao("Eu sou a favor da reforma", PARTICIPANTES) is None
    assert fala_de_moderador("Candidata, a senhora tem dois minutos.")
    assert fala_de_moderador("Vamos para o próximo bloco.")
    assert not fala_de_moderador("Vou cuidar da saúde.")
    assert tempo_anunciado("o senhor tem 30 segundos") == 30.0
    assert tempo_anunciado("a senhora tem um minuto") == 60.0
    assert destinatario("Candidato Rui Amaral, o senhor tem um minuto.", PARTICIPANTES, False) == "rui-amaral"
    assert (
        destinatario("A candidata Helena pergunta ao candidato Rui.", PARTICIPANTES, False) == "helena-prado"
    )
    assert destinatario("O Rui não fez nada.", PARTICIPANTES, True) is None


def test_attribution_follows_the_floor() -> None:
    e = EstadoFalantes()
    assert atribuir(e, ROTEIRO, "Boa noite. Começa o debate.", 0, 3, None) == "marta-lins"
    assert (
        atribuir(e, ROTEIRO, "Candidata Helena Prado, a senhora tem dois minutos.", 4, 7, None)
        == "marta-lins"
    )
    assert atribuir(e, ROTEIRO, "A saúde precisa de médicos.", 8, 20, None) == "helena-prado"
    assert atribuir(e, ROTEIRO, "E mais hospitais.", 21, 30, None) == "helena-prado"
    # The name was not heard, but a time was given: the candidate who waited takes the floor.
    assert atribuir(e, ROTEIRO, "Obrigada. O senhor tem um minuto.", 31, 34, None) == "marta-lins"
    assert atribuir(e, ROTEIRO, "Discordo da proposta.", 35, 50, None) == "rui-amaral"
    # Past the time given (60 s + slack): the moderator is speaking.
    assert atribuir(e, ROTEIRO, "Obrigada.", 110, 111, None) == "marta-lins"
    # A new block of the rundown opens with the moderator.
    e.atual = "rui-amaral"
    assert atribuir(e, ROTEIRO, "Seguimos.", 601, 603, None) == "marta-lins"


def test_editor_correction_sticks_to_the_voice() -> None:
    e = EstadoFalantes()
    assert atribuir(e, ROTEIRO, "Eu sou Rui Amaral.", 0, 2, "voz1") == "rui-amaral"
    assert atribuir(e, ROTEIRO, "Qualquer coisa.", 3, 5, "voz1") == "rui-amaral"  # learnt voice
    # Another voice after a candidate, nothing said: the rundown's order gives the moderator.
    assert atribuir(e, ROTEIRO, "Outra voz.", 6, 8, "voz2") == "marta-lins"
    aplicar_correcoes(e, {"f0003": "helena-prado"}, {"f0003": "voz2"}, "f0003")
    assert atribuir(e, ROTEIRO, "Continua.", 9, 10, "voz2") == "helena-prado"
    # The editor wins over a cue in the text.
    assert atribuir(e, ROTEIRO, "Eu sou Rui Amaral.", 11, 12, "voz2") == "helena-prado"
    # Without voices, correcting the latest utterance changes who has the floor now.
    sem = EstadoFalantes(atual="marta-lins")
    aplicar_correcoes(sem, {"f0009": "rui-amaral"}, {}, "f0009")
    assert atribuir(sem, ROTEIRO, "Seguindo.", 1, 2, None) == "rui-amaral"


def test_voiceprints_stay_stable_across_windows() -> None:
    conhecidas: dict[str, list[float]] = {}
    contagem: dict[str, int] = {}
    a, b = [1.0, 0.0, 0.1], [0.0, 1.0, 0.1]
    assert casar_vozes({"0": a, "1": b}, conhecidas, contagem) == {"0": "voz1", "1": "voz2"}
    # Next window: the cluster labels come swapped, the voices do not.
    assert casar_vozes({"0": [0.1, 0.9, 0.1], "1": [0.9, 0.1, 0.0]}, conhecidas, contagem) == {
        "0": "voz2",
        "1": "voz1",
    }
    assert contagem == {"voz1": 2, "voz2": 2}
    assert casar_vozes({"0": [0.0, 0.0, 1.0]}, conhecidas, contagem) == {"0": "voz3"}


def test_voice_covering_most_of_an_utterance() -> None:
    from jobs.debate.falantes import TrechoVoz

    trechos = [TrechoVoz(0, 2, "voz1"), TrechoVoz(2, 10, "voz2")]
    assert voz_em(trechos, 1.5, 6) == "voz2"
    assert voz_em(trechos, 20, 21) is None


# --- configuration and command line ---------------------------------------------------------


def test_config_defaults_and_validation(tmp_path: Path) -> None:
    assert carregar_config_audio(tmp_path / "nao-existe.toml") == ConfigAudio()
    assert config_audio({"aparte_max_s": 5, "whisper_feixe": 2}).whisper_feixe == 2  # engine keys ignored
    with pytest.raises(ErroConfig, match="audio_diarizacao"):
        config_audio({"audio_diarizacao": "pyannote"})
    with pytest.raises(ErroConfig, match="desconhecida"):
        config_audio({"audio_pausa": 1})
    with pytest.raises(ErroConfig, match="whisper_feixe"):
        config_audio({"whisper_feixe": "cinco"})


def test_engine_config_accepts_the_audio_keys(tmp_path: Path) -> None:
    from jobs.debate import config as config_motor

    arquivo = tmp_path / "eleicoes.toml"
    arquivo.write_text(
        "[debate]\naparte_max_s = 8\nwhisper_feixe = 1\naudio_pausa_s = 0.6\n", encoding="utf-8"
    )
    assert config_motor.carregar(arquivo).aparte_max_s == 8
    assert carregar_config_audio(arquivo).audio_pausa_s == 0.6


def test_cli_errors_in_portuguese(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    dados = tmp_path / "debates"
    dados.mkdir()
    assert main(["debate", "processar", "nao-existe", "--fonte", str(tmp_path), "--dados", str(dados)]) == 2
    assert "não existe" in capsys.readouterr().err
    (dados / "d1").mkdir()
    assert main(["debate", "processar", "d1", "--fonte", str(tmp_path / "sumiu"), "--dados", str(dados)]) == 2
    assert "fonte" in capsys.readouterr().err


def test_cli_on_silent_segments_needs_no_model(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from jobs.debate.audio import para_wav

    dados = tmp_path / "debates"
    (dados / "d1").mkdir(parents=True)
    pasta = tmp_path / "segs"
    pasta.mkdir()
    for i in range(2):
        (pasta / f"s{i}.wav").write_bytes(para_wav(np.zeros(8000, np.float32)))
    argv = ["debate", "processar", "d1", "--fonte", str(pasta), "--dados", str(dados), "--fim"]
    argv += ["--config", str(tmp_path / "eleicoes.toml")]
    assert main(argv) == 0
    saida = capsys.readouterr().out
    assert "2 segmento(s) processado(s), 0 fala(s) nova(s)" in saida and "encerrada" in saida

"""Who has the floor: voices by pitch, the rundown's order, the analysis backend, the recording's end."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from jobs.analise.config import ConfigAnalise
from jobs.debate import pipeline
from jobs.debate.armazenamento import Bloco, Fala, Participante
from jobs.debate.audio import TAXA, Amostras, para_wav
from jobs.debate.config_audio import ConfigAudio
from jobs.debate.falantes import (
    FALAS_SEM_IA,
    DiarizadorTimbre,
    EstadoFalantes,
    IdentificadorIA,
    IdentificadorRegras,
    Roteiro,
    aplicar_correcoes,
    atribuir,
    identificador_de,
)
from jobs.debate.papeis import PapelLocutor
from jobs.debate.processar import Processador, identificador_padrao
from jobs.debate.segmentos import FontePasta
from jobs.debate.turnos import segmentar
from tests.support.chat_server import ChatServer, conteudo_do_pedido, lento, malformado, ok

PARTICIPANTES = (
    Participante("marta-lins", "Marta Lins", "moderador", ""),
    Participante("helena-prado", "Helena Prado", "candidato", "helena-prado"),
    Participante("rui-amaral", "Rui Amaral", "candidato", "rui-amaral"),
)
ROTEIRO = Roteiro(PARTICIPANTES, (Bloco("Bloco 2", "confronto", 600.0, 1200.0),))


def vogal(f0: float, segundos: float) -> Amostras:
    """A voiced sound: a pulse train at `f0` Hz through a crude resonance (stands in for a voice)."""
    t = np.arange(round(segundos * TAXA)) / TAXA
    fase = (t * f0) % 1.0
    pulsos = np.exp(-fase * 12.0) - 0.08  # one decaying pulse per period
    saida: Amostras = (0.3 * pulsos / float(np.abs(pulsos).max())).astype(np.float32)
    return saida


def pausa(segundos: float) -> Amostras:
    return np.zeros(round(segundos * TAXA), np.float32)


# --- voices by pitch -------------------------------------------------------------------------


def test_pitch_tells_voices_apart_and_labels_survive_a_restart() -> None:
    janela = np.concatenate([vogal(110, 1.0), pausa(0.5), vogal(210, 1.0), pausa(0.5), vogal(115, 0.8)])
    d = DiarizadorTimbre(0.2)
    trechos = d.vozes(janela, 30.0)
    assert [t.voz for t in trechos] == ["timbre1", "timbre2", "timbre1"]
    assert 29.9 <= trechos[0].inicio_s <= 30.1 and 30.9 <= trechos[0].fim_s <= 31.1
    assert 31.4 <= trechos[1].inicio_s <= 31.6
    # A new process with the saved state keeps the labels; a third pitch is a new voice.
    outra = DiarizadorTimbre(0.2, json.loads(json.dumps(d.estado())))
    assert [t.voz for t in outra.vozes(np.concatenate([vogal(205, 1), pausa(0.5), vogal(75, 1)]), 0)] == [
        "timbre2",
        "timbre3",
    ]
    # Silence and too-short stretches have no voice.
    assert d.vozes(pausa(2.0), 0) == [] and d.vozes(vogal(110, 0.1), 0) == []


def test_voice_change_follows_the_rundown_order() -> None:
    e = EstadoFalantes()
    # The names are misheard, nothing in the text says who speaks: the voices do.
    assert atribuir(e, ROTEIRO, "Boa noite a todos.", 0, 3, "v1") == "marta-lins"
    assert atribuir(e, ROTEIRO, "Kangita, ouvimos agora.", 4, 7, "v1") == "marta-lins"
    assert e.origem == "mesma_voz"
    assert atribuir(e, ROTEIRO, "A saúde precisa de médicos.", 8, 20, "v2") == "helena-prado"
    assert e.origem == "troca_voz"  # after the moderator: the candidate who waited longest
    assert atribuir(e, ROTEIRO, "E de hospitais.", 21, 25, "v2") == "helena-prado"
    assert atribuir(e, ROTEIRO, "Ombicata, cangita.", 26, 28, "v1") == "marta-lins"
    assert e.origem == "troca_voz"  # after a candidate, the moderator
    assert atribuir(e, ROTEIRO, "Discordo da proposta.", 29, 40, "v3") == "rui-amaral"
    # A self-introduction ties a voice for good.
    e2 = EstadoFalantes()
    atribuir(e2, ROTEIRO, "Eu sou Rui Amaral.", 0, 2, "v9")
    assert e2.vozes["v9"] == "rui-amaral"


def test_editor_correction_still_wins_over_voices_and_the_model() -> None:
    e = EstadoFalantes()
    atribuir(e, ROTEIRO, "Boa noite.", 0, 2, "v1")
    atribuir(e, ROTEIRO, "Frase.", 3, 5, "v2")
    aplicar_correcoes(e, {"f0002": "rui-amaral"}, {"f0002": "v2"}, "f0002")
    assert atribuir(e, ROTEIRO, "Eu sou Helena Prado.", 6, 8, "v2", sugerido="helena-prado") == "rui-amaral"
    assert e.origem == "editor"


# --- the engine's turns ----------------------------------------------------------------------


def _fala(i: int, inicio: float, fim: float, locutor: str, texto: str) -> Fala:
    return Fala(f"f{i:04d}", inicio, fim, locutor, texto)


PAPEIS = {
    "marta-lins": PapelLocutor("marta-lins", "moderador", "Marta Lins", "", "programa"),
    "helena-prado": PapelLocutor("helena-prado", "candidato", "Helena Prado", "helena-prado", "programa"),
    "rui-amaral": PapelLocutor("rui-amaral", "candidato", "Rui Amaral", "rui-amaral", "programa"),
}


def test_a_short_answer_after_the_moderator_is_a_turn_of_its_own() -> None:
    falas = [
        _fala(1, 0, 5, "marta-lins", "A senhora tem dois minutos."),
        _fala(2, 6, 18, "helena-prado", "A saúde precisa de médicos."),
        _fala(3, 19, 23, "marta-lins", "O senhor tem um minuto."),
        _fala(4, 24, 29, "rui-amaral", "Vamos abrir creches."),  # 5 s: shorter than an interjection
        _fala(5, 30, 33, "marta-lins", "A senhora tem um minuto."),
        _fala(6, 34, 38, "helena-prado", "Conto com o seu voto."),
    ]
    turnos = segmentar(falas, PAPEIS, 10.0, False)
    assert [(t.id, t.candidato, t.encerrado) for t in turnos] == [
        ("t-f0002", "helena-prado", True),
        ("t-f0004", "rui-amaral", True),
        ("t-f0006", "helena-prado", False),
    ]
    # An interjection with no one leading in between still does not break the turn.
    aparte = [*falas[:2], _fala(3, 19, 21, "rui-amaral", "Mentira!"), _fala(4, 22, 30, "helena-prado", "E")]
    assert [t.falas for t in segmentar(aparte, PAPEIS, 10.0, True)] == [("f0002", "f0004")]


# --- the recording's end closes the last turn ------------------------------------------------


def _debate_com_resposta(debate_dir: Path) -> None:
    linhas = [
        {"id": "f0001", "inicio_s": 0.5, "fim_s": 4.0, "locutor": "marta-lins",
         "texto": "Candidata Helena Prado, qual é o seu plano para a saúde?"},
        {"id": "f0002", "inicio_s": 5.0, "fim_s": 9.0, "locutor": "helena-prado",
         "texto": "Vamos contratar vinte mil médicos até 2028 com dinheiro do orçamento federal."},
    ]  # fmt: skip
    texto = "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in linhas)
    (debate_dir / "transcricao.jsonl").write_text(texto, encoding="utf-8")


def _avaliados(debate_dir: Path) -> int:
    placar = json.loads((debate_dir / "placar.json").read_text(encoding="utf-8"))
    return sum(int(c.get("turnos_avaliados") or 0) for c in placar["candidatos"])


def test_end_of_recording_closes_and_scores_the_last_turn(tmp_path: Path, debate_dir: Path) -> None:
    _debate_com_resposta(debate_dir)
    pipeline.atualizar(debate_dir)
    assert _avaliados(debate_dir) == 0  # the answer's turn is still open
    segmentos = tmp_path / "segs"
    segmentos.mkdir()
    (segmentos / "s0.wav").write_bytes(para_wav(pausa(2.0)))  # silence: no model needed
    fonte = FontePasta(segmentos, estavel_s=0)
    p = Processador(debate_dir, ConfigAudio(), motor=lambda d: pipeline.atualizar(d), avisar=lambda _m: None)
    assert not p.rodar(fonte).encerrado
    assert _avaliados(debate_dir) == 0
    (segmentos / "FIM").write_text("", encoding="utf-8")
    assert p.rodar(fonte).encerrado
    marca = json.loads((debate_dir / "gravacao.json").read_text(encoding="utf-8"))
    assert marca["encerrada"] is True
    turnos = json.loads((debate_dir / "turnos.json").read_text(encoding="utf-8"))["turnos"]
    assert [t["encerrado"] for t in turnos] == [True]
    assert _avaliados(debate_dir) == 1
    # The editor's explicit `reabrir` wins over the recording's end.
    (debate_dir / "edicoes.toml").write_text("encerrado = false\n", encoding="utf-8")
    pipeline.atualizar(debate_dir)
    assert _avaliados(debate_dir) == 0


# --- identity from the analysis backend ------------------------------------------------------


def _config(servidor: ChatServer, tempo_limite_s: float = 5.0) -> ConfigAnalise:
    return ConfigAnalise(
        backend="openai", base_url=servidor.url, chave_env="", tempo_limite_s=tempo_limite_s,
        tentativas=1, espera_s=0,
    )  # fmt: skip


def test_backend_names_the_speaker_with_context() -> None:
    with ChatServer([ok({"locutor": "rui-amaral"})]) as servidor:
        avisos: list[str] = []
        ia = identificador_de(_config(servidor), avisos.append)
        assert isinstance(ia, IdentificadorIA)
        e = EstadoFalantes(atual="marta-lins", proximo="helena-prado")
        recentes = (("marta-lins", "Candidata Helena, a senhora tem dois minutos."),)
        # The rules would say Helena (she was handed the floor); the model heard Rui.
        assert ia.identificar(e, ROTEIRO, "Eu discordo.", 10, 12, "v2", recentes) == "rui-amaral"
        assert e.origem == "ia" and e.vozes["v2"] == "rui-amaral" and not avisos
        pedido = json.loads(conteudo_do_pedido(servidor.pedidos[0]))
        assert pedido["fala_nova"] == "Eu discordo."
        assert [p["locutor"] for p in pedido["participantes"]] == ["marta-lins", "helena-prado", "rui-amaral"]
        assert pedido["falas_recentes"][0]["locutor"] == "marta-lins"


def test_backend_errors_fall_back_to_the_rules() -> None:
    # An unknown label and malformed JSON are both invalid answers: the rules decide.
    with ChatServer([ok({"locutor": "ana-souza"}), malformado()]) as servidor:
        avisos: list[str] = []
        ia = IdentificadorIA(_config(servidor), avisos.append)
        e = EstadoFalantes(atual="marta-lins", proximo="helena-prado")
        assert ia.identificar(e, ROTEIRO, "A saúde precisa de médicos.", 10, 20, None, ()) == "helena-prado"
        assert e.origem == "vez" and ia.falhas == 1 and "falhou" in avisos[0]
        # After a failure the next utterances skip the backend, so the transcription never stalls.
        for i in range(FALAS_SEM_IA):
            ia.identificar(e, ROTEIRO, "Mais.", 21 + i, 21.5 + i, None, ())
        assert len(servidor.pedidos) == 1
        assert ia.identificar(e, ROTEIRO, "Ainda.", 40, 41, None, ()) == "helena-prado"
        assert len(servidor.pedidos) == 2 and ia.falhas == 2  # the malformed answer


def test_slow_backend_times_out_to_the_rules() -> None:
    # Held until the server stops: the rules' answer can only come from the client giving up.
    with ChatServer([lento({"locutor": "rui-amaral"}, atraso_s=600)]) as servidor:
        ia = IdentificadorIA(_config(servidor, tempo_limite_s=0.3))
        e = EstadoFalantes()
        assert ia.identificar(e, ROTEIRO, "Boa noite. Começa o debate.", 0, 3, None, ()) == "marta-lins"
        assert ia.falhas == 1 and len(servidor.pedidos) == 1


def test_editor_voice_needs_no_request(tmp_path: Path) -> None:
    with ChatServer([]) as servidor:
        ia = IdentificadorIA(_config(servidor))
        e = EstadoFalantes(vozes_editor={"v1": "helena-prado"}, vozes={"v1": "helena-prado"})
        assert ia.identificar(e, ROTEIRO, "Eu sou Rui Amaral.", 0, 2, "v1", ()) == "helena-prado"
        assert servidor.pedidos == []
    # Rules unless [analise] asks for the model; an invalid section warns and keeps the rules.
    assert isinstance(identificador_de(ConfigAnalise()), IdentificadorRegras)
    ruim = tmp_path / "eleicoes.toml"
    ruim.write_text('[analise]\nbackend = "magico"\n', encoding="utf-8")
    avisos: list[str] = []
    assert isinstance(identificador_padrao(ruim, avisos.append), IdentificadorRegras)
    assert "[analise]" in avisos[0]

"""Stages 1-3: roles, turns (interjections), and the question of each turn."""

from __future__ import annotations

from pathlib import Path

from jobs.debate.armazenamento import ler_debate, ler_transcricao
from jobs.debate.edicoes import EdicaoLocutor, EdicaoPergunta, Edicoes
from jobs.debate.papeis import identificar
from jobs.debate.perguntas import atribuir, e_chamada, passa_a_vez, pergunta_de
from jobs.debate.turnos import Turno, segmentar
from tests.debate.conftest import Criar


def _etapas(
    pasta: Path, edicoes: Edicoes | None = None, aparte: float = 10.0, encerrado: bool = True
) -> tuple[list[Turno], dict[str, str | None]]:
    edicoes = edicoes or Edicoes()
    debate = ler_debate(pasta)
    falas, avisos = ler_transcricao(pasta)
    assert avisos == []
    papeis, falas = identificar(debate, falas, edicoes)
    turnos = segmentar(
        falas, papeis, aparte, encerrado, lambda f: passa_a_vez(f, papeis.get(f.locutor)), debate.blocos
    )
    perguntas = atribuir(debate, falas, papeis, turnos, edicoes)
    return turnos, {p.turno: p.texto for p in perguntas}


QUESTAO = "Candidata Helena, o que a senhora fará na segurança e qual sua posição sobre a maioridade penal?"


def test_short_interjection_does_not_break_a_turn(criar_debate: Criar) -> None:
    pasta = criar_debate(
        [
            (0, 10, "JOR", QUESTAO),
            (10, 40, "HELENA", "Vou contratar 4 mil policiais."),
            (40, 43, "RUI", "Mentira!"),
            (43, 44, "MED", "Silêncio, por favor."),
            (44, 70, "HELENA", "Sou contra reduzir a maioridade penal."),
            (70, 90, "RUI", "A candidata esquece que cortou verbas da polícia e isso custou caro ao estado."),
        ]
    )
    turnos, _ = _etapas(pasta)
    assert [t.id for t in turnos] == ["t-f0002", "t-f0006"]
    helena = turnos[0]
    assert helena.falas == ("f0002", "f0005") and helena.apartes == ("f0003", "f0004")
    assert helena.duracao_s == 56  # her own speech only
    assert helena.texto == "Vou contratar 4 mil policiais. Sou contra reduzir a maioridade penal."


def test_interjection_threshold_is_configurable_and_runs_add_up(criar_debate: Criar) -> None:
    falas = [
        (0, 10, "JOR", QUESTAO),
        (10, 40, "HELENA", "Vou contratar 4 mil policiais."),
        (40, 46, "RUI", "Isso é conversa."),
        (46, 70, "HELENA", "Sou contra reduzir a maioridade penal."),
    ]
    pasta = criar_debate(falas)
    assert len(_etapas(pasta)[0]) == 1
    assert len(_etapas(pasta, aparte=5)[0]) == 3  # 6 s is no longer short: the floor passed twice
    # Two short utterances in a row by the same voice make one 12 s run: the floor passes.
    pasta2 = criar_debate(
        [
            (0, 10, "JOR", QUESTAO),
            (10, 40, "HELENA", "Vou contratar 4 mil policiais."),
            (40, 46, "RUI", "Isso é conversa."),
            (46, 52, "RUI", "A senhora nunca fez nada pela polícia."),
            (52, 70, "HELENA", "Fiz, e os números mostram."),
        ],
        nome="corrida",
    )
    turnos, _ = _etapas(pasta2)
    assert [t.id for t in turnos] == ["t-f0002", "t-f0003", "t-f0005"]


def test_turn_is_closed_only_when_the_floor_passes(criar_debate: Criar) -> None:
    pasta = criar_debate([(0, 10, "JOR", QUESTAO), (10, 40, "HELENA", "Vou contratar policiais.")])
    assert [t.encerrado for t in _etapas(pasta, encerrado=False)[0]] == [False]
    assert [t.encerrado for t in _etapas(pasta, encerrado=True)[0]] == [True]


def test_time_warnings_and_calls_are_not_questions() -> None:
    for chamada in (
        "Candidato, o senhor tem 2 minutos.",
        "A senhora tem dois minutos.",
        "Tempo esgotado.",
        "Réplica, candidato Rui. O senhor tem um minuto.",
        "Seu tempo acabou, candidata.",
        "Obrigada. Com a palavra, a candidata Helena.",
        "O senhor tem trinta segundos?",
    ):
        assert e_chamada(chamada.split(".")[0]) or pergunta_de(chamada) is None, chamada
        assert pergunta_de(chamada) is None, chamada
    assert pergunta_de("Candidato, o senhor tem dois minutos. Qual é o seu plano para a saúde?") == (
        "Qual é o seu plano para a saúde?"
    )


def test_question_holds_through_rebuttals_and_warnings(criar_debate: Criar) -> None:
    pasta = criar_debate(
        [
            (0, 10, "JOR", QUESTAO),
            (10, 12, "MED", "A senhora tem dois minutos."),
            (12, 40, "HELENA", "Vou contratar 4 mil policiais."),
            (40, 43, "MED", "Réplica, candidato Rui."),
            (
                43,
                60,
                "RUI",
                "A candidata não disse como vai pagar esses policiais, e eu digo como pagar os meus.",
            ),
            (60, 62, "MED", "Tréplica, candidata. O senhor tem um minuto."),
            (62, 80, "HELENA", "Com o fundo estadual de segurança, como já expliquei."),
        ]
    )
    turnos, perguntas = _etapas(pasta)
    assert [t.candidato for t in turnos] == ["helena-prado", "rui-amaral", "helena-prado"]
    assert all(perguntas[t.id] == QUESTAO for t in turnos)


def test_face_off_right_of_reply_and_closing_statements(criar_debate: Criar) -> None:
    blocos = """
[[blocos]]
tipo = "confronto"
inicio_s = 0
fim_s = 100

[[blocos]]
tipo = "direito_de_resposta"
inicio_s = 100
fim_s = 130

[[blocos]]
tipo = "consideracoes_finais"
inicio_s = 130
fim_s = 200
"""
    pasta = criar_debate(
        [
            (0, 5, "MED", "Confronto direto. Candidato Rui, faça sua pergunta à candidata Helena."),
            (5, 20, "RUI", "Candidata, por que a senhora fechou 20 escolas? A senhora é uma mentirosa."),
            (20, 45, "HELENA", "Não fechei escola nenhuma: reformamos 120 escolas."),
            (45, 70, "RUI", "Vou abrir 50 escolas técnicas até 2028 com recursos do fundo de educação."),
            (100, 103, "MED", "Direito de resposta para a candidata Helena."),
            (103, 125, "HELENA", "Não sou mentirosa, os dados estão no portal da transparência."),
            (130, 135, "MED", "Considerações finais. Candidato Rui."),
            (135, 160, "RUI", "Obrigado a todos, conto com o seu voto."),
        ]
    )
    # Blocks are appended after the participants (TOML arrays of tables must come in order).
    with (pasta / "debate.toml").open("a", encoding="utf-8") as f:
        f.write(blocos)
    turnos, perguntas = _etapas(pasta)
    ids = [t.id for t in turnos]
    assert ids == ["t-f0002", "t-f0003", "t-f0004", "t-f0006", "t-f0008"]
    assert perguntas["t-f0002"] is None  # opens the face-off
    assert (
        perguntas["t-f0003"] == "Candidata, por que a senhora fechou 20 escolas? A senhora é uma mentirosa."
    )
    assert perguntas["t-f0006"] == "A senhora é uma mentirosa."  # the accusation behind the reply
    assert perguntas["t-f0008"] is None  # closing statements


def test_blocks_inferred_from_calls_without_a_program(criar_debate: Criar) -> None:
    pasta = criar_debate(
        [
            (0, 10, "JOR", QUESTAO),
            (10, 40, "HELENA", "Vou contratar 4 mil policiais."),
            (40, 45, "MED", "Agora, confronto direto: candidata Helena, faça sua pergunta ao candidato Rui."),
            (45, 60, "HELENA", "Candidato Rui, o senhor vai manter o pedágio na rodovia?"),
            (60, 80, "RUI", "Vou reduzir o pedágio pela metade até 2027."),
            (80, 85, "MED", "Considerações finais."),
            (85, 100, "HELENA", "Obrigada pela audiência, boa noite."),
        ]
    )
    turnos, perguntas = _etapas(pasta)
    assert [perguntas[t.id] for t in turnos] == [
        QUESTAO,
        None,
        "Candidato Rui, o senhor vai manter o pedágio na rodovia?",
        None,
    ]


def test_editor_marks_the_question_and_corrects_speakers(criar_debate: Criar) -> None:
    pasta = criar_debate(
        [
            (0, 10, "JOR", QUESTAO),
            (10, 40, "VOZ_3", "Vou contratar 4 mil policiais."),
            (40, 60, "JOR", "Candidato Rui, qual é o seu plano para a saúde?"),
            (60, 90, "RUI", "Vou zerar a fila de cirurgias."),
        ]
    )
    turnos, perguntas = _etapas(pasta)
    assert [t.candidato for t in turnos] == ["rui-amaral"]  # VOZ_3 not identified yet: not evaluated
    edicoes = Edicoes(
        locutores={"VOZ_3": EdicaoLocutor("candidato", "Helena Prado", "helena-prado")},
        perguntas={"t-f0004": EdicaoPergunta(texto="Como o senhor vai reduzir a fila?")},
    )
    turnos, perguntas = _etapas(pasta, edicoes)
    assert [t.candidato for t in turnos] == ["helena-prado", "rui-amaral"]
    assert perguntas["t-f0004"] == "Como o senhor vai reduzir a fila?"
    sem = _etapas(
        pasta, Edicoes(perguntas={"t-f0004": EdicaoPergunta(nenhuma=True)}, falas={"f0002": "HELENA"})
    )
    assert sem[1]["t-f0004"] is None
    assert sem[0][0].candidato == "helena-prado"


def test_roles_of_voices_missing_from_the_program(criar_debate: Criar) -> None:
    pasta = criar_debate(
        [
            (
                0,
                10,
                "VOZ_1",
                "Boa noite, meu nome é Joana, moro em Vila Nova. Minha pergunta é para o candidato Rui.",
            ),
            (10, 20, "VOZ_2", "Terceiro bloco. Réplica, o senhor tem um minuto."),
            (20, 25, "MED", "Candidato Rui Amaral, a palavra é sua."),
            (25, 50, "VOZ_4", "Meu governo vai fazer 500 casas e eu fiz muito pela cidade."),
            (50, 60, "VOZ_5", "Qual é a posição do senhor sobre as privatizações?"),
        ]
    )
    debate = ler_debate(pasta)
    falas, _ = ler_transcricao(pasta)
    papeis, _ = identificar(debate, falas, Edicoes())
    assert (papeis["VOZ_1"].papel, papeis["VOZ_1"].origem) == ("eleitor", "ia")
    assert papeis["VOZ_2"].papel == "moderador"
    assert (papeis["VOZ_4"].papel, papeis["VOZ_4"].candidato) == ("candidato", "rui-amaral")
    assert papeis["VOZ_5"].papel == "jornalista"
    assert not papeis["VOZ_5"].avaliado and papeis["VOZ_5"].conduz
    # Readers see a role, never the diarizer's label.
    assert [papeis[v].nome for v in ("VOZ_1", "VOZ_2", "VOZ_5")] == [
        "Eleitor não identificado",
        "Mediação",
        "Jornalista não identificado",
    ]

"""Stage 4: turn evaluation, rule-based backend and the OpenAI-compatible one (loopback server)."""

from __future__ import annotations

from typing import Any

import pytest

from jobs.analise.config import ConfigAnalise
from jobs.analise.llm import ErroAnalise
from jobs.analise.turnos import (
    NAO_RESPONDIDA,
    AvaliadorOpenAI,
    AvaliadorRegras,
    EntradaTurno,
    de_json,
    dividir_pergunta,
    extrair_propostas,
    faixa_evasao,
    para_json,
)
from tests.support.chat_server import ChatServer, conteudo_do_pedido, erro, lento, malformado, ok

PERGUNTA = "Candidata, o que a senhora fará na segurança pública e qual sua posição sobre a maioridade penal?"
ADV = ("Rui Amaral",)


def _avaliar(texto: str, pergunta: str | None = PERGUNTA) -> Any:
    return AvaliadorRegras().avaliar(EntradaTurno(texto, pergunta, "Helena Prado", ADV))


def test_question_parts() -> None:
    assert len(dividir_pergunta(PERGUNTA)) == 2
    assert len(dividir_pergunta("Qual é o seu plano para segurança e maioridade penal?")) == 2
    assert len(dividir_pergunta("Qual é o seu plano para a saúde?")) == 1
    assert len(dividir_pergunta("A violência cresceu. O que o senhor vai fazer? E como vai pagar?")) == 2


def test_direct_answer_scores_low_evasion_with_excerpt() -> None:
    a = _avaliar(
        "Na segurança, vou contratar 4 mil policiais até 2028. "
        "Sobre a maioridade penal, sou contra a redução."
    )
    assert a.partes_respondidas == 2 and a.evasao == 0 and a.tipo_evasao is None
    assert a.trecho_resposta is not None and a.trecho_resposta.startswith("Na segurança")
    assert a.observacao_resposta is None
    assert faixa_evasao(a.evasao) == "0 a 2: resposta direta, já nas primeiras frases"


def test_mention_is_not_an_answer() -> None:
    a = _avaliar("A segurança é um tema muito importante. A maioridade penal também é um tema sério.")
    assert a.partes_respondidas == 0
    assert 6 <= a.evasao <= 8  # touches the topic in passing
    assert a.trecho_resposta is None and a.observacao_resposta == NAO_RESPONDIDA


def test_partial_or_late_answer_is_in_the_middle_band() -> None:
    a = _avaliar(
        "Quero agradecer aos eleitores do interior. Nosso partido tem história. O povo sabe quem trabalha. "
        "Na segurança, vou contratar 4 mil policiais."
    )
    assert a.partes_respondidas == 1
    assert 3 <= a.evasao <= 5


@pytest.mark.parametrize(
    ("texto", "tipo"),
    [
        ("Depois eu falo disso, no momento certo. Agora quero falar de outra coisa.", "adiamento"),
        ("O senhor Rui destruiu o estado e cortou verbas quando foi secretário.", "contra-ataque"),
        ("Vamos construir 200 creches até 2027. O transporte terá 500 ônibus novos.", "troca de tema"),
        ("O povo quer mudança. Juntos vamos vencer. O futuro é nosso.", "generalidade"),
    ],
)
def test_no_answer_is_9_or_10_with_its_type(texto: str, tipo: str) -> None:
    a = _avaliar(texto)
    assert a.partes_respondidas == 0
    assert a.evasao >= 9
    assert a.tipo_evasao == tipo


def test_turn_without_question() -> None:
    a = _avaliar("Obrigada a todos, boa noite.", pergunta=None)
    assert a.partes == () and a.evasao is None and a.observacao_resposta is None


def test_substance_clarity_and_attack() -> None:
    concreto = _avaliar(
        "Vamos abrir 300 leitos de UTI em 2027. O orçamento da saúde é de R$ 4 bilhões.", None
    )
    slogan = _avaliar("Vou cuidar da saúde. O povo merece respeito. Juntos somos mais fortes.", None)
    assert concreto.substancia > slogan.substancia
    assert slogan.substancia == 0
    confuso = _avaliar(
        "Então, né, tipo assim, a gente, enfim, né, vai, tipo, ver isso aí, né, enfim, né.", None
    )
    assert confuso.clareza < concreto.clareza
    ataque = _avaliar("O senhor Rui é um mentiroso e um covarde.", None)
    assert ataque.ataque_pessoal and ataque.trecho_ataque == "O senhor Rui é um mentiroso e um covarde."
    critica = _avaliar("A política de segurança do meu adversário fracassou: os roubos subiram.", None)
    assert not critica.ataque_pessoal


def test_proposals_score_the_four_items() -> None:
    completa, vaga, metade, ataque = (
        extrair_propostas(t, ADV)[0]
        for t in (
            "Vou contratar 5 mil policiais até 2028, pagos com o fundo estadual de segurança.",
            "Vou cuidar da saúde.",
            "Vamos abrir meio milhão de vagas usando o espaço de R$ 200 bi.",
            "Vou botar esse corrupto do Rui na cadeia.",
        )
    )
    assert (completa.o_que, completa.quanto, completa.como, completa.prazo) == (
        "contratar 5 mil policiais",
        "5 mil",
        "pagos com o fundo estadual de segurança",
        "até 2028",
    )
    assert completa.itens == 4 and not completa.ataque_disfarcado
    assert vaga.itens == 0
    assert metade.itens == 3 and metade.prazo is None and metade.como == "usando o espaço de R$ 200 bi"
    assert ataque.ataque_disfarcado
    assert extrair_propostas("Vou responder depois, vamos lá.", ADV) == []


def test_json_round_trip() -> None:
    a = _avaliar(
        "Na segurança, vou contratar 4 mil policiais até 2028. Sou contra reduzir a maioridade penal."
    )
    assert de_json(para_json(a)) == a


# ---------------------------------------------------------------- OpenAI-compatible backend

TURNO = (
    "Na segurança, vou contratar 4 mil policiais até 2028. Sobre a maioridade penal, sou contra a redução."
)
BOA: dict[str, Any] = {
    "partes": [
        {
            "texto": "segurança pública",
            "respondida": True,
            "trecho": "vou contratar 4 mil policiais até 2028",
        },
        {"texto": "maioridade penal", "respondida": True, "trecho": "sou contra a redução"},
    ],
    "evasao": 1,
    "tipo_evasao": None,
    "trecho_resposta": "Na segurança, vou contratar 4 mil policiais até 2028.",
    "substancia": 7,
    "clareza": 9,
    "ataque_pessoal": False,
    "trecho_ataque": None,
    "propostas": [
        {
            "texto": "contratar policiais",
            "o_que": "contratar 4 mil policiais",
            "quanto": "4 mil",
            "como": None,
            "prazo": "até 2028",
            "ataque_disfarcado": False,
        }
    ],
}


def _config(url: str, tempo: float = 5.0, tentativas: int = 3) -> ConfigAnalise:
    return ConfigAnalise(
        backend="openai",
        base_url=url,
        modelo="teste",
        chave_env="",
        tempo_limite_s=tempo,
        tentativas=tentativas,
        espera_s=0,
    )


def _entrada() -> EntradaTurno:
    return EntradaTurno(TURNO, PERGUNTA, "Helena Prado", ADV)


def test_openai_backend_valid_answer() -> None:
    with ChatServer([ok(BOA)]) as servidor:
        a = AvaliadorOpenAI(_config(servidor.url)).avaliar(_entrada())
        pedido = conteudo_do_pedido(servidor.pedidos[0])
    assert a.evasao == 1 and a.partes_respondidas == 2 and a.substancia == 7
    assert a.propostas[0].itens == 3 and a.avaliador == "openai:teste"
    assert "maioridade penal" in pedido and "Helena Prado" in pedido
    assert servidor.pedidos[0]["response_format"] == {"type": "json_object"}


@pytest.mark.parametrize(
    "ruim",
    [
        malformado(),
        ok({**BOA, "evasao": 14}),
        ok({**BOA, "evasao": 0, "partes": [{**BOA["partes"][0], "respondida": False}, BOA["partes"][1]]}),
        ok({**BOA, "evasao": 9}),  # 9-10 means nothing was answered
        ok({**BOA, "evasao": 5, "tipo_evasao": "desconversa"}),
        ok({**BOA, "trecho_resposta": "uma frase que o candidato nunca disse"}),
        ok({**BOA, "substancia": "alta"}),
        erro(500),
    ],
)
def test_openai_backend_retries_bad_answers(ruim: Any) -> None:
    with ChatServer([ruim, ok(BOA)]) as servidor:
        a = AvaliadorOpenAI(_config(servidor.url)).avaliar(_entrada())
        assert len(servidor.pedidos) == 2
    assert a.evasao == 1


def test_openai_backend_gives_up_with_portuguese_error() -> None:
    with ChatServer([malformado(), malformado()]) as servidor, pytest.raises(ErroAnalise, match="falhou"):
        AvaliadorOpenAI(_config(servidor.url, tentativas=2)).avaliar(_entrada())


def test_openai_backend_slow_answer_times_out() -> None:
    # Both answers are held until the server stops: only the client's timeout ends each try.
    with ChatServer([lento(BOA, 600), lento(BOA, 600)]) as servidor:
        with pytest.raises(ErroAnalise, match="não respondeu"):
            AvaliadorOpenAI(_config(servidor.url, tempo=0.3, tentativas=2)).avaliar(_entrada())
        assert len(servidor.pedidos) == 2

"""Claim memory: matching against published checks and the editor's confirmation."""

from __future__ import annotations

import datetime as dt
import tomllib
from pathlib import Path

import pytest

from jobs.analise.config import ConfigAnalise
from jobs.checagens.acervo import DeskError, ler_decisoes
from jobs.checagens.configuracao import ConfigChecagens, ConfigMemoria
from jobs.checagens.memoria import (
    ChecagemPublicada,
    Memoria,
    carregar_publicadas,
    confirmar_ocorrencia,
    memoria_do_projeto,
)
from jobs.checagens.similaridade import IndiceTfidf, ngramas
from site_builder.conteudo import regras
from site_builder.conteudo.frontmatter import split_front_matter
from site_builder.conteudo.registros import Fonte
from tests.redes.conftest import capturar_post, escrever_checagem
from tests.support.chat_server import ChatServer
from tests.support.paginas import ServidorPaginas

QUANDO = dt.datetime(2026, 10, 21, 15, 0, tzinfo=dt.UTC)


def _checagem(id_: str, afirmacao: str, candidato: str = "helena-prado") -> ChecagemPublicada:
    return ChecagemPublicada(id_, id_, afirmacao, "falso", candidato, Path(f"{id_}.md"))


CHECAGENS = [
    _checagem("leitos", "O estado abriu 300 novos leitos de UTI em 2025."),
    _checagem("merenda", "A merenda escolar do estado atende 2 milhões de alunos por dia."),
    _checagem(
        "homicidios", "Os homicídios caíram pela metade na cidade durante a gestão anterior.", "rui-amaral"
    ),
]


def test_ngrams_ignore_case_accents_and_punctuation() -> None:
    assert ngramas("Saúde!", 3, 3) == ngramas("SAUDE", 3, 3)
    assert " sa" in ngramas("saúde", 3, 5) and "saude" in ngramas("saúde", 3, 5)


def test_tfidf_ranks_the_paraphrase_first() -> None:
    indice = IndiceTfidf([c.afirmacao for c in CHECAGENS])
    notas = indice.similaridades("Abrimos 300 leitos de UTI novos no estado em 2025")
    assert int(notas.argmax()) == 0
    assert notas[0] > 0.5 > notas[1]
    assert indice.similaridades(CHECAGENS[1].afirmacao)[1] == pytest.approx(1.0)


def test_suggestion_needs_high_score_and_same_candidate() -> None:
    memoria = Memoria(CHECAGENS, ConfigMemoria(limiar_alto=0.5, limiar_baixo=0.3))
    [melhor, *_] = memoria.buscar("O estado abriu 300 novos leitos de UTI em 2025!", "helena-prado")
    assert (melhor.checagem.id, melhor.sugestao) == ("leitos", "ocorrencia")
    [outro, *_] = memoria.buscar("O estado abriu 300 novos leitos de UTI em 2025!", "rui-amaral")
    assert (outro.checagem.id, outro.sugestao) == ("leitos", "parecida"), "other candidate: not an occurrence"
    assert memoria.buscar("Gosto de futebol aos domingos", "helena-prado") == []


def test_thresholds_come_from_configuration() -> None:
    texto = "A merenda atende 2 milhões de alunos"
    alta = Memoria(CHECAGENS, ConfigMemoria(limiar_alto=0.99, limiar_baixo=0.1)).buscar(texto, "helena-prado")
    baixa = Memoria(CHECAGENS, ConfigMemoria(limiar_alto=0.2, limiar_baixo=0.1)).buscar(texto, "helena-prado")
    assert alta[0].sugestao == "parecida" and baixa[0].sugestao == "ocorrencia"
    assert Memoria(CHECAGENS, ConfigMemoria(limiar_alto=0.99, limiar_baixo=0.98)).buscar(texto) == []


def test_only_published_and_approved_checks_enter_memory(projeto: Path) -> None:
    escrever_checagem(projeto, "autoaprovada", afirmacao="O metrô transporta 1 milhão por dia.")
    caminho = projeto / "content" / "checagens" / "autoaprovada.md"
    caminho.write_text(
        caminho.read_text(encoding="utf-8").replace('revisor = "editor-b"', 'revisor = "editor-a"')
    )
    (projeto / "content" / "checagens" / "quebrada.md").write_text("+++\nid = \n+++\n", encoding="utf-8")
    checagens, avisos = carregar_publicadas(projeto / "content" / "checagens")
    assert sorted(c.id for c in checagens) == ["homicidios", "leitos"]
    assert len(avisos) == 1 and "quebrada.md" in avisos[0]


def test_a_check_the_build_refuses_across_files_stays_out_of_memory(projeto: Path) -> None:
    """A published, approved check whose id repeats another's fails the build (a rule across files):
    the memory does not offer it either (the first file, already on the site, stays); the editor is
    told why."""
    pasta = projeto / "content" / "checagens"
    copia = (pasta / "leitos.md").read_text(encoding="utf-8").replace('slug = "', 'slug = "copia-', 1)
    (pasta / "outra-leitos.md").write_text(copia, encoding="utf-8")
    checagens, avisos = carregar_publicadas(pasta)
    assert sorted((c.id, c.arquivo.name) for c in checagens) == [
        ("homicidios", "homicidios.md"),
        ("leitos", "leitos.md"),
    ]
    assert avisos and all(a.startswith("fora da memória: ") for a in avisos)
    assert any("outra-leitos.md" in a for a in avisos)


def test_embeddings_mix_into_the_score(projeto: Path) -> None:
    with ChatServer() as servidor:
        analise = ConfigAnalise(backend="openai", base_url=servidor.url, chave_env="", espera_s=0)
        config = ConfigChecagens(memoria=ConfigMemoria(embeddings="openai", peso_embeddings=0.5))
        memoria, avisos = memoria_do_projeto(projeto, config, analise)
        [s, *_] = memoria.buscar("O estado abriu 300 novos leitos de UTI em 2025.", "helena-prado")
        assert avisos == []
        assert s.embeddings == pytest.approx(1.0) and s.tfidf == pytest.approx(1.0)
        assert len(servidor.pedidos_embeddings) == 2, "one call for the checks, one for the claim"
        servidor.status_embeddings = 500
        [s2, *_] = memoria.buscar("O estado abriu 300 novos leitos de UTI em 2025.", "helena-prado")
    assert s2.embeddings is None, "endpoint down: TF-IDF only, with a warning"
    assert any("só com TF-IDF" in a for a in memoria.avisos)


# --- confirming an occurrence -----------------------------------------------------------------------


def test_confirm_appends_occurrence_and_keeps_every_other_byte(
    projeto: Path, config: ConfigChecagens, servidor: ServidorPaginas
) -> None:
    resultado = capturar_post(
        projeto, config, servidor, "http://redes.example/helena/7",
        "Em 2025 o estado abriu 300 novos leitos de UTI.", visualizacoes=5400, quando=QUANDO,
    )  # fmt: skip
    [afirmacao] = resultado.afirmacoes
    assert afirmacao["memoria"][0] == {
        "checagem": "leitos", "arquivo": "leitos.md", "similaridade": afirmacao["memoria"][0]["similaridade"],
        "sugestao": "ocorrencia",
    }  # fmt: skip
    caminho = projeto / "content" / "checagens" / "leitos.md"
    antes = caminho.read_bytes()
    confirmar_ocorrencia(projeto, config, afirmacao["id"], "leitos", "editora-c", agora=QUANDO)
    depois = caminho.read_bytes()

    cabecalho_antes, corpo_antes = antes.split(b"\n+++\n", 1)
    cabecalho_depois, corpo_depois = depois.split(b"\n+++\n", 1)
    assert corpo_depois == corpo_antes
    assert cabecalho_depois.startswith(cabecalho_antes), "only lines appended to the front matter"
    meta, _ = split_front_matter(depois.decode("utf-8"), "leitos.md")
    meta_antes, _ = split_front_matter(antes.decode("utf-8"), "leitos.md")
    assert {k: v for k, v in meta.items() if k != "ocorrencias"} == {
        k: v for k, v in meta_antes.items() if k != "ocorrencias"
    }
    *antigas, ocorrencia = meta["ocorrencias"]
    assert antigas == meta_antes["ocorrencias"]
    arquivo = f"data/redes/helena-prado/{resultado.captura.id}/arquivo.warc.gz"
    assert ocorrencia == {
        "url": "http://redes.example/helena/7",
        "plataforma": "site",
        "data": QUANDO,
        "arquivo": arquivo,
        "alcance": 5400,
    }
    assert (projeto / arquivo).is_file()
    lida = regras.ler_checagem(depois.decode("utf-8"), Fonte("content/checagens/leitos.md", "x"), None, None)
    assert lida.problemas == (), "6a's validator accepts the file"
    assert ler_decisoes(projeto / "data" / "redes")[afirmacao["id"]].acao == "ocorrencia_confirmada"
    with pytest.raises(DeskError, match="já é uma ocorrência"):
        confirmar_ocorrencia(projeto, config, afirmacao["id"], "leitos", "editora-c")
    assert caminho.read_bytes() == depois


@pytest.mark.parametrize(
    ("checagem", "editor", "mensagem"),
    [
        ("rascunho-vacina", "ed", "só checagens publicadas"),
        ("homicidios", "ed", "mesma pessoa"),
        ("nao-existe", "ed", "não encontrada"),
        ("leitos", " ", "--editor"),
    ],
)
def test_confirm_refusals_change_nothing(
    projeto: Path,
    config: ConfigChecagens,
    servidor: ServidorPaginas,
    checagem: str,
    editor: str,
    mensagem: str,
) -> None:
    resultado = capturar_post(
        projeto, config, servidor, "http://redes.example/h/8", "A UTI abriu 300 leitos em 2025."
    )
    antes = {p: p.read_bytes() for p in (projeto / "content" / "checagens").glob("*.md")}
    with pytest.raises(DeskError, match=mensagem):
        confirmar_ocorrencia(projeto, config, resultado.afirmacoes[0]["id"], checagem, editor)
    assert {p: p.read_bytes() for p in (projeto / "content" / "checagens").glob("*.md")} == antes
    assert ler_decisoes(projeto / "data" / "redes") == {}


def test_confirm_refuses_a_loopback_post(
    projeto: Path, config: ConfigChecagens, servidor: ServidorPaginas
) -> None:
    url = servidor.rota(
        "/post", "<html><body><article>O estado abriu 300 leitos de UTI em 2025.</article></body></html>"
    )
    from jobs.checagens.captura import capturar

    resultado = capturar(url, config, projeto, candidato="helena-prado")
    with pytest.raises(DeskError, match="não é um endereço público"):
        confirmar_ocorrencia(projeto, config, resultado.afirmacoes[0]["id"], "leitos", "ed")


def test_demo_content_memory_is_readable() -> None:
    raiz = Path(__file__).resolve().parents[2]
    checagens, avisos = carregar_publicadas(raiz / "content" / "checagens")
    assert avisos == []
    assert checagens, "sample checks are published"
    for c in checagens:
        texto = c.arquivo.read_text(encoding="utf-8")
        assert tomllib.loads(texto.split("+++")[1])["status"] == "publicada"

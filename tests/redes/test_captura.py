"""Capture of post pages served on loopback: evidence, WARC, hashes, hostile input."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from warcio.archiveiterator import ArchiveIterator

from jobs.checagens.acervo import DeskError, afirmacoes_de
from jobs.checagens.captura import capturar, conferir_hashes, decodificar
from jobs.checagens.configuracao import ConfigChecagens
from jobs.checagens.memoria import memoria_do_projeto
from tests.support.paginas import ServidorPaginas

POST_TEXTO = (
    "O estado abriu 300 novos leitos de UTI em 2025. Vamos abrir mais 500 até 2028. "
    "Acho que a oposição tem medo da verdade."
)


def pagina_post(texto: str = POST_TEXTO, extra_head: str = "", visualizacoes: int = 45200) -> str:
    jsonld = json.dumps(
        {
            "@context": "https://schema.org",
            "@type": "SocialMediaPosting",
            "headline": "Post da candidata",
            "articleBody": texto,
            "datePublished": "2026-10-20T12:00:00-03:00",
            "interactionStatistic": {
                "@type": "InteractionCounter",
                "interactionType": {"@type": "WatchAction"},
                "userInteractionCount": visualizacoes,
            },
        },
        ensure_ascii=False,
    ).replace("</", "<\\/")
    return (
        "<!doctype html><html><head><meta charset='utf-8'><title>Post</title>"
        "<meta property='og:title' content='Helena Prado (demonstração)'>"
        f"{extra_head}<script type='application/ld+json'>{jsonld}</script></head>"
        "<body><article><p>Conteúdo de demonstração</p></article></body></html>"
    )


def _registros(warc: Path) -> list[tuple[str, str, bytes, int | None]]:
    saida = []
    with warc.open("rb") as f:
        for registro in ArchiveIterator(f):
            status = int(registro.http_headers.get_statuscode()) if registro.rec_type == "response" else None
            saida.append(
                (
                    registro.rec_type,
                    registro.rec_headers.get_header("WARC-Target-URI") or "",
                    registro.content_stream().read(),
                    status,
                )
            )
    return saida


def test_capture_keeps_every_piece_of_evidence(
    projeto: Path, config: ConfigChecagens, servidor: ServidorPaginas
) -> None:
    html = pagina_post()
    servidor.rota("/post/1", html, gzip=True)
    servidor.redirecionar("/p1", "/post/1")
    memoria, _ = memoria_do_projeto(projeto, config)
    resultado = capturar(servidor.url("/p1"), config, projeto, candidato="helena-prado", memoria=memoria)

    captura = resultado.captura
    pasta = captura.pasta
    assert pasta.parent == projeto / "data" / "redes" / "helena-prado"
    assert sorted(p.name for p in pasta.iterdir()) == [
        "afirmacoes.json",
        "arquivo.warc.gz",
        "captura.json",
        "metadados.json",
        "pagina.html",
        "texto.txt",
    ]
    assert (pasta / "pagina.html").read_bytes() == html.encode("utf-8"), "raw bytes kept (gzip undone)"
    assert (pasta / "texto.txt").read_text(encoding="utf-8") == POST_TEXTO
    manifesto = json.loads((pasta / "captura.json").read_text(encoding="utf-8"))
    for nome, esperado in manifesto["arquivos"].items():
        assert hashlib.sha256((pasta / nome).read_bytes()).hexdigest() == esperado
    assert set(manifesto["arquivos"]) == {p.name for p in pasta.iterdir()} - {"captura.json"}
    assert conferir_hashes(pasta) == []
    assert manifesto["url"] == servidor.url("/p1")
    assert manifesto["url_final"] == servidor.url("/post/1")
    assert (manifesto["alcance"], manifesto["alcance_fonte"]) == (45200, "pagina")
    assert manifesto["publicado_em"] == "2026-10-20T12:00:00-03:00"
    assert manifesto["titulo"] == "Helena Prado (demonstração)"
    assert manifesto["texto_fonte"] == "json-ld:articleBody"
    metadados = json.loads((pasta / "metadados.json").read_text(encoding="utf-8"))
    assert metadados["opengraph"][0]["og:title"] == "Helena Prado (demonstração)"
    assert metadados["json-ld"][0]["@type"] == "SocialMediaPosting"

    registros = _registros(pasta / "arquivo.warc.gz")
    assert [r[0] for r in registros] == ["warcinfo", "response", "request", "response", "request"]
    assert registros[1][1] == servidor.url("/p1") and registros[1][3] == 301
    assert registros[3][1] == servidor.url("/post/1") and registros[3][3] == 200
    assert registros[3][2] == html.encode("utf-8"), "WARC payload is the page"

    afirmacoes = {a.texto: a for a in afirmacoes_de(captura)}
    leitos = afirmacoes["O estado abriu 300 novos leitos de UTI em 2025."]
    assert leitos.tipo == "checavel" and leitos.id == f"{captura.id}-a01"
    assert afirmacoes["Vamos abrir mais 500 até 2028."].tipo == "promessa"
    bruto = json.loads((pasta / "afirmacoes.json").read_text(encoding="utf-8"))["afirmacoes"][0]
    assert bruto["memoria"][0]["checagem"] == "leitos"
    assert bruto["memoria"][0]["sugestao"] == "ocorrencia"


def test_editor_reach_overrides_page_and_capture_without_candidate(
    projeto: Path, config: ConfigChecagens, servidor: ServidorPaginas
) -> None:
    url = servidor.rota("/post/2", pagina_post())
    resultado = capturar(url, config, projeto, alcance=1_000_000)
    assert resultado.captura.pasta.parent.name == "sem-candidato"
    assert resultado.captura.alcance == 1_000_000
    with pytest.raises(DeskError, match="negativo"):
        capturar(url, config, projeto, alcance=-1)


HOSTIL = 'Ele disse: </script><script>alert("x")</script> <b>negrito</b> & "aspas" \u202e fim. 3 mil.'


def test_hostile_post_text_is_kept_verbatim_as_data(
    projeto: Path, config: ConfigChecagens, servidor: ServidorPaginas
) -> None:
    url = servidor.rota("/hostil", pagina_post(texto=HOSTIL))
    resultado = capturar(url, config, projeto, candidato="rui-amaral")
    pasta = resultado.captura.pasta
    assert (pasta / "texto.txt").read_text(encoding="utf-8") == HOSTIL
    dados = json.loads((pasta / "afirmacoes.json").read_text(encoding="utf-8"))
    assert any("</script>" in a["texto"] for a in dados["afirmacoes"]), "text kept, not stripped"
    assert conferir_hashes(pasta) == []


def test_five_megabyte_post_is_captured_whole(
    projeto: Path, config: ConfigChecagens, servidor: ServidorPaginas
) -> None:
    frase = "A cidade registrou 312 homicídios em 2024, segundo a secretaria. "
    texto = frase * (5_000_000 // len(frase) + 1)
    html = f"<html><head><title>Longo</title></head><body><article><p>{texto}</p></article></body></html>"
    assert len(html.encode("utf-8")) > 5_000_000
    url = servidor.rota("/longo", html)
    memoria, _ = memoria_do_projeto(projeto, config)
    resultado = capturar(url, config, projeto, candidato="helena-prado", memoria=memoria)
    pasta = resultado.captura.pasta
    assert (pasta / "pagina.html").read_bytes() == html.encode("utf-8")
    assert (pasta / "texto.txt").read_text(encoding="utf-8") == texto.strip()
    assert len(resultado.afirmacoes) > 70_000
    assert any("memória de checagens foi consultada só" in a for a in resultado.avisos)


def test_broken_encoding_is_flagged_and_nothing_lost(
    projeto: Path, config: ConfigChecagens, servidor: ServidorPaginas
) -> None:
    corpo = "<html><body><article>A merenda atende 2 milhões de alunos desde 2024.".encode() + (
        b" Inscri\xe7\xe3o aberta \xff\xfe.</article></body></html>"
    )
    url = servidor.rota("/quebrado", corpo, tipo="text/html; charset=utf-8")
    resultado = capturar(url, config, projeto, candidato="helena-prado")
    pasta = resultado.captura.pasta
    assert (pasta / "pagina.html").read_bytes() == corpo
    assert "\ufffd" in (pasta / "texto.txt").read_text(encoding="utf-8")
    assert any("codificação inválida" in a for a in resultado.avisos)
    manifesto = json.loads((pasta / "captura.json").read_text(encoding="utf-8"))
    assert manifesto["avisos"] == resultado.avisos
    with (pasta / "arquivo.warc.gz").open("rb") as f:
        payloads = [r.content_stream().read() for r in ArchiveIterator(f) if r.rec_type == "response"]
    assert payloads == [corpo]


def test_declared_latin1_is_decoded() -> None:
    texto, codificacao, avisos = decodificar("Inscrição".encode("latin-1"), "text/html; charset=ISO-8859-1")
    assert (texto, codificacao, avisos) == ("Inscrição", "iso-8859-1", [])


@pytest.mark.parametrize(
    ("rota", "config_extra", "mensagem"),
    [
        ("/nao-existe", {}, "HTTP 404"),
        ("/grande", {"tamanho_maximo_mb": 0.001}, "passa de 0.001 MB"),
    ],
)
def test_failed_fetch_writes_nothing(
    projeto: Path,
    servidor: ServidorPaginas,
    rota: str,
    config_extra: dict[str, float],
    mensagem: str,
) -> None:
    servidor.rota("/grande", "x" * 5000)
    config = ConfigChecagens(transcrever_videos=False, tempo_limite_s=30, **config_extra)  # type: ignore[arg-type]
    with pytest.raises(DeskError, match=mensagem) as exc:
        capturar(servidor.url(rota), config, projeto, candidato="helena-prado")
    assert "nada foi gravado" in str(exc.value)
    pasta = projeto / "data" / "redes" / "helena-prado"
    assert not pasta.exists() or list(pasta.iterdir()) == []


@pytest.mark.parametrize(
    ("url", "candidato", "mensagem"),
    [
        ("ftp://exemplo/post", "", "endereço inválido"),
        ("javascript:alert(1)", "", "endereço inválido"),
        ("http://127.0.0.1:9/post", "joana", "não existe"),
        ("http://127.0.0.1:9/post", "../../etc", "candidato inválido"),
    ],
)
def test_bad_arguments_are_refused(
    projeto: Path, config: ConfigChecagens, url: str, candidato: str, mensagem: str
) -> None:
    with pytest.raises(DeskError, match=mensagem):
        capturar(url, config, projeto, candidato=candidato)


def test_video_is_fetched_archived_and_transcribed(projeto: Path, servidor: ServidorPaginas) -> None:
    config = ConfigChecagens(tempo_limite_s=30, transcrever_videos=True)
    servidor.rota("/video.mp4", b"\x00\x00\x00\x18ftypmp42-fake-video", tipo="video/mp4")
    url = servidor.rota(
        "/post/video",
        pagina_post(extra_head=f"<meta property='og:video' content='{servidor.url('/video.mp4')}'>"),
    )
    vistos: list[Path] = []

    def transcritor(caminho: Path, _config: ConfigChecagens, _raiz: Path) -> str:
        vistos.append(caminho)
        return "A vacina da gripe causa a doença em 30% dos idosos."

    resultado = capturar(url, config, projeto, candidato="helena-prado", transcrever=transcritor)
    pasta = resultado.captura.pasta
    assert (pasta / "midia.mp4").read_bytes().startswith(b"\x00\x00\x00\x18ftyp")
    assert (pasta / "transcricao.txt").read_text(encoding="utf-8").startswith("A vacina")
    assert vistos and vistos[0].name == "midia.mp4"
    origens = {a.origem for a in afirmacoes_de(resultado.captura)}
    assert origens == {"texto", "transcricao"}
    uris = [r[1] for r in _registros(pasta / "arquivo.warc.gz") if r[0] == "response"]
    assert uris == [url, servidor.url("/video.mp4")]
    assert conferir_hashes(pasta) == []


def test_transcription_failure_keeps_the_capture(projeto: Path, servidor: ServidorPaginas) -> None:
    config = ConfigChecagens(tempo_limite_s=30, transcrever_videos=True)
    servidor.rota("/v.mp4", b"nao e video", tipo="video/mp4")
    url = servidor.rota("/post/v", pagina_post(extra_head="<meta property='og:video' content='/v.mp4'>"))

    def quebra(_c: Path, _cfg: ConfigChecagens, _r: Path) -> str:
        raise DeskError("transcrição falhou: arquivo inválido")

    resultado = capturar(url, config, projeto, candidato="helena-prado", transcrever=quebra)
    assert any("vídeo sem transcrição" in a for a in resultado.avisos)
    assert (resultado.captura.pasta / "midia.mp4").exists()
    assert not (resultado.captura.pasta / "transcricao.txt").exists()

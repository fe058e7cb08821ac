"""The built site served on loopback by the project's own static server (`jobs/serve.py`)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

from jobs.serve import make_server
from tests.support.servidor import em_segundo_plano


@contextlib.contextmanager
def servir(pasta: Path) -> Iterator[str]:
    """Serve `pasta` like the CDN would (a free port on 127.0.0.1); yields the base URL, no final '/'."""
    server = make_server(pasta, port=0)
    em_segundo_plano(server)
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def paginas(site: Path) -> dict[str, str]:
    """One address of every page type of the sample site built by tests/leitor/conftest.py."""

    def primeira(padrao: str) -> str:
        found = sorted(site.glob(padrao))
        assert found, padrao
        return "/" + found[0].parent.relative_to(site).as_posix() + "/"

    return {
        "inicio": "/",
        "projecao-indice": "/projecao/",
        "corrida": "/projecao/6258-presidente/",
        "corrida-nao-publicavel": "/projecao/6257-presidente/",
        "historico": "/projecao/6258-presidente/capturas/",
        "captura": primeira("projecao/6258-presidente/capturas/*T*/index.html"),
        "debates": "/debates/",
        "debate": primeira("debates/*/index.html"),
        "checagens": "/checagens/",
        "checagem": primeira("checagens/demo-*/index.html"),
        "filtro-veredito": primeira("checagens/veredito/*/index.html"),
        "filtro-tema": primeira("checagens/tema/*/index.html"),
        "candidatos": "/candidatos/",
        "candidato": primeira("candidatos/*/index.html"),
        "correcoes": "/checagens/correcoes/",
        "copia-arquivada": primeira("arquivo/*/*/index.html"),  # the archived post of a check
        "metodologia": "/metodologia/",
        "metodologia-pagina": "/metodologia/projecao/",  # tables and code blocks
        "nao-encontrada": "/404.html",
    }

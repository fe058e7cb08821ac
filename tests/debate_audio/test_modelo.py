"""The packaged Whisper base model: joined once, checked, rebuilt when damaged, overridable."""

from __future__ import annotations

import hashlib
import importlib.util
import json
from pathlib import Path

import pytest

from jobs.debate.modelo_whisper import (
    MANIFESTO,
    PARTES,
    ErroModelo,
    arquivos_empacotados,
    montar_modelo_empacotado,
    resolver_modelo,
)


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return montar_modelo_empacotado(tmp_path_factory.mktemp("modelo") / "whisper-base")


def test_parts_joined_once_with_the_files_beside(cache: Path) -> None:
    arquivos = arquivos_empacotados()
    modelo = cache / "model.bin"
    assert modelo.stat().st_size == sum(arquivos[n].tamanho for n in PARTES)
    for nome in ("config.json", "tokenizer.json", "vocabulary.json"):
        assert (cache / nome).read_bytes() == arquivos[nome].caminho.read_bytes()
    manifesto = json.loads((cache / MANIFESTO).read_text(encoding="utf-8"))
    h = hashlib.sha256()
    for nome in PARTES:
        h.update(arquivos[nome].caminho.read_bytes())
    assert manifesto["sha256_model_bin"] == h.hexdigest()
    antes = modelo.stat().st_mtime_ns
    assert montar_modelo_empacotado(cache) == cache
    assert modelo.stat().st_mtime_ns == antes  # not joined again


def test_damaged_cache_is_rebuilt(cache: Path) -> None:
    modelo = cache / "model.bin"
    tamanho = modelo.stat().st_size
    with modelo.open("r+b") as f:
        f.truncate(tamanho // 2)
    montar_modelo_empacotado(cache)
    assert modelo.stat().st_size == tamanho
    assert not list(cache.glob(".model.bin.*"))  # no temporary file left behind


def test_configured_model_overrides(tmp_path: Path, cache: Path) -> None:
    assert resolver_modelo(str(cache), tmp_path / "nao-usado") == str(cache)
    assert not (tmp_path / "nao-usado").exists()
    assert resolver_modelo("small", tmp_path / "nao-usado") == "small"  # a faster-whisper name
    vazio = tmp_path / "vazio"
    vazio.mkdir()
    with pytest.raises(ErroModelo, match=r"sem model\.bin"):
        resolver_modelo(str(vazio), tmp_path)


def test_model_loads_and_is_shared_in_the_process(cache: Path) -> None:
    from jobs.debate.modelo_whisper import carregar_modelo

    assert importlib.util.find_spec("faster_whisper") is not None
    assert carregar_modelo(str(cache), 1) is carregar_modelo(str(cache), 1)
    with pytest.raises(ErroModelo, match="não foi possível carregar"):
        carregar_modelo(str(cache / "nao-existe"), 1)

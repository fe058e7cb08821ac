"""Where the project finds the shared spec and the public datasets: `../shared/` beside the project.

One place for the path, so a benchmark, a quality command and a test all read the same files; a
missing file is a loud error (Portuguese) naming it, never a silently shorter report.
"""

from __future__ import annotations

from pathlib import Path

RAIZ = Path(__file__).resolve().parents[1]


class DatasetMissingError(FileNotFoundError):
    """A shared dataset or spec file is not where the project expects it (message in Portuguese)."""


def pasta_compartilhada(raiz: Path = RAIZ) -> Path:
    """The shared folder beside the project (`<raiz>/../shared`): seeds, spec and datasets."""
    return raiz / ".." / "shared"


def pasta_datasets(raiz: Path = RAIZ) -> Path:
    """The public datasets folder (`<raiz>/../shared/datasets`)."""
    return pasta_compartilhada(raiz) / "datasets"


def exigir(caminho: Path) -> Path:
    """`caminho` itself when it exists; DatasetMissingError naming it otherwise."""
    if not caminho.exists():
        raise DatasetMissingError(
            f"conjunto de dados ausente: {caminho} não encontrado (os conjuntos públicos ficam em "
            "../shared/datasets/, ao lado do projeto)"
        )
    return caminho


def dataset(relativo: str, pasta: Path | None = None) -> Path:
    """The path of a dataset file under `pasta` (default: the shared datasets folder); DatasetMissingError
    naming the file when it is missing."""
    return exigir((pasta_datasets() if pasta is None else pasta) / relativo)

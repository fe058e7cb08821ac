"""The build's commit: assets before pages, and a killed commit finished by the next build or publish."""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from jobs.publish.config import PublishConfig
from jobs.publish.publisher import PublishError, publicar
from site_builder.build import build_site
from site_builder.writer import JOURNAL, STAGING_DIR, STATE_PARENT, StagedWriter, read_journal, recover
from tests.publish.conftest import broken_references
from tests.site_builder.conftest import REPO, make_project, snapshot

SEEDS = (1, 2, 3, 5, 7, 9)


def _visible(folder: Path) -> dict[str, bytes]:
    return {k: v for k, v in snapshot(folder).items() if not k.startswith(".")}


def _kill_build(root: Path, out: Path, step: int) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tests.site_builder.matar_build", str(root), str(out), str(step)],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )


def _second_version(root: Path) -> None:
    """Changes that rename the stylesheet, rewrite every page, remove one and add one."""
    css = root / "templates/static/estilo.css"
    css.write_text(css.read_text(encoding="utf-8") + "\n.nova { color: #123456; }\n", encoding="utf-8")
    (root / "content/checagens/um.md").unlink()
    (root / "content/metodologia/terceira.md").write_text(
        (root / "content/metodologia/segunda.md").read_text(encoding="utf-8").replace("egunda", "erceira"),
        encoding="utf-8",
    )


def _config(tmp_path: Path) -> PublishConfig:
    return PublishConfig(pasta=tmp_path / "publicado", estado=tmp_path / "estado", graca_assets_h=0)


def _copy(source: Path, dest: Path) -> None:
    shutil.rmtree(dest, ignore_errors=True)
    shutil.copytree(source, dest, symlinks=True)


def test_commit_moves_assets_first_and_pages_last(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "public"
    build_site(project, out)
    _second_version(project)
    report = _kill_build(project, out, 1)  # dies before the first rename: the journal is all there is
    assert report.returncode == -9, report.stderr
    journal = read_journal(out)
    assert journal is not None
    order = [rel for _, rel in journal.moves]
    pages = [i for i, rel in enumerate(order) if rel.endswith(".html")]
    assets = [i for i, rel in enumerate(order) if rel.startswith("static/")]
    assert assets and pages and max(assets) < min(pages)
    assert order.index("sitemap.xml") > max(pages)
    assert any(rel.startswith("static/estilo.") for rel in journal.deletions)


@dataclass(frozen=True)
class Bancada:
    """A project and its output folders (`pastas` under `raiz`) as every seed of a kill test starts
    from them, saved in `guardado` to be put back at the same paths (the builder's incremental state
    is keyed by the output's path), and what the uninterrupted run from there gives."""

    raiz: Path
    guardado: Path
    pastas: tuple[str, ...]
    passos: int  # file-system steps the uninterrupted build takes
    esperado: dict[str, bytes]  # the site it leaves

    def restaurar(self) -> None:
        """Every folder back to the saved start (the previous seed's run undone)."""
        for nome in self.pastas:
            _copy(self.guardado / nome, self.raiz / nome)


def _guardar(raiz: Path, pastas: tuple[str, ...]) -> Path:
    guardado = raiz.parent / f"{raiz.name}-guardado"
    for nome in pastas:
        _copy(raiz / nome, guardado / nome)
    return guardado


@pytest.fixture(scope="module")
def publicado_e_mudado(tmp_path_factory: pytest.TempPathFactory) -> Bancada:
    """The first version built and published, the second one written, not built yet; the run
    that is not killed, once for every seed (none of it depends on the seed)."""
    raiz = tmp_path_factory.mktemp("commit")
    project, out, config = make_project(raiz / "projeto"), raiz / "public", _config(raiz)
    build_site(project, out)
    publicar(config, out)
    _second_version(project)
    pastas = ("projeto", "public", config.pasta.name, config.estado.name)
    guardado = _guardar(raiz, pastas)
    finished = _kill_build(project, out, 10**9)  # a build that is not killed: the steps it takes
    assert finished.returncode == 0, finished.stderr
    steps = int(finished.stdout)
    assert steps > 10
    return Bancada(raiz, guardado, pastas, steps, _visible(out))


@pytest.mark.parametrize("seed", SEEDS)
def test_build_killed_during_its_commit_then_publish_gives_a_consistent_site(
    publicado_e_mudado: Bancada, seed: int
) -> None:
    bancada = publicado_e_mudado
    bancada.restaurar()
    project, out, config = bancada.raiz / "projeto", bancada.raiz / "public", _config(bancada.raiz)
    new_site, steps = bancada.esperado, bancada.passos

    step = random.Random(seed).randint(1, steps)
    killed = _kill_build(project, out, step)
    assert killed.returncode == -9, killed.stderr
    assert (out / STAGING_DIR).exists()
    report = publicar(config, out)
    assert not (out / STAGING_DIR).exists()
    published = _visible(config.pasta)
    assert published == new_site, f"passo {step} de {steps}"
    assert broken_references(published) == []
    assert report.recuperacao in {"concluido", "desfeito"}
    # The next build starts from what the recovery left and agrees with an uninterrupted one.
    build_site(project, out)
    assert _visible(out) == new_site
    assert build_site(project, out).escritos == []


def test_build_killed_before_its_commit_is_undone_by_the_publish(project: Path, tmp_path: Path) -> None:
    out, config = tmp_path / "public", _config(tmp_path)
    build_site(project, out)
    old_site = _visible(out)
    _second_version(project)
    killed = _kill_build(project, out, 0)
    assert killed.returncode == -9
    assert (out / STAGING_DIR).exists() and not (out / STAGING_DIR / JOURNAL).exists()
    report = publicar(config, out)
    assert report.recuperacao == "desfeito"
    assert _visible(config.pasta) == old_site
    assert build_site(project, out).recuperacao == ""


def test_next_build_finishes_a_killed_commit(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "public"
    build_site(project, out)
    _second_version(project)
    assert _kill_build(project, out, 3).returncode == -9
    report = build_site(project, out)
    assert report.recuperacao == "concluido"
    assert not (out / STAGING_DIR).exists()
    assert broken_references(_visible(out)) == []


def test_dry_run_refuses_a_build_left_mid_commit(project: Path, tmp_path: Path) -> None:
    out, config = tmp_path / "public", _config(tmp_path)
    build_site(project, out)
    _second_version(project)
    assert _kill_build(project, out, 2).returncode == -9
    with pytest.raises(PublishError, match="build interrompido no meio da troca"):
        publicar(config, out, seco=True)
    assert (out / STAGING_DIR / JOURNAL).exists()  # a dry run touches nothing


def test_unreadable_journal_is_refused_by_publish_and_rebuilt_by_build(project: Path, tmp_path: Path) -> None:
    out, config = tmp_path / "public", _config(tmp_path)
    build_site(project, out)
    expected = _visible(out)
    (out / STAGING_DIR).mkdir()
    (out / STAGING_DIR / JOURNAL).write_text("{meio diário", encoding="utf-8")
    with pytest.raises(PublishError, match="não pôde ser concluído"):
        publicar(config, out)
    assert not config.pasta.exists()
    assert build_site(project, out).recuperacao == "refeito"
    assert _visible(out) == expected


def test_publish_refuses_pages_that_reference_a_missing_asset(project: Path, tmp_path: Path) -> None:
    out, config = tmp_path / "public", _config(tmp_path)
    build_site(project, out)
    stylesheet = next((out / "static").glob("estilo.*.css"))
    stylesheet.unlink()
    with pytest.raises(PublishError, match=r"referências a arquivos estáticos que não existem") as caught:
        publicar(config, out)
    assert f"index.html -> /static/{stylesheet.name}" in str(caught.value)
    assert not config.pasta.exists()  # nothing was published


def test_recover_without_staging_does_nothing(tmp_path: Path) -> None:
    writer = StagedWriter(tmp_path)
    writer.claim("a.html")
    writer.stage("a.html", b"<p>a</p>")
    writer.abort()
    assert recover(tmp_path) == ""


def test_new_pages_go_into_place_before_the_changed_pages_that_link_them(tmp_path: Path) -> None:
    """Issue 22, item 8: a changed listing must never be in place before the new check page it
    links (sorted by path alone, `checagens/index.html` went in before `checagens/nova/`)."""
    out = tmp_path / "public"
    (out / "checagens").mkdir(parents=True)
    (out / "checagens/index.html").write_bytes(b"antes")
    writer = StagedWriter(out)
    for rel, data in (
        ("checagens/index.html", b'<a href="/checagens/nova/">'),
        ("checagens/nova/index.html", b"nova"),
        ("checagens/antiga/index.html", b"outra nova"),
    ):
        writer.claim(rel)
        writer.stage(rel, data)
    writer.commit([], tmp_path / ".cache" / STATE_PARENT / "x")
    journal = read_journal(out)
    assert journal is not None
    assert [rel for _temp, rel in journal.moves] == [
        "checagens/antiga/index.html",
        "checagens/nova/index.html",
        "checagens/index.html",
    ]


@dataclass(frozen=True)
class Encenado:
    """The staging-kill tests' start (`bancada`: the first version built, the second written) and
    what a clean build of the second version gives."""

    bancada: Bancada
    antigo: dict[str, bytes]  # the first version's site, in place until the commit
    limpo: dict[str, bytes]  # a clean build of the second version


@pytest.fixture(scope="module")
def construido_e_mudado(tmp_path_factory: pytest.TempPathFactory) -> Encenado:
    """Built once, then changed; how many files the next build stages (counted on copies) and a
    clean build of the new version, once for every seed (none of it depends on the seed)."""
    raiz = tmp_path_factory.mktemp("encenado")
    project, out = make_project(raiz / "projeto"), raiz / "public"
    build_site(project, out)
    old_site = _visible(out)
    _second_version(project)
    pastas = ("projeto", "public")
    guardado = _guardar(raiz, pastas)
    counted = raiz / "contado"  # the same build on copies: how many files it stages
    _copy(out, counted)
    shutil.copytree(project, raiz / "projeto-contado")
    finished = _kill_build(raiz / "projeto-contado", counted, -(10**9))
    assert finished.returncode == 0, finished.stderr
    staged = int(finished.stdout)
    build_site(project, raiz / "do-zero")
    clean = _visible(raiz / "do-zero")  # what a clean run of the new version gives
    assert staged > 3
    return Encenado(Bancada(raiz, guardado, pastas, staged, {}), old_site, clean)


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_build_killed_while_staging_is_undone_and_the_rerun_matches_a_clean_build(
    construido_e_mudado: Encenado, seed: int
) -> None:
    """Issue 22: SIGKILL at a random staged file (the output folder is untouched), then the next
    build gives the bytes an uninterrupted build gives."""
    encenado = construido_e_mudado
    encenado.bancada.restaurar()
    project, out, staged = (
        encenado.bancada.raiz / "projeto",
        encenado.bancada.raiz / "public",
        encenado.bancada.passos,
    )
    step = random.Random(seed).randint(1, staged)
    killed = _kill_build(project, out, -step)
    assert killed.returncode == -9, killed.stderr
    assert _visible(out) == encenado.antigo, f"arquivo {step} de {staged}"  # nothing in place yet
    report = build_site(project, out)
    assert report.recuperacao == "desfeito"
    assert _visible(out) == encenado.limpo

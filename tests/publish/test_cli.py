"""`eleicoes publicar`: dry run, real run to a folder, errors, and the project lock."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from eleicoes import main
from jobs.configuracao import ConfigSectionError
from jobs.publish.cli import with_target
from jobs.publish.config import PublishConfig, load_publish_config
from tests.publish.conftest import write_site

REPO = Path(__file__).resolve().parents[2]
Capture = pytest.CaptureFixture[str]


def _project(tmp_path: Path, section: str = "") -> Path:
    root = tmp_path / "projeto"
    write_site(root / "public")
    (root / "eleicoes.toml").write_text(f"[publicar]\n{section}\n[agendador]\n", encoding="utf-8")
    return root


def test_dry_run_prints_the_plan_and_copies_nothing(tmp_path: Path, capsys: Capture) -> None:
    root = _project(tmp_path)
    assert main(["publicar", "--seco", "--raiz", str(root)]) == 0
    out = capsys.readouterr().out
    assert "enviar  index.html  (novo; text/html; charset=utf-8" in out
    assert "(simulação)" in out
    assert not (root / ".cache" / "publicado").exists()


def test_publish_to_the_default_folder_then_nothing_to_do(tmp_path: Path, capsys: Capture) -> None:
    root = _project(tmp_path)
    assert main(["publicar", "--raiz", str(root)]) == 0
    assert (root / ".cache" / "publicado" / "index.html").read_bytes() == (
        root / "public/index.html"
    ).read_bytes()
    capsys.readouterr()
    assert main(["publicar", "--raiz", str(root)]) == 0
    assert " 0 enviados, 0 removidos" in capsys.readouterr().out


def test_destino_option_overrides_the_configuration(tmp_path: Path) -> None:
    root = _project(tmp_path)
    assert main(["publicar", "--raiz", str(root), "--destino", "outra-pasta"]) == 0
    assert (root / "outra-pasta" / "index.html").is_file()
    cfg = with_target(PublishConfig(), "s3://meu-bucket/eleicoes", root)
    assert (cfg.destino, cfg.bucket, cfg.prefixo) == ("s3", "meu-bucket", "eleicoes/")
    with pytest.raises(ConfigSectionError, match="bucket"):
        with_target(PublishConfig(), "s3://", root)


def test_bad_configuration_is_a_clear_error(tmp_path: Path, capsys: Capture) -> None:
    root = _project(tmp_path, 'destino = "ftp"\nparalelo = "oito"')
    assert main(["publicar", "--raiz", str(root)]) == 2
    assert "'paralelo' deve ser número inteiro" in capsys.readouterr().err
    (root / "eleicoes.toml").write_text('[publicar]\ndestino = "s3"\nbuckett = "x"\n', encoding="utf-8")
    with pytest.raises(ConfigSectionError, match="desconhecida"):
        load_publish_config(root)
    (root / "eleicoes.toml").write_text('[publicar]\ndestino = "s3"\n', encoding="utf-8")
    with pytest.raises(ConfigSectionError, match="'bucket' é obrigatório"):
        load_publish_config(root)


def test_missing_build_exits_1_with_a_portuguese_message(tmp_path: Path, capsys: Capture) -> None:
    root = tmp_path / "vazio"
    root.mkdir()
    assert main(["publicar", "--raiz", str(root)]) == 1
    assert "rode 'eleicoes build' antes de publicar" in capsys.readouterr().err


def test_cli_waits_for_a_run_holding_the_project_lock(tmp_path: Path) -> None:
    root = _project(tmp_path)
    script = textwrap.dedent(
        f"""
        import sys
        from pathlib import Path
        from site_builder.lock import project_lock
        with project_lock(Path({str(root)!r}), "build agendado"):
            print("pronto", flush=True)
            sys.stdin.readline()  # hold the lock until the test says so
        """
    )
    holder = subprocess.Popen(
        [sys.executable, "-c", script], cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    cli = None
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "pronto"
        cli = subprocess.Popen(
            [sys.executable, "-m", "eleicoes", "publicar", "--raiz", str(root)],
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert cli.stderr is not None
        waiting = cli.stderr.readline()
        assert "aguardando outra execução terminar" in waiting and "build agendado" in waiting
        assert not (root / ".cache" / "publicado").exists()  # nothing published while the lock is held
        assert holder.stdin is not None
        holder.stdin.write("pode\n")
        holder.stdin.flush()
        out, _ = cli.communicate(timeout=60)
        assert cli.returncode == 0
        assert "enviados" in out and (root / ".cache" / "publicado" / "index.html").is_file()
    finally:
        for proc in (holder, cli):
            if proc is not None:
                proc.kill()
                proc.communicate()

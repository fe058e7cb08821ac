"""Run a build and SIGKILL it at a chosen file-system step of its commit phase (a test driver).

    python -m tests.site_builder.matar_build RAIZ SAIDA PASSO

The commit phase starts when the journal is renamed into the staging folder and ends when the
staging folder is gone (`StagedWriter.finish`); every call of os.replace / os.rename / os.unlink /
os.rmdir in between is one step (what the build writes after its commit, such as the accepted
copies, is not). PASSO = 0 kills the process instead of
writing the journal (a build dying just before its commit); PASSO = N > 0 kills it just before the
N-th step; PASSO = -N kills it while it stages, just before the N-th file it writes into the
staging folder; a PASSO past the last step lets the build finish. The number of steps taken (of
the commit; with a negative PASSO, of the staging) is printed.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from site_builder.build import build_site
from site_builder.writer import JOURNAL, StagedWriter


def main() -> int:
    """Patch the file-system calls, build, print the number of commit steps."""
    root, out, kill_at = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
    steps = {"armed": False, "n": 0}

    def counting(real: Callable[..., Any]) -> Callable[..., Any]:
        def step(*args: Any, **kwargs: Any) -> Any:
            if steps["armed"]:
                steps["n"] += 1
                if steps["n"] == kill_at:
                    os.kill(os.getpid(), signal.SIGKILL)
            elif real is REPLACE and str(args[1]).endswith(f"/{JOURNAL}"):
                if kill_at == 0:
                    os.kill(os.getpid(), signal.SIGKILL)
                result = real(*args, **kwargs)
                steps["armed"] = True
                return result
            return real(*args, **kwargs)

        return step

    if kill_at < 0:
        real_stage = StagedWriter.stage
        staged = {"n": 0}

        def staging(self: StagedWriter, rel: str, data: bytes, sha256: str | None = None) -> str:
            before = len(self.staged)
            digest = real_stage(self, rel, data, sha256)
            if len(self.staged) > before:
                staged["n"] += 1
                if staged["n"] == -kill_at:
                    os.kill(os.getpid(), signal.SIGKILL)
            return digest

        StagedWriter.stage = staging  # type: ignore[method-assign]
        build_site(root, out, workers=1)
        print(staged["n"])
        return 0
    real_finish = StagedWriter.finish

    def finishing(self: StagedWriter) -> None:
        real_finish(self)
        steps["armed"] = False  # the commit is over

    StagedWriter.finish = finishing  # type: ignore[method-assign]
    os.replace = counting(REPLACE)
    os.rename = counting(os.rename)
    os.unlink = counting(os.unlink)
    os.rmdir = counting(os.rmdir)
    build_site(root, out, workers=1)
    print(steps["n"])
    return 0


REPLACE = os.replace

if __name__ == "__main__":
    sys.exit(main())

"""Run a publish to a folder and SIGKILL it at a chosen file-system step (a test driver).

    python -m tests.publish.matar_publicar PUBLICO PASTA ESTADO PASSO

Every call of os.replace / os.rename / os.unlink / os.rmdir the publish makes is one step (an
upload's rename into the bucket folder, a deletion, a manifest save); PASSO = N kills the process
just before the N-th. A PASSO past the last step lets the publish finish. The number of steps
taken is printed.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from jobs.publish.config import PublishConfig
from jobs.publish.publisher import publicar


def main() -> int:
    """Patch the file-system calls, publish, print the number of steps."""
    public, pasta, estado, kill_at = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3]), int(sys.argv[4])
    steps = {"n": 0}

    def counting(real: Callable[..., Any]) -> Callable[..., Any]:
        def step(*args: Any, **kwargs: Any) -> Any:
            steps["n"] += 1
            if steps["n"] == kill_at:
                os.kill(os.getpid(), signal.SIGKILL)
            return real(*args, **kwargs)

        return step

    os.replace = counting(os.replace)
    os.rename = counting(os.rename)
    os.unlink = counting(os.unlink)
    os.rmdir = counting(os.rmdir)
    publicar(PublishConfig(pasta=pasta, estado=estado, graca_assets_h=0, paralelo=1), public)
    print(steps["n"])
    return 0


if __name__ == "__main__":
    sys.exit(main())

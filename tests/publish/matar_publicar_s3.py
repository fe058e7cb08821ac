"""Run a publish to an S3 bucket and SIGKILL it at a chosen step (a test driver).

    python -m tests.publish.matar_publicar_s3 PUBLICO ENDPOINT BUCKET ESTADO PASSO

Every S3 request the publish is about to send (a listing, a PUT, the HEAD that reads it back, a
deletion) and every manifest save (os.replace) is one step; PASSO = N kills the process just
before the N-th, with the uploads of its batch in flight. A PASSO past the last step lets the
publish finish. The number of steps taken is printed. Credentials come from the environment.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from jobs.publish.config import PublishConfig
from jobs.publish.publisher import publicar
from jobs.publish.targets import open_target


def config(endpoint: str, bucket: str, estado: Path) -> PublishConfig:
    """The publish configuration of the kill tests (shared with the test that checks the result)."""
    return PublishConfig(
        destino="s3", endpoint=endpoint, bucket=bucket, estado=estado, paralelo=4, graca_assets_h=0
    )


def main() -> int:
    """Count the steps, publish, print the number of steps."""
    public, endpoint, bucket = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
    estado, kill_at = Path(sys.argv[4]), int(sys.argv[5])
    lock = threading.Lock()
    steps = {"n": 0}

    def step() -> None:
        with lock:
            steps["n"] += 1
            if steps["n"] == kill_at:
                os.kill(os.getpid(), signal.SIGKILL)

    def counting(real: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            step()
            return real(*args, **kwargs)

        return call

    cfg = config(endpoint, bucket, estado)
    target = open_target(cfg)
    target.client.meta.events.register("before-send.s3", lambda **_kwargs: step())  # type: ignore[attr-defined]
    os.replace = counting(os.replace)
    publicar(cfg, public, destino=target)
    print(steps["n"])
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The built site served on loopback by the project's own static server (`jobs/serve.py`)."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from pathlib import Path

from jobs.serve import make_server


@contextlib.contextmanager
def servir(pasta: Path) -> Iterator[str]:
    """Serve `pasta` like the CDN would (a free port on 127.0.0.1); yields the base URL, no final '/'."""
    server = make_server(pasta, port=0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()

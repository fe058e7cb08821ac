"""A server a test starts itself, served on a background thread."""

from __future__ import annotations

import socketserver
import threading

# `shutdown()` waits for the serving loop's next poll: half a second with the standard library's
# default, paid by every test that stops a server.
INTERVALO_S = 0.05


def em_segundo_plano(server: socketserver.BaseServer) -> threading.Thread:
    """Serve `server` on a daemon thread that polls every `INTERVALO_S`; the thread, started."""
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": INTERVALO_S}, daemon=True)
    thread.start()
    return thread

"""Debian's headless chromium driven through the DevTools protocol over a pipe (no extra package).

`Navegador.abrir(url, largura, altura)` loads a page at a given viewport and returns its DOM, a PNG
screenshot and every console error, uncaught exception and failed resource load it reported.
`Navegador.aba(url, largura, altura)` keeps the page open to evaluate JavaScript in it and to wait
for a condition (a live page that changes without reloading).
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

CHROMIUM = shutil.which("chromium")
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--remote-debugging-pipe",
)


@dataclass
class Pagina:
    """What the browser saw of one page."""

    dom: str
    png: bytes
    erros: list[str]


@dataclass
class Navegador:
    """One chromium process; use as a context manager."""

    timeout_s: float = 30.0
    _proc: subprocess.Popen[bytes] | None = field(default=None, init=False)
    _to_browser: int = field(default=-1, init=False)
    _from_browser: Any = field(default=None, init=False)
    _next_id: int = field(default=0, init=False)
    _events: list[dict[str, Any]] = field(default_factory=list, init=False)
    _profile: tempfile.TemporaryDirectory[str] | None = field(default=None, init=False)

    def __enter__(self) -> Navegador:
        assert CHROMIUM is not None, "chromium não está instalado"
        # chromium's helper processes may still write to the profile while it closes
        self._profile = tempfile.TemporaryDirectory(prefix="chromium-", ignore_cleanup_errors=True)
        # chromium reads commands from fd 3 and writes answers to fd 4
        cmd_read, cmd_write = os.pipe()
        ans_read, ans_write = os.pipe()
        os.set_inheritable(cmd_read, True)
        os.set_inheritable(ans_write, True)

        def wire() -> None:
            os.setsid()  # its own process group: closing it stops chromium's helper processes too
            os.dup2(cmd_read, 3)
            os.dup2(ans_write, 4)

        self._proc = subprocess.Popen(
            [CHROMIUM, *FLAGS, f"--user-data-dir={self._profile.name}", "about:blank"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=wire,  # only dup2 of our own pipes
            close_fds=False,
        )
        os.close(cmd_read)
        os.close(ans_write)
        self._to_browser = cmd_write
        self._from_browser = os.fdopen(ans_read, "rb")
        return self

    def __exit__(self, *exc: object) -> None:
        if self._proc is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self._proc.pid, signal.SIGTERM)
            try:
                self._proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self._proc.pid, signal.SIGKILL)
                self._proc.wait(10)
        if self._to_browser >= 0:
            os.close(self._to_browser)
        if self._from_browser is not None:
            self._from_browser.close()
        if self._profile is not None:
            self._profile.cleanup()

    def _read(self) -> dict[str, Any]:
        buf = bytearray()
        while True:
            ch = self._from_browser.read(1)
            if not ch:
                raise RuntimeError("chromium fechou o canal do DevTools")
            if ch == b"\0":
                message: dict[str, Any] = json.loads(buf)
                return message
            buf += ch

    def send(self, method: str, params: dict[str, Any] | None = None, session: str | None = None) -> Any:
        """Send one command and wait for its answer (events received meanwhile are kept)."""
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + self.timeout_s
        while time.monotonic() < deadline:
            answer = self._read()
            if answer.get("id") == self._next_id:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer.get("result", {})
            self._events.append(answer)
        raise TimeoutError(method)

    def _wait_event(self, method: str) -> None:
        deadline = time.monotonic() + self.timeout_s
        while not any(e.get("method") == method for e in self._events):
            if time.monotonic() > deadline:
                raise TimeoutError(method)
            self._events.append(self._read())

    @contextlib.contextmanager
    def aba(
        self, url: str, largura: int, altura: int, mobile: bool = False, javascript: bool = True
    ) -> Iterator[Aba]:
        """`url` loaded in a fresh tab at the viewport given, closed on exit."""
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        try:
            for domain in ("Page", "Runtime", "Log"):
                self.send(f"{domain}.enable", session=session)
            self.send(
                "Emulation.setDeviceMetricsOverride",
                {"width": largura, "height": altura, "deviceScaleFactor": 1, "mobile": mobile},
                session,
            )
            if not javascript:
                self.send("Emulation.setScriptExecutionDisabled", {"value": True}, session)
            self._events.clear()
            self.send("Page.navigate", {"url": url}, session)
            self._wait_event("Page.loadEventFired")
            yield Aba(self, session)
        finally:
            self.send("Target.closeTarget", {"targetId": target})

    def abrir(self, url: str, largura: int, altura: int, mobile: bool = False) -> Pagina:
        """Load `url` in a fresh tab at the viewport given; DOM, screenshot and errors."""
        with self.aba(url, largura, altura, mobile) as aba:
            dom = aba.avaliar("document.documentElement.outerHTML")
            shot = self.send("Page.captureScreenshot", {"format": "png"}, aba.session)
            png = base64.b64decode(shot["data"])
            return Pagina(dom, png, aba.erros())


@dataclass
class Aba:
    """One open tab: evaluate JavaScript in it, wait for a condition, read its errors."""

    navegador: Navegador
    session: str

    def avaliar(self, expressao: str) -> Any:
        """The value of a JavaScript expression in the page (JSON-compatible values)."""
        answer = self.navegador.send(
            "Runtime.evaluate", {"expression": expressao, "returnByValue": True}, self.session
        )
        if "exceptionDetails" in answer:
            raise RuntimeError(f"{expressao}: {answer['exceptionDetails'].get('text')}")
        return answer["result"].get("value")

    def esperar(self, expressao: str, limite_s: float = 60.0) -> Any:
        """Evaluate `expressao` until it is truthy (a generous limit: the machine may be loaded)."""
        deadline = time.monotonic() + limite_s
        while True:
            value = self.avaliar(expressao)
            if value:
                return value
            if time.monotonic() > deadline:
                raise TimeoutError(expressao)
            time.sleep(0.1)

    def erros(self) -> list[str]:
        """Console errors, uncaught exceptions and failed loads reported since the page opened."""
        return [_error_text(e) for e in self.navegador._events if _is_error(e)]


def _is_error(event: dict[str, Any]) -> bool:
    method, params = event.get("method"), event.get("params", {})
    if method == "Runtime.consoleAPICalled":
        return bool(params.get("type") in ("error", "assert"))
    if method == "Runtime.exceptionThrown":
        return True
    if method == "Log.entryAdded":
        return bool(params.get("entry", {}).get("level") == "error")
    return False


def _error_text(event: dict[str, Any]) -> str:
    params = event.get("params", {})
    if "entry" in params:
        return f"{params['entry'].get('text')} ({params['entry'].get('url', '')})"
    if "exceptionDetails" in params:
        return str(params["exceptionDetails"].get("text"))
    return " ".join(str(a.get("value", "")) for a in params.get("args", []))


def salvar(pagina: Pagina, destino: Path) -> None:
    """Write the screenshot (the test's output)."""
    destino.parent.mkdir(parents=True, exist_ok=True)
    destino.write_bytes(pagina.png)

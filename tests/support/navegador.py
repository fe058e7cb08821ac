"""Debian's headless chromium driven through the DevTools protocol over a pipe (no extra package).

`Navegador.abrir(url, largura, altura)` loads a page at a given viewport and returns its DOM, a PNG
screenshot and every console error, uncaught exception and failed resource load it reported.
`Navegador.aba(url, largura, altura)` keeps the page open to evaluate JavaScript in it and to wait
for a condition (a live page that changes without reloading).
"""

from __future__ import annotations

import atexit
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


# The process's shared chromium (a list, so that no `global` statement is needed): see Navegador.
_COMPARTILHADO: list[Navegador] = []


def _descartar() -> None:
    """Close the shared chromium; the next `Navegador()` starts another."""
    while _COMPARTILHADO:
        _COMPARTILHADO.pop()._fechar()


atexit.register(_descartar)


@dataclass
class Navegador:
    """Headless chromium; use as a context manager. `with Navegador() as browser` gives the
    process's one shared chromium (started on first use, again if it exited or a test failed
    while using it): a chromium start costs seconds on a loaded machine. Every tab it opens has
    its own browser context (cache, cookies, storage), so each test sees a fresh browser."""

    timeout_s: float = 30.0
    _proc: subprocess.Popen[bytes] | None = field(default=None, init=False)
    _to_browser: int = field(default=-1, init=False)
    _from_browser: Any = field(default=None, init=False)
    _next_id: int = field(default=0, init=False)
    _events: list[dict[str, Any]] = field(default_factory=list, init=False)
    _profile: tempfile.TemporaryDirectory[str] | None = field(default=None, init=False)
    _pendente: bytearray = field(default_factory=bytearray, init=False)

    def __enter__(self) -> Navegador:
        if _COMPARTILHADO and not _COMPARTILHADO[0].vivo():
            _descartar()
        if not _COMPARTILHADO:
            novo = Navegador(self.timeout_s)
            novo._iniciar()
            _COMPARTILHADO.append(novo)
        _COMPARTILHADO[0].timeout_s = self.timeout_s
        return _COMPARTILHADO[0]

    def __exit__(self, tipo: type[BaseException] | None, *exc: object) -> None:
        if tipo is not None:  # the browser may be stuck mid-command: the next test gets a new one
            _descartar()

    def _iniciar(self) -> None:
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

    def _fechar(self) -> None:
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
        # Messages end with NUL; read in large blocks (a screenshot is a few hundred kB of base64,
        # one byte at a time cost a noticeable share of every browser test).
        while (fim := self._pendente.find(b"\0")) < 0:
            bloco = os.read(self._from_browser.fileno(), 1 << 16)
            if not bloco:
                raise RuntimeError("chromium fechou o canal do DevTools")
            self._pendente += bloco
        message: dict[str, Any] = json.loads(self._pendente[:fim])
        del self._pendente[: fim + 1]
        return message

    def vivo(self) -> bool:
        """Whether the chromium process is still running (a shared browser is replaced if not)."""
        return self._proc is not None and self._proc.poll() is None

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
        # Each tab in its own browser context (cache, cookies, storage): a browser shared by many
        # tests (the session's `navegador` fixture) behaves for each tab like a fresh one.
        contexto = self.send("Target.createBrowserContext", {"disposeOnDetach": True})["browserContextId"]
        target = self.send("Target.createTarget", {"url": "about:blank", "browserContextId": contexto})[
            "targetId"
        ]
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
            self.send("Target.disposeBrowserContext", {"browserContextId": contexto})

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

    def ir(self, url: str) -> None:
        """Load `url` in this tab (it keeps its viewport and context): one tab for many pages.
        `erros()` then reports this page's errors only."""
        self.navegador._events.clear()
        self.navegador.send("Page.navigate", {"url": url}, self.session)
        self.navegador._wait_event("Page.loadEventFired")

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

"""The web hub's one hub process, which browser tabs attach to and detach from.

textual-serve starts a new app process for every websocket and quits it when
the tab closes, which would stop a conversion running in it. Here the server
keeps one hub process instead: closing the tab only detaches the page (the
process's output is drained and dropped meanwhile, so it never blocks), and
the next page that opens attaches to the same process and asks it to redraw,
so a running conversion is shown again where it is. A newer tab takes the
session over from an older one; quitting the hub (Ctrl+Q) ends the process and
the next page starts a fresh one.
"""
from __future__ import annotations

import asyncio
import logging
import os
import re
import signal
from pathlib import Path
from typing import Sequence

from aiohttp import WSCloseCode, web
from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager

from app.core import paths, proc

log = logging.getLogger(__name__)

#: Ctrl+L: the hub's "redraw the whole screen" key, sent when a page attaches.
REDRAW = b"\x0c"
#: A write that only switches terminal modes (alternate screen, mouse reporting, cursor, paste):
#: remembered and replayed to a page that attaches later, whose fresh terminal has none of them.
_MODE_WRITE = re.compile(rb"(?:\x1b\[\?[0-9;]+[hl])+")
_MODE = re.compile(rb"\x1b\[\?([0-9;]+)[hl]")
#: Seconds the hub may take to cancel its work and exit when the server stops, before SIGTERM.
QUIT_SECONDS = 30.0
#: Seconds between SIGTERM and SIGKILL.
TERM_SECONDS = 5.0


def hub_log() -> Path:
    """Return the file the web hub's hub processes write their errors to."""
    return paths.logs_dir() / "web-hub.log"


class HubProcess(AppService):
    """textual-serve's app process, started through app.core.proc (an argv, never a shell)."""

    def __init__(self, argv: Sequence[str], **kwargs) -> None:
        super().__init__(" ".join(argv), **kwargs)
        self.argv = list(argv)

    async def _open_app_process(self, width: int = 80, height: int = 24) -> asyncio.subprocess.Process:
        wanted = self._build_environment(width=width, height=height)
        overrides = {key: value for key, value in wanted.items() if os.environ.get(key) != value}
        log_path = hub_log()
        log_path.parent.mkdir(parents=True, exist_ok=True)
        with open(log_path, "ab") as log_file:
            process = await proc.spawn_piped(self.argv, env=overrides, stderr=log_file)
        # textual-serve would keep the app's stderr in memory without bound; it goes to the log instead.
        process.stderr = asyncio.StreamReader()
        process.stderr.feed_eof()
        self._process = process
        self._stdin = process.stdin
        return process

    @property
    def alive(self) -> bool:
        """True while the hub process runs and its output is being read."""
        return (self._process is not None and self._process.returncode is None
                and self._task is not None and not self._task.done())

    async def finish(self, quit_seconds: float = QUIT_SECONDS, term_seconds: float = TERM_SECONDS) -> None:
        """Ask the hub to quit (it cancels its work cleanly), then SIGTERM, then SIGKILL."""
        process = self._process
        if process is None:
            return
        await self._download_manager.cancel_app_downloads(app_service_id=self.app_service_id)
        await self.send_meta({"type": "quit"})
        for send, wait in ((None, quit_seconds), (process.terminate, term_seconds), (process.kill, None)):
            if send is not None and process.returncode is None:
                log.warning("the hub process did not exit in time; sending %s", send.__name__)
                try:
                    send()
                except ProcessLookupError:
                    pass
            try:
                await asyncio.wait_for(process.wait(), wait)
                break
            except asyncio.TimeoutError:
                continue
        if self._task is not None:
            await self._task  # the rest of its output, up to end of file

    def kill(self) -> None:
        """SIGKILL the hub process if it still runs (outputs are written atomically, so none is left half-written)."""
        process = self._process
        if process is None:
            return
        try:
            # Only a child of ours that has not been reaped yet is signalled (never a reused pid).
            if os.waitpid(process.pid, os.WNOHANG) == (0, 0):
                os.kill(process.pid, signal.SIGKILL)
                os.waitpid(process.pid, 0)  # reap it: the event loop that would have is gone
        except (ProcessLookupError, ChildProcessError):
            pass


class HubSession:
    """The server's one hub process and the page (websocket) currently showing it."""

    def __init__(self, argv: Sequence[str], downloads: DownloadManager) -> None:
        self.argv = list(argv)
        self._downloads = downloads
        #: The hub that pages attach to; None before the first page and after the hub ended.
        self._process: HubProcess | None = None
        #: Every hub started, until it has exited (one that is quitting may outlive its successor's start).
        self._all: set[HubProcess] = set()
        self._page: web.WebSocketResponse | None = None
        self._modes: dict[bytes, bytes] = {}
        self._lock = asyncio.Lock()

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.alive

    async def attach(self, page: web.WebSocketResponse, width: int, height: int) -> None:
        """Show the hub on `page`: start it, or redraw the running one there."""
        async with self._lock:
            previous, self._page = self._page, page
            if previous is not None and not previous.closed:
                await previous.close(code=WSCloseCode.GOING_AWAY, message=b"The hub was opened in another tab.")
            if self.running:
                for mode in list(self._modes.values()):
                    await page.send_bytes(mode)
                await self._process.set_terminal_size(width, height)
                await self._process.send_bytes(REDRAW)
                return
            await self._start(width, height)

    async def _start(self, width: int, height: int) -> None:
        """Start a hub whose output goes to whichever page is attached, for as long as it is the current hub."""
        hub: HubProcess | None = None

        def current() -> bool:
            return hub is not None and hub is self._process

        async def to_page(data: bytes) -> None:
            if current():
                await self._to_page(data)

        async def str_to_page(text: str) -> None:
            if current():
                await self._str_to_page(text)

        async def ended() -> None:
            # However the hub ends (Ctrl+Q, a crash at start), the page is told rather than left blank.
            if current():
                self._process = None
                page, self._page = self._page, None
                if page is not None and not page.closed:
                    await page.close()

        self._modes.clear()
        hub = HubProcess(self.argv, write_bytes=to_page, write_str=str_to_page, close=ended,
                         download_manager=self._downloads)
        self._process = hub
        self._all.add(hub)
        await hub.start(width, height)
        hub._task.add_done_callback(lambda _: self._reap(hub, ended))

    def _reap(self, hub: HubProcess, ended) -> None:
        # The output task also ends when the server's loop cancels it on shutdown: keep a hub
        # that still runs, so a second Ctrl+C can kill it.
        if hub._process is not None and hub._process.returncode is not None:
            self._all.discard(hub)
            if hub._process.returncode != 0:
                log.warning("The hub process ended with exit code %s; its messages are in %s",
                            hub._process.returncode, hub_log())
        asyncio.ensure_future(ended())

    async def detach(self, page: web.WebSocketResponse) -> None:
        """Forget `page` (its tab closed); the hub process keeps running."""
        if self._page is page:
            self._page = None
            if self.running:
                await self._process.blur()

    async def stop(self) -> None:
        """End every hub process (the server is stopping)."""
        await asyncio.gather(*(hub.finish() for hub in list(self._all)))

    def kill(self) -> None:
        """Kill every hub process now (a second Ctrl+C); no event loop needed."""
        for hub in list(self._all):
            hub.kill()

    # -- what a page sends (only the attached page is heard) ------------------------------

    def _from(self, page: web.WebSocketResponse) -> HubProcess | None:
        return self._process if page is self._page and self.running else None

    async def send_bytes(self, page: web.WebSocketResponse, data: bytes) -> None:
        if (hub := self._from(page)) is not None:
            await hub.send_bytes(data)

    async def set_terminal_size(self, page: web.WebSocketResponse, width: int, height: int) -> None:
        if (hub := self._from(page)) is not None:
            await hub.set_terminal_size(width, height)

    async def focus(self, page: web.WebSocketResponse, focused: bool) -> None:
        if (hub := self._from(page)) is not None:
            await (hub.focus() if focused else hub.blur())

    # -- what the hub sends -----------------------------------------------------------------

    async def _to_page(self, data: bytes) -> None:
        if _MODE_WRITE.fullmatch(data):
            for match in _MODE.finditer(data):
                self._modes[match.group(1)] = match.group(0)
        page = self._page
        if page is not None and not page.closed:
            try:
                await page.send_bytes(data)
            except (ConnectionError, RuntimeError):  # the tab went away mid-write
                pass

    async def _str_to_page(self, text: str) -> None:
        page = self._page
        if page is not None and not page.closed:
            try:
                await page.send_str(text)
            except (ConnectionError, RuntimeError):
                pass

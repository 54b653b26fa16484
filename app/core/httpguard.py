"""Cut requests that take too long or that the user stopped: shut their sockets down.

httpx has no way to abort a request another thread is blocked in, and its read
timeout restarts with every byte, so a server that trickles an answer could hold
a request forever. Each speech request registers its socket here (httpx's `trace`
extension reports it at connect time); a watchdog thread shuts down the socket of
a request past its total deadline, and abort() shuts down every one. shutdown()
(unlike close()) wakes a thread blocked in recv() at once, and the server sees
the client go away (sglang-omni then aborts the request).
"""
from __future__ import annotations

import socket
import threading
import time
from dataclasses import dataclass
from typing import Any

#: How often the watchdog looks for requests past their deadline.
TICK = 0.2


@dataclass
class Call:
    """One request in flight: its socket once connected, its deadline, why it was cut."""

    deadline: float | None
    #: Seconds this call was allowed in total (None: no deadline).
    seconds: float | None = None
    sock: socket.socket | None = None
    #: "deadline" or "abort" once cut; None while it runs.
    cut: str | None = None

    def trace(self, event: str, info: dict[str, Any]) -> None:
        """Remember the socket when httpcore reports the connection (httpx `trace` extension)."""
        if event == "connection.connect_tcp.complete":
            stream = info.get("return_value")
            sock = stream.get_extra_info("socket") if stream is not None else None
            if isinstance(sock, socket.socket):
                self.sock = sock
                if self.cut:  # aborted while connecting
                    _shutdown(sock)

    def over_time(self) -> bool:
        """Return whether this call has passed its deadline."""
        return self.deadline is not None and time.monotonic() > self.deadline


class Guard:
    """The speech requests of one endpoint; thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_id: dict[int, Call] = {}
        self._watchdog: threading.Thread | None = None
        #: Set by abort(): every request in flight is cut and no new one may start.
        self.aborted = False

    def open(self, seconds: float | None) -> Call:
        """Register a request allowed `seconds` in total (None: no deadline)."""
        call = Call(None if seconds is None else time.monotonic() + seconds, seconds)
        with self._lock:
            if self.aborted:
                call.cut = "abort"
            self._by_id[id(call)] = call
            if seconds is not None and (self._watchdog is None or not self._watchdog.is_alive()):
                self._watchdog = threading.Thread(target=self._watch, name="sglomni-deadlines", daemon=True)
                self._watchdog.start()
        return call

    def close(self, call: Call) -> None:
        """Forget a finished request."""
        with self._lock:
            self._by_id.pop(id(call), None)

    def abort(self) -> None:
        """Cut every request in flight and refuse new ones."""
        with self._lock:
            self.aborted = True
            calls = list(self._by_id.values())
        for call in calls:
            call.cut = call.cut or "abort"
            if call.sock is not None:
                _shutdown(call.sock)

    def _watch(self) -> None:
        while True:
            time.sleep(TICK)
            with self._lock:
                calls = list(self._by_id.values())
                if not calls:
                    self._watchdog = None
                    return
            for call in calls:
                if call.cut is None and call.over_time():
                    call.cut = "deadline"
                    if call.sock is not None:
                        _shutdown(call.sock)


def _shutdown(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass  # already closed by its owner


__all__ = ["Guard", "Call", "TICK"]

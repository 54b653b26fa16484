"""How a run is asked to stop: the first request drains, the second cuts.

Both faces use it the same way: the CLI on Ctrl-C and SIGTERM, the hub on Cancel
and Quit.

- First request: nothing new is sent; requests in flight finish and are kept (the
  re-run redoes none of them); the run then ends with Cancelled (exit 130).
- Second request (or a first one when nothing is in flight): requests in flight
  are cut at once (their connections closed, so the server drops them) and the
  run ends; only those requests are redone by the re-run.
"""
from __future__ import annotations

import atexit
import math
import os
import sys
import threading
from collections.abc import Callable

#: The line a stopped run ends with, wherever it stopped.
STOPPED = "Stopped. Finished chunks are saved; run the same command again to resume"

#: Seconds a drained run needs after its last request ends: the open chapters' encoders aborted,
#: the backend closed, the process gone (with exit_stopped, not the interpreter's slow teardown).
STOP_TAIL_SECONDS = 1.0
#: Added while takes are heard: the listener finishes the take it is transcribing.
LISTEN_TAIL_SECONDS = 1.0

#: What the scheduler reports while it runs: (requests in flight, seconds they likely need or None).
DrainInfo = Callable[[], "tuple[int, float | None]"]


class StopControl:
    """The stop requests of one run; thread-safe (signal handlers, hub buttons, workers)."""

    def __init__(self, cancel: threading.Event | None = None):
        #: Set by the first request: send nothing new.
        self.cancel = cancel or threading.Event()
        #: Set by the second request: cut what is in flight.
        self.now = threading.Event()
        # Reentrant: a signal handler runs on the main thread, possibly while it holds this lock.
        self._lock = threading.RLock()
        self._drain: DrainInfo | None = None
        self._cutters: list[Callable[[], None]] = []
        self._notice: str | None = None

    # -- the run side ---------------------------------------------------------------------
    def draining_with(self, info: DrainInfo | None) -> None:
        """Say that requests are in flight and how to count them (None: no longer)."""
        with self._lock:
            self._drain = info

    def on_stop_now(self, cut: Callable[[], None]) -> None:
        """Call `cut` (from the requesting thread) when the run must stop now."""
        with self._lock:
            self._cutters.append(cut)
            late = self.now.is_set()
        if late:
            cut()

    # -- the asking side ------------------------------------------------------------------
    def request(self) -> str:
        """Ask the run to stop; return one line for the user saying what happens next."""
        with self._lock:
            first = not self.cancel.is_set()
            self.cancel.set()
            in_flight, seconds = self._drain() if (first and self._drain is not None) else (0, None)
            if in_flight:
                # Rounded up: the figure is a promise the stopping matrix holds the run to (+ 1 s).
                about = f", about {max(1, math.ceil(seconds))} s" if seconds is not None else ""
                many = "request" if in_flight == 1 else "requests"
                self._notice = (f"Stopping: {in_flight} {many} in flight will finish and be kept{about}; "
                                f"press Ctrl-C again to stop now")
                return self._notice
            self.now.set()
            cutters = list(self._cutters)
        for cut in cutters:
            try:
                cut()
            except Exception:  # noqa: BLE001 - stopping must not fail on a half-closed connection
                pass
        return "Stopping now: requests in flight are abandoned; finished chunks are kept"

    def take_notice(self) -> str | None:
        """Return the drain line once, for the run to show in its own output (None if none is due).

        The run prints it, not a signal handler: a handler runs between two writes of a
        progress line and would print into the middle of it.
        """
        with self._lock:
            notice, self._notice = self._notice, None
        return notice

    @property
    def draining(self) -> bool:
        """Return whether requests are in flight (a first stop request would let them finish)."""
        with self._lock:
            return self._drain is not None

    @property
    def stopping(self) -> bool:
        """Return whether a stop was requested."""
        return self.cancel.is_set()


def exit_stopped(code: int) -> None:
    """End a stopped process (exit 130) now: exit handlers run, the interpreter's teardown does not.

    By the time a stopped run returns, everything it owns is closed (requests, encoders, servers,
    temp files). What is left is the interpreter tearing down numpy, onnxruntime and a few hundred
    modules: 0.3 s idle, 1-4 s on a loaded machine, longer than the stop announced. atexit handlers
    (temp folders, logging) still run; only that teardown is skipped. The hub ends this way too: a
    stop of `hub --web` waits for its hub process to exit. Should a non-daemon thread still run,
    the ordinary exit joins it.
    """
    if any(t.is_alive() and not t.daemon for t in threading.enumerate() if t is not threading.main_thread()):
        sys.exit(code)  # a thread still working is joined by the ordinary exit, never cut
    atexit._run_exitfuncs()  # noqa: SLF001 - the documented handlers, run before the fast exit
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)


__all__ = ["StopControl", "DrainInfo", "STOPPED", "STOP_TAIL_SECONDS", "LISTEN_TAIL_SECONDS", "exit_stopped"]

"""One line per kind of problem, with running counts, instead of one per attempt.

A busy server can answer hundreds of "queue full" in a minute; each is worth
counting, not printing. The first of each kind is told at once, then its running
count at most every REPEAT_SECONDS.
"""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from app.core.errors import BadAudio, ServerBusy, ServerError, ServerUnavailable

log = logging.getLogger(__name__)

#: Seconds between two lines about the same kind of problem.
REPEAT_SECONDS = 15.0


def kind_of(exc: BaseException) -> str:
    """Return the name of the kind of problem `exc` is, as users read it."""
    if isinstance(exc, ServerBusy):
        return "server busy"
    if isinstance(exc, ServerError):
        return f"server error (HTTP {exc.status})" if exc.status else "request timed out or failed"
    if isinstance(exc, ServerUnavailable):
        return "server unreachable"
    if isinstance(exc, BadAudio):
        return "unusable audio"
    return type(exc).__name__


class ProblemLog:
    """Counts problems by kind and tells the user about them sparingly; thread-safe."""

    def __init__(self, say: Callable[[str], None], clock: Callable[[], float] = time.monotonic):
        #: Tell the user one line (the run's listener).
        self.say = say
        self._clock = clock
        self._lock = threading.Lock()
        self.counts: dict[str, int] = {}
        self._told: dict[str, tuple[float, int]] = {}

    def note(self, exc: BaseException, what_next: str) -> None:
        """Count one problem; tell the user if it is new or its last line is old."""
        kind = kind_of(exc)
        message = getattr(exc, "message", str(exc))
        with self._lock:
            count = self.counts[kind] = self.counts.get(kind, 0) + 1
            last = self._told.get(kind)
            now = self._clock()
            if last is not None and now - last[0] < REPEAT_SECONDS:
                log.debug("%s (%d so far): %s", kind, count, message)
                return
            self._told[kind] = (now, count)
        self.say(f"{kind}: {message.rstrip('.')} ({count} so far; {what_next})")


__all__ = ["ProblemLog", "kind_of", "REPEAT_SECONDS"]

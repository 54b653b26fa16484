"""One in-flight limit shared by the books of a queue, so a book boundary never drains the server.

A queue converts its books in order through one backend. The next book starts
sending as soon as everything left of the books before it fits in the pool (all
of it in flight or about to be), and it gets only the slots they leave free:
earlier books come first, the total never passes the pool's limit, and as the
tail of one book finishes its slots pass to the next instead of going idle.

The pool counts what each book has not finished yet (its chunks minus those
done, from the run's own events), not its requests in flight: a book whose
chunks are waiting out a backoff or being heard still holds their slots, so the
count is an upper bound on what it may send and the pool can never overfill.
One limiter (adaptive or fixed) measures the whole queue, so the level it found
on one book carries over to the next.
"""
from __future__ import annotations

import threading

from app.pipeline.adaptive import InFlightLimit


class SharedPool:
    """The queue's one limit and what each running book still has to finish; thread-safe."""

    def __init__(self, limiter: InFlightLimit):
        self.limiter = limiter
        self._lock = threading.Lock()
        #: Chunks not yet finished per book, in queue order (a book leaves when its run ends).
        self._remaining: dict[int, int] = {}

    def share(self, order: int) -> "PoolShare":
        """Return the limit view of the book at position `order` in the queue."""
        return PoolShare(self, order)

    def set_remaining(self, order: int, chunks: int) -> None:
        """Record that the book at `order` has `chunks` chunks left to finish."""
        with self._lock:
            self._remaining[order] = max(0, chunks)

    def leave(self, order: int) -> None:
        """Forget a book whose run ended: its slots are free."""
        with self._lock:
            self._remaining.pop(order, None)

    def ahead_of(self, order: int) -> int:
        """Return the chunks left to the running books queued before `order`."""
        with self._lock:
            return sum(n for o, n in self._remaining.items() if o < order)

    def backlog(self) -> int:
        """Return the chunks left to every running book."""
        with self._lock:
            return sum(self._remaining.values())

    def has_room(self) -> bool:
        """Return whether everything the running books have left fits in the pool (the next may start)."""
        return self.backlog() < self.limiter.limit


class PoolShare:
    """One book's view of the pool: an InFlightLimit of the slots the books before it leave free."""

    def __init__(self, pool: SharedPool, order: int):
        self._pool = pool
        self._order = order

    @property
    def limit(self) -> int:
        return max(0, self._pool.limiter.limit - self._pool.ahead_of(self._order))

    def on_sent(self, in_flight: int) -> float:
        """Pass a request sent to the shared limiter, counting the earlier books' share as in flight."""
        return self._pool.limiter.on_sent(in_flight + self._pool.ahead_of(self._order))

    def on_done(self, latency: float, audio_seconds: float, in_flight: int,
                sent_at: float | None = None) -> None:
        """Pass a completion to the shared limiter."""
        self._pool.limiter.on_done(latency, audio_seconds, in_flight + self._pool.ahead_of(self._order),
                                   sent_at=sent_at)

    def on_error(self, count: int = 1) -> None:
        """Pass transient errors to the shared limiter: the server is overloaded for every book."""
        self._pool.limiter.on_error(count)


__all__ = ["SharedPool", "PoolShare"]

"""Send chunks to a backend: the one owner of retries, backpressure and stopping.

- A busy answer (503 "queue full", 429) is backpressure, not a failure: the chunk
  goes back in the queue after a short jittered pause without spending an attempt,
  and the in-flight limit is lowered (it grows again as answers flow).
- A transient failure (5xx, timeout, dropped connection, bad audio) spends one of
  MAX_ATTEMPTS, with exponential backoff and full jitter; a permanent one (a
  refusal) ends the run at once. A chunk not done CHUNK_DEADLINE after it was
  first sent ends the run too.
- Stopping (app/pipeline/stopping.py): on the first request nothing new is sent
  and the requests in flight finish and are kept; on the second they are cut.

Each request runs in a daemon thread, so a request stuck in a socket can never
hold the process at exit; the backend's abort() cuts its connection.
"""
from __future__ import annotations

import heapq
import itertools
import logging
import queue
import random
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from app.audio import wav as wavinfo
from app.backends.base import Backend
from app.core.errors import BackendError, Cancelled, ServerBusy, ServerError
from app.pipeline.adaptive import InFlightLimit
from app.pipeline.plan import PlannedChunk
from app.pipeline.problems import ProblemLog
from app.pipeline.stopping import STOP_TAIL_SECONDS, STOPPED, StopControl

log = logging.getLogger(__name__)

#: Attempts per chunk for transient failures (5xx, timeouts, bad audio); busy answers spend none.
MAX_ATTEMPTS = 4
#: Seconds a chunk may take from its first send, busy waits included, before the run gives up.
CHUNK_DEADLINE = 1800.0
#: Seconds a late request (past its expected duration) is still given when a drain is announced.
LATE_SECONDS = 0.5
#: Fewest characters a request is timed by (app/pipeline/scheduler.py `_chars`).
MIN_CHARS = 40
#: How often the scheduler looks for finished requests while it waits (seconds).
COLLECT_POLL_SECONDS = 0.01
#: Seconds the worker threads get to unwind (and delete their temp files) after a cut.
UNWIND_SECONDS = 1.0
#: Seconds a local voice gets to finish the chunk it is computing when the run ends: its native
#: code cannot be interrupted, and a process exiting under it aborts ("terminate called ...").
LOCAL_UNWIND_SECONDS = 120.0

#: Render one chunk at attempt n (1-based) and return its cached file; runs in a worker thread.
Render = Callable[[PlannedChunk, int], Path]
#: Called in the scheduler's thread for each chunk rendered: (chunk, cached file).
Finished = Callable[[PlannedChunk, Path], None]


@dataclass
class SideWork:
    """Work that runs beside the requests (hearing each take) and may send chunks again.

    `pending()` keeps the loop alive while it has work; `poll(requeue)` runs in the
    scheduler's thread every turn and calls `requeue(chunk)` for a chunk to render again
    (another take, first in line: its chapter waits for it).
    """

    pending: Callable[[], bool]
    poll: Callable[[Callable[[PlannedChunk], None]], None]


@dataclass
class _Job:
    pc: PlannedChunk
    attempts: int = 0
    first_sent: float | None = None


@dataclass
class _Flight:
    job: _Job
    thread: threading.Thread
    sent: float
    ticket: float


@dataclass(order=True)
class _Later:
    due: float
    seq: int
    job: _Job = field(compare=False)


def _chars(pc: PlannedChunk) -> int:
    """Return the characters a request is timed by: a spoken title of a few letters costs the server's
    fixed overhead, so it counts as MIN_CHARS (its rate would otherwise inflate every estimate)."""
    return max(MIN_CHARS, len(pc.text))


def drain_left(expected: float, elapsed: float) -> float:
    """Return the seconds a request in flight likely still needs: what is left of its expected duration
    (its text at the measured rate); a request already late gets a quarter of it again (at least LATE_SECONDS)."""
    return max(expected - elapsed, 0.25 * expected, LATE_SECONDS)


def backoff(attempt: int, rng: Callable[[], float] = random.random) -> float:
    """Return the pause before retry `attempt` (1-based): exponential, capped, fully jittered."""
    return rng() * min(8.0, 0.5 * 2 ** attempt)


def busy_pause(streak: int, rng: Callable[[], float] = random.random) -> float:
    """Return the pause before resending a chunk after `streak` busy answers in a row."""
    return (0.5 + rng()) * min(5.0, 0.1 * 2 ** min(streak, 8))


class Scheduler:
    """Runs chunks through `render` under an in-flight limit until all are done or the run stops."""

    def __init__(self, backend: Backend, limiter: InFlightLimit, stop: StopControl, render: Render,
                 problems: ProblemLog, *, clock: Callable[[], float] = time.monotonic,
                 tail: float = STOP_TAIL_SECONDS):
        self.backend = backend
        self.limiter = limiter
        self.stop = stop
        self.render = render
        self.problems = problems
        self._clock = clock
        self._done: queue.Queue = queue.Queue()
        self._flights: dict[int, _Flight] = {}
        self._later: list[_Later] = []
        self._seq = itertools.count()
        self._busy_streak = 0
        #: Measured seconds per character of text (for "about N s" when stopping); None until one finished.
        self._rate: float | None = None
        #: Seconds the run needs after its last request (encoders closed, takes heard, exit).
        self.tail = tail
        #: Requests sent, busy answers and attempts spent, for logs and tests.
        self.sent = self.busy = 0

    # -- the loop -------------------------------------------------------------------------
    def run(self, todo: Iterable[PlannedChunk], finished: Finished, *, side: SideWork | None = None) -> None:
        """Render every chunk of `todo`; call `finished` for each; raise on failure or stop."""
        ready = deque(_Job(pc) for pc in todo)
        pending = side.pending if side else (lambda: False)
        self.stop.draining_with(self._drain_info)
        self.stop.on_stop_now(self.backend.abort)
        try:
            while ready or self._later or self._flights or (pending() and not self.stop.cancel.is_set()):
                if self.stop.now.is_set():
                    raise Cancelled(STOPPED)
                self._promote(ready)
                notice = self.stop.take_notice()
                if notice:
                    self.problems.say(notice)
                if self.stop.cancel.is_set():
                    if not self._flights:
                        break
                else:
                    # A chunk waiting out a backoff keeps its slot: a failing or busy server
                    # sees fewer requests, not the next chunks in its place.
                    while ready and len(self._flights) + len(self._later) < self.limiter.limit:
                        self._send(ready.popleft())
                self._collect(ready, finished)
                if side is not None and not self.stop.cancel.is_set():
                    side.poll(lambda pc: ready.appendleft(_Job(pc)))
        except BaseException:
            self.stop.cancel.set()
            self._cut()
            raise
        finally:
            self.stop.draining_with(None)
            # A stop asked for in the loop's last turn (its last request was just ending) is still answered.
            notice = self.stop.take_notice()
            if notice:
                self.problems.say(notice)

    def _promote(self, ready: deque) -> None:
        now = self._clock()
        while self._later and self._later[0].due <= now:
            ready.appendleft(heapq.heappop(self._later).job)

    def _send(self, job: _Job) -> None:
        now = self._clock()
        job.first_sent = job.first_sent or now
        thread = threading.Thread(target=self._work, args=(job,), name="tts", daemon=True)
        ticket = self.limiter.on_sent(len(self._flights) + 1)
        self._flights[id(job)] = _Flight(job, thread, now, ticket)
        self.sent += 1
        thread.start()

    def _work(self, job: _Job) -> None:
        try:
            self._done.put((job, self.render(job.pc, job.attempts + 1), None))
        except BaseException as exc:  # noqa: BLE001 - handed to the scheduler's thread
            self._done.put((job, None, exc))

    def _collect(self, ready: deque, finished: Finished) -> None:
        wait = 0.2
        if self._later:
            wait = max(0.0, min(wait, self._later[0].due - self._clock()))
        # Polled with short sleeps, not a blocking get: on the CLI's main thread a stop-now raises
        # KeyboardInterrupt here, and one raised inside Condition.wait can leave the queue's lock
        # released twice ("release unlocked lock": exit 1 instead of 130).
        end = time.monotonic() + wait
        while True:
            try:
                item = self._done.get_nowait()
                break
            except queue.Empty:
                if time.monotonic() >= end:
                    return
                time.sleep(COLLECT_POLL_SECONDS)
        while True:
            self._handle(*item, finished=finished)
            try:
                item = self._done.get_nowait()
            except queue.Empty:
                return

    # -- one answer -----------------------------------------------------------------------
    def _handle(self, job: _Job, path: Path | None, exc: BaseException | None, *, finished: Finished) -> None:
        flight = self._flights.pop(id(job))
        now = self._clock()
        if exc is None:
            assert path is not None
            latency = now - flight.sent
            rate = latency / _chars(job.pc)
            # The slowest recent rate weighs most: an upper bound, not an average, is announced.
            self._rate = rate if self._rate is None else max(rate, 0.8 * self._rate + 0.2 * rate)
            self._busy_streak = 0
            self.limiter.on_done(latency, wavinfo.duration(path), len(self._flights) + 1, sent_at=flight.ticket)
            finished(job.pc, path)
            return
        if self.stop.cancel.is_set() and isinstance(exc, (BackendError, Cancelled)):
            return  # stopping: what failed now is simply not retried; the re-run renders it
        if not isinstance(exc, BackendError):
            raise exc
        where = f"Chapter {job.pc.chunk.chapter_index}, chunk {job.pc.chunk.index + 1}"
        if now - (job.first_sent or now) > CHUNK_DEADLINE:
            exc.message = f"{where} was not done {CHUNK_DEADLINE / 60:.0f} minutes after it was first sent ({exc.message})"
            raise exc
        if isinstance(exc, ServerBusy):
            self.busy += 1
            self._busy_streak += 1
            self.limiter.on_error(1)
            self.problems.note(exc, "chunks wait their turn, no attempt spent")
            self._later_push(job, now + busy_pause(self._busy_streak))
            return
        if not exc.transient:
            exc.message = f"{where}: {exc.message}"  # which chapter fails, for an error no retry mends
            raise exc
        job.attempts += 1
        if job.attempts >= MAX_ATTEMPTS:
            exc.message = f"{where}: {exc.message} (after {job.attempts} attempts)"
            raise exc
        if isinstance(exc, ServerError):
            self.limiter.on_error(1)
        self.problems.note(exc, f"retrying, at most {MAX_ATTEMPTS} attempts per chunk")
        log.info("retrying chunk %s after %s: %s", job.pc.key[:8], type(exc).__name__, exc.message)
        self._later_push(job, now + backoff(job.attempts))

    def _later_push(self, job: _Job, due: float) -> None:
        heapq.heappush(self._later, _Later(due, next(self._seq), job))

    # -- stopping -------------------------------------------------------------------------
    def _drain_info(self) -> tuple[int, float | None]:
        flights = list(self._flights.values())
        if not flights or self._rate is None:
            return len(flights), None
        now = self._clock()
        return len(flights), max(drain_left(self._rate * _chars(f.job.pc), now - f.sent) for f in flights) + self.tail

    def _cut(self) -> None:
        """Cut the requests in flight and give their threads a moment to delete their temp files."""
        if not self._flights:
            return
        try:
            self.backend.abort()
        except Exception:  # noqa: BLE001 - the run is already ending with a better error
            log.debug("abort failed", exc_info=True)
        unwind = UNWIND_SECONDS if self.backend.cuts_in_flight else LOCAL_UNWIND_SECONDS
        deadline = time.monotonic() + unwind
        for flight in list(self._flights.values()):
            flight.thread.join(max(0.0, deadline - time.monotonic()))


__all__ = ["Scheduler", "SideWork", "MAX_ATTEMPTS", "CHUNK_DEADLINE", "backoff", "busy_pause"]

"""Convert a queue of books through one backend, keeping the server busy across book boundaries.

    audiobook.py a.epub b.epub c.txt --output DIR/      (or a folder of books)

Each book is converted exactly as a single-book run converts it (its own plan,
cache keys, run lock, work folder and outputs), so each resumes on its own. What
the queue adds:

- one backend for every book: one managed server boot (or one set of --api-url
  endpoints) and one in-flight limit (app/pipeline/pool.py), so the level the
  adaptive limit found on one book carries over to the next;
- the next book is read and planned while the current one synthesizes, and it
  starts sending as soon as everything left of the books before it is in flight:
  no drain at a book boundary; the earlier book's chapter encodes and mux overlap
  the next book's synthesis;
- a book that fails (unreadable, refused output, a chunk that never renders) gets
  its one line and the queue goes on; a stop request stops the queue: books done
  are kept, the running ones drain as a single run does, the rest are not started;
- one result per book, for the summary; the exit status is the worst of them.
"""
from __future__ import annotations

import concurrent.futures as cf
import logging
import threading
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

from app.core import settings as settings_mod
from app.book import SUPPORTED_SUFFIXES
from app.request import ConvertRequest, build_backend
from app.convert import Prepared, prepare, run_prepared
from app.core.errors import AudiobookError, Cancelled, InputError, UnverifiedChunks, environment_error
from app.pipeline import adaptive
from app.pipeline import events as ev
from app.pipeline.pool import SharedPool
from app.pipeline.stopping import StopControl
from app.core.redact import redact

log = logging.getLogger(__name__)

#: Seconds the queue's waits sleep between looks at the stop request.
POLL_SECONDS = 0.2

#: The order in which one book's outcome outranks another's for the queue's exit status.
#: A bug outranks the user's own mistakes; a stop outranks everything (the user asked for it).
SEVERITY = (0, 2, 5, 3, 4, 1, 130)


def find_books(arguments: list[Path]) -> list[Path]:
    """Return the books named: files as given, folders as their books (sorted, not recursive)."""
    books: list[Path] = []
    for arg in arguments:
        path = arg.expanduser()
        if path.is_dir():
            found = sorted(p for p in path.iterdir()
                           if p.is_file() and not p.name.startswith(".") and p.suffix.lower() in SUPPORTED_SUFFIXES)
            if not found:
                names = ", ".join(sorted(set(SUPPORTED_SUFFIXES)))
                raise InputError(f"The folder {path} holds no book ({names})",
                                 hint="Name the books, or a folder that holds them")
            books.extend(found)
        else:
            books.append(path)  # a missing file gets its own line when its turn comes
    return books


@dataclass
class BookResult:
    """How one book of the queue ended."""

    book: Path
    #: "done", "failed", "stopped" or "not started".
    status: str = "not started"
    output: Path | None = None
    audio_seconds: float = 0.0
    #: The book's one line when it did not finish cleanly (what is wrong, what to do).
    problem: str | None = None
    exit_code: int = 0


def worst_exit(results: list[BookResult]) -> int:
    """Return the queue's exit status: the most severe of its books' (SEVERITY)."""
    codes = [r.exit_code for r in results] or [0]
    return max(codes, key=lambda c: SEVERITY.index(c) if c in SEVERITY else len(SEVERITY))


class QueueStop(StopControl):
    """The queue's stop requests, passed on to the running books' own StopControls.

    The first request stops the queue (no new book starts) and lets every running
    book drain as a single run does; the second cuts what is in flight.
    """

    def __init__(self) -> None:
        super().__init__()
        self._books: list[StopControl] = []

    def for_book(self) -> StopControl:
        """Return a StopControl for a book about to run, already stopped if the queue is."""
        child = StopControl()
        with self._lock:
            self._books.append(child)
            if self.cancel.is_set():
                child.cancel.set()
        return child

    def release(self, child: StopControl) -> None:
        """Forget a book whose run ended."""
        with self._lock:
            if child in self._books:
                self._books.remove(child)

    def request(self) -> str:
        """Stop the queue: the first request drains the running books, the second cuts them."""
        with self._lock:
            first = not self.cancel.is_set()
            self.cancel.set()
            books = list(self._books)
        if first:
            # Only a book with requests in flight hears the request itself (it says what will
            # finish); the others just stop: telling them "now" would abort the shared
            # backend's requests under a book that is draining.
            draining = [b for b in books if b.draining]
            for b in books:
                if b not in draining:
                    b.cancel.set()
            lines = [b.request() for b in draining]
            if draining:
                return lines[0]
        else:
            for b in books:
                b.request()
        self.now.set()
        return "Stopping now: requests in flight are abandoned; finished chunks are kept"


class HeldBackend:
    """The queue's backend, started by the first book that needs it and stopped by the queue.

    Every book's run enters its backend; entering this one starts the real backend
    once (a queue of finished books boots no server), and leaving it does nothing,
    so one book's end never stops the server under the next.
    """

    def __init__(self, inner):
        self._inner = inner
        self._lock = threading.Lock()
        self._started = False
        #: Why the backend could not start: later books get the same line at once, not another boot.
        self._failure: AudiobookError | None = None

    def __getattr__(self, name):
        return getattr(self._inner, name)

    def __enter__(self):
        with self._lock:
            if self._failure is not None:
                raise self._failure
            if not self._started:
                try:
                    self._inner.start()
                except AudiobookError as exc:
                    self._failure = exc
                    raise
                self._started = True
        return self

    def __exit__(self, *exc: object) -> None:
        """Keep the backend running for the books after this one."""

    def close(self) -> None:
        """Stop the backend if a book started it."""
        with self._lock:
            if self._started:
                self._started = False
                self._inner.stop()


#: Make the progress listener of book `i` (0-based) of `n`; the queue calls close() on it when the book ends.
ListenerFor = Callable[[int, int, Path], ev.Listener]


@dataclass
class _Running:
    result: BookResult
    thread: threading.Thread
    stop: StopControl
    listener: ev.Listener
    done: threading.Event = field(default_factory=threading.Event)


class BookQueue:
    """Convert `requests` in order through one backend; call run() once."""

    def __init__(self, requests: list[ConvertRequest], *, listener_for: ListenerFor, stop: QueueStop,
                 conf: settings_mod.Settings | None = None):
        self.requests = requests
        self.listener_for = listener_for
        self.stop = stop
        self.conf = conf or settings_mod.load()
        self.results = [BookResult(req.book) for req in requests]
        self._outputs: dict[Path, Path] = {}
        self._running: list[_Running] = []
        self._lock = threading.Lock()
        self._displays: dict[int, ev.Listener] = {}

    def run(self) -> list[BookResult]:
        """Convert every book; return one result per book (the queue never raises for one book)."""
        # Options shared by every book (bad ones end the queue with their one line, before any work).
        backend = self._backend = HeldBackend(build_backend(self.requests[0], self.conf))
        self.pool = SharedPool(adaptive.limit_for(backend))
        planner = cf.ThreadPoolExecutor(max_workers=1, thread_name_prefix="plan")
        try:
            upcoming = planner.submit(self._prepare, 0, backend)
            for i, result in enumerate(self.results):
                if self.stop.stopping:
                    break
                prepared = self._wait_plan(upcoming, result)
                # Read and plan the next book while this one synthesizes.
                upcoming = planner.submit(self._prepare, i + 1, backend) if i + 1 < len(self.results) else None
                if prepared is None:
                    continue
                self._start(i, prepared, backend)
                self._wait_for_room()
            self._wait_all()
        except KeyboardInterrupt:  # the second stop request: the running books are being cut
            self._wait_all()
        finally:
            planner.shutdown(wait=False, cancel_futures=True)
            backend.close()
        if self.stop.stopping:  # a stopped queue ends as a stopped run does, whatever was left
            for result in self.results:
                if result.status in ("running", "not started"):
                    result.status = "stopped" if result.status == "running" else "not started"
                    result.exit_code = Cancelled.exit_code
        return self.results

    # -- one book ---------------------------------------------------------------------------
    def _display(self, i: int) -> ev.Listener:
        """Return book `i`'s progress listener, made once (planning warns through it, the run reports)."""
        with self._lock:
            if i not in self._displays:
                self._displays[i] = self.listener_for(i, len(self.results), self.results[i].book)
            return self._displays[i]

    def _prepare(self, i: int, backend: HeldBackend) -> Prepared:
        req = self.requests[i]
        # An over-long --chunk-size is set to the model's window, as an unattended single run does.
        return prepare(req, self.conf, lambda options: backend, listener=self._display(i))

    def _wait_plan(self, upcoming: cf.Future, result: BookResult) -> Prepared | None:
        """Return the book's plan, or None (its result says why) when it cannot be converted."""
        # Sleep, not a blocking wait: a stop-now raises KeyboardInterrupt in this thread, and one
        # raised inside Condition.wait (futures, events) can leave its lock released twice.
        while not upcoming.done():
            if self.stop.stopping:
                return None
            time.sleep(POLL_SECONDS)
        try:
            prepared = upcoming.result()
        except Exception as exc:  # noqa: BLE001 - one book's failure is that book's line
            self._failed(result, exc)
            return None
        output = prepared.plan.output.resolve()
        if output in self._outputs:
            prepared = self._renamed(result, prepared)
            if prepared is None:
                return None
            output = prepared.plan.output.resolve()
        self._outputs[output] = result.book
        return prepared

    def _renamed(self, result: BookResult, prepared: Prepared) -> Prepared | None:
        """Plan again a book whose title names an output an earlier book of the queue writes.

        Two books with one title (two editions, two files of a series without metadata)
        both belong in the folder: the later one is named after its file as well,
        "Title (file).m4b". A folder output (MP3) has no suffix to keep, so it gets a line.
        """
        taken = prepared.plan.output
        renamed = taken.with_name(f"{taken.stem} ({result.book.stem}){taken.suffix}")
        if not taken.suffix or renamed.resolve() in self._outputs:
            self._failed(result, InputError(
                f"{result.book} would write {taken}, as {self._outputs[taken.resolve()]} does",
                hint="Convert one of them on its own with --output NAME"))
            return None
        i = self.results.index(result)
        try:
            prepared = prepare(replace(self.requests[i], output=renamed), self.conf, lambda options: self._backend)
        except Exception as exc:  # noqa: BLE001 - one book's failure is that book's line
            self._failed(result, exc)
            return None
        self._display(i)(ev.Message(f"{self._outputs[taken.resolve()].name} has the same title: "
                                    f"this book is written to {prepared.plan.output}"))
        return prepared

    def _start(self, i: int, prepared: Prepared, backend: HeldBackend) -> None:
        result = self.results[i]
        log.debug("book %d starts: %d chunks left before it, limit %d", i + 1, self.pool.backlog(),
                  self.pool.limiter.limit)
        result.status = "running"
        result.output = prepared.plan.output
        total = len(prepared.plan.chunks)
        self.pool.set_remaining(i, total)
        done = [0]
        display = self._display(i)

        def listener(event: ev.Event) -> None:
            if isinstance(event, ev.ChunkDone):
                done[0] += 1
                self.pool.set_remaining(i, total - done[0])
            elif isinstance(event, ev.RunFinished):
                result.audio_seconds = event.audio_seconds
            display(event)

        stop = self.stop.for_book()
        running = _Running(result, None, stop, display)  # type: ignore[arg-type]
        running.thread = threading.Thread(target=self._convert, args=(i, prepared, backend, listener, running),
                                          name=f"book-{i + 1}", daemon=True)
        self._running.append(running)
        running.thread.start()

    def _convert(self, i: int, prepared: Prepared, backend, listener, running: _Running) -> None:
        result = running.result
        try:
            result.output = run_prepared(prepared, backend, self.requests[i], self.conf, listener=listener,
                                         stop=running.stop, limit=self.pool.share(i))
            result.status = "done"
        except BaseException as exc:  # noqa: BLE001 - one book's failure is that book's line
            self._failed(result, exc)
        finally:
            self.pool.leave(i)
            self.stop.release(running.stop)
            close = getattr(running.listener, "close", None)
            if close is not None:
                close()
            running.done.set()

    def _failed(self, result: BookResult, exc: BaseException) -> None:
        if isinstance(exc, OSError):
            exc = environment_error(exc) or exc
        if isinstance(exc, Cancelled) or isinstance(exc, KeyboardInterrupt):
            result.status, result.exit_code = "stopped", Cancelled.exit_code
            result.problem = None
            return
        result.status = "failed"
        if isinstance(exc, AudiobookError):
            result.problem, result.exit_code = redact(exc.one_line()), exc.exit_code
            if isinstance(exc, UnverifiedChunks):
                result.status = "done"  # written, with the chunks verification still hears wrong
        else:
            log.debug("book %s failed", result.book, exc_info=exc)
            result.problem = redact(f"unexpected {type(exc).__name__}: {exc}. This is a bug; run this book "
                                    f"alone with AUDIOBOOK_DEBUG=1 and report the traceback.")
            result.exit_code = 1

    # -- waiting ----------------------------------------------------------------------------
    def _wait_for_room(self) -> None:
        """Return once the running books' remaining chunks fit in the pool (or the queue stops)."""
        while not self.stop.stopping and not self.pool.has_room():
            time.sleep(POLL_SECONDS)

    def _wait_all(self) -> None:
        """Wait for the running books; a cut book ends within its scheduler's unwind time."""
        for running in self._running:
            while not running.done.is_set():
                time.sleep(POLL_SECONDS)


def convert_many(requests: list[ConvertRequest], *, listener_for: ListenerFor, stop: QueueStop,
                 conf: settings_mod.Settings | None = None) -> list[BookResult]:
    """Convert `requests` as one queue; return one result per book."""
    return BookQueue(requests, listener_for=listener_for, stop=stop, conf=conf).run()


__all__ = ["BookQueue", "BookResult", "QueueStop", "HeldBackend", "convert_many", "find_books", "worst_exit"]

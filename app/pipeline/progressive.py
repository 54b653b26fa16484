"""Encode each chapter while its chunks arrive (issue 16, P3: no encoding backlog after the last chunk).

A chunk is appended to its chapter as soon as it and every chunk before it in
that chapter are final (synthesized, checked and, when verification is on,
heard); the chapter's PCM goes straight into its encoders' stdin
(app/audio/stream.py). When the last chunk of a chapter arrives, only what
is in the pipe is left to encode, so the work after the book's last chunk is
the rest of one chapter and the mux, at any server speed.

The appending runs on the encoder pool, never on the thread that collects
chunks from the backend; one pool task at a time per chapter (so chunks go in
in order) and at most MAX_OPEN_CHAPTERS encoders at once (a resumed book can
have a cached head in every chapter; each open encoder is an ffmpeg waiting on
its pipe). The lowest-numbered chapter waiting gets the next free slot, the
order the scheduler renders chunks in.

Stopping: a stopped or failed run aborts every chapter still open (its ffmpeg
killed, its temp files removed); chapters finished before stay, so a re-run
resumes from them and from the cached chunks.
"""
from __future__ import annotations

import concurrent.futures as cf
import logging
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Protocol

from app.core import failpoints
from app.audio import master as mastering
from app.audio.export import BookMeta
from app.audio.stream import FanOut, StreamEncoder
from app.core.errors import Cancelled
from app.pipeline.chapter_files import ChapterRecord, write_sidecar
from app.pipeline.pauses import pause_seconds
from app.pipeline.plan import PlannedChapter, PlannedChunk
from app.pipeline.stopping import STOPPED

log = logging.getLogger(__name__)

#: Chapters encoding at once; a fresh run in book order has one or two (the requests in flight
#: span at most two chapters of any length worth encoding early).
MAX_OPEN_CHAPTERS = 3


class Session(Protocol):
    def append(self, position: int) -> None: ...
    def finish(self) -> ChapterRecord: ...
    def abort(self) -> None: ...


@dataclass(eq=False)
class _Feed:
    index: int
    total: int
    future: cf.Future = field(default_factory=cf.Future)
    final: set[int] = field(default_factory=set)
    fed: int = 0
    feeding: bool = False
    slot: bool = False
    done: bool = False
    session: Session | None = None


class ChapterFeeds:
    """Hand each chapter's final chunks, in order, to a session that encodes it; one future per chapter."""

    def __init__(self, pool: cf.Executor, open_chapter: Callable[[int], Session], cancel: threading.Event,
                 max_open: int = MAX_OPEN_CHAPTERS):
        self._pool = pool
        self._open = open_chapter
        self._cancel = cancel
        self._max_open = max_open
        self._lock = threading.Lock()
        self._feeds: dict[int, _Feed] = {}
        self._waiting: set[int] = set()
        self._open_count = 0

    def track(self, index: int, chunks: int) -> cf.Future:
        """Start tracking chapter `index` of `chunks` chunks; return the future of its ChapterRecord."""
        feed = self._feeds[index] = _Feed(index, chunks)
        return feed.future

    def chunk_final(self, index: int, position: int) -> None:
        """Chunk `position` of chapter `index` is final: append it (and any final ones after it) soon."""
        with self._lock:
            feed = self._feeds[index]
            feed.final.add(position)
            go = self._claim(feed)
        if go:
            self._pool.submit(self._drain, feed)

    def close(self) -> None:
        """Abort every chapter still open and fail its future (call after the pool has stopped)."""
        for feed in self._feeds.values():
            if feed.done:
                continue
            feed.done = True
            if feed.session is not None:
                feed.session.abort()
                feed.session = None
            if not feed.future.done():
                feed.future.set_exception(Cancelled(STOPPED))

    # -- on the pool --------------------------------------------------------------

    def _claim(self, feed: _Feed) -> bool:
        """Under the lock: return True if the caller must start a drain of `feed`."""
        if feed.done or feed.feeding or feed.fed not in feed.final:
            return False
        if not feed.slot:
            if self._open_count >= self._max_open:
                self._waiting.add(feed.index)
                return False
            self._open_count += 1
            feed.slot = True
        feed.feeding = True
        return True

    def _drain(self, feed: _Feed) -> None:
        try:
            if feed.session is None:
                feed.session = self._open(feed.index)
            while True:
                with self._lock:
                    if feed.fed not in feed.final:
                        feed.feeding = False
                        return
                    position = feed.fed
                if self._cancel.is_set():
                    raise Cancelled(STOPPED)
                feed.session.append(position)
                with self._lock:
                    feed.final.discard(position)
                    feed.fed += 1
                if feed.fed == feed.total:
                    record = feed.session.finish()
                    feed.session = None
                    self._release(feed)
                    feed.future.set_result(record)
                    return
        except BaseException as exc:  # noqa: BLE001 - handed to the chapter's future, raised where it is awaited
            if feed.session is not None:
                feed.session.abort()
                feed.session = None
            self._release(feed)
            if not feed.future.done():
                feed.future.set_exception(exc)

    def _release(self, feed: _Feed) -> None:
        """The chapter is finished or failed: free its slot for the lowest-numbered chapter waiting."""
        starts = []
        with self._lock:
            feed.done, feed.feeding = True, False
            if feed.slot:
                feed.slot = False
                self._open_count -= 1
            for index in sorted(self._waiting):
                if self._open_count >= self._max_open:
                    break
                self._waiting.discard(index)
                if self._claim(self._feeds[index]):
                    starts.append(self._feeds[index])
        for waiting in starts:
            self._pool.submit(self._drain, waiting)


class ChapterEncode:
    """One chapter stitched from its chunks straight into its encoders (a Session)."""

    def __init__(self, planned: PlannedChapter, targets: dict[str, Path], files: dict[str, Path],
                 chunk_path: Callable[[PlannedChunk], Path], *,
                 meta: BookMeta, ffmpeg: str, total_chapters: int, master: mastering.Target | None,
                 cancel: threading.Event, audio_seconds: Callable[[], float],
                 done: Callable[[ChapterRecord], None]):
        self.planned = planned
        #: The encodes this chapter still needs, and every encoded file of it (for the record).
        self.targets, self.files = targets, files
        self._chunk_path = chunk_path
        self._cancel = cancel
        self._audio_seconds = audio_seconds
        self._done = done
        self._master = master
        self._encode = dict(meta=meta, ffmpeg=ffmpeg, total=total_chapters)
        self._assembler = self._open()
        self._placements = []

    def _open(self, fix: mastering.Correction = mastering.Correction()):
        """Return an assembler stitching into a fresh encoder per target, mastered with `fix` (a second encode)."""
        # Imported here: the assembler needs numpy, and a cached re-run opens no chapter (issue 16 P4).
        from app.audio.assemble import ChapterAssembler

        chapter, master, e = self.planned.chapter, self._master, self._encode
        mastered = mastering.chapter_filter(master, fix) if master else None
        encoders = [StreamEncoder(target, fmt=kind, meta=e["meta"], title=chapter.title, track=chapter.index,
                                  total=e["total"], ffmpeg=e["ffmpeg"], audio_filter=mastered)
                    for kind, target in self.targets.items()]
        return ChapterAssembler(loudness=master.lufs if master else None, sink=FanOut(encoders))

    def append(self, position: int) -> None:
        pc = self.planned.chunks[position]
        self._placements.append(self._assembler.append(self._chunk_path(pc), pause_seconds(pc.chunk.pause_after)))
        failpoints.pause_at("stitch", self._cancel)

    def finish(self) -> ChapterRecord:
        """Finish the encodes, write each one's sidecar and return the chapter's record."""
        failpoints.pause_at("encode", self._cancel)
        if self._cancel.is_set():  # stopped with the last chunk in: the re-run encodes it from the cache
            raise Cancelled(STOPPED)
        loudness = self._measured(self._assembler.finish())
        fix = mastering.correction(loudness, self._master) if self._master else mastering.Correction()
        if fix:
            # The limiter took more than the tolerance off this voice's loudness, or let a peak too close
            # to the ceiling: encode the chapter once more from its cached chunks, corrected (the same
            # stitch, so the same placements).
            log.debug("Chapter %d measured %s; encoding it again with %s", self.planned.chapter.index, loudness, fix)
            self._assembler = self._open(fix)
            for pc in self.planned.chunks:
                if self._cancel.is_set():
                    raise Cancelled(STOPPED)
                self._assembler.append(self._chunk_path(pc), pause_seconds(pc.chunk.pause_after))
            loudness = self._measured(self._assembler.finish())
        record = ChapterRecord(self.planned.chapter.title, self._audio_seconds(), self._assembler.sample_rate,
                               self._placements, dict(self.files))
        record.loudness = loudness.as_dict() if loudness is not None else None
        for target in self.targets.values():
            write_sidecar(target, record)
        self._done(record)
        return record

    @staticmethod
    def _measured(printed: dict[Path, str]) -> mastering.ChapterLoudness | None:
        """Return the loudness the first encode's meter printed (every encode of a chapter meters the same PCM)."""
        for text in printed.values():
            stats = mastering.parse_stats(text)
            if stats is not None:
                return stats
        return None

    def abort(self) -> None:
        self._assembler.abort()

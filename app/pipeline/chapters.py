"""Chapters of one run: count each chapter's finished chunks and encode it while they arrive, on a pool.

Each final chunk goes into its chapter's encoder in order (app/pipeline/progressive.py),
beside the synthesis of the next ones; an encoded chapter is kept in the book's work folder under a key of
its chunks and settings, so a re-run finds it and renders nothing of it again.
"""
from __future__ import annotations

import concurrent.futures as cf
import os
import time
from dataclasses import dataclass
from pathlib import Path

from app.audio import master as mastering
from app.audio import wav as wavinfo
from app.core.errors import Cancelled, OutputError
from app.output.formats import READ_ALONG
from app.pipeline import events as ev
from app.pipeline.chapter_files import ChapterRecord, read_sidecar
from app.pipeline.context import RunContext
from app.pipeline.plan import PlannedChapter, PlannedChunk
from app.pipeline.progressive import ChapterEncode, ChapterFeeds
from app.pipeline.stopping import STOPPED

#: Chapter encodes at once: one AAC encode keeps up with ~50x realtime here, and a saturated
#: GPU server can outrun it, leaving a backlog after the last chunk.
ENCODERS = 2
#: How often a wait for the last encodes looks at the stop flag (seconds).
RESULT_POLL_SECONDS = 0.1


def encode_kinds(formats: tuple[str, ...]) -> tuple[str, ...]:
    """Return the encodes each chapter needs: AAC ("m4b") for the M4B and every read-along output
    (their timeline is the M4B's), MP3 for the MP3 folder."""
    wants_aac = bool(({"m4b"} | READ_ALONG) & set(formats))
    return tuple(kind for kind, on in (("m4b", wants_aac), ("mp3", "mp3" in formats)) if on)


@dataclass
class _Tally:
    planned: PlannedChapter
    remaining: int
    audio_seconds: float = 0.0


class ChapterWork:
    """Count finished chunks per chapter and encode each chapter once all of its chunks are in."""

    def __init__(self, ctx: RunContext):
        self.ctx = ctx
        self.kinds = encode_kinds(ctx.plan.formats)
        self._tally = {pc.chapter.index: _Tally(pc, len(pc.chunks)) for pc in ctx.plan.chapters}
        self._encoder = cf.ThreadPoolExecutor(max_workers=min(ENCODERS, os.cpu_count() or 1),
                                              thread_name_prefix="encode")
        self._encoded: dict[int, cf.Future[ChapterRecord]] = {}
        self._feeds = ChapterFeeds(self._encoder, self._open_chapter, ctx.cancel)
        self._position = {id(pc): n for t in self._tally.values() for n, pc in enumerate(t.planned.chunks)}

    # -- before synthesis: chapters already encoded ------------------------------

    def already_encoded(self) -> dict[int, float]:
        """Return the audio seconds of each chapter whose encoded files all exist (none with --no-cache)."""
        if self.ctx.no_cache:
            return {}
        done = {}
        for index, tally in self._tally.items():
            record = self._finished_record(tally.planned)
            if record is None:
                continue
            if record.loudness:
                self.ctx.report.add_loudness(tally.planned.chapter,
                                             mastering.ChapterLoudness.from_dict(record.loudness))
            done[index] = record.audio_seconds
        return done

    def take_encoded(self, index: int, seconds: float) -> None:
        """Count an already-encoded chapter's chunks as done and hand its files to the outputs."""
        tally = self._tally[index]
        tally.remaining, tally.audio_seconds = 0, seconds
        for _ in tally.planned.chunks:
            self.ctx.emit(ev.ChunkDone(index, seconds / len(tally.planned.chunks), True))
        self._encoded[index] = self._encoder.submit(self._encode, tally)

    # -- during synthesis ------------------------------------------------------------

    def chunk_finished(self, pc: PlannedChunk, path: Path, cached: bool) -> None:
        """Count one final chunk and hand it to its chapter's encoder (in order, on the pool)."""
        seconds = wavinfo.duration(path)
        index = pc.chunk.chapter_index
        tally = self._tally[index]
        tally.remaining -= 1
        tally.audio_seconds += seconds
        self.ctx.emit(ev.ChunkDone(index, seconds, cached))
        if index not in self._encoded:
            self._encoded[index] = self._feeds.track(index, len(tally.planned.chunks))
        self._feeds.chunk_final(index, self._position[id(pc)])

    # -- after synthesis ---------------------------------------------------------------

    def results(self) -> dict[int, ChapterRecord]:
        """Wait for every chapter's encode and return their records in chapter order.

        Called once every chunk is final. A stop meanwhile (the hub's Cancel during the last
        encodes) ends the wait at once: close() then aborts what is still encoding.
        """
        pending = list(self._encoded.values())
        while pending:
            if self.ctx.cancel.is_set():
                raise Cancelled(STOPPED)
            for future in [f for f in pending if f.done()]:
                future.result()  # the first failure ends the run with its own error
                pending.remove(future)
            if pending:
                # A sleep, not a wait on the futures: on the CLI's main thread a stop-now raises
                # KeyboardInterrupt here, and one raised inside Condition.wait can leave its lock
                # released twice (app/batch.py polls the same way).
                time.sleep(RESULT_POLL_SECONDS)
        return {i: self._encoded[i].result() for i in sorted(self._encoded)}

    def audio_seconds(self) -> float:
        return sum(t.audio_seconds for t in self._tally.values())

    def close(self) -> None:
        """Wait for running encodes and drop queued ones; abort chapters still open (a stopped run)."""
        try:
            self._encoder.shutdown(wait=True, cancel_futures=True)
        finally:  # even when a second Ctrl-C cuts the wait short
            self._feeds.close()  # no partial chapter stays, no encoder keeps running

    # -- encoded files -------------------------------------------------------------------

    def _chapter_file(self, planned: PlannedChapter, kind: str) -> Path:
        ctx = self.ctx
        ext = "aac" if kind == "m4b" else "mp3"
        # An MP3 chapter carries the book's tags: other tags, another file.
        extra = ctx.meta.fingerprint() if kind == "mp3" else ""
        # Another verification or mastering setting may change the chapter's audio.
        extra += f"|{ctx.master.key() if ctx.master else 'unmastered'}"
        extra += f"|{ctx.verify.fingerprint()}" if ctx.verify else ""
        return ctx.work_dir / "chapters" / f"{planned.artifact_key(kind, extra)}.{ext}"

    def _finished_record(self, planned: PlannedChapter) -> ChapterRecord | None:
        """Return the chapter's record if every encode this run needs exists, else None."""
        records = [read_sidecar(self._chapter_file(planned, kind), planned.chapter.title) for kind in self.kinds]
        if not records or any(r is None for r in records):
            return None
        record = records[0]
        record.files = {kind: self._chapter_file(planned, kind) for kind in self.kinds}
        return record

    def _encode(self, tally: _Tally) -> ChapterRecord:
        """Return an already-encoded chapter's record (on the pool, in order with the others)."""
        chapter = tally.planned.chapter
        record = self._finished_record(tally.planned)
        if record is None:  # its files went missing since the check: the re-run encodes it
            raise OutputError(f"The encoded files of chapter {chapter.index} went missing during the run",
                              hint="Run the same command again: the chapter is encoded anew from its cached chunks")
        self.ctx.emit(ev.ChapterDone(chapter.index, chapter.title, tally.audio_seconds))
        return record

    def _open_chapter(self, index: int) -> ChapterEncode:
        """Start encoding chapter `index` (its first chunk is final); runs on the encoder pool."""
        ctx, tally = self.ctx, self._tally[index]
        planned, chapter = tally.planned, tally.planned.chapter
        files = {kind: self._chapter_file(planned, kind) for kind in self.kinds}
        # An encode already done (the other format is new) is not done again.
        targets = {kind: f for kind, f in files.items() if ctx.no_cache or read_sidecar(f, chapter.title) is None}

        def done(record: ChapterRecord) -> None:
            if record.loudness:
                ctx.report.add_loudness(chapter, mastering.ChapterLoudness.from_dict(record.loudness))
            ctx.emit(ev.ChapterDone(chapter.index, chapter.title, tally.audio_seconds))

        return ChapterEncode(planned, targets, files, lambda pc: ctx.cache.path_for(pc.key), meta=ctx.meta,
                             ffmpeg=ctx.ffmpeg, total_chapters=len(ctx.plan.book.chapters), master=ctx.master,
                             cancel=ctx.cancel, audio_seconds=lambda: tally.audio_seconds, done=done)


__all__ = ["ChapterWork", "ENCODERS", "encode_kinds"]

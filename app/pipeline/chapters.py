"""Chapters of one run: count each chapter's finished chunks, then stitch and encode it on a pool.

A chapter is encoded as soon as its last chunk is final, beside the synthesis of
the next ones; an encoded chapter is kept in the book's work folder under a key of
its chunks and settings, so a re-run finds it and renders nothing of it again.
"""
from __future__ import annotations

import concurrent.futures as cf
import os
from dataclasses import dataclass
from pathlib import Path

from app import paths, testhooks
from app.audio import master as mastering
from app.audio import wav as wavinfo
from app.audio.export import encode_chapter
from app.errors import Cancelled
from app.output.formats import READ_ALONG
from app.pipeline import events as ev
from app.pipeline.chapter_files import ChapterRecord, read_sidecar, write_sidecar
from app.pipeline.context import RunContext
from app.pipeline.pauses import pause_seconds
from app.pipeline.plan import PlannedChapter, PlannedChunk
from app.pipeline.stopping import STOPPED

#: Chapter encodes at once: one AAC encode keeps up with ~50x realtime here, and a saturated
#: GPU server can outrun it, leaving a backlog after the last chunk.
ENCODERS = 2


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
        """Count one final chunk; start encoding its chapter when it was the last one."""
        seconds = wavinfo.duration(path)
        tally = self._tally[pc.chunk.chapter_index]
        tally.remaining -= 1
        tally.audio_seconds += seconds
        self.ctx.emit(ev.ChunkDone(pc.chunk.chapter_index, seconds, cached))
        if tally.remaining == 0:
            self._encoded[pc.chunk.chapter_index] = self._encoder.submit(self._encode, tally)

    # -- after synthesis ---------------------------------------------------------------

    def results(self) -> dict[int, ChapterRecord]:
        """Wait for every chapter's encode and return their records in chapter order."""
        return {i: self._encoded[i].result() for i in sorted(self._encoded)}

    def audio_seconds(self) -> float:
        return sum(t.audio_seconds for t in self._tally.values())

    def close(self) -> None:
        """Wait for running encodes and drop queued ones (a stopped run)."""
        self._encoder.shutdown(wait=True, cancel_futures=True)

    # -- encoded files -------------------------------------------------------------------

    def _chapter_file(self, planned: PlannedChapter, kind: str) -> Path:
        ctx = self.ctx
        ext = "aac" if kind == "m4b" else "mp3"
        extra = f"{ctx.meta.title}|{ctx.meta.author}" if kind == "mp3" else ""
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
        """Stitch a finished chapter from cached chunks and encode it (on the encoder pool)."""
        chapter = tally.planned.chapter
        record = None if self.ctx.no_cache else self._finished_record(tally.planned)
        if record is None:
            record = self._stitch_and_encode(tally)
        self.ctx.emit(ev.ChapterDone(chapter.index, chapter.title, tally.audio_seconds))
        return record

    def _stitch_and_encode(self, tally: _Tally) -> ChapterRecord:
        ctx, planned = self.ctx, tally.planned
        targets = {kind: self._chapter_file(planned, kind) for kind in self.kinds}
        first = targets[self.kinds[0]]
        paths.ensure(first.parent)
        wav = first.with_suffix(".wav")
        try:
            placements, rate = self._stitch(planned, wav)
            record = ChapterRecord(planned.chapter.title, tally.audio_seconds, rate, placements, targets)
            for kind, target in targets.items():
                if not ctx.no_cache and read_sidecar(target, planned.chapter.title) is not None:
                    continue  # this encode is done; only the other format is new
                self._encode_one(wav, kind, target, record, planned, rate)
        finally:
            wav.unlink(missing_ok=True)
        return record

    def _stitch(self, planned: PlannedChapter, wav: Path) -> tuple[list, int]:
        """Write the chapter's chunks with their pauses into one WAV; return the placements and rate."""
        from app.audio.assemble import ChapterAssembler  # numpy: only when a chapter is stitched

        placements = []
        with ChapterAssembler(wav, loudness=self.ctx.master.lufs if self.ctx.master else None) as assembler:
            for pc in planned.chunks:
                if self.ctx.cancel.is_set():
                    raise Cancelled(STOPPED)
                chunk_path = self.ctx.cache.path_for(pc.key)
                placements.append(assembler.append(chunk_path, pause_seconds(pc.chunk.pause_after)))
                testhooks.pause_at("stitch", self.ctx.cancel)
            assembler.finish()
        return placements, assembler.sample_rate

    def _encode_one(self, wav: Path, kind: str, target: Path, record: ChapterRecord,
                    planned: PlannedChapter, rate: int) -> None:
        ctx, chapter = self.ctx, planned.chapter
        measured: list[mastering.ChapterLoudness] = []
        encode_chapter(wav, target, fmt=kind, meta=ctx.meta, title=chapter.title, track=chapter.index,
                       total=len(ctx.plan.book.chapters), ffmpeg=ctx.ffmpeg,
                       audio_filter=mastering.chapter_filter(ctx.master, rate) if ctx.master else None,
                       on_output=lambda text: measured.extend(filter(None, [mastering.parse_stats(text)])))
        if measured and record.loudness is None:
            ctx.report.add_loudness(chapter, measured[0])
            record.loudness = measured[0].as_dict()
        write_sidecar(target, record)


__all__ = ["ChapterWork", "ENCODERS", "encode_kinds"]

"""Run a plan: synthesize missing chunks in parallel, assemble and encode chapters
as they complete, then mux the book.

Only successes reach the cache, each written under a temp name and renamed,
so Ctrl-C, a crash or a dead server never loses a finished chunk and never
leaves a half-written one where a good one would be read.
"""
from __future__ import annotations

import concurrent.futures as cf
import hashlib
import json
import logging
import os
import shutil
import threading
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path

from app import paths, testhooks
from app.audio import wav as wavinfo
from app.audio.assemble import ChapterAssembler
from app.audio.export import BookMeta, ChapterAudio, encode_chapter, mux_m4b
from app.backends.base import Backend
from app.errors import Cancelled, OutputError
from app.files import write_bytes_atomic
from app.pipeline import adaptive, bookrun, outpath
from app.pipeline import events as ev
from app.pipeline.cache import ChunkCache
from app.pipeline.pauses import pause_seconds
from app.pipeline.plan import PlannedChapter, PlannedChunk, RunPlan, safe_filename
from app.pipeline.problems import ProblemLog
from app.pipeline.quality import check_chunk_audio
from app.pipeline.scheduler import Scheduler
from app.pipeline.stopping import STOPPED, StopControl

log = logging.getLogger(__name__)


@dataclass
class _ChapterState:
    planned: PlannedChapter
    remaining: int
    audio_seconds: float = 0.0


class Converter:
    """Convert one RunPlan on one backend. Call run() once."""

    def __init__(
        self,
        plan: RunPlan,
        backend: Backend,
        *,
        ffmpeg: str,
        listener: ev.Listener = ev.ignore,
        cache: ChunkCache | None = None,
        work_dir: Path | None = None,
        no_cache: bool = False,
        cancel: threading.Event | None = None,
        stop: StopControl | None = None,
    ):
        self.plan = plan
        self.backend = backend
        self.ffmpeg = ffmpeg
        self.emit = listener
        self.cache = cache or ChunkCache(paths.cache_dir())
        self.work_dir = work_dir or book_work_dir(plan.book.source)
        self.no_cache = no_cache
        #: First request: send nothing new, keep what finishes; second: cut (app/pipeline/stopping.py).
        self.stop = stop or StopControl(cancel)
        self.cancel = self.stop.cancel
        self.meta = BookMeta(title=plan.book.title, author=plan.book.author, cover=plan.book.cover)
        self._synthesized = 0

    # -- public ---------------------------------------------------------------

    def run(self) -> Path:
        """Convert the book and return the output path."""
        # Locks by content and output, leftovers of a killed run swept, the book's needs recorded.
        with bookrun.begin(self.plan, self.work_dir, self.cache):
            return self._run()

    # -- the run --------------------------------------------------------------

    def _run(self) -> Path:
        started = time.monotonic()
        self._check_output_writable()
        chapters = {pc.chapter.index: _ChapterState(pc, len(pc.chunks)) for pc in self.plan.chapters}
        # A chapter whose encoded file exists needs none of its chunks: not rendered, not even
        # read and hashed again (a cached re-run of a 10-hour book would hash gigabytes).
        ready = {} if self.no_cache else {
            i: seconds for i, st in chapters.items()
            if (seconds := self._encoded_seconds(st.planned)) is not None}
        todo: deque[PlannedChunk] = deque()
        # Identical chunks (a repeated refrain, "* * *") are rendered once and shared.
        self._twins: dict[str, list[PlannedChunk]] = {}
        cached = 0
        for pc in self.plan.chunks:
            if pc.chunk.chapter_index in ready:
                cached += 1
            elif not self.no_cache and self.cache.has(pc.key):
                cached += 1
            elif pc.key in self._twins:
                self._twins[pc.key].append(pc)
            else:
                self._twins[pc.key] = []
                todo.append(pc)
        self.emit(ev.RunStarted(len(chapters), len(self.plan.chunks), cached, self.backend.describe(),
                                self.backend.concurrency))

        # Two encoders: one AAC encode keeps up with ~50x realtime here, and a saturated GPU
        # server can outrun it, leaving a backlog after the last chunk.
        encoder = cf.ThreadPoolExecutor(max_workers=min(2, os.cpu_count() or 1), thread_name_prefix="encode")
        encoded: dict[int, cf.Future[ChapterAudio]] = {}
        try:
            for index, seconds in ready.items():
                state = chapters[index]
                state.remaining, state.audio_seconds = 0, seconds
                for _ in state.planned.chunks:
                    self.emit(ev.ChunkDone(index, seconds / len(state.planned.chunks), True))
                encoded[index] = encoder.submit(self._encode_chapter, state)
            # Cached chunks count first, and chapters with nothing to render start encoding now.
            queued = {pc.key for pc in todo}
            for pc in self.plan.chunks:
                if pc.key not in queued and pc.chunk.chapter_index not in ready:
                    path = self.cache.get(pc.key)
                    if path is None:  # corrupted since planning: render again
                        queued.add(pc.key)
                        self._twins.setdefault(pc.key, [])
                        todo.append(pc)
                        continue
                    self._chunk_finished(chapters, pc, path, True, encoder, encoded)
            if todo:  # a finished book boots no server and loads no voice
                with self.backend:
                    self._synthesize_all(todo, chapters, encoder, encoded)
            results = [encoded[i].result() for i in sorted(encoded)]
        except KeyboardInterrupt:
            self.cancel.set()
            raise Cancelled(STOPPED) from None
        finally:
            encoder.shutdown(wait=True, cancel_futures=True)
        if self.cancel.is_set():
            raise Cancelled(STOPPED)

        self.emit(ev.Muxing(self.plan.output))
        output = self._write_output(results)
        total_audio = sum(s.audio_seconds for s in chapters.values())
        self.emit(ev.RunFinished(output, total_audio, time.monotonic() - started, self._synthesized))
        return output

    def _synthesize_all(self, todo, chapters, encoder, encoded) -> None:
        if not todo:
            return
        # The limit moves with measured goodput unless pinned (app/pipeline/adaptive.py).
        scheduler = Scheduler(self.backend, adaptive.limit_for(self.backend), self.stop, self._render_chunk,
                              ProblemLog(lambda line: self.emit(ev.Message(line))))

        def finished(pc: PlannedChunk, path: Path) -> None:
            self._synthesized += 1
            self._chunk_finished(chapters, pc, path, False, encoder, encoded)
            for twin in self._twins.pop(pc.key, []):
                self._chunk_finished(chapters, twin, path, True, encoder, encoded)

        scheduler.run(todo, finished)

    def _render_chunk(self, pc: PlannedChunk, attempt: int) -> Path:
        """Synthesize one chunk (one attempt) and store it if it passes; runs in a worker thread."""
        # A retry after bad audio uses another seed: the same seed would repeat the fault.
        seed = pc.seed if attempt == 1 else (pc.seed + attempt * 7919) & 0x7FFFFFFF
        tmp = self.cache.temp_path(pc.key)
        try:
            self.backend.synthesize(pc.text, seed, tmp)
            return self._accept_take(pc, tmp, seed)
        finally:
            tmp.unlink(missing_ok=True)

    def _accept_take(self, pc: PlannedChunk, take: Path, seed: int) -> Path:
        """Check one rendered take of a chunk and move it into the cache; raise BadAudio to retry it.

        The single place a finished chunk is judged: nothing unchecked enters the cache.
        """
        info = check_chunk_audio(take, pc.text)
        return self.cache.put(pc.key, take, seed=seed, seconds=info.seconds, words=len(pc.text.split()))

    def _chunk_finished(self, chapters, pc: PlannedChunk, path: Path, cached: bool, encoder, encoded) -> None:
        seconds = wavinfo.duration(path)
        state = chapters[pc.chunk.chapter_index]
        state.remaining -= 1
        state.audio_seconds += seconds
        self.emit(ev.ChunkDone(pc.chunk.chapter_index, seconds, cached))
        if state.remaining == 0:
            encoded[pc.chunk.chapter_index] = encoder.submit(self._encode_chapter, state)

    # -- chapters and output --------------------------------------------------

    def _chapter_file(self, planned: PlannedChapter) -> Path:
        ext = "aac" if self.plan.fmt == "m4b" else "mp3"
        extra = f"{self.meta.title}|{self.meta.author}" if self.plan.fmt == "mp3" else ""
        return self.work_dir / "chapters" / f"{planned.artifact_key(self.plan.fmt, extra)}.{ext}"

    def _encoded_seconds(self, planned: PlannedChapter) -> float | None:
        """Return the audio length of the chapter's encoded file, or None if it is not done."""
        target = self._chapter_file(planned)
        try:
            info = json.loads(target.with_suffix(".json").read_text())
            return float(info["audio_seconds"]) if target.exists() else None
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def _encode_chapter(self, state: _ChapterState) -> ChapterAudio:
        """Stitch a finished chapter from cached chunks and encode it (pipelined)."""
        planned = state.planned
        chapter = planned.chapter
        target = self._chapter_file(planned)
        if target.exists() and not self.no_cache:
            self.emit(ev.ChapterDone(chapter.index, chapter.title, state.audio_seconds))
            return ChapterAudio(chapter.title, target)
        paths.ensure(target.parent)
        wav = target.with_suffix(".wav")
        with ChapterAssembler(wav) as assembler:
            for pc in planned.chunks:
                if self.cancel.is_set():
                    raise Cancelled(STOPPED)
                chunk_path = self.cache.path_for(pc.key)
                assembler.append(chunk_path, pause_seconds(pc.chunk.pause_after))
                testhooks.pause_at("stitch", self.cancel)
            assembler.finish()
        try:
            encode_chapter(wav, target, fmt=self.plan.fmt, meta=self.meta, title=chapter.title,
                           track=chapter.index, total=len(self.plan.book.chapters), ffmpeg=self.ffmpeg)
            write_bytes_atomic(target.with_suffix(".json"),
                               json.dumps({"audio_seconds": state.audio_seconds}).encode())
        finally:
            wav.unlink(missing_ok=True)
        self.emit(ev.ChapterDone(chapter.index, chapter.title, state.audio_seconds))
        return ChapterAudio(chapter.title, target)

    def _check_output_writable(self) -> None:
        outpath.ensure_writable(self.plan.output if self.plan.fmt in outpath.FOLDER_FORMATS
                                else self.plan.output.parent)

    def _write_output(self, chapters: list[ChapterAudio]) -> Path:
        out = self.plan.output
        if self.plan.fmt == "m4b":
            stamp = self._output_stamp(chapters)
            if not self.no_cache and self._read_stamp(out) == stamp:
                self.emit(ev.Message(f"{out} is up to date."))
                return out
            mux_m4b(chapters, out, meta=self.meta, ffmpeg=self.ffmpeg)
            self._write_stamp(out, stamp)
            return out
        paths.ensure(out)
        # Files are numbered by the book's chapter numbers, so a partial run's "03 - ..." is chapter 3.
        numbers = [pc.chapter.index for pc in self.plan.chapters]
        width = max(2, len(str(max(numbers))))
        for n, ch in zip(numbers, chapters):
            final = out / f"{n:0{width}d} - {safe_filename(ch.title, 'chapter')}.mp3"
            tmp = final.with_name(f".{final.name}.tmp")
            try:
                shutil.copyfile(ch.path, tmp)
                os.replace(tmp, final)
            except OSError as exc:
                raise OutputError(f"Cannot write {final} ({exc.strerror})") from None
            finally:
                tmp.unlink(missing_ok=True)
        return out


    # -- "is the output already this?" ---------------------------------------------
    # The stamp names the exact chapter files and metadata an M4B was muxed from, with the
    # M4B's size and mtime, so a cached re-run skips the mux but any edit (or a replaced
    # output file) muxes again.

    def _output_stamp(self, chapters: list[ChapterAudio]) -> dict:
        cover = self.meta.cover
        return {"chapters": [[c.title, c.path.name] for c in chapters], "title": self.meta.title,
                "author": self.meta.author,
                "cover": hashlib.sha256(cover.data).hexdigest() if cover else None}

    def _stamp_path(self, out: Path) -> Path:
        return self.work_dir / f"output-{hashlib.sha256(str(out.resolve()).encode()).hexdigest()[:12]}.json"

    def _read_stamp(self, out: Path) -> dict | None:
        try:
            data = json.loads(self._stamp_path(out).read_text())
            st = out.stat()
        except (OSError, ValueError):
            return None
        if not isinstance(data, dict):  # a stamp of the wrong JSON type is no stamp
            return None
        if data.get("size") != st.st_size or data.get("mtime_ns") != st.st_mtime_ns:
            return None
        return data.get("stamp")

    def _write_stamp(self, out: Path, stamp: dict) -> None:
        st = out.stat()
        write_bytes_atomic(self._stamp_path(out), json.dumps(
            {"stamp": stamp, "size": st.st_size, "mtime_ns": st.st_mtime_ns}).encode())


def book_work_dir(source: Path) -> Path:
    """Return the per-book work folder (encoded chapters, the run lock)."""
    digest = hashlib.sha256(str(source.resolve()).encode()).hexdigest()[:16]
    return paths.work_dir() / f"{safe_filename(source.stem)[:40]}-{digest}"

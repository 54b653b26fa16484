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
import random
import shutil
import threading
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path

from app import paths, testhooks
from app.audio import master as mastering
from app.audio import wav as wavinfo
from app.audio.assemble import ChapterAssembler
from app.audio.export import BookMeta, ChapterAudio, encode_chapter, mux_m4b
from app.backends.base import Backend
from app.errors import BackendError, BadAudio, Cancelled, OutputError
from app.files import write_bytes_atomic
from app.pipeline import adaptive, bookrun
from app.pipeline import events as ev
from app.pipeline.cache import ChunkCache
from app.pipeline.pauses import pause_seconds
from app.pipeline.plan import PlannedChapter, PlannedChunk, RunPlan, safe_filename
from app.pipeline.quality import check_chunk_audio
from app.pipeline.report import RunReport
from app.pipeline.verify import Listening, VerifySettings, take_seed

log = logging.getLogger(__name__)

#: Attempts per chunk for transient failures (5xx, timeouts, bad audio).
MAX_ATTEMPTS = 4


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
        verify: VerifySettings | None = None,
        master: mastering.Target | None = None,
    ):
        self.plan = plan
        self.backend = backend
        self.ffmpeg = ffmpeg
        self.emit = listener
        self.cache = cache or ChunkCache(paths.cache_dir())
        self.work_dir = work_dir or book_work_dir(plan.book.source)
        self.no_cache = no_cache
        self.cancel = cancel or threading.Event()
        self.meta = BookMeta(title=plan.book.title, author=plan.book.author, cover=plan.book.cover)
        self._synthesized = 0
        self.verify = verify
        self.master = master
        self.report = RunReport(plan, verify, master)

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
        self._listening = Listening(self.verify, self.cache, self.report, self.emit) if self.verify else None
        recheck: list[PlannedChunk] = []
        try:
            for index, seconds in ready.items():
                state = chapters[index]
                for pc in state.planned.chunks if self._listening else ():
                    self._listening.trusted(pc)  # their verdicts still belong in the report
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
                    if self._listening is not None and not self._listening.trusted(pc):
                        recheck.append(pc)  # heard under other settings: hear it again, render only if wrong
                        continue
                    self._chunk_finished(chapters, pc, path, True, encoder, encoded)
            if todo or recheck:  # a finished book boots no server and loads no voice
                with self.backend:
                    self._synthesize_all(todo, chapters, encoder, encoded, recheck)
            results = [encoded[i].result() for i in sorted(encoded)]
        except KeyboardInterrupt:
            self.cancel.set()
            raise Cancelled("Stopped. Finished chunks are saved; run the same command again to resume") from None
        finally:
            if self._listening is not None:
                self._listening.close()
            encoder.shutdown(wait=True, cancel_futures=True)
        if self.cancel.is_set():
            raise Cancelled("Stopped. Finished chunks are saved; run the same command again to resume")

        self.emit(ev.Muxing(self.plan.output))
        output = self._write_output(results)
        total_audio = sum(s.audio_seconds for s in chapters.values())
        report_path = self.report.write(output)
        self.emit(ev.Message(self.report.summary(report_path)))
        self.emit(ev.RunFinished(output, total_audio, time.monotonic() - started, self._synthesized))
        self.report.raise_if_failing(output, report_path)
        return output

    def _synthesize_all(self, todo, chapters, encoder, encoded, recheck=()) -> None:
        if not todo and not recheck:
            return
        # The limit moves with measured goodput unless pinned (app/pipeline/adaptive.py).
        limiter = adaptive.limit_for(self.backend)
        busy = adaptive.busy_signals(self.backend)
        pool = cf.ThreadPoolExecutor(max_workers=max(1, self.backend.concurrency), thread_name_prefix="tts")
        in_flight: dict[cf.Future[Path], tuple[PlannedChunk, float, float]] = {}
        # Takes being heard (app/pipeline/verify.py), beside the requests in flight.
        hearing = self._listening.hearing if self._listening else {}
        for pc in recheck:
            self._listening.hear(pc, recheck=True)
        try:
            while todo or in_flight or hearing:
                while todo and len(in_flight) < limiter.limit and not self.cancel.is_set():
                    pc = todo.popleft()
                    fut = pool.submit(self._render_chunk, pc, self._listening.take(pc) if self._listening else 0)
                    in_flight[fut] = (pc, time.monotonic(), 0.0)
                    in_flight[fut] = (pc, in_flight[fut][1], limiter.on_sent(len(in_flight)))
                if not in_flight and not hearing:
                    break
                done, _ = cf.wait([*in_flight, *hearing], timeout=0.5, return_when=cf.FIRST_COMPLETED)
                now_busy = adaptive.busy_signals(self.backend)
                limiter.on_error(now_busy - busy)
                busy = now_busy
                for fut in done:
                    if fut in hearing:  # settled, or queued again for another take
                        if (pc := self._listening.heard(fut, todo)) is not None:
                            self._chunk_checked(chapters, pc, encoder, encoded)
                        continue
                    pc, sent, ticket = in_flight.pop(fut)
                    path = fut.result()  # a permanent failure ends the run; others are saved
                    limiter.on_done(time.monotonic() - sent, wavinfo.duration(path), len(in_flight) + 1,
                                    sent_at=ticket)
                    self._synthesized += 1
                    if self._listening is not None:
                        self._listening.hear(pc)
                        continue
                    self._chunk_checked(chapters, pc, encoder, encoded)
                if self.cancel.is_set() and not in_flight and not hearing:
                    break
        except BaseException:
            self.cancel.set()
            raise
        finally:
            # In-flight chunks finish and are saved by their worker; queued ones are dropped.
            pool.shutdown(wait=True, cancel_futures=True)

    def _chunk_checked(self, chapters, pc: PlannedChunk, encoder, encoded) -> None:
        """A chunk is final (verified, or verification is off): count it and its twins."""
        path = self.cache.path_for(pc.key)
        self._chunk_finished(chapters, pc, path, False, encoder, encoded)
        for twin in self._twins.pop(pc.key, []):
            self._chunk_finished(chapters, twin, path, True, encoder, encoded)

    def _render_chunk(self, pc: PlannedChunk, take: int = 0) -> Path:
        """Synthesize one take of a chunk with retries and store it; runs in a worker thread."""
        attempt = 0
        words = len(pc.text.split())
        while True:
            attempt += 1
            # A retry after bad audio uses another seed: the same seed would repeat the fault.
            base = take_seed(pc.seed, take)
            seed = base if attempt == 1 else (base + attempt * 7919) & 0x7FFFFFFF
            tmp = self.cache.temp_path(pc.key)
            try:
                self.backend.synthesize(pc.text, seed, tmp)
                info = check_chunk_audio(tmp, pc.text)
                return self.cache.put(pc.key, tmp, seed=seed, seconds=info.seconds, words=words)
            except BackendError as exc:
                if not exc.transient or exc.retried or attempt >= MAX_ATTEMPTS or self.cancel.is_set():
                    if isinstance(exc, BadAudio) and attempt >= MAX_ATTEMPTS:
                        exc.message = (f"Chapter {pc.chunk.chapter_index}, chunk {pc.chunk.index + 1}: "
                                       f"{exc.message} (after {attempt} attempts)")
                    raise
                delay = min(8.0, 0.5 * 2 ** (attempt - 1)) * (0.5 + random.random())
                self.emit(ev.ChunkRetry(pc.chunk.chapter_index, attempt, exc.message))
                log.info("retrying chunk %s after %s: %s", pc.key[:8], type(exc).__name__, exc.message)
                if self.cancel.wait(delay):
                    raise
            finally:
                if tmp.exists():
                    tmp.unlink()

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
        # Another verification or mastering setting may change the chapter's audio.
        extra += f"|{self.master.key() if self.master else 'unmastered'}"
        extra += f"|{self.verify.fingerprint()}" if self.verify else ""
        return self.work_dir / "chapters" / f"{planned.artifact_key(self.plan.fmt, extra)}.{ext}"

    def _encoded_seconds(self, planned: PlannedChapter) -> float | None:
        """Return the audio length of the chapter's encoded file, or None if it is not done."""
        target = self._chapter_file(planned)
        try:
            info = json.loads(target.with_suffix(".json").read_text())
            if target.exists() and info.get("loudness"):
                self.report.add_loudness(planned.chapter, mastering.ChapterLoudness.from_dict(info["loudness"]))
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
        with ChapterAssembler(wav, loudness=self.master.lufs if self.master else None) as assembler:
            for pc in planned.chunks:
                if self.cancel.is_set():
                    raise Cancelled("Stopped while assembling a chapter")
                chunk_path = self.cache.path_for(pc.key)
                assembler.append(chunk_path, pause_seconds(pc.chunk.pause_after))
                testhooks.pause_at("stitch", self.cancel)
            assembler.finish()
        measured: list[mastering.ChapterLoudness] = []
        try:
            encode_chapter(wav, target, fmt=self.plan.fmt, meta=self.meta, title=chapter.title,
                           track=chapter.index, total=len(self.plan.book.chapters), ffmpeg=self.ffmpeg,
                           audio_filter=mastering.chapter_filter(self.master, assembler.sample_rate)
                           if self.master else None,
                           on_output=lambda text: measured.extend(filter(None, [mastering.parse_stats(text)])))
            loudness = measured[0] if measured else None
            if loudness is not None:
                self.report.add_loudness(chapter, loudness)
            write_bytes_atomic(target.with_suffix(".json"), json.dumps(
                {"audio_seconds": state.audio_seconds,
                 "loudness": loudness.as_dict() if loudness else None}).encode())
        finally:
            wav.unlink(missing_ok=True)
        self.emit(ev.ChapterDone(chapter.index, chapter.title, state.audio_seconds))
        return ChapterAudio(chapter.title, target)

    def _check_output_writable(self) -> None:
        folder = self.plan.output.parent if self.plan.fmt == "m4b" else self.plan.output
        try:
            paths.ensure(folder)
        except OSError as exc:
            raise OutputError(f"Cannot create the output folder {folder} ({exc.strerror})",
                              hint="Choose another with --output") from None
        if not os.access(folder, os.W_OK):
            raise OutputError(f"The output folder {folder} is not writable",
                              hint="Choose another with --output")

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
        width = max(2, len(str(len(chapters))))
        for n, ch in enumerate(chapters, 1):
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

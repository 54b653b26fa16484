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

from app import paths
from app.audio import master as mastering
from app.audio import wav as wavinfo
from app.audio.export import BookMeta, ChapterAudio, mux_m4b
from app.backends.base import Backend
from app.errors import Cancelled, OutputError
from app.files import write_bytes_atomic
from app.output import ChapterRender, write_read_along
from app.output.formats import READ_ALONG, sibling_outputs
from app.output.timing import ChunkMarks
from app.pipeline import adaptive, bookrun, outpath
from app.pipeline import events as ev
from app.pipeline.cache import ChunkCache
from app.pipeline.chapter_files import ChapterRecord, read_sidecar, write_sidecar
from app.pipeline.progressive import ChapterEncode, ChapterFeeds
from app.pipeline.plan import PlannedChapter, PlannedChunk, RunPlan, safe_filename
from app.pipeline.problems import ProblemLog
from app.pipeline.quality import check_chunk_audio
from app.pipeline.scheduler import Scheduler, SideWork
from app.pipeline.stopping import STOPPED, StopControl
from app.pipeline.report import RunReport
from app.pipeline.verify import Listening, VerifySettings, take_seed

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
        #: First request: send nothing new, keep what finishes; second: cut (app/pipeline/stopping.py).
        self.stop = stop or StopControl(cancel)
        self.cancel = self.stop.cancel
        self.meta = BookMeta(title=plan.book.title, author=plan.book.author, cover=plan.book.cover)
        self.outputs = sibling_outputs(plan.output, plan.formats)
        # Encodes per chapter: AAC ("m4b") for the M4B and for every read-along output, whose
        # timeline is the M4B's; MP3 for the MP3 folder.
        wants_aac = bool(({"m4b"} | READ_ALONG) & set(plan.formats))
        self.kinds = tuple(k for k, on in (("m4b", wants_aac), ("mp3", "mp3" in plan.formats)) if on)
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

        # Chapters are encoded while their chunks arrive (app/pipeline/progressive.py), on two
        # threads: one AAC encode keeps up with ~50x realtime here, and a GPU server can outrun it.
        encoder = cf.ThreadPoolExecutor(max_workers=min(2, os.cpu_count() or 1), thread_name_prefix="encode")
        self._chapters = chapters
        self._feeds = ChapterFeeds(encoder, self._open_chapter, self.cancel)
        self._position = {id(pc): n for st in chapters.values() for n, pc in enumerate(st.planned.chunks)}
        encoded: dict[int, cf.Future[ChapterRecord]] = {
            i: self._feeds.track(i, len(st.planned.chunks)) for i, st in chapters.items()
            if i not in ready and st.planned.chunks}
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
                encoded[index] = cf.Future()
                encoded[index].set_result(self._ready_record(state))
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
            results = {i: encoded[i].result() for i in sorted(encoded)}
        except KeyboardInterrupt:
            self.cancel.set()
            raise Cancelled(STOPPED) from None
        finally:
            if self._listening is not None:
                self._listening.close()
            encoder.shutdown(wait=True, cancel_futures=True)
            self._feeds.close()  # a stopped or failed run: chapters still open are aborted, no partial file stays
        if self.cancel.is_set():
            raise Cancelled(STOPPED)

        self.emit(ev.Muxing(self.outputs[self.plan.formats[0]]))
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
        scheduler = Scheduler(self.backend, adaptive.limit_for(self.backend), self.stop, self._render_chunk,
                              ProblemLog(lambda line: self.emit(ev.Message(line))))
        listening = self._listening
        for pc in recheck:
            listening.hear(pc, recheck=True)

        def finished(pc: PlannedChunk, path: Path) -> None:
            self._synthesized += 1
            if listening is not None:
                listening.hear(pc)  # final once heard (app/pipeline/verify.py), beside the requests in flight
            else:
                self._chunk_checked(chapters, pc, encoder, encoded)

        def settle(requeue) -> None:
            """Judge the takes heard so far: a settled chunk goes on to its chapter, a wrong one is sent again."""
            for fut in [f for f in listening.hearing if f.done()]:
                retake: deque = deque()
                if (pc := listening.heard(fut, retake)) is not None:
                    self._chunk_checked(chapters, pc, encoder, encoded)
                for again in retake:
                    requeue(again)

        side = None if listening is None else SideWork(pending=lambda: bool(listening.hearing), poll=settle)
        scheduler.run(todo, finished, side=side)

    def _chunk_checked(self, chapters, pc: PlannedChunk, encoder, encoded) -> None:
        """A chunk is final (verified, or verification is off): count it and its twins."""
        path = self.cache.path_for(pc.key)
        self._chunk_finished(chapters, pc, path, False, encoder, encoded)
        for twin in self._twins.pop(pc.key, []):
            self._chunk_finished(chapters, twin, path, True, encoder, encoded)

    def _render_chunk(self, pc: PlannedChunk, attempt: int) -> Path:
        """Synthesize one chunk (one attempt of its current take) and store it if it passes; runs in a worker thread."""
        take = self._listening.take(pc) if self._listening else 0
        base = take_seed(pc.seed, take)  # another take (verification) is another seed
        # A retry after bad audio uses another seed: the same seed would repeat the fault.
        seed = base if attempt == 1 else (base + attempt * 7919) & 0x7FFFFFFF
        tmp = self.cache.temp_path(pc.key)
        try:
            starts = self.backend.synthesize(pc.text, seed, tmp)
            return self._accept_take(pc, tmp, seed, starts)
        finally:
            tmp.unlink(missing_ok=True)

    def _accept_take(self, pc: PlannedChunk, take: Path, seed: int, starts: list[float] | None = None) -> Path:
        """Check one rendered take of a chunk and move it into the cache; raise BadAudio to retry it.

        The single place a finished chunk is judged: nothing unchecked enters the cache.
        """
        info = check_chunk_audio(take, pc.text)
        # Sentence starts inside the take, where the engine reports them (Piper): read-along timing.
        extra = {"sentence_starts": [round(s, 4) for s in starts]} if starts else {}
        return self.cache.put(pc.key, take, seed=seed, seconds=info.seconds, words=len(pc.text.split()), **extra)

    def _chunk_finished(self, chapters, pc: PlannedChunk, path: Path, cached: bool, encoder, encoded) -> None:
        seconds = wavinfo.duration(path)
        state = chapters[pc.chunk.chapter_index]
        state.remaining -= 1
        state.audio_seconds += seconds
        self.emit(ev.ChunkDone(pc.chunk.chapter_index, seconds, cached))
        self._feeds.chunk_final(pc.chunk.chapter_index, self._position[id(pc)])

    # -- chapters and output --------------------------------------------------

    def _chapter_file(self, planned: PlannedChapter, kind: str) -> Path:
        ext = "aac" if kind == "m4b" else "mp3"
        extra = f"{self.meta.title}|{self.meta.author}" if kind == "mp3" else ""
        # Another verification or mastering setting may change the chapter's audio.
        extra += f"|{self.master.key() if self.master else 'unmastered'}"
        extra += f"|{self.verify.fingerprint()}" if self.verify else ""
        return self.work_dir / "chapters" / f"{planned.artifact_key(kind, extra)}.{ext}"

    def _finished_record(self, planned: PlannedChapter) -> ChapterRecord | None:
        """Return the chapter's record if every encode this run needs exists, else None."""
        records = [read_sidecar(self._chapter_file(planned, kind), planned.chapter.title) for kind in self.kinds]
        if not records or any(r is None for r in records):
            return None
        record = records[0]
        record.files = {kind: self._chapter_file(planned, kind) for kind in self.kinds}
        return record

    def _encoded_seconds(self, planned: PlannedChapter) -> float | None:
        """Return the audio length of the chapter's encoded files, or None if they are not all done."""
        record = self._finished_record(planned)
        if record is None:
            return None
        if record.loudness:
            self.report.add_loudness(planned.chapter, mastering.ChapterLoudness.from_dict(record.loudness))
        return record.audio_seconds

    def _ready_record(self, state: _ChapterState) -> ChapterRecord:
        """Return the record of a chapter whose encoded files all exist (nothing to stitch)."""
        record = self._finished_record(state.planned)
        chapter = state.planned.chapter
        self.emit(ev.ChapterDone(chapter.index, chapter.title, state.audio_seconds))
        return record

    def _open_chapter(self, index: int) -> ChapterEncode:
        """Start encoding chapter `index` (its first chunk is final); runs on the encoder pool."""
        state = self._chapters[index]
        planned, chapter = state.planned, state.planned.chapter
        files = {kind: self._chapter_file(planned, kind) for kind in self.kinds}
        # An encode already done (the other format is new) is not done again.
        targets = {kind: f for kind, f in files.items()
                   if self.no_cache or read_sidecar(f, chapter.title) is None}

        def done(record: ChapterRecord) -> None:
            if record.loudness:
                self.report.add_loudness(chapter, mastering.ChapterLoudness.from_dict(record.loudness))
            self.emit(ev.ChapterDone(chapter.index, chapter.title, state.audio_seconds))

        return ChapterEncode(planned, targets, files, lambda pc: self.cache.path_for(pc.key), meta=self.meta,
                             ffmpeg=self.ffmpeg, total_chapters=len(self.plan.book.chapters), master=self.master,
                             cancel=self.cancel, audio_seconds=lambda: state.audio_seconds, done=done)

    def _check_output_writable(self) -> None:
        # The book itself and foreign files were refused in convert(); here: can we write there at all?
        for fmt, path in self.outputs.items():
            outpath.ensure_writable(path if fmt in outpath.FOLDER_FORMATS else path.parent)

    def _write_output(self, records: dict[int, ChapterRecord]) -> Path:
        """Write every requested output and return the first format's."""
        if "m4b" in self.outputs:
            self._write_m4b([ChapterAudio(r.title, r.files["m4b"]) for r in records.values()], self.outputs["m4b"])
        if "mp3" in self.outputs:
            self._write_mp3([ChapterAudio(r.title, r.files["mp3"]) for r in records.values()], self.outputs["mp3"])
        by_index = {pc.chapter.index: pc for pc in self.plan.chapters}
        written = {c.index: c.paragraphs for c in (self.plan.source_book or self.plan.book).chapters}
        renders = [ChapterRender(i, r.title, [(pc.chunk, pc.key) for pc in by_index[i].chunks], r.placements,
                                 r.sample_rate, r.files["m4b"], written.get(i))
                   for i, r in records.items() if "m4b" in r.files]
        for path in write_read_along(self.plan.book, renders, self.outputs, ffmpeg=self.ffmpeg,
                                     marks_for=self._marks, narrator=self.backend.name):
            self.emit(ev.Message(f"Wrote {path}"))
        return self.outputs[self.plan.formats[0]]

    def _marks(self, key: str) -> ChunkMarks:
        starts, words = self.cache.marks(key)
        return ChunkMarks(starts, words)

    def _write_m4b(self, chapters: list[ChapterAudio], out: Path) -> None:
        stamp = self._output_stamp(chapters)
        if not self.no_cache and self._read_stamp(out) == stamp:
            self.emit(ev.Message(f"{out} is up to date."))
            return
        mux_m4b(chapters, out, meta=self.meta, ffmpeg=self.ffmpeg)
        self._write_stamp(out, stamp)

    def _write_mp3(self, chapters: list[ChapterAudio], out: Path) -> None:
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

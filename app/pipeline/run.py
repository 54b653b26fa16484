"""Run a plan: synthesize missing chunks in parallel, assemble and encode chapters
as they complete, then write the outputs.

Only successes reach the cache, each written under a temp name and renamed,
so Ctrl-C, a crash or a dead server never loses a finished chunk and never
leaves a half-written one where a good one would be read.

The parts, one module each: triage.py (what is missing), synthesis.py (render it),
chapters.py (count chunks, encode chapters), outputs.py (mux and write); context.py
holds what they share.
"""
from __future__ import annotations

import threading
import time
from pathlib import Path

from app.core import paths, failpoints
from app.audio import master as mastering
from app.backends.base import Backend
from app.core.errors import Cancelled
from app.output.formats import sibling_outputs
from app.pipeline import bookrun, outpath
from app.pipeline import events as ev
from app.pipeline.cache import ChunkCache
from app.pipeline.chapters import ChapterWork
from app.pipeline.context import RunContext
from app.pipeline.outputs import OutputWriter
from app.pipeline.plan import RunPlan
from app.pipeline.adaptive import InFlightLimit
from app.pipeline.report import RunReport
from app.pipeline.stopping import STOPPED, StopControl
from app.pipeline.triage import Triage, sort_chunks
from app.pipeline.verify import Listening, VerifySettings
from app.pipeline.workdir import book_work_dir


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
        limit: InFlightLimit | None = None,
    ):
        self.ctx = RunContext(
            plan=plan, backend=backend, ffmpeg=ffmpeg, emit=listener,
            cache=cache or ChunkCache(paths.cache_dir()), work_dir=work_dir or book_work_dir(plan.book.source),
            no_cache=no_cache, stop=stop or StopControl(cancel), verify=verify, master=master,
            report=RunReport(plan, verify, master), limit=limit)
        self.outputs = sibling_outputs(plan.output, plan.formats)

    def run(self) -> Path:
        """Convert the book and return the output path."""
        ctx = self.ctx
        # The book is read and planned: a stop asked for meanwhile (the hub's Cancel) ends it here.
        failpoints.pause_at("planned", ctx.cancel)
        if ctx.cancel.is_set():
            raise Cancelled(STOPPED)
        # Locks by content and output, leftovers of a killed run swept, the book's needs recorded.
        with bookrun.begin(ctx.plan, ctx.work_dir, ctx.cache):
            return self._run()

    def _run(self) -> Path:
        started = time.monotonic()
        ctx = self.ctx
        self._check_output_writable()
        chapters = ChapterWork(ctx)
        listening = Listening(ctx.verify, ctx.cache, ctx.report, ctx.emit) if ctx.verify else None
        try:
            encoded = chapters.already_encoded()
            triage = sort_chunks(ctx.plan, ctx.cache, set(encoded), no_cache=ctx.no_cache)
            ctx.emit(ev.RunStarted(len(ctx.plan.chapters), len(ctx.plan.chunks), triage.cached,
                                   ctx.backend.describe(), ctx.backend.concurrency))
            planned = {pc.chapter.index: pc for pc in ctx.plan.chapters}
            for index, seconds in encoded.items():
                for pc in planned[index].chunks if listening else ():
                    listening.trusted(pc)  # their verdicts still belong in the report
                chapters.take_encoded(index, seconds)
            recheck = self._take_cached(triage, encoded, chapters, listening)
            rendered = self._synthesize(triage, recheck, chapters, listening)
            if ctx.cancel.is_set():
                # Stopped: a chapter still open waits for chunks this run will never render (or hear);
                # it is aborted in close(), not waited for. Chapters finished so far are kept.
                raise Cancelled(STOPPED)
            records = chapters.results()
        except KeyboardInterrupt:
            ctx.cancel.set()
            raise Cancelled(STOPPED) from None
        except BaseException:
            ctx.cancel.set()  # a failure stops the encoders as a stop does: nothing is waited for
            raise
        finally:
            if listening is not None:
                if ctx.cancel.is_set():
                    # Stopped or failed: the listener closes first, so a listening model still booting (its
                    # boot waits on the verification pool) is stopped, not waited for; run_prepared closes it again.
                    ctx.verify.transcriber.close()
                listening.close()
            chapters.close()
        if ctx.cancel.is_set():
            raise Cancelled(STOPPED)
        return self._finish(records, chapters.audio_seconds(), rendered, started)

    def _synthesize(self, triage: Triage, recheck: list, chapters: ChapterWork, listening: Listening | None) -> int:
        """Render what is missing and return how many chunks were rendered.

        A finished book boots no server, loads no voice, and imports none of synthesis
        (the scheduler, the audio checks, numpy): a cached re-run is mostly start-up.
        """
        if not triage.todo and not recheck:
            return 0
        from app.pipeline.synthesis import Synthesis

        synthesis = Synthesis(self.ctx, chapters, listening, triage.twins)
        # A stop-now while the backend starts (a managed server booting, from the hub) ends the boot.
        self.ctx.stop.on_stop_now(self.ctx.backend.abort)
        with self.ctx.backend:
            synthesis.run(triage.todo, recheck)
        return synthesis.rendered

    def _take_cached(self, triage: Triage, encoded: dict[int, float], chapters: ChapterWork,
                     listening: Listening | None) -> list:
        """Count cached chunks first (chapters with nothing to render start encoding now);
        return the cached chunks to hear again, heard under other verification settings."""
        recheck = []
        queued = {pc.key for pc in triage.todo}
        for pc in self.ctx.plan.chunks:
            if pc.key in queued or pc.chunk.chapter_index in encoded:
                continue
            path = self.ctx.cache.get(pc.key)
            if path is None:  # corrupted since planning: render again
                queued.add(pc.key)
                triage.queue(pc)
            elif listening is not None and not listening.trusted(pc):
                recheck.append(pc)  # render only if it is heard wrong
            else:
                chapters.chunk_finished(pc, path, True)
        return recheck

    def _finish(self, records: dict, audio_seconds: float, rendered: int, started: float) -> Path:
        """Write the outputs and the report; raise if verification left a chunk failing."""
        ctx = self.ctx
        ctx.emit(ev.Muxing(self.outputs[ctx.plan.formats[0]]))
        output = OutputWriter(ctx, self.outputs).write(records)
        report_path = ctx.report.write(output)
        ctx.emit(ev.Message(ctx.report.summary(report_path)))
        ctx.emit(ev.RunFinished(output, audio_seconds, time.monotonic() - started, rendered))
        ctx.report.raise_if_failing(output, report_path)
        return output

    def _check_output_writable(self) -> None:
        # The book itself and foreign files were refused in convert(); here: can we write there at all?
        for fmt, path in self.outputs.items():
            outpath.ensure_writable(path if fmt in outpath.FOLDER_FORMATS else path.parent)


__all__ = ["Converter", "book_work_dir"]

"""Render the chunks a run is missing: the scheduler sends them, each take is checked, heard
(when verification is on) and stored; a final chunk goes on to its chapter with its twins."""
from __future__ import annotations

from collections import deque
from pathlib import Path

from app.core import failpoints
from app.core.errors import Cancelled
from app.pipeline import adaptive
from app.pipeline import events as ev
from app.pipeline.chapters import ChapterWork
from app.pipeline.context import RunContext
from app.pipeline.plan import PlannedChunk
from app.pipeline.problems import ProblemLog
from app.pipeline.quality import check_chunk_audio
from app.pipeline.scheduler import Scheduler, SideWork
from app.pipeline.stopping import LISTEN_TAIL_SECONDS, STOP_TAIL_SECONDS, STOPPED
from app.pipeline.verify import Listening, take_seed

#: Seed step between attempts of one take: a retry after bad audio must not repeat the fault.
RETRY_SEED_STEP = 7919


class Synthesis:
    """Render missing chunks on the backend and pass each final one to its chapter."""

    def __init__(self, ctx: RunContext, chapters: ChapterWork, listening: Listening | None,
                 twins: dict[str, list[PlannedChunk]]):
        self.ctx = ctx
        self.chapters = chapters
        self.listening = listening
        #: Chunks identical to one being rendered (a repeated refrain, "* * *"): they share its take.
        self.twins = twins
        #: Chunks rendered by this run (not from the cache).
        self.rendered = 0

    def run(self, todo: deque[PlannedChunk], recheck: list[PlannedChunk]) -> None:
        """Render `todo` and hear `recheck` again (kept takes judged under other settings)."""
        if not todo and not recheck:
            return
        # The limit moves with measured goodput unless pinned (app/pipeline/adaptive.py).
        limit = self.ctx.limit if self.ctx.limit is not None else adaptive.limit_for(self.ctx.backend)
        tail = STOP_TAIL_SECONDS + (LISTEN_TAIL_SECONDS if self.listening is not None else 0.0)
        scheduler = Scheduler(self.ctx.backend, limit, self.ctx.stop,
                              self.render, ProblemLog(lambda line: self.ctx.emit(ev.Message(line))), tail=tail)
        for pc in recheck:
            self.listening.hear(pc, recheck=True)
        side = None if self.listening is None else SideWork(pending=lambda: bool(self.listening.hearing),
                                                            poll=self._settle)
        scheduler.run(todo, self._rendered, side=side)

    def render(self, pc: PlannedChunk, attempt: int) -> Path:
        """Synthesize one attempt of the chunk's current take and store it if it passes (a worker thread)."""
        take = self.listening.take(pc) if self.listening else 0
        if take:
            failpoints.pause_at("retake", self.ctx.cancel)
        if self.ctx.cancel.is_set():  # stopped before this request left: it is not sent (the re-run sends it)
            raise Cancelled(STOPPED)
        base = take_seed(pc.seed, take)  # another take (verification) is another seed
        seed = base if attempt == 1 else (base + attempt * RETRY_SEED_STEP) & 0x7FFFFFFF
        tmp = self.ctx.cache.temp_path(pc.key)
        try:
            # A cast's role speaks in its own voice; the run's own voice is asked for as before.
            starts = self.ctx.backend.synthesize(pc.text, seed, tmp) if pc.voice is None else \
                self.ctx.backend.synthesize(pc.text, seed, tmp, voice=pc.voice)
            return self._accept_take(pc, tmp, seed, starts)
        finally:
            tmp.unlink(missing_ok=True)

    def _accept_take(self, pc: PlannedChunk, take: Path, seed: int, starts: list[float] | None) -> Path:
        """Check one rendered take and move it into the cache; raise BadAudio to retry it.

        The single place a finished chunk is judged: nothing unchecked enters the cache.
        """
        info = check_chunk_audio(take, pc.text)
        # Sentence starts inside the take, where the engine reports them (Piper): read-along timing.
        extra = {"sentence_starts": [round(s, 4) for s in starts]} if starts else {}
        return self.ctx.cache.put(pc.key, take, seed=seed, seconds=info.seconds, words=len(pc.text.split()),
                                  **extra)

    def _rendered(self, pc: PlannedChunk, path: Path) -> None:
        self.rendered += 1
        if self.listening is not None:
            self.listening.hear(pc)  # final once heard (app/pipeline/verify.py), beside the requests in flight
        else:
            self.chunk_final(pc)

    def _settle(self, requeue) -> None:
        """Judge the takes heard so far: a settled chunk goes on to its chapter, a wrong one is sent again."""
        for fut in [f for f in self.listening.hearing if f.done()]:
            retake: deque = deque()
            if (pc := self.listening.heard(fut, retake)) is not None:
                self.chunk_final(pc)
            for again in retake:
                requeue(again)

    def chunk_final(self, pc: PlannedChunk) -> None:
        """Count a final chunk (verified, or verification is off) and its twins."""
        path = self.ctx.cache.path_for(pc.key)
        self.chapters.chunk_finished(pc, path, False)
        for twin in self.twins.pop(pc.key, []):
            self.chapters.chunk_finished(twin, path, True)


__all__ = ["Synthesis"]

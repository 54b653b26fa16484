"""Sort a plan's chunks before a run: already encoded, cached, to render, or a twin of one to render."""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from app.pipeline.cache import ChunkCache
from app.pipeline.plan import PlannedChunk, RunPlan


@dataclass
class Triage:
    """Where each chunk of a plan stands when the run starts."""

    #: Chunks to render, in book order, one per distinct cache key.
    todo: deque[PlannedChunk] = field(default_factory=deque)
    #: For each key in `todo`, the later chunks with the same text and seed: rendered once, shared.
    twins: dict[str, list[PlannedChunk]] = field(default_factory=dict)
    #: Chunks that need no request (their chapter is encoded, or they are in the cache).
    cached: int = 0

    def queue(self, pc: PlannedChunk) -> None:
        """Render `pc` (again: a cached file turned out corrupt)."""
        self.twins.setdefault(pc.key, [])
        self.todo.append(pc)


def sort_chunks(plan: RunPlan, cache: ChunkCache, encoded: set[int], *, no_cache: bool) -> Triage:
    """Return which chunks need rendering; chunks of `encoded` chapters need nothing, not even a read.

    A chapter whose encoded file exists is not rendered, not read and not hashed again
    (a cached re-run of a 10-hour book would hash gigabytes).
    """
    triage = Triage()
    for pc in plan.chunks:
        if pc.chunk.chapter_index in encoded or (not no_cache and cache.has(pc.key)):
            triage.cached += 1
        elif pc.key in triage.twins:
            triage.twins[pc.key].append(pc)
        else:
            triage.queue(pc)
    return triage


__all__ = ["Triage", "sort_chunks"]

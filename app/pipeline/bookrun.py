"""Begin a book's run: take its locks, sweep what a killed run left, record what it needs."""
from __future__ import annotations

import logging
from contextlib import contextmanager
from pathlib import Path

from app.core import paths
from app.pipeline import leftovers, runlock
from app.pipeline.cache import ChunkCache
from app.pipeline.plan import RunPlan

log = logging.getLogger(__name__)


@contextmanager
def begin(plan: RunPlan, work_dir: Path, cache: ChunkCache):
    """Hold the run's locks for the body, after sweeping leftovers and writing the book's manifest."""
    paths.ensure(work_dir)
    with runlock.hold(plan.book.source, plan.output):
        out_folder = plan.output.parent if plan.fmt == "m4b" else plan.output
        stale = (cache.leftovers() + leftovers.output_leftovers(out_folder)
                 + leftovers.work_leftovers(work_dir, locked=True))
        if stale:
            freed = leftovers.remove(stale)
            log.info("swept %d leftovers of an interrupted run (%.1f MB)", len(stale), freed / 1e6)
        leftovers.write_manifest(work_dir, source=plan.book.source, title=plan.book.title,
                                 output=plan.output, keys=[pc.key for pc in plan.chunks])
        yield

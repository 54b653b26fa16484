"""What every part of one run shares: the plan, the backend, the cache, where files go, how to report."""
from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path

from app.audio import master as mastering
from app.audio.export import BookMeta
from app.backends.base import Backend
from app.pipeline import events as ev
from app.pipeline.adaptive import InFlightLimit
from app.pipeline.cache import ChunkCache
from app.pipeline.plan import RunPlan
from app.pipeline.report import RunReport
from app.pipeline.stopping import StopControl
from app.pipeline.verify import VerifySettings


@dataclass
class RunContext:
    """One run's fixed inputs, handed to each of its parts (chapters, synthesis, outputs)."""

    plan: RunPlan
    backend: Backend
    ffmpeg: str
    emit: ev.Listener
    cache: ChunkCache
    work_dir: Path
    no_cache: bool
    #: First request: send nothing new, keep what finishes; second: cut (app/pipeline/stopping.py).
    stop: StopControl
    verify: VerifySettings | None
    master: mastering.Target | None
    report: RunReport
    #: The in-flight limit; None: the backend's own (a queue of books passes its shared pool's share).
    limit: InFlightLimit | None = None
    #: The book's title, author, cover and metadata, as every encode and the mux tag them.
    meta: BookMeta = field(init=False)

    def __post_init__(self) -> None:
        book = self.plan.book
        self.meta = BookMeta(title=book.title, author=book.author, cover=book.cover, details=book.meta,
                             # convert.prepare names the voice when --narrator does not.
                             narrator=book.meta.narrator or self.backend.voice_name)

    @property
    def cancel(self) -> threading.Event:
        return self.stop.cancel


__all__ = ["RunContext"]

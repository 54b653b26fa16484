"""Progress events a run emits; the CLI draws a bar from them, the hub a table."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Union


@dataclass(frozen=True)
class RunStarted:
    chapters: int
    total_chunks: int
    #: Chunks already in the cache, not synthesized again.
    cached_chunks: int
    backend: str
    concurrency: int


@dataclass(frozen=True)
class ChunkDone:
    chapter_index: int
    #: Seconds of audio in the chunk.
    audio_seconds: float
    #: True when it came from the cache.
    cached: bool


@dataclass(frozen=True)
class ChapterDone:
    chapter_index: int
    title: str
    audio_seconds: float


@dataclass(frozen=True)
class Muxing:
    output: Path


@dataclass(frozen=True)
class RunFinished:
    output: Path
    audio_seconds: float
    wall_seconds: float
    synthesized_chunks: int


@dataclass(frozen=True)
class Message:
    """A line worth telling the user (a warning, a server status)."""

    text: str


Event = Union[RunStarted, ChunkDone, ChapterDone, Muxing, RunFinished, Message]
Listener = Callable[[Event], None]


def ignore(_event: Event) -> None:
    """Listen to nothing."""

"""Tiny books for the fault suite: distinct sentences, so every chunk is its own request."""
from __future__ import annotations

from pathlib import Path

from tests.pipeline.helpers import write_txt_book

PLACES = ["mill", "bridge", "church", "farm", "wood", "town", "quay", "hill", "lane", "gate"]


def chapters(n_chapters: int = 3, sentences: int = 4) -> dict[str, str]:
    """Return {title: text} with `sentences` distinct seven-word sentences per chapter."""
    return {f"Part {c}": " ".join(f"In part {c} the river passed the {PLACES[s % len(PLACES)]} {s}."
                                 for s in range(sentences))
            for c in range(1, n_chapters + 1)}


def book(folder: Path, n_chapters: int = 3, sentences: int = 4, name: str = "river.txt") -> Path:
    """Write a TXT book of `n_chapters` x `sentences` chunks (at --chunk-size 8)."""
    return write_txt_book(folder, chapters(n_chapters, sentences), name=name)


def chapter_titles(n_chapters: int = 3) -> list[str]:
    return [f"Chapter {c}: Part {c}" for c in range(1, n_chapters + 1)]


def expected_chapter_seconds(path: Path, chunk_size: int, seconds_per_word: float = 0.25) -> list[float]:
    """Return each chapter's length if every chunk is the double's tone (0.25 s a word) plus its pause."""
    from app.book import load_book
    from app.pipeline.pauses import pause_seconds
    from app.pipeline.plan import make_plan

    plan = make_plan(load_book(path), {}, chunk_size=chunk_size, fmt="m4b", output=path.with_suffix(".m4b"))
    return [sum(seconds_per_word * max(1, len(pc.text.split())) + pause_seconds(pc.chunk.pause_after)
                for pc in ch.chunks) for ch in plan.chapters]

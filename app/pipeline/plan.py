"""Turn a book and a backend into a run plan: chunks, seeds, cache keys, file names."""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.audio.export import FORMATS
from app.book.chunking import Chunk, Pause, chunk_chapter
from app.book.model import Book, Chapter
from app.book.spoken import Speaker
from app.files import truncate_utf8
from app.pipeline.cache import chunk_key, chunk_seed



@dataclass(frozen=True)
class PlannedChunk:
    chunk: Chunk
    seed: int
    key: str

    @property
    def text(self) -> str:
        return self.chunk.text


@dataclass(frozen=True)
class PlannedChapter:
    chapter: Chapter
    chunks: tuple[PlannedChunk, ...]

    def artifact_key(self, fmt: str, extra: str = "") -> str:
        """Return the key of this chapter's encoded file: its chunks, pauses, format."""
        h = hashlib.sha256(f"{fmt}|{extra}|{self.chapter.title}".encode())
        for pc in self.chunks:
            h.update(f"{pc.key}:{pc.chunk.pause_after.name}".encode())
        return h.hexdigest()[:24]


@dataclass(frozen=True)
class RunPlan:
    book: Book
    chapters: tuple[PlannedChapter, ...]
    fmt: str
    output: Path
    chunk_size: int

    @property
    def chunks(self) -> list[PlannedChunk]:
        return [pc for ch in self.chapters for pc in ch.chunks]


def safe_filename(name: str, fallback: str = "audiobook") -> str:
    """Return `name` made safe as a file name on every common filesystem."""
    cleaned = re.sub(r'[\\/:*?"<>|\x00-\x1f]+', " ", name).strip(" .")
    cleaned = re.sub(r"\s+", " ", cleaned)
    # By bytes, not characters: 120 CJK characters are 360 bytes, over the 255 a name may have.
    return truncate_utf8(cleaned) or fallback


def default_output(book: Book, out_dir: Path, fmt: str) -> Path:
    stem = safe_filename(book.title)
    return out_dir / (f"{stem}.m4b" if fmt == "m4b" else stem)


def resolve_output(book: Book, output: Path | None, default_dir: Path, fmt: str) -> Path:
    """Return the output file (m4b) or folder (mp3) for `--output FILE_OR_FOLDER`."""
    if output is None:
        return default_output(book, default_dir, fmt)
    output = output.expanduser()
    if fmt == "m4b":
        if output.is_dir() or str(output).endswith(("/", "\\")):
            return default_output(book, output, fmt)
        return output if output.suffix else output.with_suffix(".m4b")
    return output


def make_plan(book: Book, identity: dict[str, Any], *, chunk_size: int, fmt: str, output: Path,
              speaker: Speaker | None = None) -> RunPlan:
    """Put the text in spoken form, chunk every chapter and give each chunk its seed and cache key.

    The spoken form is what is cached, synthesized and verified, so it is made
    here, once, before anything is keyed; `speaker` defaults to the book's language.
    """
    book = (speaker or Speaker(book.language, hints=book.lexicon)).book(book)
    chapters = []
    for chapter in book.chapters:
        planned = []
        for chunk in chunk_chapter(chapter, chunk_size, book.language):
            seed = chunk_seed(chunk.text)
            planned.append(PlannedChunk(chunk, seed, chunk_key(chunk.text, seed, identity)))
        if planned:
            chapters.append(PlannedChapter(chapter, tuple(planned)))
    return RunPlan(book=book, chapters=tuple(chapters), fmt=fmt, output=output, chunk_size=chunk_size)


__all__ = ["Pause", "PlannedChunk", "PlannedChapter", "RunPlan", "make_plan", "resolve_output", "FORMATS"]

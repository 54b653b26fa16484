"""A book as plain data: chapters of paragraphs, ready to be chunked."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Chapter:
    """One narrated chapter: its title and its paragraphs of plain text."""

    #: 1-based position among the narrated chapters (what --chapters selects).
    index: int
    title: str
    #: Plain text, one entry per paragraph, whitespace normalized, never empty.
    paragraphs: tuple[str, ...]

    @property
    def words(self) -> int:
        return sum(len(p.split()) for p in self.paragraphs)


@dataclass(frozen=True)
class Cover:
    data: bytes
    #: e.g. "image/jpeg", "image/png"
    media_type: str


@dataclass(frozen=True)
class Book:
    title: str
    author: str
    chapters: tuple[Chapter, ...]
    source: Path
    language: str = "en"
    cover: Cover | None = field(default=None, repr=False)
    #: The book's own pronunciation hints (EPUB 3 PLS, ssml:ph): (word, alias, IPA), "" when absent.
    lexicon: tuple[tuple[str, str, str], ...] = field(default=(), repr=False)

    @property
    def words(self) -> int:
        return sum(c.words for c in self.chapters)

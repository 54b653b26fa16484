"""Turn a book and a backend into a run plan: chunks, seeds, cache keys, file names."""
from __future__ import annotations

import dataclasses
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.backends.base import VoiceOptions
from app.book.chunking import Chunk, Pause, chunk_chapter, chunk_paragraph
from app.book.model import Book, Chapter
from app.book.normalize import is_speakable
from app.book.spoken import Speaker
from app.core.files import truncate_utf8
from app.cast.segments import join, spoken_segments
from app.pipeline.cache import chunk_key, chunk_seed
from app.pipeline.casting import Casting
from app.pipeline.planmemo import PlanMemo, PlannedText



@dataclass(frozen=True)
class PlannedChunk:
    chunk: Chunk
    seed: int
    key: str
    #: The voice of a cast's role when it is not the run's own (None: the run's voice).
    voice: VoiceOptions | None = None

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
    #: Every output this run writes (app/output/formats.py); `output` is the first one's path.
    formats: tuple[str, ...] = ()
    #: The book as written, when `book` is the spoken form the chunks are made of: the
    #: read-along EPUB and captions show this text, timed on the spoken chunks.
    source_book: Book | None = None
    #: The library the M4B is filed in (--library), whose sidecars the outputs write beside it; None: none.
    library: Path | None = None

    def __post_init__(self) -> None:
        if not self.formats:
            object.__setattr__(self, "formats", (self.fmt,))

    @property
    def chunks(self) -> list[PlannedChunk]:
        return [pc for ch in self.chapters for pc in ch.chunks]


def safe_filename(name: str, fallback: str = "audiobook") -> str:
    """Return `name` made safe as a file name on every common filesystem."""
    cleaned = re.sub(r'[\\/:*?"<>|\x00-\x1f]+', " ", name).strip(" .")
    cleaned = re.sub(r"\s+", " ", cleaned)
    # By bytes, not characters: 120 CJK characters are 360 bytes, over the 255 a name may have.
    return truncate_utf8(cleaned) or fallback


def make_plan(book: Book, identity: dict[str, Any], *, chunk_size: int, fmt: str, output: Path,
              speaker: Speaker | None = None, formats: tuple[str, ...] = (), memo: PlanMemo | None = None,
              casting: Casting | None = None) -> RunPlan:
    """Put the text in spoken form, chunk every chapter and give each chunk its seed and cache key.

    The spoken form is what is cached, synthesized and verified, so it is made
    here, once, before anything is keyed; `speaker` defaults to the book's language.
    A chapter `memo` remembers (app/pipeline/planmemo.py) is not spoken or chunked again.
    With a `casting`, each paragraph is cut where its speaker changes and each chunk is
    keyed with its voice's identity (the narrator's, without a voice of its own, is `identity`).
    """
    # Kept before the spoken-form rewrite of `book`: read-along outputs show the book as written.
    written = book
    speaker = speaker or Speaker(book.language, hints=book.lexicon)
    memo = memo or PlanMemo.disabled()
    said_by = speaker_identity(speaker)
    spoken_chapters, chapters = [], []
    for chapter in book.chapters:
        planned = _plan_chapter(chapter, speaker, said_by, chunk_size, memo, casting)
        if not planned.paragraphs:
            continue  # nothing speakable: the chapter is left out, as Speaker.book leaves it out
        spoken_chapters.append(dataclasses.replace(chapter, paragraphs=planned.paragraphs))
        keyed = tuple(_keyed(chunk, identity, casting) for chunk in planned.chunks)
        if keyed:
            chapters.append(PlannedChapter(spoken_chapters[-1], keyed))
    memo.save()
    spoken = dataclasses.replace(book, chapters=tuple(spoken_chapters), language=said_by["language"])
    return RunPlan(book=spoken, chapters=tuple(chapters), fmt=fmt, output=output, chunk_size=chunk_size,
                   formats=formats or (fmt,), source_book=written)


def _keyed(chunk: Chunk, identity: dict[str, Any], casting: Casting | None) -> PlannedChunk:
    """Return the chunk with its seed and its cache key (by its voice's identity, with a cast)."""
    seed = chunk_seed(chunk.text)
    voice = casting.voice_for(chunk.speaker, chunk.direction) if casting is not None else None
    said_in = identity if voice is None else casting.identity(voice)
    return PlannedChunk(chunk, seed, chunk_key(chunk.text, seed, said_in), voice)


def _plan_chapter(chapter: Chapter, speaker: Speaker, said_by: dict[str, Any], chunk_size: int,
                  memo: PlanMemo, casting: Casting | None = None) -> PlannedText:
    """Return the chapter's spoken paragraphs and chunks: remembered, else made now."""
    cut = casting.chapter_fingerprint(chapter.index) if casting is not None else []
    key = memo.key(chapter, {**said_by, "cast": cut} if cut else said_by, chunk_size)
    remembered = memo.get(key, chapter.index)
    if remembered is not None:
        return remembered
    if cut:
        planned = _cast_chapter(chapter, speaker, said_by["language"], chunk_size, casting)
        memo.put(key, planned)
        return planned
    paragraphs = tuple(p for p in map(speaker, chapter.paragraphs) if is_speakable(p))
    spoken = dataclasses.replace(chapter, paragraphs=paragraphs)
    planned = PlannedText(paragraphs, tuple(chunk_chapter(spoken, chunk_size, said_by["language"])) if paragraphs else ())
    memo.put(key, planned)
    return planned


def _cast_chapter(chapter: Chapter, speaker: Speaker, language: str, chunk_size: int,
                  casting: Casting) -> PlannedText:
    """Return a chapter's spoken paragraphs and chunks, each paragraph cut where its speaker changes.

    Each segment is put in spoken form and chunked on its own, so a chunk never mixes
    speakers; the spoken paragraph is its segments joined (what read-along shows, timed).
    """
    paragraphs: list[str] = []
    chunks: list[Chunk] = []
    for n, written in enumerate(chapter.paragraphs):
        pieces = spoken_segments(written, casting.quotes(chapter.index, n), speaker)
        if not pieces:
            continue
        paragraphs.append(join(pieces))
        for spoken, seg in pieces:
            for text in chunk_paragraph(spoken, chunk_size, language):
                chunks.append(Chunk(chapter.index, len(chunks), text, Pause.SENTENCE, seg.speaker, seg.direction))
        if chunks:
            chunks[-1] = dataclasses.replace(chunks[-1], pause_after=Pause.PARAGRAPH)
    if chunks:
        chunks[-1] = dataclasses.replace(chunks[-1], pause_after=Pause.CHAPTER)
    return PlannedText(tuple(paragraphs), tuple(chunks))


def speaker_identity(speaker: Speaker) -> dict[str, Any]:
    """Return everything about `speaker` that decides what it says (for the plan memo's key)."""
    return {"language": speaker.language.code, "links": speaker.links, "lexicon": speaker.lexicon}


__all__ = ["Pause", "PlannedChunk", "PlannedChapter", "RunPlan", "make_plan", "safe_filename"]

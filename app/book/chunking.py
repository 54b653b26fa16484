"""Cut a chapter into chunks a TTS backend can speak: whole sentences, whole words."""
from __future__ import annotations

import enum
import functools
import re
from dataclasses import dataclass

import pysbd

from app.book.model import Chapter


class Pause(enum.Enum):
    """What follows a chunk, so the assembler can leave the right silence."""

    #: Another sentence of the same paragraph.
    SENTENCE = "sentence"
    #: The next paragraph.
    PARAGRAPH = "paragraph"
    #: The end of the chapter.
    CHAPTER = "chapter"


@dataclass(frozen=True)
class Chunk:
    """One request's worth of text."""

    #: Chapter.index of the chapter it belongs to (1-based).
    chapter_index: int
    #: 0-based position within the chapter.
    index: int
    text: str
    pause_after: Pause


#: pysbd is roughly 40 µs a word and slower on long inputs, so long paragraphs are
#: cut into windows of about this many words at unambiguous sentence ends first.
_WINDOW_WORDS = 120
#: A sentence end that is safe to cut at without pysbd: terminal punctuation,
#: optional closing quotes, whitespace, then an opening quote or a capital.
_SAFE_END = re.compile(r"(?<=[.!?])[\"')\]\u201d\u2019]*\s+(?=[\"'(\[\u201c\u2018]?[A-Z])")
#: Words before a full stop that do not end a sentence.
_ABBREVIATIONS = frozenset(
    "mr mrs ms dr st mt prof sr jr vs etc no vol ch fig gen col capt lt sgt rev hon gov sen rep "
    "jan feb mar apr jun jul aug sep sept oct nov dec inc ltd co corp dept est approx".split()
)
#: Break points inside an over-long sentence, best first.
_BREAKS = (re.compile(r"[;]$"), re.compile(r"[:]$"), re.compile(r"[\u2014\u2013]$|^[\u2014\u2013-]+$"),
           re.compile(r"[,]$"))


@functools.lru_cache(maxsize=8)
def _segmenter(language: str) -> pysbd.Segmenter:
    """Return a pysbd segmenter for a language code ("en-GB" -> "en"; unknown -> English)."""
    code = (language or "en").split("-")[0].split("_")[0].lower()
    if code not in pysbd.languages.LANGUAGE_CODES:
        code = "en"
    return pysbd.Segmenter(language=code, clean=False)


def _windows(paragraph: str) -> list[str]:
    """Return the paragraph cut at safe sentence ends into pieces of about _WINDOW_WORDS words."""
    if len(paragraph) < _WINDOW_WORDS * 8:
        return [paragraph]
    pieces, start, words = [], 0, 0
    last = 0
    for m in _SAFE_END.finditer(paragraph):
        before = paragraph[last:m.start()]
        last = m.start()
        words += before.count(" ") + 1
        word = paragraph[: m.start()].rsplit(None, 1)[-1].rstrip(".!?\"')]\u201d\u2019").lower()
        if words < _WINDOW_WORDS or word in _ABBREVIATIONS or len(word) <= 1 or "." in word:
            continue
        pieces.append(paragraph[start:m.end()])
        start, words = m.end(), 0
    pieces.append(paragraph[start:])
    return [p for p in pieces if p]


def split_sentences(paragraph: str, language: str = "en") -> list[str]:
    """Return the paragraph's sentences, stripped, abbreviation-safe."""
    seg = _segmenter(language)
    out: list[str] = []
    for window in _windows(paragraph):
        if not re.search(r"[.!?\u3002\uff01\uff1f\u0964]", window):
            # Nothing to split at; pysbd would only spend time.
            out.append(window)
            continue
        out.extend(seg.segment(window))
    return [s.strip() for s in out if s.strip()]


def _split_long(sentence: str, max_words: int) -> list[str]:
    """Return an over-long sentence cut at its best punctuation, else at word boundaries."""
    words = sentence.split()
    pieces: list[str] = []
    floor = max(1, max_words // 3)
    while len(words) > max_words:
        cut = max_words
        for pattern in _BREAKS:
            # Prefer the strongest punctuation, as late as fits, but not so early the piece is a stub.
            hits = [k for k in range(floor, max_words + 1) if pattern.search(words[k - 1])]
            if hits:
                cut = hits[-1]
                break
        pieces.append(" ".join(words[:cut]))
        words = words[cut:]
    if words:
        pieces.append(" ".join(words))
    return pieces


def chunk_paragraph(paragraph: str, max_words: int, language: str = "en") -> list[str]:
    """Return a paragraph packed into chunks of whole sentences of up to max_words words."""
    chunks: list[str] = []
    current: list[str] = []
    count = 0
    for sentence in split_sentences(paragraph, language):
        n = len(sentence.split())
        parts = [sentence] if n <= max_words else _split_long(sentence, max_words)
        for part in parts:
            n = len(part.split())
            if current and count + n > max_words:
                chunks.append(" ".join(current))
                current, count = [], 0
            current.append(part)
            count += n
    if current:
        chunks.append(" ".join(current))
    return chunks


def chunk_chapter(chapter: Chapter, max_words: int, language: str = "en") -> list[Chunk]:
    """Return the chapter's chunks in order, each marked with the pause that follows it."""
    if max_words < 1:
        raise ValueError(f"max_words must be at least 1, not {max_words}")
    chunks: list[Chunk] = []
    for paragraph in chapter.paragraphs:
        texts = chunk_paragraph(paragraph, max_words, language)
        for i, text in enumerate(texts):
            pause = Pause.PARAGRAPH if i == len(texts) - 1 else Pause.SENTENCE
            chunks.append(Chunk(chapter.index, len(chunks), text, pause))
    if chunks:
        last = chunks[-1]
        chunks[-1] = Chunk(last.chapter_index, last.index, last.text, Pause.CHAPTER)
    return chunks

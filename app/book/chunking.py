"""Cut a chapter into chunks a TTS backend can speak: whole sentences, whole words."""
from __future__ import annotations

import enum
import functools
import re
from dataclasses import dataclass

import pysbd

from app.book.model import Chapter
from app.book.normalize import is_speakable


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
    #: Who says it (app/cast): a character's name, or None for the narrator. A chunk never mixes speakers.
    speaker: str | None = None
    #: Delivery from the dialogue tag ("Whispering."), for a model that takes instructions.
    direction: str | None = None


#: A sentence end that is safe to cut at without pysbd: terminal punctuation,
#: optional closing quotes, whitespace, then an opening quote or a capital.
_SAFE_END = re.compile(r"(?<=[.!?])[\"')\]\u201d\u2019]*\s+(?=[\"'(\[\u201c\u2018]?[A-Z])")
#: How far back the word before a sentence end is looked for (a bounded look keeps the scan linear).
_LOOKBACK = 64
#: Words before a full stop that do not end a sentence.
_ABBREVIATIONS = frozenset(
    "mr mrs ms dr st mt prof sr jr vs etc no vol ch fig gen col capt lt sgt rev hon gov sen rep "
    "jan feb mar apr jun jul aug sep sept oct nov dec inc ltd co corp dept est approx".split()
)
#: Break points inside an over-long sentence, best first.
_BREAKS = (re.compile(r"[;]$"), re.compile(r"[:]$"), re.compile(r"[\u2014\u2013]$|^[\u2014\u2013-]+$"),
           re.compile(r"[,]$"))


#: A sentence mark with more text after it: the piece may hold several sentences (or an abbreviation).
_INNER_STOP = re.compile(r"[.!?\u3002\uff01\uff1f\u0964][\"')\]\u201d\u2019]*\s*\S")
#: A stretch longer than this (about 1,500 words) with no safe sentence end is cut at whitespace,
#: and ambiguous sentences are handed to pysbd in runs of about this size.
_MAX_WINDOW_CHARS = 10_000
#: Tokens longer than this are not words (see split_tokens).
_MAX_TOKEN_CHARS = 45
_LONG_TOKEN = re.compile(r"\S{%d}" % (_MAX_TOKEN_CHARS + 1))
#: Characters per piece of a broken-up token.
_TOKEN_PIECE = 8


@functools.lru_cache(maxsize=8)
def _segmenter(language: str) -> pysbd.Segmenter:
    """Return a pysbd segmenter for a language code ("en-GB" -> "en"; unknown -> English)."""
    code = (language or "en").split("-")[0].split("_")[0].lower()
    if code not in pysbd.languages.LANGUAGE_CODES:
        code = "en"
    return pysbd.Segmenter(language=code, clean=False)


def _lossless_segments(seg: pysbd.Segmenter, text: str) -> list[str]:
    """Return pysbd's sentences of `text` as slices that rejoin into it exactly.

    pysbd (0.3.4, clean=False) keeps nearly every character but drops a run of marks that ends the
    text after a full stop ("Wait.?!" gives "Wait."): what it left out goes back to the sentence
    before it, so a chunk never loses what the book says. Should pysbd ever change a sentence (so it
    is no slice of the text), the text stays one piece rather than being lost or repeated.
    """
    pieces: list[str] = []
    pos = 0
    for sentence in seg.segment(text):
        at = text.find(sentence, pos) if sentence else pos
        if at < 0:
            return [text]
        if pieces:
            pieces[-1] += text[pos:at]
            pieces.append(sentence)
        else:
            pieces.append(text[pos:at] + sentence)
        pos = at + len(sentence)
    if pos < len(text):
        if pieces:
            pieces[-1] += text[pos:]
        else:
            pieces.append(text[pos:])
    return pieces


def _bounded(window: str) -> list[str]:
    """Return a window no safe sentence end could cut, cut at whitespace into pysbd-sized pieces.

    Text without capitals after its full stops (or without punctuation at all) would
    otherwise reach pysbd whole, which takes minutes on megabytes; a cut at a space
    every _MAX_WINDOW_CHARS characters is a pause in the wrong place once in a long while.
    """
    if len(window) <= _MAX_WINDOW_CHARS:
        return [window]
    out, start = [], 0
    while len(window) - start > _MAX_WINDOW_CHARS:
        end = start + _MAX_WINDOW_CHARS
        # Prefer the last sentence punctuation before the limit, else the last space.
        stop = max(window.rfind(". ", start, end), window.rfind("! ", start, end), window.rfind("? ", start, end))
        cut = stop + 2 if stop > start else window.rfind(" ", start, end) + 1
        if cut <= start:  # one enormous token: cut it anyway (split_tokens breaks it up later)
            cut = end
        out.append(window[start:cut])
        start = cut
    out.append(window[start:])
    return out


def split_tokens(text: str) -> str:
    """Return `text` with tokens longer than _MAX_TOKEN_CHARS broken into _TOKEN_PIECE-character pieces.

    No word is that long (the longest English ones are ~45 letters); such a token is
    a URL, a hash or base64. Whole, it is one "word" a voice spells for a minute,
    which the quality check rightly calls runaway audio and the book fails after
    four identical renders. In pieces it is read as what it is, and each piece
    counts as a word for chunk sizes and duration checks.
    """
    if not _LONG_TOKEN.search(text):
        return text
    out = []
    for token in text.split(" "):
        if len(token) > _MAX_TOKEN_CHARS:
            token = " ".join(token[i:i + _TOKEN_PIECE] for i in range(0, len(token), _TOKEN_PIECE))
        out.append(token)
    return " ".join(out)


def _safe_sentences(paragraph: str) -> list[str]:
    """Return the paragraph cut at every unambiguous sentence end (see _SAFE_END and _ABBREVIATIONS).

    One pass over the text: a 2 MB hard-wrapped paragraph has tens of thousands of
    sentence ends, and copying the text before each of them (as this once did) made
    planning quadratic (57 s before the first request).
    """
    pieces, start = [], 0
    for m in _SAFE_END.finditer(paragraph):
        tail = paragraph[max(0, m.start() - _LOOKBACK):m.start()].rsplit(None, 1)
        word = tail[-1].rstrip(".!?\"')]\u201d\u2019").lower() if tail else ""
        if word in _ABBREVIATIONS or len(word) <= 1 or "." in word:
            continue
        pieces.append(paragraph[start:m.end()])
        start = m.end()
    pieces.append(paragraph[start:])
    return pieces


#: Whether text holds something a voice can say: a letter or a digit of any script (the same test
#: planning drops wordless paragraphs with).
has_word = is_speakable


def count_words(text: str) -> int:
    """Return the words of text: its whitespace-separated tokens that have a word (a dash is none)."""
    return sum(1 for token in text.split() if has_word(token))


def _attach_wordless(pieces: list[str], sep: str = "") -> list[str]:
    """Return consecutive pieces with every piece that has no word joined to its neighbour.

    A closing quote pysbd cuts off ("blood." + "”"), an ellipsis or dash standing alone: on its
    own such a piece is a request for no words (Piper returns no audio, a model makes noise), so it
    travels with the words before it, or, opening the run, with the words after it. With sep=""
    the pieces are raw slices of one text and are joined exactly as they stood.
    """
    out: list[str] = []
    lead = ""
    for piece in pieces:
        if has_word(piece):
            out.append(lead + piece)
            lead = ""
        elif out:
            out[-1] = out[-1] + sep + piece if sep and piece.strip() else out[-1] + piece
        elif piece.strip():
            lead += piece + sep
    if lead and out:
        out[0] = lead + out[0]
    return out


def split_sentences(paragraph: str, language: str = "en") -> list[str]:
    """Return the paragraph's sentences, stripped, abbreviation-safe.

    Only the sentences with a full stop, ! or ? that is not an unambiguous sentence end
    ("Mr. Smith", "3.50", a lower-case sentence start) go to pysbd (roughly 40 µs a
    word), in runs of neighbours; plain prose is cut at its unambiguous ends, which
    keeps a whole novel's planning to seconds.
    """
    seg = _segmenter(language)
    out: list[str] = []
    run: list[str] = []
    size = 0

    def flush() -> None:
        nonlocal size
        if run:
            out.extend(_lossless_segments(seg, "".join(run)))
            run.clear()
            size = 0

    for piece in _safe_sentences(paragraph):
        for part in _bounded(piece):
            if _INNER_STOP.search(part.rstrip()):
                run.append(part)
                size += len(part)
                if size > _MAX_WINDOW_CHARS:
                    flush()
                continue
            flush()
            out.append(part)
    flush()
    # pysbd keeps every character (clean=False), so the raw pieces rejoin into the paragraph exactly.
    return [s.strip() for s in _attach_wordless(out) if s.strip()]


def _split_long(sentence: str, max_words: int) -> list[str]:
    """Return an over-long sentence cut at its best punctuation, else at word boundaries."""
    words = sentence.split()
    pieces: list[str] = []
    floor = max(1, max_words // 3)
    start = 0  # an index, not a shrinking copy: a million-word "sentence" stays linear
    while len(words) - start > max_words:
        cut = max_words
        for pattern in _BREAKS:
            # Prefer the strongest punctuation, as late as fits, but not so early the piece is a stub.
            hits = [k for k in range(floor, max_words + 1) if pattern.search(words[start + k - 1])]
            if hits:
                cut = hits[-1]
                break
        while start + cut < len(words) and not has_word(words[start + cut]):
            cut += 1  # a closing quote or a dash after the cut goes with the words before it
        pieces.append(" ".join(words[start:start + cut]))
        start += cut
    if start < len(words):
        pieces.append(" ".join(words[start:]))
    return _attach_wordless(pieces, " ")


def chunk_paragraph(paragraph: str, max_words: int, language: str = "en") -> list[str]:
    """Return a paragraph packed into chunks of whole sentences of up to max_words words.

    Every chunk has a word (see has_word); a paragraph with none gives no chunk at all.
    """
    if not has_word(paragraph):
        return []
    chunks: list[str] = []
    current: list[str] = []
    count = 0
    for sentence in split_sentences(split_tokens(paragraph), language):
        n = count_words(sentence)
        parts = [sentence] if len(sentence.split()) <= max_words else _split_long(sentence, max_words)
        for part in parts:
            n = count_words(part)
            if current and count + n > max_words:
                chunks.append(" ".join(current))
                current, count = [], 0
            current.append(part)
            count += n
    if current:
        chunks.append(" ".join(current))
    return _attach_wordless(chunks, " ")


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
        chunks[-1] = Chunk(last.chapter_index, last.index, last.text, Pause.CHAPTER, last.speaker, last.direction)
    return chunks

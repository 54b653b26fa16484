"""SRT and WebVTT captions on the M4B's timeline: one cue per sentence, chapter titles as cues.

A sentence's cue stays up until the next one starts, so the pauses are covered
and the last cue ends where the audiobook ends. A sentence too long to read
as one caption is split at its clauses, its time shared by characters.
"""
from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from pathlib import Path

from app.core.files import write_bytes_atomic
from app.output.timing import ChapterTiming

#: Two lines of 42 characters: the common broadcast and streaming caption limit. A cue holds a
#: little less than both lines' worth, since lines break between words.
LINE_CHARS = 42
MAX_CUE_CHARS = 2 * LINE_CHARS - 6
#: A chapter title that is not read aloud is shown this long over the chapter's first words.
TITLE_SECONDS = 2.0
_CLAUSE = re.compile(r"(?<=[,;:\u2014\u2013])\s+")


@dataclass(frozen=True)
class Cue:
    id: str
    start: float
    end: float
    text: str


def book_cues(chapters: list[ChapterTiming]) -> list[Cue]:
    """Return the book's cues in time order on the concatenated chapters' timeline."""
    cues: list[Cue] = []
    offset = 0.0
    total = sum(ch.duration for ch in chapters)
    flat = []
    for ch in chapters:
        if not ch.title_spoken:
            cues.append(Cue(f"c{ch.index:02d}-title", offset, offset + min(TITLE_SECONDS, ch.duration), ch.title))
        for i, s in enumerate(ch.sentences):
            start = offset if i == 0 else offset + s.start  # the chapter's first cue opens with it
            flat.append((s, start))
        offset += ch.duration
    for n, (s, start) in enumerate(flat):
        end = flat[n + 1][1] if n + 1 < len(flat) else total
        cues.extend(_split_cue(s.id, start, max(end, start), s.text))
    cues.sort(key=lambda c: (c.start, not c.id.endswith("-title")))
    return cues


def _split_cue(cue_id: str, start: float, end: float, text: str) -> list[Cue]:
    """Return one cue, or several split at clauses when the text is too long to read as one."""
    pieces = _clauses(text) if len(text) > MAX_CUE_CHARS else [text]
    if len(pieces) == 1:
        return [Cue(cue_id, start, end, text)]
    total = sum(len(p) for p in pieces)
    out, t = [], start
    for k, piece in enumerate(pieces):
        nxt = end if k == len(pieces) - 1 else t + (end - start) * len(piece) / total
        out.append(Cue(f"{cue_id}-{k + 1}", t, nxt, piece))
        t = nxt
    return out


def _clauses(text: str) -> list[str]:
    """Return `text` cut at clause punctuation into pieces of at most MAX_CUE_CHARS where it can be."""
    pieces: list[str] = []
    for part in _CLAUSE.split(text):
        if pieces and len(pieces[-1]) + 1 + len(part) <= MAX_CUE_CHARS:
            pieces[-1] += " " + part
        else:
            pieces.append(part)
    out: list[str] = []
    for piece in pieces:  # a clause still too long: cut between words into even parts
        out.extend(_even_parts(piece) if len(piece) > MAX_CUE_CHARS else [piece])
    return out


def _even_parts(text: str) -> list[str]:
    """Return `text` cut between words into the fewest parts of about equal length that fit a cue."""
    words = text.split()
    parts = -(-len(text) // MAX_CUE_CHARS)
    while True:
        target = len(text) / parts
        out, current = [], ""
        for word in words:
            if current and (len(current) + 1 + len(word) > target + 8 or len(current) + 1 + len(word) > MAX_CUE_CHARS):
                out.append(current)
                current = word
            else:
                current = f"{current} {word}" if current else word
        out.append(current)
        if all(len(p) <= MAX_CUE_CHARS for p in out) or parts > len(words):
            return out
        parts += 1


def _lines(text: str) -> str:
    """Return the cue text on one line, or two balanced ones (broken at the space nearest the middle)."""
    if len(text) <= LINE_CHARS:
        return text
    fits = [i for i, ch in enumerate(text) if ch == " " and max(i, len(text) - i - 1) <= LINE_CHARS]
    if fits:
        cut = min(fits, key=lambda i: abs(i - len(text) / 2))
        return f"{text[:cut]}\n{text[cut + 1:]}"
    return "\n".join(textwrap.wrap(text, LINE_CHARS)) or text


def _stamp(seconds: float, sep: str) -> str:
    ms = round(max(0.0, seconds) * 1000)
    h, rem = divmod(ms, 3_600_000)
    m, rem = divmod(rem, 60_000)
    s, ms = divmod(rem, 1000)
    return f"{h:02d}:{m:02d}:{s:02d}{sep}{ms:03d}"


def _vtt_text(text: str) -> str:
    # & < > are markup in a cue payload; escaping ">" also keeps "-->" out of it.
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def render_vtt(cues: list[Cue]) -> str:
    blocks = ["WEBVTT"]
    for c in cues:
        blocks.append(f"{c.id}\n{_stamp(c.start, '.')} --> {_stamp(c.end, '.')}\n{_vtt_text(_lines(c.text))}")
    return "\n\n".join(blocks) + "\n"


def render_srt(cues: list[Cue]) -> str:
    blocks = []
    for n, c in enumerate(cues, 1):
        blocks.append(f"{n}\n{_stamp(c.start, ',')} --> {_stamp(c.end, ',')}\n{_lines(c.text)}")
    return "\n\n".join(blocks) + "\n"


def write_captions(chapters: list[ChapterTiming], out: Path, fmt: str) -> Path:
    """Write the book's captions as `fmt` ("srt" or "vtt") to `out` atomically."""
    cues = book_cues(chapters)
    text = render_vtt(cues) if fmt == "vtt" else render_srt(cues)
    write_bytes_atomic(out, text.encode("utf-8"))
    return out

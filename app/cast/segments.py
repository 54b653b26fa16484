"""A paragraph cut where its speaker changes: narration, then each quotation in its speaker's voice.

The narration around a quote (`said Hartley`) is the narrator's; a quote whose speaker
is unknown stays with the narration around it, so a paragraph with no attributed
quote is one piece, as without a cast.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from app.book.normalize import is_speakable
from app.cast.delivery import direction_of
from app.cast.model import Quote


@dataclass(frozen=True)
class Segment:
    """A stretch of a paragraph said by one voice."""

    text: str
    #: A Character.name, or None for the narrator.
    speaker: str | None = None
    #: Delivery from the tag ("Whispering."), None without one.
    direction: str | None = None
    #: Whitespace stood before it in the paragraph (so joining the segments gives the paragraph back).
    spaced: bool = True


def split_paragraph(paragraph: str, quotes: Sequence[Quote]) -> list[Segment]:
    """Return `paragraph` as consecutive segments, one per change of speaker (text stripped, none empty)."""
    spans = sorted((q for q in quotes if q.speaker and 0 <= q.start < q.end <= len(paragraph)),
                   key=lambda q: q.start)
    pieces: list[tuple[int, int, str | None, str | None]] = []  # (start, end, speaker, direction)
    pos = 0
    for q in spans:
        if q.start < pos:
            continue  # overlapping spans (a nested quote): the outer one speaks
        pieces.append((pos, q.start, None, None))
        pieces.append((q.start, q.end, q.speaker, direction_of(q.verb, q.manner)))
        pos = q.end
    pieces.append((pos, len(paragraph), None, None))
    kept: list[list] = []
    for start, end, speaker, direction in pieces:
        text = paragraph[start:end]
        if not text.strip():
            continue
        start += len(text) - len(text.lstrip())
        end -= len(text) - len(text.rstrip())
        if kept and kept[-1][2:] == [speaker, direction]:
            kept[-1][1] = end  # the same voice goes on: one segment, spaced as written
        else:
            kept.append([start, end, speaker, direction])
    return [Segment(paragraph[a:b], speaker, direction, a > 0 and paragraph[a - 1].isspace())
            for a, b, speaker, direction in kept]


def spoken_segments(paragraph: str, quotes: Sequence[Quote], say: Callable[[str], str]) -> list[tuple[str, Segment]]:
    """Return the paragraph's segments in spoken form (`say`), each with its segment; silent ones dropped."""
    return [(spoken, seg) for seg in split_paragraph(paragraph, quotes) for spoken in (say(seg.text),)
            if is_speakable(spoken)]


def join(pieces: Sequence[tuple[str, Segment]]) -> str:
    """Return spoken segments joined as the paragraph spaced them."""
    out = ""
    for text, seg in pieces:
        out += (" " if out and seg.spaced else "") + text
    return out

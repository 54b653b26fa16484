"""A paragraph cut where its speaker changes: narration, then each quotation in its speaker's voice.

The narration around a quote (`said Holmes`) is the narrator's; a quote whose speaker
is unknown stays with the narration around it, so a paragraph with no attributed
quote is one piece, as without a cast.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from app.cast.delivery import direction_for
from app.cast.model import Quote


@dataclass(frozen=True)
class Segment:
    """A stretch of a paragraph said by one voice."""

    text: str
    #: A Character.name, or None for the narrator.
    speaker: str | None = None
    #: Delivery from the tag ("Whispering."), None without one.
    direction: str | None = None


def split_paragraph(paragraph: str, quotes: Sequence[Quote]) -> list[Segment]:
    """Return `paragraph` as consecutive segments, one per change of speaker (text stripped, none empty)."""
    spans = sorted((q for q in quotes if q.speaker and 0 <= q.start < q.end <= len(paragraph)),
                   key=lambda q: q.start)
    pieces: list[Segment] = []
    pos = 0
    for n, q in enumerate(spans):
        if q.start < pos:
            continue  # overlapping spans (a nested quote): the outer one speaks
        nxt = spans[n + 1].start if n + 1 < len(spans) else None
        pieces.append(Segment(paragraph[pos:q.start]))
        pieces.append(Segment(paragraph[q.start:q.end], q.speaker,
                              direction_for(paragraph, q.start, q.end, nxt, pos)))
        pos = q.end
    pieces.append(Segment(paragraph[pos:]))
    merged: list[Segment] = []
    for piece in pieces:
        text = piece.text.strip()
        if not text:
            continue
        if merged and merged[-1].speaker == piece.speaker and merged[-1].direction == piece.direction:
            merged[-1] = Segment(f"{merged[-1].text} {text}", piece.speaker, piece.direction)
        else:
            merged.append(Segment(text, piece.speaker, piece.direction))
    return merged

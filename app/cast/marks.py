"""The cast a Markdown file written by --export-text says: each marked quotation's speaker.

The marks (app/book/formats/mdrender.py SPEAKER_MARK) are found again in the book read from
the file, in order: each is looked for after the previous one, so a line the user
corrected is found where it stands. The marks are the user's word: a quotation
without one is the narrator's. The marks say who, not how: each marked quotation's
tag verb and adverb (its delivery) are the engine's reading of the same text.
"""
from __future__ import annotations

from collections import Counter
from typing import Sequence

from app.cast.model import Cast, Character, Quote
from app.cast import find_cast

#: Quotation marks around a marked quotation's words.
_MARKS = "\"'\u201c\u201d\u2018\u2019\u00ab\u00bb\u201e\u201a\u2039\u203a \u2014"


def cast_from_marks(book, marks: Sequence[tuple[str, str]]) -> tuple[Cast, int]:
    """Return the cast `marks` ((text, speaker) in document order) give `book`, and how many were not found."""

    places = [(c.index, n, p) for c in book.chapters for n, p in enumerate(c.paragraphs)]
    tags = {(q.chapter, q.paragraph, q.start): (q.verb, q.manner) for q in find_cast(book).quotes}
    quotes: list[Quote] = []
    at, offset, lost = 0, 0, 0
    for text, speaker in marks:
        found = None
        for i in range(at, len(places)):
            start = places[i][2].find(text, offset if i == at else 0)
            if start >= 0 and text:
                found = (i, start)
                break
        if found is None:
            lost += 1
            continue
        at, start = found
        offset = start + len(text)
        chapter, paragraph, _ = places[at]
        verb, manner = tags.get((chapter, paragraph, start), ("", ""))
        quotes.append(Quote(chapter, paragraph, start, offset, text.strip(_MARKS), speaker or None, "marked", 1.0,
                            verb=verb, manner=manner))
    counts = Counter(q.speaker for q in quotes if q.speaker)
    return Cast(tuple(Character(name, (), None, n) for name, n in counts.most_common()), tuple(quotes), False), lost

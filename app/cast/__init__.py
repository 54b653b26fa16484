"""Who says each line of a book (placeholder until the rules engine lands: double quotes, `said NAME` tags)."""
from __future__ import annotations

import re
from collections import Counter

from app.cast.model import Cast, Character, Quote

_QUOTE = re.compile(r"\u201c[^\u201c\u201d]*\u201d|\"[^\"]*\"")
_TAG = re.compile(r"^[\s,.;:!?\u2014-]*(?:said|asked|replied|cried|shouted|whispered) "
                  r"((?:Mr\.|Mrs\.|Miss|Dr\.)?\s*[A-Z][a-z]+)")


def find_cast(book, *, cancel=None) -> Cast:
    """Return the quotations of `book` (double quotes) and the speakers `said NAME` names."""
    quotes = []
    for chapter in book.chapters:
        for p, text in enumerate(chapter.paragraphs):
            for m in _QUOTE.finditer(text):
                if cancel is not None and cancel.is_set():
                    break
                tag = _TAG.match(text[m.end():])
                speaker = " ".join(tag.group(1).split()) if tag else None
                quotes.append(Quote(chapter.index, p, m.start(), m.end(), m.group(0)[1:-1], speaker,
                                    "explicit" if speaker else "none", 1.0 if speaker else 0.0))
    counts = Counter(q.speaker for q in quotes if q.speaker)
    characters = tuple(Character(name, (), None, n) for name, n in counts.most_common())
    return Cast(characters, tuple(quotes), False)

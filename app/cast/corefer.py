"""Where the text itself says a titled surname is a full-named person: "Amos Vell came in ... Mr. Vell sat
down", the titled form written soon after the full name in one paragraph, no other name of that surname
between (app/cast/joins.py asks, before a join that counts of name forms alone would make)."""
from __future__ import annotations

from collections import Counter
from typing import Iterable

from app.cast.mention import MENTION, split_mention

#: The titled surname follows the full name within this many characters (a sentence or two).
_NEAR = 250


def titled_after_full(texts: Iterable[str]) -> Counter:
    """Count, per (title, surname, given name), the places where "Title Surname" follows "Given Surname"
    (with or without that title) in one paragraph, within _NEAR characters, with no other mention of the
    surname between ("Amos Vell, or Mr. Vell as the village called him"). A father "Mr. Vell" beside a son
    "Ned Vell" is linked only where the book writes them so close that no one else of the name intervenes;
    the joins that read this ask for it on top of their own guards, never instead of them."""
    out: Counter = Counter()
    for text in texts:
        # surname -> (title the chain runs under or None, given name, end of the last mention)
        last: dict[str, tuple[str | None, str | None, int]] = {}
        for m in MENTION.finditer(text):
            title, tokens = split_mention(m)
            if len(tokens) >= 2:
                last[tokens[-1]] = (title, tokens[0], m.end())
            elif title and tokens:
                prev = last.get(tokens[0])
                if prev and prev[1] and prev[0] in (None, title) and m.start() - prev[2] <= _NEAR:
                    out[(title, tokens[0], prev[1])] += 1
                    last[tokens[0]] = (title, prev[1], m.end())
                else:
                    last[tokens[0]] = (title, None, m.end())
    return out

"""Who the narration touching a turn's quotes is about: the ranker's beat features (app/cast/ranker.py).

"Mara set down her cup. “Not tonight.”" / "“Not tonight.” Mara set down her cup." / a narration paragraph
closing "Mara, with a glance at the door, took up the subject again." before a paragraph that opens with the
quote: the sentence next to the quotation has a named person as its subject, and that person most often
speaks. Most often, not always: in two-person talk the sentence between two lines is the listener's reaction
about as often, so round cast25a found this a losing rule when it decided the line. Here it only says who
the touching sentences are about, and the ranker, trained on the corpus, weighs it against the turns.

Only a person the book vouches for (a given name, a title, an earlier speech tag: `personal`) counts, and only
a name opening its sentence (after an opener such as "But" or "Then"), never a name inside it.
"""
from __future__ import annotations

import re
from typing import Callable, Iterable, NamedTuple

from app.cast.person import Person

Mentions = Callable[[str], Iterable[tuple[int, int, Person]]]
#: Words that may open a sentence before its subject ("But Mara ...", "Here Mara ...", "Then, Mara ...").
_OPENER = re.compile(r"(?:(?:and|but|then|here|now|so|presently|meanwhile|still|at last|at length|suddenly)"
                     r"\b[\s,]*)*", re.I)
#: A sentence ends at . ! ? (a closing quote mark or bracket may follow) and the next one starts after a space.
_END = re.compile(r"[.!?][\"'\u201d\u2019)]*\s+")


class Touching(NamedTuple):
    """The named subjects of the narration sentences next to a turn's quotes (None where there is none)."""

    #: The last sentence before the turn's first quote, in its own paragraph.
    before: Person | None = None
    #: The closing sentence of the narration paragraph right before, when the turn opens with its quote.
    previous: Person | None = None
    #: The first sentence after the turn's last quote, in its own paragraph.
    after: Person | None = None


def _subject(sentence: str, mentions: Mentions, personal: Callable[[Person], bool]) -> Person | None:
    """Return the named person who opens the sentence (after an opener such as "But"), else None."""
    for start, end, person in mentions(sentence):
        lead = sentence[:start].strip(" \t\n,\u2014-_")
        if _OPENER.fullmatch(lead) and personal(person) and not sentence.startswith(("'s", "\u2019s"), end):
            return person
        return None
    return None


def closing_subject(text: str, mentions: Mentions, personal: Callable[[Person], bool]) -> Person | None:
    """Return the named subject of text's last sentence: the narration right before a quotation."""
    body = text.rstrip()
    if not body or body[-1] not in ".!?\u2014-":
        return None  # "Mara said," or "Mara answered:" are tags, and a clause running into the quote is no beat
    cuts = [m.end() for m in _END.finditer(body[:-1])]
    return _subject(body[cuts[-1] if cuts else 0:], mentions, personal)


def opening_subject(text: str, mentions: Mentions, personal: Callable[[Person], bool]) -> Person | None:
    """Return the named subject of text's first sentence, when it starts right after the quotation."""
    body = text.lstrip()
    if not body or not body[0].isupper():
        return None  # "“No,” Mara said" is a tag; lower case goes on with the quote's sentence
    m = _END.search(body)
    return _subject(body[:m.end()] if m else body, mentions, personal)


def touching(pieces: list[str], quotes: list, previous: str, mentions: Mentions,
             personal: Callable[[Person], bool]) -> Touching:
    """Return who the sentences touching a turn are about.

    pieces: the paragraph's narration around its quotes (pieces[0] before the first, pieces[-1] after the
    last); quotes: the paragraph's quotes (RawQuote: their .text); previous: the narration paragraph right before ("" when the
    paragraph before had quotes).
    """
    first, last = pieces[0], pieces[-1]
    # After a quote ending in a comma ("“Still,” Tobin said.") the sentence goes on: a tag, not a beat.
    ends = quotes[-1].text.rstrip(" \u201d\u2019\"'").endswith((".", "!", "?", "\u2014", "-"))
    return Touching(closing_subject(first, mentions, personal) if first.strip() else None,
                    closing_subject(previous, mentions, personal) if previous and not first.strip() else None,
                    opening_subject(last, mentions, personal) if ends and last.strip() else None)

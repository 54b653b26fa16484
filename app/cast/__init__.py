"""The cast of a book: its dialogue, its characters, and who says each line (rules, no model).

find_cast(book) is plain data in, plain data out: the planner splits chapters into per-speaker segments
from Cast.quotes (chapter, paragraph, start, end); the narration around a quote stays the narrator's.
"""
from __future__ import annotations

import functools
import re
import threading
from collections import Counter
from typing import TYPE_CHECKING

from app.cast.attribution import NARRATOR, Attributor
from app.cast.turns import Said
from app.cast.dialogue import RawQuote, detect_marks, find_quotes
from app.cast.model import Cast, Character, Quote
from app.cast.names import find_people
from app.cast.owned import part_names
from app.cast.pairjoin import Evidence, PairModel, any_candidates, join, pairs
from app.cast.corefer import titled_after_full
from app.cast.roles import find_roles
from app.cast.unnamed import first_named
from app.cast.ranker import Ranker
from app.cast.tags import Tag, tag_after, tag_before
from app.core.errors import Cancelled

if TYPE_CHECKING:
    from app.book.model import Book

__all__ = ["Cast", "Character", "Quote", "find_cast", "find_quotes_in_text"]

_FIRST_PERSON = re.compile(r"\b(?:I|me|my|myself|mine)\b")
_WORD = re.compile(r"\w+")
#: First-person pronouns per narration word above which the narration is in the first person.
_FIRST_PERSON_SHARE = 0.012


def find_quotes_in_text(text: str) -> list[tuple[int, int, str]]:
    """Return (start, end, text) of each quotation in one paragraph of text, with the marks it uses."""
    return [(q.start, q.end, q.text) for q in find_quotes([text])]


def _narration(text: str, quotes: list[RawQuote]) -> str:
    parts, at = [], 0
    for q in quotes:
        parts.append(text[at:q.start])
        at = q.end
    parts.append(text[at:])
    return " ".join(parts)


def _tagged_names(text: str, quotes: list[RawQuote]) -> list[Tag]:
    """Return the name tags around one paragraph's quotes ("said Whitcombe", "said the Heron"), and those of a
    description with what tells its person apart ("said the man in the grey coat")."""
    out = []
    for n, q in enumerate(quotes):
        after = text[q.end:quotes[n + 1].start if n + 1 < len(quotes) else len(text)]
        before = text[quotes[n - 1].end if n else 0:q.start]
        tag = (tag_after(after) if after.strip() else None) or (tag_before(before) if before.strip() else None)
        if tag is not None and (tag.kind == "name" or tag.epithet):
            out.append(tag)
    return out


def is_first_person(narration: list[str]) -> bool:
    """Return whether narration (the text outside quotations) is told by an "I"."""
    words = pronouns = 0
    for text in narration:
        words += len(_WORD.findall(text))
        pronouns += len(_FIRST_PERSON.findall(text))
    return words > 0 and pronouns / words > _FIRST_PERSON_SHARE


_SHIPPED = object()
#: A description with what tells its person apart ("said the man in the grey coat") that this many tags use is
#: how the book names someone (a part of its own). Written once or twice, it may be a named person met before
#: the book names him (on PDNC's tuning half, twice: a board's chairman, named in the next scene).
_EPITHET_TAGS = 3


def find_cast(book: "Book", *, cancel: threading.Event | None = None, ranker=_SHIPPED, log: list | None = None,
              joiner=_SHIPPED, pair_log: list | None = None) -> Cast:
    """Return the book's characters and every quotation with who says it, in book order.

    ranker: the learned ranker over each turn's candidates (app/cast/ranker.py); the shipped model by
    default, None for the rules alone. log gets every turn's candidates (scripts/train_cast_ranker.py).
    joiner: the learned join of two characters into one person (app/cast/pairjoin.py); the shipped model by
    default, None for the name rules alone. pair_log gets every candidate pair (scripts/train_cast_joins.py).
    """
    if ranker is _SHIPPED:
        ranker = _shipped_ranker()
    if joiner is _SHIPPED:
        joiner = _shipped_joiner()
    paragraphs = [p for c in book.chapters for p in c.paragraphs]
    convention = detect_marks(paragraphs)
    found: list[tuple[int, list[list[RawQuote]]]] = []
    narration: list[str] = []
    tagged: list[Tag] = []
    for chapter in book.chapters:
        _check(cancel)
        raw = find_quotes(chapter.paragraphs, convention)
        per_paragraph: list[list[RawQuote]] = [[] for _ in chapter.paragraphs]
        for q in raw:
            per_paragraph[q.paragraph].append(q)
        found.append((chapter.index, per_paragraph))
        narration.extend(_narration(t, qs) for t, qs in zip(chapter.paragraphs, per_paragraph))
        tagged.extend(name for t, qs in zip(chapter.paragraphs, per_paragraph) if qs for name in _tagged_names(t, qs))
    first_person = is_first_person(narration)
    epithets = Counter(t.epithet for t in tagged if t.epithet)
    tagged = [t for t in tagged if t.kind == "name"]
    roster = find_people(paragraphs, [t.words for t in tagged], [t.words for t in tagged if not t.article])
    roster.roles = find_roles(narration, roster)
    roster.part_names = part_names(narration) if first_person else {}
    roster.newcomers = first_named(((t, len(qs) + 1 if qs else 1) for chapter, (_, per) in zip(book.chapters, found)
                                    for t, qs in zip(chapter.paragraphs, per)), roster.mentions)
    attributor = Attributor(roster, first_person)
    attributor.epithets = {words for words, n in epithets.items() if n >= _EPITHET_TAGS}
    located: list[tuple[int, int, RawQuote]] = []
    for chapter, (index, per_paragraph) in zip(book.chapters, found):
        _check(cancel)
        for n, (text, qs) in enumerate(zip(chapter.paragraphs, per_paragraph)):
            attributor.paragraph(text, qs, len(located))
            located.extend((index, n, q) for q in qs)
    said = attributor.finish(ranker, log)
    if first_person:
        said = _narrator_by_name(said, attributor)
    if (joiner is not None or pair_log is not None) and any_candidates(roster.people):
        evidence = Evidence(attributor.turns, said, paragraphs, roster)
        if joiner is not None:
            said = join(said, roster.people, evidence, titled_after_full(paragraphs), joiner, pair_log)
        else:
            pair_log.extend(pairs(roster.people, evidence, titled_after_full(paragraphs)))
    names = {id(p): p.name for p in roster.people}
    lines: Counter = Counter()
    quotes = []
    for (chapter, paragraph, q), s in zip(located, said):
        narrator = s.person is NARRATOR
        speaker = None if s.person is None or narrator else names[id(s.person)]
        if speaker:
            lines[id(s.person)] += 1
        quotes.append(Quote(chapter, paragraph, q.start, q.end, q.text, speaker, s.method,
                            round(s.confidence, 2), by_narrator=narrator, verb=s.verb, manner=s.manner))
    characters = [Character(p.name, tuple(n for n in p.names() if n != p.name), p.gender, lines[id(p)])
                  for p in roster.people if lines[id(p)]]
    characters.sort(key=lambda c: (-c.lines, c.name))
    return Cast(tuple(characters), tuple(quotes), first_person)


#: A named character is the first-person narrator when no speech tag in the narration names them (the
#: narrator says "said I") on more than this share of their lines, and others address them by name.
_NARRATOR_TAGGED_SHARE = 0.05
_NARRATOR_ADDRESSED = 5
#: Or: others address them by name and the next turn is the narrator's own tagged answer ("said I") this
#: many times, and on at least half the turns they are addressed. The answer is the book's evidence that the
#: name is the "I"'s, whatever title goes with it ("Captain Orrick" in a book Orrick tells); someone who merely
#: talks with the narrator is addressed mostly by others, or answers himself.
_NARRATOR_ANSWERED = 5


def _narrator_by_name(said: list, attributor: Attributor) -> list:
    """In a book told by an "I", the character others call by name but no tag names is the narrator
    ("my dear Whitcombe" in a book Whitcombe tells): their lines are the narrator's, one voice, not two."""
    addressed: Counter = Counter(id(p) for t in attributor.turns for p in t.addressed)
    lines: Counter = Counter()
    tagged: Counter = Counter()
    by_id = {}
    for s in said:
        if s.person is not None and s.person is not NARRATOR:
            lines[id(s.person)] += 1
            tagged[id(s.person)] += s.method == "explicit"
            by_id[id(s.person)] = s.person
    answered = _answered_by_narrator(attributor.turns)
    plain = {"Dr", "Mr", "Miss", "Mrs"}
    fits = [k for k in lines if tagged[k] <= _NARRATOR_TAGGED_SHARE * lines[k] and (
            (lines[k] >= 10 and addressed[k] >= _NARRATOR_ADDRESSED and by_id[k].titles.keys() <= plain)
            or (answered[k] >= _NARRATOR_ANSWERED and 2 * answered[k] >= addressed[k]))]
    if not fits:
        return said
    me = by_id[max(fits, key=lambda k: addressed[k])]
    # The narrator's other names are the narrator too ("Miss Dane", "Miss Ada" beside "Ada Dane"): the same
    # surname or given name, no other one, no title the narrator never bears, and no tag naming them.
    mine = {id(me)} | {k for k, p in by_id.items() if addressed[k] and tagged[k] <= _NARRATOR_TAGGED_SHARE * lines[k]
                       and _other_name_of(p, me)}
    return [Said(NARRATOR, s.method, s.confidence, s.verb, s.manner) if id(s.person) in mine else s for s in said]


def _answered_by_narrator(turns: list) -> Counter:
    """Count, for each person, the turns that address them by name and that the narrator's own tagged line
    ("said I") answers next."""
    out: Counter = Counter()
    for turn, reply in zip(turns, turns[1:]):
        if reply.said is not None and reply.said.person is NARRATOR and reply.said.method == "explicit":
            out.update({id(p) for p in turn.addressed})
    return out


def _other_name_of(person, me) -> bool:
    """Return whether person is a shorter name of me: a surname or given name of me's alone, or both."""
    if person is me or not person.titles.keys() <= me.titles.keys():
        return False
    consistent = person.first in ("", me.first) and person.last in ("", me.last)
    return consistent and bool((person.first and me.first) or (person.last and me.last))


@functools.lru_cache(maxsize=1)
def _shipped_joiner() -> PairModel | None:
    return PairModel.shipped()


@functools.lru_cache(maxsize=1)
def _shipped_ranker() -> Ranker | None:
    return Ranker.shipped()


def _check(cancel: threading.Event | None) -> None:
    if cancel is not None and cancel.is_set():
        raise Cancelled("Finding the cast was cancelled")

"""The character list of a LitBank novel against its gold people: junk, merged and split (issue 31).

The issue's hidden cases ask, among characters with 10 or more lines: no junk character, no two people
merged, at most one person split into two. LitBank annotates only a book's opening (~2,000 words), so a
character of the whole book is judged where the opening can judge it:

- **major**: the app's characters with MIN_LINES or more lines in the whole book (the narrator's voice of a
  first-person book counts as one more, when it has that many lines);
- **person**: a major character whose names map to a LitBank entity of category PER (cast_litbank's
  `map_character`, or its unnamed-person rule), or the narrator's voice;
- **junk**: a major character whose names map to an entity that is no person (a place, a house, a ship:
  LitBank's FAC, GPE, LOC, ORG, VEH), or whose main name is written in the opening outside every
  annotated mention (a capitalised phrase no annotator took for anyone: "Lord And"); a name written inside
  a person's longer mention ("Vell, who was then their chief") is that person;
- **unknown**: the rest (named only after the opening: the opening cannot say);
- **merged**: a major character two of whose name forms each name one different PER entity and no other
  ("Dick" with the alias "Richard Joyce" when the opening has both a Dick and a Richard Joyce), each of the
  two named at least twice or speaking in the opening (a king the opening names once is no one's voice);
- **split**: a PER entity that two or more major characters hold by one of their name forms written as the
  opening writes one of its names (or through the unnamed-person rule), the narrator's voice among them when
  the entity is the one "I" refers to. A surname alone maps to the one entity of that surname, so "Mr. Quellby"
  would map to the opening's only Quellby, "Mrs. Quellby": that is no evidence of one person, and does not count.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

#: Lines a character needs to count (the issue's threshold).
MIN_LINES = 10
_WORDS = re.compile(r"[A-Za-z]+")


@dataclass
class CastCheck:
    major: int = 0
    people: int = 0
    unknown: int = 0
    junk: list[str] = field(default_factory=list)
    merged: list[str] = field(default_factory=list)
    split: list[str] = field(default_factory=list)

    def add(self, other: "CastCheck") -> None:
        self.major += other.major
        self.people += other.people
        self.unknown += other.unknown
        self.junk += other.junk
        self.merged += other.merged
        self.split += other.split


def categories(mentions: list[tuple[str, str]]) -> dict[str, str]:
    """Return each entity's category: the one most of its mentions carry ((entity, category) pairs)."""
    votes: dict[str, Counter] = {}
    for entity, category in mentions:
        votes.setdefault(entity, Counter())[category] += 1
    return {e: c.most_common(1)[0][0] for e, c in votes.items()}


def _written(form: str, words: list[str]) -> bool:
    want = _WORDS.findall(form)
    n = len(want)
    return bool(want) and any(words[i:i + n] == want for i in range(len(words) - n + 1))


def check_cast(cast, mapped: dict[str, str], names: dict[str, set[str]], category: dict[str, str],
               narrator: str | None, excerpt_words: list[str], norm, weight: Counter,
               by_name: set[str], mention_words: list[tuple[str, list[str]]] = ()) -> CastCheck:
    """Judge one book's characters of MIN_LINES or more lines (see the module docstring).

    mapped: Character.name -> entity (cast_litbank's mapping, the unnamed rule included); names: each
    entity's normalised names; category: each entity's category; excerpt_words: the opening's words;
    weight: each entity's proper-name mentions and gold quotations; by_name: the characters mapped by name;
    mention_words: each annotated mention's entity and words."""
    out = CastCheck()
    holders: dict[str, list[str]] = {}
    narrator_lines = sum(1 for q in cast.quotes if q.by_narrator)
    if narrator_lines >= MIN_LINES:
        out.major += 1
        out.people += 1
        if narrator is not None:
            holders.setdefault(narrator, []).append(f"<narrator> ({narrator_lines})")
    for c in cast.characters:
        if c.lines < MIN_LINES:
            continue
        out.major += 1
        label = f"{c.name} ({c.lines})"
        entity = mapped.get(c.name)
        if entity is not None and category.get(entity, "PER") != "PER":
            out.junk.append(f"{label}: {category[entity]} {entity}")
            continue
        if entity is None:
            inside = {e for e, words in mention_words if _written(c.name, words)}
            if any(category.get(e, "PER") == "PER" for e in inside):
                out.people += 1
            elif inside:
                out.unknown += 1  # inside a place's or a firm's name: maybe the person it is named for
            elif _written(c.name, excerpt_words):
                out.junk.append(f"{label}: written in the opening, no one's name")
            else:
                out.unknown += 1
            continue
        out.people += 1
        people = set()
        for form in (c.name, *c.aliases):
            hits = {e for e, forms in names.items() if norm(form) in forms}
            if len(hits) == 1 and category.get(next(iter(hits)), "PER") == "PER" and weight[next(iter(hits))] >= 2:
                people |= hits
        if entity in people or c.name not in by_name:
            holders.setdefault(entity, []).append(label)
        if len(people) > 1:
            out.merged.append(f"{label}: {', '.join(sorted(people))}")
    out.split = [f"{e}: {'; '.join(h)}" for e, h in holders.items() if len(h) > 1]
    return out


CHECK_HEADER = ("| book | characters >= 10 lines | people | unknown | junk | merged | split |\n"
                "|---|---|---|---|---|---|---|")


def check_row(label: str, c: CastCheck) -> str:
    return (f"| {label} | {c.major} | {c.people} | {c.unknown} | {len(c.junk)} | {len(c.merged)} | "
            f"{len(c.split)} |")

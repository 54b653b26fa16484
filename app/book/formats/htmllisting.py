"""A contents listing set in pieces: the parts of one listing that the walk and the page give apart, or
in columns."""
from __future__ import annotations

import bisect
import re
from typing import TypeVar

from app.book.formats.htmlnesting import chapter_level
from app.book.normalize import clean_text
from app.book.structure.blocks import Block

E = TypeVar("E")


def joined(found: list[tuple[list[E], set[int]]],
           spans: list[tuple[int, int]]) -> list[tuple[list[E], set[int]]]:
    """Return the listings made of pieces that touch: a contents set partly in skipped paragraphs
    (class="toc": the preface, the introduction) and partly in a table of its chapters, one after the other.
    Taken apart, the table alone would leave the preface before it unread as front matter."""
    order = sorted(range(len(found)), key=lambda k: spans[k])
    out: list[tuple[list[E], set[int]]] = []
    group = order[:1]
    for k in order[1:] + [None]:
        if k is not None and spans[k][0] <= max(spans[g][1] for g in group):
            group.append(k)
            continue
        if len(group) > 1:
            out.append(([e for g in group for e in found[g][0]], set().union(*(found[g][1] for g in group))))
        group = [k]
    return out


#: How many of a listing's entries may point back (one in twenty) before its links are cross-references.
_BACK_SHARE = 20


def in_order(blocks: list, targets: list[int], placed: list[int],
             starts: dict[int, str]) -> tuple[list[int], list[int], dict[int, str]]:
    """Return a listing's targets, chapter starts and entries in reading order, where only a few (one in
    twenty) point back: a long listing that names its appendix before its preface. Such an entry still
    starts a chapter where it names a heading, and is left out where it does not. More than a few, and the
    listing is left as it was, for is_listing to refuse (links in running text point anywhere)."""
    keep = _longest_in_order(placed)
    back = [n for n in range(len(placed)) if n not in keep]
    if not back or len(back) > len(placed) // _BACK_SHARE:
        return targets, placed, starts
    keep |= {n for n in back if blocks[placed[n]].level}
    order = sorted(keep, key=lambda n: placed[n])
    kept = {placed[n] for n in order}
    return ([targets[n] for n in order], [placed[n] for n in order],
            {k: t for k, t in starts.items() if k in kept or k not in {placed[n] for n in back}})


def _longest_in_order(placed: list[int]) -> set[int]:
    """Return the indices of the longest run of entries, not necessarily adjacent, in reading order."""
    tails: list[int] = []  # tails[k]: index of the smallest last value of an in-order run of length k + 1
    before: list[int] = [-1] * len(placed)
    for n, p in enumerate(placed):
        k = bisect.bisect_right([placed[t] for t in tails], p)
        before[n] = tails[k - 1] if k else -1
        if k == len(tails):
            tails.append(n)
        else:
            tails[k] = n
    keep, n = set(), tails[-1] if tails else -1
    while n >= 0:
        keep.add(n)
        n = before[n]
    return keep


#: How many words of its own (to the next heading at its level or above) an unlisted heading after the
#: last listed chapter needs to be a chapter: a vita or an appended piece, never a caption or a rule's line.
_TRAILING_WORDS = 100
#: What follows a book's last chapter that is the publisher's or the apparatus's, not the author's piece:
#: a glossary, advertisements, a publisher's list ("Uniform with this volume", "Books by the same author").
_AFTER_MATTER = re.compile(r"^(?:glossary|vocabulary|advertisements?|catalogue|uniform with|(?:other |new )?books\b|"
                           r"by the same (?:author|writer)|works by|also by|publishers?\b|press notices|opinions of the press)",
                           re.I)


def back_links(blocks: list, where: dict[str, int], i: int, is_contents_head) -> set[str]:
    """Return the targets of block i's links back at headings before it where the block opens a contents
    listing (straight under its "CONTENTS" heading, or under entries of that kind): a preface set before
    the contents and listed first. Elsewhere a link back is a cross-reference, no entry."""
    k = i - 1
    while k >= 0 and not blocks[k].level and blocks[k].links and all(where.get(t, k) < k for t, _ in blocks[k].links):
        k -= 1  # an entry above it of the same kind
    if k < 0 or not blocks[k].level or not is_contents_head(clean_text(blocks[k].text).strip()):
        return set()
    return {t for t, _ in blocks[i].links if 0 <= where.get(t, -1) < k and blocks[where[t]].level}


def column_row(text: str) -> str:
    """Return a table row's text as one entry: its cells are set apart with "; " ("V.; Whitman's Ride" is one
    entry's label and name). The first row may carry the columns' heads ("Chapter; I.; Page; 1"): the page
    column's head, in a cell of its own, is no word of the entry, and the label column's joins the number."""
    row = re.sub(r"(?:;\s*)+(?:pag|page|pages|pp?)\.?\s*(?=;|$)", "", text.rstrip(), flags=re.I)
    row = re.sub(r"(?<=[.:])\s*;\s+", " ", row)
    return re.sub(r"^\s*(chapter|chap\.|book|part|letter|canto)\s*;\s*", r"\1 ", row, flags=re.I)


def is_publishers_list(text: str) -> bool:
    """Return whether a listing's entry names the publisher's pages after the text (advertisements, other
    books, press notices), not the author's: a glossary or vocabulary is the book's own."""
    name = text.strip(" .:")
    return bool(_AFTER_MATTER.match(name)) and not re.match(r"(?:glossary|vocabulary)\b", name, re.I)


def with_trailing(blocks: list, starts: dict[int, str], is_matter) -> dict[int, str]:
    """Return the starts with the headings a listing leaves out after its last chapter, at that chapter's
    level: an author's vita after the references, or the chapters of a last piece whose listed page opens
    on its picture ("CHAPTER I", "CHAPTER II" after the last entry). Unlisted, they would all be read as
    the last chapter's text. After a listed index or notes, or a glossary or a publisher's list, what follows
    is theirs and is left alone."""
    last = max(starts, default=None)
    if last is None or not blocks[last].level:
        return starts
    # The chapters' level, not a listed section's under the last chapter ("Summary", "References").
    level = chapter_level(blocks, starts) or blocks[last].level
    last = max(k for k in starts if 0 < blocks[k].level <= level or k == last)
    if is_matter(starts[last]):
        return starts
    # A heading straight under another at its level names it ("CHAPTER III." / "THE WEIR."), no chapter of
    # its own; under a heading above its level (a last piece's title over its "CHAPTER I."), it is the first.
    own_heads = [k for k in range(min(starts), len(blocks)) if blocks[k].level == level and k not in starts
                 and not (k and blocks[k - 1].level >= level)]
    # Where the listing leaves out headings at its level between its chapters too ("TABLE 2" in each),
    # it lists what it means to: those after its last chapter are of the same kind.
    if sum(1 for k in own_heads if k < last) > sum(1 for k in starts if blocks[k].level == level) // 10:
        return starts
    heads = [k for k in range(last + 1, len(blocks)) if blocks[k].level and blocks[k].level <= level]
    added = {}
    for k, nxt in zip(heads, heads[1:] + [len(blocks)]):
        own = sum(len(blocks[j].text.split()) for j in range(k + 1, nxt) if not blocks[j].level)
        name = blocks[k].text.strip(" .:")
        if is_matter(name) or _AFTER_MATTER.match(name):
            break  # the headings after a publisher's list or an index are its own (the books it offers)
        if k in own_heads and own >= _TRAILING_WORDS:
            added[k] = blocks[k].text
    return {**starts, **added}


def by_columns(entries: list[E], where: dict[str, int], rows: list[Block], min_entries: int) -> list[E]:
    """Return a listing's entries in reading order where its table sets them in columns, one volume or part
    a column ("Volume I | Volume II", then "CHAPTER I | CHAPTER I" ...): read row by row its links jump
    back and forth, read column by column they run in order. Only a table whose rows mostly hold several
    links, and whose links all point at different places; a listing read row by row is left as it is."""
    linked = [e for e in entries if e.target]
    several = sum(1 for b in rows if sum(1 for t, _ in b.links if t in where) > 1)
    if several < max(min_entries, len(rows) // 2) or len({e.target for e in linked}) < len(linked):
        return entries
    if all(where[a.target] <= where[b.target] for a, b in zip(linked, linked[1:])):
        return entries
    return sorted(linked, key=lambda e: where[e.target])


def numbered_keys(number: str) -> set[str]:
    """Return the keys of the headings a bare numbered entry ("iii", "chapter iii") may name."""
    bare = re.sub(r"^(?:chapter|chap|book|part|letter|stave|canto) ", "", number)
    return {bare, *(f"{word} {bare}" for word in ("chapter", "chap", "book", "part", "letter", "stave", "canto"))}


def is_listing(blocks: list[Block], targets: list[int], placed: list[int], starts: dict[int, str]) -> bool:
    """Return whether links are the book's contents: in reading order, at headings, spanning the page.

    Cross-references in running text (a list of "see also" links) point anywhere; a contents listing
    points forward, in reading order, at headings, and what it lists starts before most of the text and
    reaches the last part of the page.
    """
    if any(b < a for a, b in zip(placed, placed[1:])):
        return False
    at_headings = sum(1 for k in starts if blocks[k].level)
    # An appendix's own listing ("No. I." .. "No. V."), or a listing's second half alone, points only past
    # most of the text: taken for the book's, it would leave everything before it as front matter, unread.
    before = sum(len(b.text.split()) for b in blocks[:min(starts)])
    total = sum(len(b.text.split()) for b in blocks)
    # The last entry stands in the second half, or what follows it is no longer than twice the longest
    # listed piece (a novel's second part, longer than its first, begins before the middle).
    spans = [b - a for a, b in zip(placed, placed[1:])]
    reaches = targets[-1] >= 0.5 * len(blocks) or (spans and len(blocks) - placed[-1] <= 2 * max(spans))
    return at_headings >= 0.8 * len(starts) and reaches and before < 0.5 * total


def names_alike(entry: str, heading: str) -> bool:
    """Return whether a listing entry's name and a heading's (as keys) name one piece in other words: "later
    naval services of ann b lee" for the heading "later naval service of ann lee". Producers retype the
    contents; nearly every word of each (a plural as its singular, initials left out) stands in the other."""
    def words(key: str) -> set[str]:
        return {w[:-1] if len(w) > 3 and w.endswith("s") else w for w in key.split() if len(w) > 1}
    a, b = words(entry), words(heading)
    common = len(a & b)
    return min(len(a), len(b)) >= 3 and common >= 0.75 * len(a) and common >= 0.75 * len(b)

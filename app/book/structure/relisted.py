"""A contents listing's entries taken for the body's headings, found again and dropped (issue 32).

A listing the reader did not read as one (its entries with synopses, its pages missing, a list of pictures
after it) leaves its entries among the chosen headings: each names a chapter the body heads again later.
"""
from __future__ import annotations

from app.book.structure.lines import SMALL_WORDS, Heading, Para
from app.book.structure.listing import name_key


def listed_again(chosen: list[Heading], paras: list[Para]) -> list[Heading]:
    """Return the chapters without the entries of a contents listing taken for headings: a numbered heading
    ("BOOK I." over its name) that heads no prose of its own before the next one (the listing's lines, short
    and ending in their pages), and whose word and number
    come back later ("BOOK I" over the text), is the listing's entry; the later one is the heading. (A part's
    label over its first chapter heads no prose either, but its number does not come back.)"""
    later: dict[tuple[str, str, int], int] = {}
    for c in chosen:
        if c.number is not None and c.kind in ("part", "chapter"):
            later[(c.kind, c.word, c.number)] = later.get((c.kind, c.word, c.number), 0) + 1
    own = [_own_words(chosen, n, paras) for n in range(len(chosen))]
    entry = [_entry_told(chosen, n, own) for n in range(len(chosen))]
    out = []
    for n, c in enumerate(chosen):
        key = (c.kind, c.word, c.number)
        if c.number is not None and c.kind in ("part", "chapter"):
            later[key] -= 1
            end = chosen[n + 1].para if n + 1 < len(chosen) else len(paras)
            start = (c.sub_para if c.sub_para is not None else c.para) + 1
            if later[key] > 0 and listing_lines(paras[start:end]):
                continue
        # An entry with its synopsis and no page ("CHAPTER I" / its name / "The ferry--A storm--..."):
        # a few lines where its namesake later heads a chapter many times as long.
        # A listing lists several: a lone short chapter (a first part's short first chapter, numbered
        # again in the next part) is no entry.
        if entry[n] and (n > 0 and entry[n - 1] or n + 1 < len(chosen) and entry[n + 1]):
            continue
        out.append(c)
    return out if len(out) >= 2 else chosen


def _entry_told(chosen: list[Heading], n: int, own: list[int]) -> bool:
    """Return whether heading n is short and its namesake later heads a chapter many times as long.

    The namesake of a numbered heading has its word and number; of a named one ("THE MOLE AT HOME." over a
    synopsis of the essay's topics in an analytical contents listing, round txt23), its name."""
    c = chosen[n]
    if own[n] >= _SYNOPSIS_WORDS or not (c.number is not None and c.kind in ("part", "chapter") or c.kind == "named"):
        return False
    again = next((m for m in range(n + 1, len(chosen)) if _namesakes(c, chosen[m])), None)
    return again is not None and own[n] * _SYNOPSIS_SHARE < own[again]


def _namesakes(c: Heading, d: Heading) -> bool:
    """Return whether heading d names c's chapter again: the same word and number, or for named headings
    nearly the same words (an entry's name is often a little longer or shorter than the heading's)."""
    if c.kind != "named":
        return (d.kind, d.word, d.number) == (c.kind, c.word, c.number)
    a, b = (set(name_key(h.label)) - SMALL_WORDS for h in (c, d))  # ("THE MOLE" and "THE HEDGEHOG": not one)
    return d.kind == "named" and bool(a and b) and len(a & b) >= _NAME_SHARE * min(len(a), len(b))


def _own_words(chosen: list[Heading], n: int, paras: list[Para]) -> int:
    c = chosen[n]
    end = chosen[n + 1].para if n + 1 < len(chosen) else len(paras)
    start = (c.sub_para if c.sub_para is not None else c.para) + 1
    return sum(len(p.text.split()) for p in paras[start:end])


#: A listed entry's synopsis has fewer words than this, and its namesake's chapter this many times as many.
_SYNOPSIS_WORDS = 500
_SYNOPSIS_SHARE = 8
#: Share of the shorter name's words two names of one chapter have in common.
_NAME_SHARE = 0.6


def listing_lines(paras: list[Para]) -> bool:
    """Return whether paragraphs are a listing's lines, not a chapter's text: nearly none, or many of their
    lines ending in a page number ("I. THE MILL     3"), or many paragraphs (a chapter's synopsis, "The
    mill--A flood--The ferry      1–25")."""
    lines = [ln.strip() for p in paras for ln in p.lines]
    if sum(len(ln.split()) for ln in lines) < _LISTING_FEW_WORDS:
        return True
    # Entries end in their pages, line by line or (a synopsis of the chapter run on) paragraph by paragraph.
    paged = sum(1 for ln in lines if ln[-1:].isdigit()) >= _LISTING_PAGED * len(lines)
    return paged or sum(1 for p in paras if p.lines[-1].strip()[-1:].isdigit()) >= _LISTING_PAGED_PARAS * len(paras)


#: Words under a numbered heading too few for any text, and the share of lines ending in a page that makes a listing.
_LISTING_FEW_WORDS = 20
_LISTING_PAGED = 0.25
_LISTING_PAGED_PARAS = 0.4


def listed_before(chosen: list[Heading], paras: list[Para]) -> bool:
    """Return whether the text before the first chapter names several of the chapters on short lines of their
    own: a contents listing however it is set (its entries over synopses, round txt23), so the text before
    the first chapter is the front matter, not a chapter titled by the book."""
    if not chosen:
        return False
    names = {tuple(name_key(c.label)) for c in chosen if c.kind == "named"} - {()}
    named = sum(1 for p in paras[:chosen[0].para] if len(p.lines) == 1 and tuple(name_key(p.text)) in names)
    return named >= _LISTED_BEFORE


#: Chapters named before the first one that make the text before it a listing.
_LISTED_BEFORE = 3

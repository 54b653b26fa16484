"""A contents listing set in pieces: the parts of one listing that the walk and the page give apart."""
from __future__ import annotations

import bisect
from typing import TypeVar

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
    listing is left as it was, for _is_listing to refuse (links in running text point anywhere)."""
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

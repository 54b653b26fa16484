"""A contents listing set in pieces: the parts of one listing that the walk and the page give apart."""
from __future__ import annotations

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

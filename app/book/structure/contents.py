"""The headings of a plain-text book's body that its contents listing names.

Entries (read by listing.py) are matched to body headings in order, by number, kind and name, so a
numbered stanza or a later part's "Chapter I" is not taken for this one; a short listing's numbering goes
on past its end, and a listing of parts alone keeps the chapters inside each part.
"""
from __future__ import annotations

import bisect
import re

from app.book.structure.lines import LAST, Heading, Para, clean_line, keyword_match, smart_title
from app.book.structure.listing import ContentsEntry, find_contents, is_contents_label, name_key

__all__ = ["ContentsEntry", "beyond_listing", "find_contents", "is_contents_label", "match_contents", "within_parts"]


def _names_agree(a: str, b: str) -> bool:
    """Return whether two chapter names are the same one (a contents entry is often longer or shorter)."""
    ka, kb = set(name_key(a)), set(name_key(b))
    if not ka or not kb:
        return False
    return len(ka & kb) / min(len(ka), len(kb)) >= 0.6


class _Index:
    """Candidates and short paragraphs looked up by number and by words, so matching a listing of
    thousands of entries against thousands of headings stays linear (a hostile file is bounded too)."""

    def __init__(self, cands: list[Heading], paras: list[Para]) -> None:
        self.by_number: dict[tuple[bool, int | None], list[int]] = {}
        self.by_label: dict[tuple[str, ...], list[int]] = {}
        for n, c in enumerate(cands):
            if c.kind in ("part", "chapter", "numeral"):
                self.by_number.setdefault((c.kind == "part", c.number), []).append(n)
            self.by_label.setdefault(tuple(name_key(c.label)), []).append(n)
        #: Each candidate's paragraph, in order.
        self.paras = [c.para for c in cands]
        self.short: dict[tuple[str, ...], list[int]] = {}
        for j, p in enumerate(paras):
            text = p.text.strip()
            if len(p.lines) <= 2 and not text.startswith("[") and not (text.endswith("]") and "[" not in text):
                # (A picture's caption, or the last paragraph of one run over several, names no heading.)
                self.short.setdefault(tuple(name_key(p.text)), []).append(j)

    def fits(self, e: ContentsEntry, pos: int, limit: int = 64) -> list[int]:
        """Return the indexes (from pos on, the first few) of candidates with the entry's number and kind."""
        # A part entry ("Book the First") is a part heading; a chapter entry a chapter or numeral.
        found = self.by_number.get((e.part, e.number), [])
        k = bisect.bisect_left(found, pos)
        return found[k:k + limit]

    @staticmethod
    def after(found: list[int], pos: int) -> int | None:
        k = bisect.bisect_left(found, pos)
        return found[k] if k < len(found) else None


def _name(c: Heading) -> str:
    """Return the name a heading gives its chapter: its title line, or what follows its number."""
    m = keyword_match(c.label)
    return c.subtitle or (m.group("rest").strip(" .:-\u2013\u2014") if m else "")


def _next_found(entries: list[ContentsEntry], i: int, index: _Index, cands: list[Heading], since: int) -> int:
    """Return the paragraph where the next entry's own heading stands (by its name or number), from `since` on:
    a listed name set otherwise in the body is looked for before it, never past it."""
    if i >= len(entries):
        return _NOT_FOUND
    e = entries[i]
    if e.label:
        key = tuple(name_key(e.label))
        found = [j for j in (index.after(index.short.get(key, []), since),) if j is not None]
        n = index.after(index.by_label.get(key, []), bisect.bisect_left(index.paras, since))
        if n is not None:
            found.append(cands[n].para)
        return min(found, default=_NOT_FOUND)
    fits = index.fits(e, bisect.bisect_left(index.paras, since), 1)
    return cands[fits[0]].para if fits else _NOT_FOUND


_NOT_FOUND = 10**9


def _named_by_words(label: str, paras: list[Para], since: int, until: int) -> int | None:
    """Return the first heading-like paragraph from `since` on (before `until`, where the next entry stands)
    that holds every word of a listed name, in any order, and few others: short (three lines at most), set
    apart or in capitals. None when none is near."""
    want = set(name_key(label))
    if not want:
        return None
    for j in range(since, min(len(paras), since + _WORDS_WINDOW, until)):
        p = paras[j]
        if len(p.lines) > 3:
            continue
        text = clean_line(p.text)
        if text.startswith(("[", "(")) or text[-1:].isdigit() or text.endswith("]") and "[" not in text:
            # "[Illustration: Ann Lee]": a picture's caption names the piece too, above its heading (its last
            # paragraph alone, "THE FERRY]", where the caption runs over several); "Lee, Ann, 1820, 14": an
            # index's line, ending in its page.
            continue
        have = name_key(text)
        if len(have) > 2 * len(want) + _EXTRA_WORDS or not want <= set(have) or len(want) < 2 and len(have) > 1:
            continue  # (a name of one word is found only as a heading of that word alone)
        if p.gap >= 2 or text.isupper():
            return j
    return None


#: Paragraphs searched past the last match for a listed name set otherwise in the body, and the words a
#: heading may have beyond the listed name's (a rank, a title, a second line: "HON.", "A NOTE.").
_WORDS_WINDOW = 1000
_EXTRA_WORDS = 3


def match_contents(entries: list[ContentsEntry], cands: list[Heading], paras: list[Para], start: int = 0,
                   free: bool = False) -> list[Heading]:
    """Return the headings of the body (from paragraph start on) that the contents entries name, in order.

    A listed name the body sets in other words (its words in another order, a rank or a second line added) is
    looked for between the headings of the entries around it; with `free`, also where the next entry's heading
    is not found either (a listing the body heads in other words throughout)."""
    index = _Index(cands, paras)
    where = {id(c): n for n, c in enumerate(cands)}
    # For each entry, the next numbered entry after it (the bound of a heading named otherwise).
    following: list[ContentsEntry | None] = [None] * len(entries)
    nxt: ContentsEntry | None = None
    for i in range(len(entries) - 1, -1, -1):
        following[i] = nxt
        if entries[i].number is not None:
            nxt = entries[i]
    numbered = any(e.number is not None for e in entries)
    chosen: list[Heading] = []
    pos = 0
    for i, e in enumerate(entries):
        if e.label:
            n = index.after(index.by_label.get(tuple(name_key(e.label)), []), pos)
            hit = cands[n] if n is not None else None
            if hit is None:
                # A group label ("HISTORICAL NOTES.") stands as a line of its own, not a heading word.
                # (Among numbered entries, not before the first heading: a title page repeats the names.)
                since = chosen[-1].para + 1 if chosen else (
                    (cands[0].para if cands else len(paras)) if numbered else start)
                idx = index.after(index.short.get(tuple(name_key(e.label)), []), since)
                if idx is None:
                    # Named otherwise in the body: "PROLOGUE. A NOTE. THE FERRY" listed as "PROLOGUE. THE
                    # FERRY"; "HON. ANN LEE." listed as "LEE, ANN".
                    since = chosen[-1].para + 1 if chosen else start
                    until = _next_found(entries, i + 1, index, cands, since)
                    if free or until < _NOT_FOUND:
                        idx = _named_by_words(e.label, paras, since, until)
                if idx is not None:
                    # Among numbered entries a label groups chapters; in a listing of names it is one.
                    hit = Heading(idx, "part" if numbered else "named", "", None, clean_line(paras[idx].text))
                    chosen.append(hit)
                    pos = bisect.bisect_right(index.paras, idx)
                continue
        else:
            fits = index.fits(e, pos)
            named = [n for n in fits if e.name and _names_agree(_name(cands[n]), e.name)]
            if not named and e.name and not e.part:
                # "CHAPTER THE LAST." over the name the listing numbers ("XXII. How It Ended"): its name decides.
                named = [n for n in index.by_number.get((False, LAST), []) if n >= pos
                         and _names_agree(_name(cands[n]), e.name)][:1]
            unnamed = [n for n in fits if not (e.name and _name(cands[n]))]
            # A heading named otherwise than the entry ("Letter from Miss Ann Grey" for "Letters--Wenna
            # and Ann") is still this chapter when it comes before the next entry's; after it, it is a
            # later part's chapter of the same number.
            after = following[i]
            bound = (index.fits(after, pos, 1) or [len(cands)])[0] if after else len(cands)
            pick = (named or unnamed or [n for n in fits if n < bound] or [None])[0]
            if pick is None:
                continue
            hit = cands[pick]
            named_label = (m := keyword_match(hit.label)) and m.group("rest").strip(" .:")
            if e.name and not hit.subtitle and not named_label:
                hit.subtitle = smart_title(e.name)  # the body numbers it; the contents names it
        chosen.append(hit)
        pos = where[id(hit)] + 1 if id(hit) in where else pos
    return chosen


def beyond_listing(chosen: list[Heading], cands: list[Heading]) -> list[Heading]:
    """Return the chapters with those a short listing leaves out: a prelude before, the numbering's rest and
    a finale after ("CHAPTER LXXXII." to "LXXXVI.", "FINALE." where the contents stops at LXXXI), and the later
    parts' chapters counting from one again after a part's heading."""
    numbered = [c for c in chosen if c.kind in ("chapter", "numeral") and c.number is not None]
    if not numbered:
        return chosen
    first, last = chosen[0].para, numbered[-1]
    extra = [c for c in cands if c.kind == "named" and (c.para < first or c.para > last.para
                                                         and not _last_topic(last, c))]
    number, part = last.number, None
    for c in cands:
        if c.para <= last.para:
            continue
        if c.kind == "part" and last.kind == "chapter":
            part = c
        elif c.kind == last.kind and c.word == last.word and (c.number == number + 1 or part and c.number == 1):
            # Round txt26: a listing of the first part's chapters only ("Part I" over I-VIII, then the body's
            # "PART II." over "CHAPTER I." ...): a later part restarts the numbering, its chapters are the book's.
            extra += [part, c] if c.number == 1 and part else [c]
            number, part = c.number, None
    return sorted({id(c): c for c in chosen + extra}.values(), key=lambda c: c.para)


def _last_topic(last: Heading, c: Heading) -> bool:
    """Return whether a named heading after the last chapter is that chapter's last topic: its listed title runs
    through its sections ("The Courts and Their Power.--Conclusion"), so its "CONCLUSION" is one of them."""
    title = f"{last.label} {last.subtitle}"
    parts = re.split(r"\s*(?:--|[\u2014\u2013]|\.\s)\s*", title.strip(" .:"))
    return len(parts) > 1 and name_key(parts[-1]) == name_key(c.label) != []


def within_parts(chosen: list[Heading], cands: list[Heading]) -> list[Heading]:
    """Return the chapters with those inside a listed part: a listing of parts alone ("PART I", "PART II")
    over a body that numbers its chapters from one in each part names the parts, not the chapters. So does a
    collection's listing of pieces by name where one piece is a work in chapters ("THE CARTER'S TALE" over
    its "CHAPTER I" to "CHAPTER V", or a tale in two, "CHAPTER I" and "CHAPTER II"): two or more, counting from one."""
    out = list(chosen)
    for n, part in enumerate(chosen):
        if part.kind not in ("part", "named"):
            continue
        end = chosen[n + 1].para if n + 1 < len(chosen) else 10**9
        inner = [c for c in cands if part.para < c.para < end and c.kind == "chapter"]
        least = 2
        if len(inner) >= least and [c.number for c in inner] == list(range(1, len(inner) + 1)):
            out += inner
    return sorted({id(c): c for c in out}.values(), key=lambda c: c.para)

"""What follows a plain-text book's own text: its closing line's back matter and the publisher's lists.

Printed books end, after the last chapter, in the publisher's lists of other books: "WORKS BY THE SAME
AUTHOR.", a series' name over its titles ("THE HOME LIBRARY"), a season's announcements, each title
with its format, binding and price ("Crown 8vo, cloth, $1.50", "12mo. 3s. 6d. net"). Gutenberg's plain
texts keep them, set apart as the chapters are, so the rules read them as chapters. They are no part of
the author's text: the run of them that ends the book is headed as back matter, read only with the
book's other matter.
"""
from __future__ import annotations

import re
from dataclasses import replace

from app.book.narration.cleanup import is_apparatus_title, is_matter_title
from app.book.structure.lines import CLOSING, Heading, Para, clean_line

#: The titles given to what precedes a book's listed chapters and follows its closing line (matter).
FRONT_MATTER = "Front matter"
BACK_MATTER = "Back matter"

#: A heading that names a publisher's list whatever follows it.
_LIST_NAME = re.compile(
    r"\b(?:by the same (?:author|writer|editor)|(?:books|works|novels|stories) by|publications|catalogue|catalog|"
    r"announcements?|advertisements|uniform with|in preparation|now ready|just published|publishers?)\b", re.I)
#: A heading that may name one (a series, a library, somebody's novels), when its section is priced too.
_SERIES_NAME = re.compile(r"\b(?:series|library|books|works|novels|stories|editions?|handbooks|men of letters)\b", re.I)
#: The book trade's marks: a price, a format ("$1.25", "3s. 6d.", "50 cents", "Crown 8vo", "12mo", "post free"); a
#: price in a list's column without its sign, the trade's "net" after it (".75 net", "1.25 net": round html26).
_TRADE = re.compile(r"[$£]\s?\d|\b\d+s\.|\b\d+d\.|\b\d+\s?cents\b|\b(?:12|16|18|24|32)mo\b|\b(?:[48]vo|4to)\b|"
                    r"(?:\b\d+)?\.\d\d\s+net\b|"
                    r"\bpost(?:age)?[ -]?(?:free|paid)\b|\bpostpaid\b", re.I)
#: A list is short: a section of more words is the book's own text, however it reads.
_MAX_WORDS = 4000
#: Trade marks per word of a section priced through, whatever its name (a title, its format and price, a review).
_PRICED = 0.03
#: A section shorter than a page (a single advertisement) may name its price at its foot.
_PAGE_WORDS = 200
#: A list's entries: of its paragraphs (five or more), this share are a title and its author (at most 12 words).
_ENTRIES, _ENTRY_WORDS = 0.6, 12


#: A heading that numbers the author's text ("CHAPTER XII", "IV.", "Part 2"): never a list's.
_NUMBERED = re.compile(r"^\W*(?:(?:chapter|chap\.|book|part|section|letter)\b|[IVXLC]+\b|\d+\b)", re.I)


def is_publishers_list(title: str, texts: list[str]) -> bool:
    """Return whether a section (its heading's title, its paragraphs' texts) is a publisher's list: named as
    one, or (unnumbered) priced as one; never a section of a list's length or more."""
    words = sum(len(t.split()) for t in texts)
    if words >= _MAX_WORDS:
        return False
    if _LIST_NAME.search(title):
        return True
    if _NUMBERED.match(title):
        return False
    # (A plain text sets a price's "s." and "d." in italics, "5_s._ 6_d._": the underscores are no part of it.)
    marks = sum(len(_TRADE.findall(t.replace("_", ""))) for t in texts)
    entries = len(texts) >= 5 and sum(len(t.split()) <= _ENTRY_WORDS for t in texts) >= _ENTRIES * len(texts)
    # Priced *through*: a page's worth or more is priced from its first paragraphs on (a last chapter whose own
    # text ends in a list of priced titles, under no heading of their own, is the author's chapter; round txt21).
    opening = sum(len(_TRADE.findall(t.replace("_", ""))) for t in texts[:max(3, len(texts) // 4)])
    return bool(_SERIES_NAME.search(title)) and (marks >= 2 or entries) \
        or marks >= 2 and marks >= _PRICED * words and (opening > 0 or words < _PAGE_WORDS)


def _matter(title: str) -> bool:
    return is_matter_title(title) or is_apparatus_title(title)


def closing_lists(chosen: list[Heading], titles: list[str], paras: list[Para]) -> list[int]:
    """Return the indices of the chosen headings that head the publisher's lists ending the book (no chapters),
    in order; a transcriber's note or other matter after them is passed over. The first heading always stays."""
    found: list[int] = []
    for i in range(len(chosen) - 1, 0, -1):
        c = chosen[i]
        start = (c.sub_para if c.sub_para is not None else c.para) + 1
        end = chosen[i + 1].para if i + 1 < len(chosen) else len(paras)
        if _matter(titles[i]):
            continue
        texts = [p.text for p in paras[start:end]]
        if c.number is not None or not (is_publishers_list(titles[i], texts) or not texts and found):
            break
        found.insert(0, i)
    return found


def mark_lists(out: list[str], paras: list[Para], tail: list[Heading]) -> None:
    """Head the first of the closing lists as back matter (its line replaced), and blank the others' headings."""
    for n, c in enumerate(tail):
        for j in (c.para, c.sub_para):
            if j is not None:
                for k in range(paras[j].first, paras[j].last):
                    out[k] = ""
        if n == 0:
            out[paras[c.para].first] = f"# {BACK_MATTER}"


def closing_list_blocks(blocks: list, level: int) -> list:
    """Return HTML blocks with the publisher's lists that end the book (headings at the chapter level or above)
    headed as one back matter; the first chapter always stays."""
    heads = [i for i, b in enumerate(blocks) if 0 < b.level <= level]
    first = len(blocks)
    for n in range(len(heads) - 1, 0, -1):
        i, end = heads[n], (heads[n + 1] if n + 1 < len(heads) else len(blocks))
        if _matter(blocks[i].text):
            continue  # a transcriber's note or colophon after the lists: matter already, no end of them
        texts = [b.text for b in blocks[i + 1:end] if not b.level]
        # A heading with no text of its own right over a list is its label ("MESSRS. LEE AND CO.'S" / "NEW BOOKS").
        if not (is_publishers_list(blocks[i].text, texts) or not texts and first < len(blocks)):
            break
        first = i
    if first == len(blocks):
        return blocks
    rest = [replace(b, level=0) if b.level else b for b in blocks[first:]]
    return blocks[:first] + [replace(blocks[first], text=BACK_MATTER, level=blocks[first].level)] + rest


def mark_closing(out: list[str], paras: list[Para], chosen: list[Heading]) -> None:
    """Head what follows the book's closing "THE END" line as back matter (publishers' lists, ads)."""
    last = paras[chosen[-1].para].first
    for p in paras:
        if p.first > last and len(p.lines) == 1 and CLOSING.match(clean_line(p.text)):
            rest = [ln for ln in out[p.last:] if ln.strip()]
            if rest:
                out.insert(p.last, "")
                out.insert(p.last + 1, f"# {BACK_MATTER}")
                out.insert(p.last + 2, "")
            return

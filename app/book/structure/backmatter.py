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

from app.book.structure.lines import CLOSING, Heading, Para, clean_line

#: The titles given to what precedes a book's listed chapters and follows its closing line (matter).
FRONT_MATTER = "Front matter"
BACK_MATTER = "Back matter"

#: A heading that names a publisher's list whatever follows it.
_LIST_NAME = re.compile(
    r"\b(?:by the same (?:author|writer|editor)|(?:books|works|novels|stories) by|publications|catalogue|catalog|"
    r"announcements?|advertisements?|uniform with|in preparation|now ready|just published|publishers?)\b", re.I)
#: A heading that may name one (a series, a library, somebody's novels), when its section is priced too.
_SERIES_NAME = re.compile(r"\b(?:series|library|books|works|novels|stories|editions?|handbooks)\b", re.I)
#: The book trade's words: a price, a format, a binding ("$1.25", "3s. 6d.", "12mo", "cloth", "net").
_TRADE = re.compile(
    r"[$£]\s?\d|\b\d+s\.|\b\d+d\.|\bcents?\b|\bprices?\b|\bnet\b|\bcloth\b|\b(?:12|16|18|24|32)mo\b|\b[48]vo\b|"
    r"\b4to\b|\bpost(?:age)?[ -]?(?:free|paid)\b|\bpostpaid\b|\billustrated\b|\bvols?\.|\bvolumes?\b|\beach\b|"
    r"\bgilt\b|\bboards\b|\bbound\b|\bbinding\b", re.I)
#: A list is short: a section of more words is the book's own text, however it reads.
_MAX_WORDS = 4000
#: Of a section's words, the share in paragraphs that name a price, format or binding: a list is priced through
#: (a chapter's prose with an advertisement run on after it is not).
_PRICED, _PRICED_NAMED = 0.6, 0.3


def _publishers_list(title: str, paras: list[Para]) -> bool:
    sizes = [len(p.text.split()) for p in paras]
    words = sum(sizes)
    if words >= _MAX_WORDS:
        return False
    if _LIST_NAME.search(title):
        return True
    priced = sum(n for n, p in zip(sizes, paras) if _TRADE.search(p.text)) / max(words, 1)
    return priced >= _PRICED_NAMED and bool(_SERIES_NAME.search(title)) or words >= 20 and priced >= _PRICED


def closing_lists(chosen: list[Heading], titles: list[str], paras: list[Para]) -> int:
    """Return how many of the chosen headings, counted from the last, head publisher's lists (no chapter).

    The first chosen heading always stays: a book is never all lists.
    """
    n = 0
    for i in range(len(chosen) - 1, 0, -1):
        c = chosen[i]
        start = (c.sub_para if c.sub_para is not None else c.para) + 1
        end = chosen[i + 1].para if i + 1 < len(chosen) else len(paras)
        if not _publishers_list(titles[i], paras[start:end]):
            break
        n += 1
    return n


def mark_lists(out: list[str], paras: list[Para], tail: list[Heading]) -> None:
    """Head the first of the closing lists as back matter (its line replaced), and blank the others' headings."""
    for n, c in enumerate(tail):
        for j in (c.para, c.sub_para):
            if j is not None:
                for k in range(paras[j].first, paras[j].last):
                    out[k] = ""
        if n == 0:
            out[paras[c.para].first] = f"# {BACK_MATTER}"


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

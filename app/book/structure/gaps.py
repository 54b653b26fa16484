"""A chapter missing from a numbered run, found where its number says it stands.

A book numbers its chapters in order: where the chosen headings run "CHAPTER IV." then "CHAPTER VI.", the
fifth is there between them, and some detail of its own kept the rules from reading it - a title in mixed
case that reads like a sentence ("CHAPTER V." / "A Resolve, and its Results."), a contents entry that gives
the number and the page but no name ("III.      19"). Its label is the evidence: the same heading word,
the missing number, opening a short paragraph set apart by as many blank lines as its neighbours.

So is the first chapter of a piece in a collection where the piece's title stands right over it ("THE
HARBOUR" / "CHAPTER I" / "THE ESCAPE") and its second is chosen: the title was read as the heading, and
its "CHAPTER I" went unread under it (fill_first_chapter).
"""
from __future__ import annotations

from app.book.structure.lines import Heading, Para, clean_line, keyword_match, number_value

#: Lines of the paragraph a found label may open (the label, its title wrapped over up to two more).
_MAX_LINES = 3
#: Words of a title under a found label at most; longer, the lines are the chapter's first sentence.
_MAX_TITLE_WORDS = 12


def fill_numbering_gaps(chosen: list[Heading], paras: list[Para]) -> list[Heading]:
    """Return the chapters with each one missing between two chosen chapters numbered n-1 and n+1 added."""
    numbered = [c for c in chosen if c.kind == "chapter" and c.number is not None]
    added = []
    for a, b in zip(numbered, numbered[1:]):
        if a.word != b.word or b.number != a.number + 2:
            continue
        gap = min(paras[a.para].gap, paras[b.para].gap)
        if gap < 2:
            continue  # with one blank line everywhere, a line that opens with the label may be prose
        start = (a.sub_para if a.sub_para is not None else a.para) + 1
        found = [j for j in range(start, b.para) if _labels(paras[j], a.word, a.number + 1) and paras[j].gap >= gap]
        if len(found) == 1:  # a second such line is a quotation or a cross-reference: nothing is sure
            added.append(_heading(paras[found[0]], found[0], a.word, a.number + 1))
    return sorted(chosen + added, key=lambda c: c.para) if added else chosen


def fill_first_chapter(chosen: list[Heading], paras: list[Para]) -> list[Heading]:
    """Return the chapters with each "CHAPTER I" added that stands under a chosen title whose next chosen
    heading is the same piece's "CHAPTER II" (no prose between the title and the label)."""
    added = []
    for a, b in zip(chosen, chosen[1:]):
        m = keyword_match(clean_line(paras[b.para].lines[0]))
        if not m or number_value(m.group("num")) != 2 or keyword_match(clean_line(paras[a.para].lines[0])):
            continue
        word = _word(m)
        j = (a.sub_para if a.sub_para is not None else a.para) + 1
        if j < b.para and _labels(paras[j], word, 1):
            added.append(_heading(paras[j], j, word, 1))
    return sorted(chosen + added, key=lambda c: c.para) if added else chosen


def _word(m) -> str:
    return {"chap": "chapter", "vol": "volume"}.get(m.group("word").lower().rstrip("."), m.group("word").lower())


def _labels(p: Para, word: str, number: int) -> bool:
    if len(p.lines) > _MAX_LINES:
        return False
    m = keyword_match(clean_line(p.lines[0]))
    if not m or m.group("rest").strip(" .:-\u2013\u2014"):
        return False
    return _word(m) == word and number_value(m.group("num")) == number and len(clean_line(" ".join(p.lines[1:])).split()) <= _MAX_TITLE_WORDS


def _heading(p: Para, j: int, word: str, number: int) -> Heading:
    title = clean_line(" ".join(ln.strip() for ln in p.lines[1:])).rstrip(" .")
    return Heading(j, "chapter", word, number, clean_line(p.lines[0]), subtitle=title)

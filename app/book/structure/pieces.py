"""Titles of the pieces of a collection, a periodical or a primer, where no heading word or listing marks them.

A book of short pieces (tales, sketches, articles, a family's generations) often heads each with its name
alone, in capitals, on a line of its own after a wider gap than its paragraphs have ("\n\n\nTHE MILLER'S
WIFE.\n\nOnce upon a time ..."). No keyword says so; the layout does, when it repeats: at least three such
lines, each over prose of its own. With one blank line everywhere nothing tells a title from a short
paragraph in capitals (a sign, a shout), so the gap must be wider than the book's commonest one.

Also here, for headings.py's layout rule: what a heading set apart as the listed ones may look like
(set_title), and the numbered run such a layout starts ("APPENDIX I", "II", ...; numbering_continues).
"""
from __future__ import annotations

import re
from collections import Counter

from app.book.narration.cleanup import is_apparatus_title, is_matter_title
from app.book.structure.contents import is_contents_label
from app.book.structure.layout import INDEX_TITLE, heads_title_page
from app.book.structure.listing import is_listing_line
from app.book.structure.lines import (
    CLOSING, NAMED, Heading, Para, clean_line, is_byline, keyword_match, number_value, title_line,
)

_SMALL = frozenset("a an and as at but by for in of on or the to with from into upon nor".split())
#: Fewer titles than this set apart are no layout: a title page's lines, a letter's address.
_MIN_PIECES = 3
#: Words a piece must have of its own before the next title, or the "title" is one line of a block in capitals
#: (a title page, a notice, verse set in capitals).
_MIN_PIECE_WORDS = 20


#: A title page's credit other than the author's by-line.
_CREDIT = re.compile(r"^(?:(?:newly\s+)?(?:translated|edited|illustrated|compiled|selected|arranged|revised)"
                     r"|(?:with\s+)?(?:an?\s+)?(?:illustrations|introduction|notes|preface|pictures))\b.*\bby\b", re.I)


def _capitals_title(p: Para) -> str:
    text = clean_line(p.text)
    if not text.isupper() or text.startswith(("[", "*", "(")) or CLOSING.match(text):
        return ""
    if _CREDIT.match(text):
        return ""  # "TRANSLATED BY ANN LEE", "WITH ILLUSTRATIONS BY ...": the title page's credit, no piece
    if any(is_listing_line(ln) for ln in p.lines):
        return ""  # a listing's line ("PAGE" over "MEMORIES OF A VILLAGE      1") where the listing was not read
    if is_contents_label(text) or is_byline(text) or text[-1:] == ":" or is_apparatus_title(text) \
            or is_matter_title(text):
        # (A transcriber's note, the notes or an index is the book's apparatus or matter, not one of its pieces.)
        return ""
    if not any(len(w) >= 2 and number_value(w) is None for w in re.findall(r"[^\W\d_]+", text)):
        return ""  # "B", "G": an index's letters (or a numeral), no piece's name
    if text.split()[-1].lower() in _SMALL:
        return ""  # a title broken over lines ("CONSIDERATIONS / ON THE / PEACE"): a title page's, no piece's
    # In capitals a piece's title may ask or exclaim ("IV ~ “TO THE BOATS!”"), as a listed heading may.
    return set_title(p) if len(p.lines) <= 2 else ""


def pieces_apart(paras: list[Para], lo: int, listed: int = 0) -> list[Heading]:
    """Return the capitals title lines from paragraph lo on set apart by more blank lines than a paragraph.

    The text's first paragraph is the book's own title. Where the book has a listing of `listed` entries
    that the body does not head, the pieces must outnumber them: a listing of a collection's sections is
    coarser than its pieces, and one as fine as the lines found is the better evidence (text.py reads it).
    """
    body = paras[lo:]
    if not body:
        return []
    common = Counter(p.gap for p in body[1:]).most_common(1)
    common_gap = common[0][0] if common else 1
    wide = max(2, common_gap + 1)
    found = [j for j in range(lo, len(paras)) if j and paras[j].gap >= wide
             and (_capitals_title(paras[j]) or _label_over_title(paras, j)) and not heads_title_page(paras, j)]
    # After the book's index or its closing "THE END" come a publisher's lists and advertisements: no pieces.
    stop = next((j for j in range(found[0] + 1, len(paras)) if len(paras[j].lines) == 1
                 and (INDEX_TITLE.match(clean_line(paras[j].text)) or CLOSING.match(clean_line(paras[j].text)))),
                len(paras)) if found else len(paras)
    found = [j for j in found if j < stop]
    kept: list[int] = []
    for n, j in enumerate(found):
        end = found[n + 1] if n + 1 < len(found) else len(paras)
        own = sum(len(paras[k].text.split()) for k in range(j + 1, end))
        if own >= _MIN_PIECE_WORDS:
            kept.append(j)
    if len(kept) < max(_MIN_PIECES, listed + 1):
        return []
    heads = []
    for j in kept:
        head = Heading(j, "named", "", None, clean_line(paras[j].text))
        if sub := _label_over_title(paras, j):
            head.subtitle, head.sub_para = sub, j + 1
        heads.append(head)
    return heads


def _label_over_title(paras: list[Para], j: int) -> str:
    """Return the title under a piece's label that ends in a colon ("THE WEEK:" over "NEWS OF THE HARBOUR."), ""
    when paragraph j is no such label: the two lines, one blank line apart, are the piece's one heading."""
    text = clean_line(paras[j].text)
    if len(paras[j].lines) != 1 or text[-1:] != ":" or not text.isupper() or j + 1 >= len(paras) \
            or paras[j + 1].gap > 1 or not title_line(Para(0, [text.rstrip(":")], 0)):
        return ""
    return _capitals_title(paras[j + 1]).rstrip(" .")


#: A note's or page's mark set after a title ("EMBERS {19}", "THE FERRY [3]"): the producer's, never spoken.
_TITLE_MARK = re.compile(r"\s*[{\[]\d+[}\]]$")


#: A title's closing question or exclamation mark, before any closing quotation marks.
_ASKED = re.compile(r"[?!]+([\"'\u201d\u2019]*)$")


def set_title(p: Para) -> str:
    """Return a paragraph's text as a heading set apart as the book's others are, or "".

    A title line as title_line reads one; in capitals also one that asks or exclaims ("WHO KNOCKED?",
    "RING OUT, BELLS!"), one wrapped over three lines, and one with a note's mark after it (the mark dropped).
    """
    text = _TITLE_MARK.sub("", clean_line(p.text))
    if text.endswith("]") and "[" not in text:
        return ""  # "THE FERRY]": a picture's caption run over several paragraphs ends here, no heading
    if len(p.lines) <= 2 and title_line(Para(p.first, [text], p.gap)):
        return text
    if not text.isupper() or len(p.lines) > 3 or len(text.split()) > 18 or text[-1:] in ",;:":
        return ""
    core = _ASKED.sub(r"\1", text).strip()  # (inside its quotation marks too: "“TO THE BOATS!”")
    return text if core and title_line(Para(p.first, [core.replace(",", "")], p.gap)) else ""


def _numbered(c: Heading, paras: list[Para]) -> tuple[str, int | None]:
    """Return a heading's word and number: ("chapter", 4) for "CHAPTER IV.", ("appendix", 2) for "APPENDIX II"."""
    line = clean_line(paras[c.para].lines[0])
    if m := keyword_match(line):
        return m.group("word").lower(), number_value(m.group("num"))
    m = NAMED.match(line)
    rest = m.group("rest").split() if m else []
    return (line.split()[0].lower(), number_value(rest[0])) if rest else ("", None)


def numbering_continues(chosen: list[Heading], cands: list[Heading], paras: list[Para]) -> list[Heading]:
    """Return the chapters with the rest of a numbered run the layout starts: one that found "APPENDIX I" (set
    apart as the listed headings are) keeps "APPENDIX II" and "III" after it, though they stand closer to
    their names; a listing that stops before the appendices names none of them."""
    starts = [c for c in chosen if _numbered(c, paras)[1] == 1]
    if not starts:
        return chosen
    first = starts[-1]
    word, number = _numbered(first, paras)[0], 1
    have = {c.para for c in chosen}
    extra = []
    for c in cands:
        if c.para > first.para and _numbered(c, paras) == (word, number + 1):
            number += 1
            if c.para not in have:
                extra.append(c)
    return sorted(chosen + extra, key=lambda c: c.para)


#: Words each half of a tale in two numbered halves has at least: a two-stanza poem's "I" and "II" head less.
_MIN_HALF_WORDS = 300


def numbered_halves(cands: list[Heading], paras: list[Para]) -> list[Heading]:
    """Return a tale's two halves headed "I" and "II" (set apart by blank lines, each over prose of its own),
    where they are the text's only numerals: too few for a counting run, yet its only divisions."""
    nums = [c for c in cands if c.kind == "numeral"]
    if [c.number for c in nums] != [1, 2] or any(c.subtitle for c in nums):
        return []
    ends = [nums[1].para, len(paras)]
    for c, end in zip(nums, ends):
        after = paras[c.para + 1].gap if c.para + 1 < len(paras) else 0
        words = sum(len(paras[k].text.split()) for k in range(c.para + 1, end))
        if max(paras[c.para].gap, after) < 2 or words < _MIN_HALF_WORDS:
            return []
    return nums

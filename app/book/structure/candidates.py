"""The lines of a plain-text book that read as headings: a label with its number, a numeral, a named part.

"CHAPTER XXXI." (with its title on the line below, or wrapped over up to three), "IV", "I. The Period",
"PREFACE.": each is a candidate with the title line under it; headings.py chooses among them.
"""
from __future__ import annotations

import re

from app.book.structure.listing import is_contents_label
from app.book.structure.lines import (
    CHAPTER_WORDS, KEYWORD, NAMED, NUMBERED_TITLE, NUMERAL, ORDINAL_PART, PART_WORDS, PICTURE, Heading, Para,
    clean_line, keyword_match, number_value, title_line,
)


def candidates(paras: list[Para], lo: int) -> list[Heading]:
    """Return every paragraph from lo on that reads as a heading, with the title line under it."""
    found: list[Heading] = []
    for i in range(lo, len(paras)):
        p = paras[i]
        first = clean_line(p.lines[0])
        if len(p.lines) == 2 and re.fullmatch(rf"(?:{CHAPTER_WORDS}|{PART_WORDS})", first, re.I) \
                and keyword_match(f"{first} {clean_line(p.lines[1])}"):
            # "CHAPTER" centred over its number on the next line.
            p = Para(p.first, [f"{first} {clean_line(p.lines[1])}"], p.gap)
            first = p.lines[0]
        m = keyword_match(first) or (_label_over_long_title(first) if 2 <= len(p.lines) <= 4 else None)
        rest = m.group("rest").strip(" .:—-") if m else ""
        if m and 2 <= len(p.lines) <= 4 and (len(p.lines) > 2 or rest or clean_line(p.lines[1]).isupper()):
            # "CHAPTER I." over a title that runs on over up to three lines, or "Chapter VI: The Vicar, the
            # Doctor, Mr. Quarle and Miss Ann Lowe Drive Out ..." wrapped: the label and its title.
            if sub := _wrapped_title(([rest] if rest else []) + p.lines[1:]):
                first = first[: m.start("rest")].rstrip()
                word = m.group("word").lower().rstrip(".")
                part = m.re is ORDINAL_PART or re.fullmatch(PART_WORDS, word + ("." if word == "vol" else ""), re.I)
                word = {"chap": "chapter", "vol": "volume"}.get(word, word)
                found.append(Heading(i, "part" if part else "chapter", word, number_value(m.group("num")), first,
                                     subtitle=sub))
                continue
        if len(p.lines) > 2:
            continue
        second = clean_line(p.lines[1]) if len(p.lines) == 2 else ""
        if (m := _NUMBER_CAPITALS.match(_small_words_up(clean_line(p.text)))) \
                and (name := _wrapped_title([m.group("name")])):
            # "12 THE SIEGE OF THE TOWN": an Arabic number and the name in capitals, no stop between them (the
            # name may wrap onto a second line); the number counts the chapters, the name is the title.
            found.append(Heading(i, "numeral", "", int(m.group("num")), m.group("num"), subtitle=name))
            continue
        heading: Heading | None = None
        if m := keyword_match(first):
            word = m.group("word").lower().rstrip(".")
            part = m.re is ORDINAL_PART or re.fullmatch(PART_WORDS, word + ("." if word == "vol" else ""), re.I)
            kind = "part" if part else "chapter"
            word = {"chap": "chapter", "vol": "volume"}.get(word, word)
            heading = Heading(i, kind, word, number_value(m.group("num")), first)
        elif m := NUMERAL.match(first):
            heading = Heading(i, "numeral", "", number_value(m.group("num")), first)
        elif (m := NUMBERED_TITLE.match(first)) and not second and title_line(Para(0, [m.group("name")], 0)):
            # "I. The Period": the numeral and the chapter's name on one line.
            heading = Heading(i, "numeral", "", number_value(m.group("num")), m.group("num"),
                               subtitle=title_line(Para(0, [m.group("name")], 0)))
            found.append(heading)
            continue
        elif (m := NAMED.match(first)) and len(first.split()) <= 6 and not m.group("rest").strip(" .")[:1].islower():
            heading = Heading(i, "named", first.split()[0].lower(), None, first)
        if heading is None:
            continue
        if heading.kind in ("chapter", "part") and m.group("rest").strip(" .:"):
            pass  # "Chapter 16. General information": named already; the next line is the text's
        elif second:
            # "Who Broke the Window?": a title under its label may ask or exclaim.
            asked = second[-1:] if second[-1:] in "?!" else ""
            if not title_line(Para(0, [second.rstrip("?!") if asked else second], 0)):
                continue  # a heading word opening a two-line sentence
            heading.subtitle = title_line(Para(0, [second.rstrip("?!") if asked else second], 0)) + asked
        elif (k := _past_picture(paras, i + 1)) < len(paras) \
                and (sub := title_line(paras[k]) or _capitals_title(paras[k]) or _asked_in_capitals(paras[k])) \
                and not is_contents_label(sub):
            # (A chapter's own "Table of Contents" under its heading is a listing's label, no subtitle.)
            up = _small_words_up(sub)  # ("_The_ DRY _and_ DUSTY ROAD": in capitals, its small words in italics)
            heading.subtitle, heading.sub_para = up if up.isupper() else sub, k
        found.append(heading)
    return found


def _past_picture(paras: list[Para], j: int) -> int:
    """Return j, or the paragraph after it where j is a picture's mark set between a heading and its title
    ("PART ONE" / "[Illustration]" / "The Gems of the Ancients", round txt21)."""
    return j + 1 if j + 1 < len(paras) and PICTURE.match(clean_line(paras[j].text)) else j


def _label_over_long_title(first: str) -> re.Match | None:
    """Return the label's match of a first line too long for a heading line on its own, where the label is set
    off by a stop, colon or dash and the title runs on to the next lines ("_Chapter II. The Night the Lamp Went
    Out on the Pier. The Boats Come In_" / "_Late and the Ferryman Counts Them_"): the title's lines decide (round txt21)."""
    m = KEYWORD.match(first)
    rest = m.group("rest").strip() if m else ""
    if not m or not rest or rest[0] not in ".:-\u2013\u2014" or number_value(m.group("num")) is None:
        return None
    return m


#: A chapter's number and its name in capitals on one line, no stop between ("7 THE CARTER'S ROAD"); never a Roman
#: numeral ("I SAW HIM" in capitals is a line of dialogue).
_NUMBER_CAPITALS = re.compile(r"^(?P<num>\d{1,3})\s+(?P<name>[^a-z]*[A-Z][^a-z]*)$")


def _wrapped_title(lines: list[str]) -> str:
    """Return a chapter title set over several lines under its label ("IN WHICH THE FAMILY ... /
    ... AND A STRANGER ARRIVES"), or "" when the lines are the chapter's first sentence."""
    text = clean_line(" ".join(ln.strip() for ln in lines))
    words = text.split()
    if len(lines) < 2 and not text.isupper():
        return ""  # one line in mixed case: title_line's rules decide
    if not words or len(words) > max(len(lines), 2) * _WRAPPED_TITLE_WORDS or keyword_match(text) or text[-1] in ",;":
        return ""
    if text.isupper():
        return text.rstrip(" .")
    # In mixed case a title capitalises its words ("The Vicar, the Doctor, ... Drive Out to See the Fair").
    counted = [w for w in words if w.lower() not in _SMALL] or words
    capitalised = sum(1 for w in counted if w[:1].isupper() or not w[:1].isalpha()) / len(counted)
    return text.rstrip(" .") if capitalised >= 0.8 else ""


def _asked_in_capitals(para: Para) -> str:
    """Return a title in capitals under its label that asks or exclaims ("WHO KNOCKED AT THE GATE?"), set
    a blank line below it: a sentence in mixed case may ask, a line in capitals under "CHAPTER II" is its name."""
    text = clean_line(para.text)
    if len(para.lines) > 2 or not text.isupper() or text[-1:] not in "?!":
        return ""
    return text if title_line(Para(0, [text.rstrip("?!")], 0)) else ""


def _capitals_title(para: Para) -> str:
    """Return a title in capitals wrapped over two or three lines below its label ("HOW THE MILLER'S SON CAME TO
    BE LORD OF THE MANOR"): too long for one title line, still no sentence."""
    if not 2 <= len(para.lines) <= 3 or not clean_line(para.text).isupper():
        return ""
    return _wrapped_title(para.lines)


def _small_words_up(text: str) -> str:
    """Return a line with its small words in capitals: a title in capitals may set them in italic lower case
    ("_The_ BLACK _and_ WHITE _of_ IT"), still a title in capitals."""
    return " ".join(w.upper() if w.lower() in _SMALL else w for w in text.split())


_SMALL = frozenset("a an and as at but by for in of on or the to with from into upon nor".split())


#: Words of a title line; a title wrapped over lines under its label may have as many on each.
_WRAPPED_TITLE_WORDS = 15


def second_title_lines(chosen: list[Heading], paras: list[Para]) -> list[int]:
    """Join a chapter's second title line to its title; return the paragraphs so emptied (to be blanked).

    A heading may set its title over two lines, each a paragraph, as far apart as the label and the title
    ("CHAPTER VIII" / "THE LOWER MILL" / "THE WEIR AND THE MILLER'S COTTAGE"), with the text standing
    further off below: both lines are the title. In the title's case, never a heading of its own, and only
    where the text stands further off than the lines do (a first line of text set as close is the text's).
    """
    heads = {c.para for c in chosen}
    moved: list[int] = []
    for c in chosen:
        j = c.sub_para
        if c.kind not in ("chapter", "numeral") or j is None or j + 2 >= len(paras) or j + 1 in heads:
            continue
        second = title_line(paras[j + 1]) or _capitals_title(paras[j + 1])
        first = clean_line(paras[j].text)
        if not second or second.isupper() != first.isupper() or paras[j + 1].gap != paras[j].gap \
                or paras[j + 2].gap <= paras[j + 1].gap:
            continue
        c.subtitle, c.sub_para = f"{c.subtitle}: {second}", j + 1
        moved.append(j)
    return moved

"""A plain-text book's contents listing: where it stands and what its entries are.

The listing follows a "CONTENTS" line, or stands near the top with no heading; its entries are numbered
("   IV.  HERO'S STORY    55", "Chapter VIII   Monseigneur in the Country"), several to a line at times
("CHAPTER I CHAPTER II ..."), named on the line below ("CHAPTER I" / "The Keeper's Journal   1"), or
labels of a group ("HISTORICAL NOTES."). contents.py matches the entries to the body's headings.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from app.book.structure.lines import (
    CHAPTER_WORDS, NAMED, NUMBER, ORDINAL_PART, PART_WORDS, Para, clean_line, number_value, title_line,
)

_CONTENTS = re.compile(r"^(?:table\s+of\s+)?contents(?:\s+and\s+(?:list\s+of\s+)?illustrations)?[.:]?$", re.I)
#: A contents entry: "  IV.  HERO'S STORY    55", "Chapter 4. Title", "VI  Title", "PREFACE ..... 1".
_ENTRY = re.compile(
    rf"^(?:(?P<word>{CHAPTER_WORDS}|{PART_WORDS})\s+(?:the\s+)?)?(?P<num>{NUMBER})\b[.:]?"
    r"(?:(?:\s+|\s*[-\u2013\u2014]+\s*)(?P<name>.*?))?\s*$", re.I)
#: A page number at a contents line's end, set off by dot leaders (close or spaced) or a column of spaces; or
#: the pages a chapter spans ("    9–23").
_PAGE = re.compile(r"(?:\s*\.(?: ?\.)+\s*|\s{2,})(?:pages?\s+)?\d{1,4}(?:[-\u2013]\d{1,4})?\s*$", re.I)
#: A page number, Arabic or a preface's Roman ("Foreword    ix"), set off at a line's end.
_NAMED_PAGE = re.compile(r"(?:\s*\.(?: ?\.)+\s*|\s{2,})(?:pages?\s+)?(?:\d{1,4}(?:[-\u2013]\d{1,4})?|[ivxlc]{1,6})\s*$", re.I)
#: A section number opening a contents line ("1. ", "3.1. "): the listing numbers its entries.
_SECTION_NUMBER = re.compile(r"^\d{1,3}(?:\.\d{1,3})*\.?\s")
#: Where an entry starts inside a line of several: "CHAPTER XIII", "Chap. 4".
_ENTRY_WORD = re.compile(rf"\b(?:{CHAPTER_WORDS})\s+(?:[IVXLCDM]{{1,8}}|\d{{1,3}})\b", re.I)
#: Column headings of a contents listing ("CHAPTER     PAGE").
_COLUMNS = re.compile(r"^(?:chapter|chap\.|pages?|part)(?:\s+(?:pages?|chapter))?\.?$", re.I)
#: The page column's heading set on the first entry's line ("CHAPTER I.        PAGE"): no part of its name.
_COLUMN_WORD = re.compile(r"^page\.?$", re.I)
#: Where the listing of contents ends: the next listing of the front matter.
_INDEX = re.compile(r"^index[.:]?$", re.I)
_AFTER_CONTENTS = re.compile(r"^(?:list\s+of\s+|illustrations|plates|maps)", re.I)


def is_contents_label(text: str) -> bool:
    """Return whether a line is a contents listing's label ("Table of Contents"), never a subtitle."""
    return bool(_CONTENTS.match(clean_line(text)))


def is_listing_line(line: str) -> bool:
    """Return whether a raw line is a listing's: a page column's heading ("PAGE") or a name ending in its page
    after a run of spaces or leader dots ("  MEMORIES OF A VILLAGE          1")."""
    return bool(_COLUMNS.match(clean_line(line)) or _PAGE.search(line) and len(line.split()) > 1)


@dataclass
class ContentsEntry:
    word: str
    number: int | None
    name: str
    #: An unnumbered entry ("PREFACE", "HISTORICAL NOTES"): a named heading, or a group label.
    label: str = ""
    #: A part above chapters ("Book the First", "FIRST EPILOGUE"), matched to part headings only.
    part: bool = False
    #: The page a named entry gives ("LEE, ANN      278"), when it gives one in Arabic figures.
    page: int | None = None


def find_contents(paras: list[Para]) -> tuple[int, int, list[ContentsEntry]]:
    """Return the paragraph range of the contents listing and its entries ((0, 0, []) when none).

    The listing follows a "CONTENTS" line, or (in older texts) stands near the top with no heading:
    a paragraph of three or more numbered entries, with the entry paragraphs just before it.
    """
    heads = [i for i, p in enumerate(paras) if len(p.lines) == 1 and _CONTENTS.match(clean_line(p.text))]
    # Round txt26: an "INDEX." where a contents stands (the book's first fifth) over entries that end in their
    # pages is the contents by an older name; an index at the back stays an index.
    heads += [i for i, p in enumerate(paras[: len(paras) // 5]) if len(p.lines) == 1 and _INDEX.match(clean_line(p.text))]
    for i in heads:
        if (found := _labelled(paras, i)) is None or _INDEX.match(clean_line(paras[i].text)) and sum(
                1 for p in paras[i + 1:found[0]] for ln in p.lines if _PAGE.search(ln)) < 0.6 * len(found[1]):
            continue
        k, entries = found
        # Two works in one file list their contents one after the other ("CONTENTS." / the first's chapters /
        # "THE SECOND TALE." / "CONTENTS." / its chapters from I again): the listings are one, in order.
        while (nxt := next((h for h in heads if k <= h <= k + _NEXT_LISTING), None)) is not None \
                and (more := _labelled(paras, nxt)) is not None:
            k, entries = more[0], entries + more[1]
        return i, k, entries
    for i, p in enumerate(paras[: max(10, len(paras) // 5)]):
        parsed = [_entry(clean_line(_PAGE.sub("", ln))) for ln in p.lines]
        if len(p.lines) >= 3 and all(isinstance(e, ContentsEntry) and e.number is not None and e.name for e in parsed):
            while i > 0 and all(isinstance(_entry(clean_line(_PAGE.sub("", ln))), ContentsEntry) for ln in paras[i - 1].lines):
                i -= 1
            k, entries = _listing(paras, i)
            return i, k, entries
        # Round txt26: nor a label over names alone, each ending in its page or year in a column ("A Golden
        # Wedding        1909"), five or more in one paragraph near the top: a listing of the pieces.
        if len(p.lines) >= 5 and all(_PAGE.search(ln) and not _entry(clean_line(_PAGE.sub("", ln))) for ln in p.lines):
            k, entries = _named_listing(paras, i)
            if len(entries) >= 5:
                return i, k, entries
    return 0, 0, []


#: A second listing follows the first within this many paragraphs (the next work's title, "OR", its subtitle).
_NEXT_LISTING = 4


def _labelled(paras: list[Para], i: int) -> tuple[int, list[ContentsEntry]] | None:
    """Return the end and entries of the listing under the "CONTENTS" line at paragraph i, None when none is."""
    k, entries = _listing(paras, i + 1)
    numbered = sum(1 for e in entries if e.number is not None)
    # A few names opening with an ordinal ("FIRST LETTER FROM HOME") among many names number nothing.
    if numbered >= 2 and numbered * 3 >= len(entries) - numbered:
        return k, entries
    k2, named = _named_listing(paras, i + 1)
    # A listing of names, not of numbered sections read line by line ("1. Disclaimer", "3.1. Rules").
    if len(named) >= 3 and sum(1 for e in named if _SECTION_NUMBER.match(e.label)) * 3 < len(named):
        return k2, named
    return (k, entries) if numbered >= 2 else None


def _listing(paras: list[Para], k: int) -> tuple[int, list[ContentsEntry]]:
    """Return the index after a listing's last paragraph and its entries, reading from paragraph k."""
    entries: list[ContentsEntry] = []
    widest = 0
    told: ContentsEntry | None = None
    while k < len(paras):
        q = paras[k]
        if len(q.lines) > 1 and _COLUMNS.match(clean_line(q.lines[0])):
            # "PAGE" over the first entry, in its paragraph: a column heading, not the entry.
            q = Para(q.first + 1, q.lines[1:], q.gap)
        lines = [part for ln in _pages_joined(q.lines) for part in _split_entries(clean_line(_PAGE.sub("", ln)))]
        if _AFTER_CONTENTS.match(lines[0]):
            break
        parsed = [_entry(ln) for ln in lines]
        if isinstance(parsed[0], ContentsEntry) and parsed[0].number is not None and 2 <= len(lines) <= 4 and all(
                e is None or isinstance(e, ContentsEntry) and e.label for e in parsed[1:]) and _hanging(q.lines, lines):
            # A numbered entry whose name wraps onto lines indented under it ("... the Origin of" / "Trade  3").
            parsed[1:] = [ContentsEntry("", None, "", label=ln.strip()) for ln in lines[1:]]
        # (A "PAGE" column heading set under the name is no part of it.)
        named = "" if told is not None and entries[-1] is told else _entry_name(
            [ln for ln in lines if not _COLUMNS.match(ln)] or lines, entries)
        if named:
            entries[-1].name = named  # "CHAPTER I" / "The Keeper's Journal   1": the entry's name below it
            k += 1
            continue
        if not all(parsed):
            if _synopsis(q, entries) and not (q.gap >= 3 and q.gap > widest):
                widest = max(widest, q.gap)
                k += 1  # what the chapter tells, run on as prose up to its page: the listing goes on
                told = entries[-1]  # the line after a synopsis is the next entry, never this one's name
                if len(q.lines) == 1 and (name := title_line(Para(0, [_PAGE.sub("", q.lines[0].replace("_", ""))], 0))):
                    entries.append(ContentsEntry("", None, "", label=name))  # "Closing Words   212"
                continue
            break
        if len(entries) >= 2 and q.gap >= 3 and q.gap > widest and not _next_part(entries, parsed[0]):
            break  # set off wider than anything inside the listing: the book itself begins
        if entries and _repeats_first(entries, parsed[0]):
            break  # the first entry again, however close it stands: the body's first heading
        if entries:
            widest = max(widest, q.gap)
        entries.extend(_names_below(parsed, _hanging(q.lines, lines)))
        k += 1
    return k, entries


def _pages_joined(lines: list[str]) -> list[str]:
    """Return a paragraph's lines with a page number wrapped onto a line of its own set back at the end of the
    line above ("IV. THE DRAMA . . . . . ." / "58"): the page ends that entry, not the listing (round txt23)."""
    out: list[str] = []
    for ln in lines:
        if out and _BARE_PAGE.match(ln) and out[-1].rstrip().endswith("."):
            out[-1] = f"{out[-1].rstrip()}   {ln.strip()}"
        else:
            out.append(ln)
    return out


#: A line that is only a page number.
_BARE_PAGE = re.compile(r"^\s*\d{1,4}\s*$")


def _next_part(entries: list[ContentsEntry], e: ContentsEntry | bool | None) -> bool:
    """Return whether an entry is the next part after the listing's last ("PART I" over its chapters, then
    "PART II" set off wider than the chapters are): the listing goes on, since the body's own "PART II"
    cannot come before its "PART I" (round txt23)."""
    parts = [x for x in entries if x.part and x.number is not None]
    return isinstance(e, ContentsEntry) and e.part and e.number is not None and bool(parts) \
        and e.number == parts[-1].number + 1 and e.word == parts[-1].word


def _synopsis(q: Para, entries: list[ContentsEntry]) -> bool:
    """Return whether a paragraph is a numbered entry's synopsis: prose under "CHAPTER IV." ending in
    the page ("Arrival at the port--A storm--The harbour    23"), as older histories and travels list."""
    numbered = [e for e in entries if e.number is not None]
    return len(numbered) >= 1 and any(e is numbered[-1] for e in entries[-2:]) and bool(_PAGE.search(q.lines[-1].replace("_", ""))) and \
        not any(_ENTRY_WORD.match(clean_line(ln)) for ln in q.lines)


def _repeats_first(entries: list[ContentsEntry], e: ContentsEntry | bool | None) -> bool:
    """Return whether a paragraph opens with the listing's first entry again ("PROLOGUE" listed, then
    "PROLOGUE" over the text one blank line below): a listing names each piece once."""
    first = entries[0]
    if not isinstance(e, ContentsEntry) or e.part != first.part:
        return False
    if first.label:
        return bool(e.label) and name_key(e.label) == name_key(first.label)
    # A bare "CHAPTER I" may open each volume's part of a listing; with its name it is the same entry.
    return e.number == first.number and e.word == first.word and bool(first.name) and name_key(e.name) == name_key(first.name)


def _hanging(raw: list[str], lines: list[str]) -> bool:
    """Return whether a paragraph's lines after its first are indented deeper than it (a hanging wrap)."""
    if len(raw) != len(lines):
        return False
    indent = [len(ln) - len(ln.lstrip()) for ln in raw]
    return all(i > indent[0] for i in indent[1:])


def _names_below(parsed: list, hanging: bool) -> list[ContentsEntry]:
    """Return a paragraph's entries with a name line under a bare number read as its name, not a label
    ("CHAPTER III" / "THE HARBOURS OF THE NORTH   33" is one entry)."""
    out: list[ContentsEntry] = []
    # One numbered entry to a paragraph: the lines under it are its name wrapped ("I. THE QUESTION PUT.
    # OLD ANSWERS TO THE RISE OF" / "THE TIDES. WHAT A TIDE IS   3"), never labels of their own.
    single = hanging and sum(1 for e in parsed if isinstance(e, ContentsEntry) and e.number is not None) == 1
    for e in parsed:
        if not isinstance(e, ContentsEntry):
            continue
        last = out[-1] if out else None
        if e.label and last is not None and last.number is not None and not last.part and (single or not last.name):
            last.name = f"{last.name} {e.label}" if last.name else e.label
            continue
        out.append(e)
    return out


def _named_listing(paras: list[Para], k: int) -> tuple[int, list[ContentsEntry]]:
    """Return the end and entries of a listing that names its chapters without numbers, from paragraph k.

    Each line is a chapter's name, with its page or without ("  THE CROSSING      9", "The Lamp Room   1");
    a name too long for its line runs on below, indented or ending in the page. A line that reads as a
    sentence, or a gap wider than the listing's own, ends it.
    """
    entries: list[ContentsEntry] = []
    widest = column = 0
    by_column = False  # a name in sentence case taken for its page (in_column below)
    while k < len(paras):
        q = paras[k]
        if len(entries) >= 2 and q.gap >= 3 and q.gap > widest:
            break  # set off wider than anything inside the listing: the book itself begins
        if len(entries) >= 3 and name_key(clean_line(_NAMED_PAGE.sub("", q.lines[0]))) == name_key(entries[0].label):
            break  # the first name again, however close it stands: the body's first heading
        pending: str | None = None  # a name without its page yet: the page ends the line below
        paged_indent = -1  # the indent of the last entry that ended in its page
        for n_ln, ln in enumerate(q.lines):
            paged = bool(_NAMED_PAGE.search(ln))
            column += paged  # lines of the listing so far that end in their page ("xi", "59")
            line = clean_line(_NAMED_PAGE.sub("", ln)).strip()
            if paged:
                line = line.rstrip(" ,")  # "THE MILL AND THE FERRY,      49": older listings end a name in a comma
            indent = len(ln) - len(ln.lstrip())
            if not line or _COLUMNS.match(line):
                pending = _flush(entries, pending)
                continue
            under = not paged and paged_indent >= 0 and indent > paged_indent and bool(entries)
            if under and entries[-1].label.isupper() and not line.isupper():
                # "ANN LEE     13-39" over "   The Ferry, Market Day, The Toll ...": an author's or a part's
                # pieces listed under it in lower case, no part of its name; the listing goes on.
                continue
            # A name in sentence case ("The siege of the town      59") under a label over its chapters ("A
            # GUNNER'S DIARY:") is an entry still where it ends in its page as the lines above it do: the
            # listing's column of pages goes on (round txt23).
            in_column = paged and column >= 2 and pending is None and any(":" in e.label for e in entries)
            if not title_line(Para(0, [line.rstrip("?!")], 0)) and not (pending and paged) and not in_column \
                    and not _name_among_names(line, q.lines[n_ln + 1:n_ln + 2], len(entries) + bool(pending)):
                _flush(entries, pending)
                # (Cut short after names taken only for their column of pages: the names were not the listing's.)
                return (k, entries) if len(entries) >= 3 and not by_column else (k, [])
            by_column = by_column or in_column and not title_line(Para(0, [line.rstrip("?!")], 0))
            if under:
                entries[-1].label += f" {line}"  # "THE CLOCKMAKER OF THE   50" / "    HILL TOWN"
                continue
            if paged:
                entries.append(ContentsEntry("", None, "", label=f"{pending} {line}" if pending else line,
                                             page=_page_number(ln)))
                pending, paged_indent = None, indent
            else:
                _flush(entries, pending)
                pending, paged_indent = line, -1
        _flush(entries, pending)
        if entries:
            widest = max(widest, q.gap)
        k += 1
    return k, entries


def _page_number(line: str) -> int | None:
    """Return the Arabic page number a listing line ends with (the first of a span), None when it has none."""
    m = re.search(r"(\d{1,4})(?:[-\u2013]\d{1,4})?\s*$", line)
    return int(m.group(1)) if m else None


def in_page_order(entries: list[ContentsEntry]) -> list[ContentsEntry]:
    """Return a listing's entries in the order of their pages where the listing is in another order: an
    alphabetical listing of a collection's pieces ("LEE, ANN   278" / "QUILL, ULLA   33") names them as
    the book prints them only when read by page. A listing whose pages mostly rise is the book's order already."""
    pages = [e.page for e in entries if e.page is not None]
    if len(pages) < _MIN_PAGED or len(pages) < 0.8 * len(entries):
        return entries
    falls = sum(1 for a, b in zip(pages, pages[1:]) if b < a)
    if falls < _MIN_FALLS * len(pages):
        return entries
    return sorted(entries, key=lambda e: e.page if e.page is not None else 10**9)


#: Entries with pages before the order of pages is weighed, and the share of pages lower than the one above.
_MIN_PAGED = 5
_MIN_FALLS = 0.25


def _name_among_names(line: str, below: list[str], above: int) -> bool:
    """Return whether a listing line that does not read as a title is still one of its names: a short line, no
    sentence's end, between names (a poem's title in sentence case, "There is no mill on the river now", with
    two names or more above it and one below)."""
    if above < 2 or not below or len(line.split()) > _MAX_NAME_WORDS or line[-1:] in ".,;:!?":
        return False
    nxt = clean_line(_NAMED_PAGE.sub("", below[0])).strip()
    return bool(nxt) and line[:1].isupper() and bool(title_line(Para(0, [nxt.rstrip("?!")], 0)))


#: Words of a listed name in sentence case at most.
_MAX_NAME_WORDS = 10


def _flush(entries: list[ContentsEntry], pending: str | None) -> None:
    """Add a name read without a page (a listing without pages, or a group's label) as an entry."""
    if pending:
        entries.append(ContentsEntry("", None, "", label=pending))
    return None


def _entry_name(lines: list[str], entries: list[ContentsEntry]) -> str:
    """Return a one-line paragraph as the name of the entry above it that has none ("" when it is not)."""
    if len(lines) != 1 or not entries or entries[-1].name or entries[-1].number is None or entries[-1].part:
        return ""
    name = lines[0].strip()
    if e := _entry(name):
        # A name in capitals reads as a group's label ("HISTORICAL NOTES."), but under a bare "CHAPTER II."
        # it is that chapter's name ("CHAPTER II." / "AT THE TOLL GATE"); a "CONCLUSION" there is one too
        # where the entry before it was named so.
        before = [x for x in entries[:-1] if x.number is not None]
        if not (isinstance(e, ContentsEntry) and e.label) or NAMED.match(name) and not (before and before[-1].name):
            return ""
    return title_line(Para(0, [name], 0)) if len(name.split()) <= 8 else ""


def _split_entries(line: str) -> list[str]:
    """Return a contents line that lists several bare entries ("CHAPTER I CHAPTER II CHAPTER III") as one each."""
    starts = [m.start() for m in _ENTRY_WORD.finditer(line)]
    if len(starts) < 2 or starts[0] != 0:
        return [line]
    return [line[a:b].strip() for a, b in zip(starts, starts[1:] + [len(line)])]


#: A Roman numeral opening a contents line ("IV. THE FERRY"), as against a spelled number ("TWO TOWERS").
_ROMAN_ENTRY = re.compile(r"^[IVXLCDM]+$", re.I)


def _entry(line: str) -> ContentsEntry | bool | None:
    """Return a contents line as an entry, True for a column heading, None when it is no entry."""
    if _COLUMNS.match(line):
        return True
    if len(line) > 100:
        return None
    if m := ORDINAL_PART.match(line):
        return ContentsEntry(m.group("word").lower(), number_value(m.group("num")),
                      clean_line(m.group("rest").strip(" .:-\u2013\u2014")), part=True)
    m = _ENTRY.match(line)
    if m and not m.group("word") and m.group("name") and m.group("num").isalpha() \
            and not _ROMAN_ENTRY.match(m.group("num")):
        m = None  # "TWO TOWERS BY THE SEA": a spelled number opening a name numbers nothing without "CHAPTER"
    if m and number_value(m.group("num")) is not None and (m.group("name") or m.group("word")):
        word = (m.group("word") or "").lower().rstrip(".")
        return ContentsEntry({"chap": "chapter", "vol": "volume"}.get(word, word), number_value(m.group("num")),
                      _COLUMN_WORD.sub("", clean_line(m.group("name") or "")), part=bool(re.fullmatch(PART_WORDS, word, re.I)) or word == "vol")
    label = line.strip()
    # A name in capitals may run longer than a named part ("THE HOUSE BY THE FERRY, OR THE KEEPER'S LAST WINTER").
    if label and (len(label.split()) <= 8 or label.isupper() and len(label.split()) <= _MAX_CAPITALS_WORDS) \
            and (label.isupper() or NAMED.match(label)):
        return ContentsEntry("", None, "", label=label.rstrip(" ."))
    return None


#: Words of an unnumbered entry in capitals at most (a long name, its alternative title after "OR").
_MAX_CAPITALS_WORDS = 14


def name_key(text: str) -> list[str]:
    """Return a name's words in lower case, for comparing an entry with a heading."""
    return re.findall(r"[a-z0-9]+", text.casefold().replace("'s", ""))

"""A PDF's title and author from its title page, for when its metadata is empty or a placeholder.

The title is the largest text on the first pages (its lines in that size, top down, a trailing
"Version 12.2" dropped: an edition, not the name); the author is the first line below it, in
smaller type, that reads as names ("Frank B. Brokken", "W. N. Venables, D. M. Smith" + "and the R
Core Team"), never an address, a date, a version or a publisher's line.
"""
from __future__ import annotations

import re
from collections import Counter

from app.book.narration.cleanup import is_matter_title
from app.book.narration.gutenberg import title_from_page_title
from app.book.formats.pdflayout import Line
from app.book.formats.placeholder import is_placeholder, is_placeholder_author
from app.book.normalize import clean_text
from app.book.structure.listing import is_contents_label

__all__ = ["TITLE_PAGES", "book_title", "is_placeholder", "is_placeholder_author", "names_its_program", "title_page"]

#: Pages looked at: a half-title, the title page, its back.
TITLE_PAGES = 3
#: Lines at most this much smaller than the largest are the title's too (a title set over two lines).
_SAME_SIZE = 0.97
_MAX_TITLE_WORDS = 20
_VERSION_TAIL = re.compile(r"[\s,:-]+(?:version|release|edition|v\.?)\s*\d[\w.-]*$", re.I)
#: A line of names: capitalised words and initials, joined by commas, "and", "&", "with".
_NAME_WORD = re.compile(r"^(?:[A-Z\u00c0-\u00de][\w'\u2019.-]*|[A-Z]\.|and|&|with|the|de|van|von|der|den|da|di|le|la|"
                        r"du|y|et|und|,)$")
_NOT_NAMES = re.compile(r"\b(?:version|edition|release|copyright|university|press|publish|isbn|box|street|"
                        r"road|inc|ltd|gmbh|department|institute|foundation|manual|guide|reference|documentation|draft|"
                        r"revision|printed|\d)", re.I)


#: An author's address after the name on a title page ("A. Writer (aw@example.org)", "<aw@example.org>").
_EMAIL = re.compile(r"\s*[(<]\s*[\w.+-]+@[\w.-]+\s*[)>]")
#: "et al." after the names: the line's others, said as printed.
_ET_AL = re.compile(r",?\s+et\s+al\.?$")


#: An author's institution after the name ("A. Writer, Riverside University"), as Texinfo's @author lines
#: set it: the name is the author.
_AFFILIATION = re.compile(r",\s*[^,]*\b(?:university|universit\w+|college|institute|foundation|laborator\w*|inc|ltd|"
                          r"gmbh|corporation|company)\b[^,]*$", re.I)


def _author_text(text: str) -> str:
    return _AFFILIATION.sub("", _EMAIL.sub("", text)).strip()


def _set_apart(a: str, b: str) -> bool:
    """Return whether two lines each carry an address or an institution after the name: one author a line."""
    return bool(_EMAIL.search(a) and _EMAIL.search(b) or _AFFILIATION.search(a) and _AFFILIATION.search(b))


#: "by" or "Written by" before the names on a title page.
_BY = re.compile(r"^(?:written\s+)?by\s+", re.I)
#: What is left of a title page's line that named an edition alone ("Manual for version 1.9.4", the book's
#: name drawn as a picture above it): it ends on a word that needs another after it.
_OPEN_END = re.compile(r"\b(?:for|of|to|in|on|and|the|a|an)$", re.I)


def _is_names(text: str) -> bool:
    text = _ET_AL.sub("", _author_text(_BY.sub("", text.strip())))
    tokens = re.findall(r"[\w'\u2019.&-]+|,", text)
    if not 1 <= len([t for t in tokens if t != ","]) <= 16 or _NOT_NAMES.search(text):
        return False
    if text.rstrip().endswith((".", ":", "!", "?")) and not re.search(r"\b[A-Z]\.$", text.rstrip()):
        return False
    if tokens[0] in ("A", "An"):
        return False  # a subtitle ("An Interactive Plotting Program"); an initial has its dot ("A. Writer")
    capital = [t for t in tokens if t[0].isupper()]
    if _GROUP.search(text):
        # "The LilyPond development team": a group's own words may stand in lower case before its noun.
        tokens = [t for t in tokens if not _GROUP_WORD.match(t)]
    return len(capital) >= 2 and all(_NAME_WORD.match(t) for t in tokens)


#: A group named as the author: "The Widget development team", "the Widget project's contributors".
_GROUP = re.compile(r"\b(?:team|group|project|developers|contributors|community)$", re.I)
_GROUP_WORD = re.compile(r"^(?:development|documentation|core|team|group|project|developers|contributors|community)$")


#: An author's line with its label: "Author: A. Writer", "Authors: A. Writer and B. Maker".
_AUTHOR_FIELD = re.compile(r"^(?:(?:author|authors)\s*:|written\s+by\s*:?)\s*(\S.*)$", re.I)
#: A title that names its author at its end: "The Mill on the Weir, by Ann Writer".
_BY_TAIL = re.compile(r",\s+by\s+([^,;:]+?)\.?$", re.I)
#: Words a line of running text has at least: two such lines in a row in one size are a paragraph.
_PROSE_WORDS = 6


def _prose(ln: Line, after: list[Line]) -> bool:
    """Return whether a line and the next are a paragraph's: long, in one size, on one left margin (the
    first maybe indented, the two then ending at one right margin). A title page's subtitles set flush
    right or centred ("Edition 4 for Widget version 6.1" over the date) share no left margin; nor is a line of
    two parts set apart by a wide gap a paragraph's (an author beside the date)."""
    if ln.pieces or not after or not all(len(x.text.split()) >= _PROSE_WORDS for x in (ln, after[0])) \
            or abs(after[0].size - ln.size) >= 0.5:
        return False
    nxt = after[0]
    if abs(nxt.x0 - ln.x0) <= ln.size * 0.5:
        return True
    return 0 < ln.x0 - nxt.x0 <= ln.size * 3 and abs(nxt.x1 - ln.x1) <= ln.size * 0.5


def _labelled(first: list[list[Line]]) -> str:
    """Return the author an "Author:" or "Written by" line of the first pages names, or ""."""
    return next((clean_text(_author_text(m.group(1))) for page in first for ln in page
                 if (m := _AUTHOR_FIELD.match(ln.text.strip())) and _is_names(m.group(1))), "")


def _heading_key(text: str) -> str:
    return " ".join(clean_text(text).casefold().split())


def title_page(pages_lines: list[list[Line]], headings: frozenset[str] | set[str] = frozenset()) -> tuple[str, str]:
    """Return (title, author) read from the first pages' lines ("" where the page says none).

    `headings`: the outline's entries (case-folded) that are the document's sections, not its own title. Such
    a line over text that begins on its page is a chapter's heading, no book's title (a report whose first
    page opens "Introduction"), and a heading under the title ("Financial Highlights") is no author's name.
    """
    first = [lines for lines in pages_lines[:TITLE_PAGES] if lines]
    if not first:
        return "", ""
    # A matter heading names no book, whatever its size: LaTeX's book and report classes set "Contents" or
    # "Preface" (25 pt) larger than the title page's own title (17 pt), two pages on.
    named = {id(ln): ln.size for lines in first for ln in lines if not is_matter_title(clean_text(ln.text))}
    for lines in first:
        # A contents page's entries, under its heading, name chapters: never the book.
        head = next((ln for ln in lines if is_contents_label(clean_text(ln.text).strip(" .:"))), None)
        for ln in lines if head else ():
            if ln.base > head.base:
                named.pop(id(ln), None)
    if not named:
        return "", ""
    largest = max(named.values())
    if largest < max(ln.size for lines in first for ln in lines):
        # Under a larger matter heading, a title still stands out of the text: a name and a date in the
        # body's size over an "Imprint" page name no book.
        body = Counter(round(ln.size, 1) for lines in first for ln in lines).most_common(1)[0][0]
        if largest <= body:
            # No title stands out ("Written by A. Writer" under an edition's line, in the text's size).
            return "", _labelled(first)
    lines = next(lines for lines in first if any(named.get(id(ln), 0) >= largest for ln in lines))
    top = sorted(lines, key=lambda ln: (ln.base, ln.x0))
    start = next(i for i, ln in enumerate(top) if named.get(id(ln), 0) >= largest)
    end = start
    while end + 1 < len(top) and top[end + 1].size >= largest * _SAME_SIZE:
        end += 1
    title = clean_text(" ".join(ln.text for ln in top[start:end + 1]))
    if len(title.split()) > _MAX_TITLE_WORDS or not re.search(r"[^\W\d_]{2}", title) or is_matter_title(title):
        return "", ""
    title = _VERSION_TAIL.sub("", title).strip(" ,:-")
    if _OPEN_END.search(title):
        title = ""  # an edition's line alone; its author may still stand under it
    author = ""
    rest = top[end + 1:]
    if _heading_key(title) in headings and any(_prose(ln, rest[i + 1:i + 2]) for i, ln in enumerate(rest)):
        return "", ""
    if labelled := _labelled(first):  # "Author: A. Writer" (a Gutenberg header) says so wherever it stands
        return title, labelled
    if (m := _BY_TAIL.search(title)) and _is_names(m.group(1)):
        # The title names its author ("The Mill on the Weir, by Ann Writer", as Gutenberg's headers set it):
        # the lines under it are its header's fields and markers, no name.
        return title, clean_text(m.group(1))
    for i, ln in enumerate(rest):
        if _prose(ln, rest[i + 1:i + 2]):
            break  # the text has begun (a document's first page): a heading below it names no author
        text = ln.text
        if len(ln.pieces) == 2:
            # The author beside the date or revision, set apart on one line (LaTeX's article and LinuxDoc
            # title blocks: "A. Writer          $Revision: 1.7 $"): the names are the line's left part. Names
            # are never set apart from each other so: two parts of names are a table's cells ("Name   Contact").
            text = ln.pieces[0] if _is_names(ln.pieces[0]) and not _is_names(ln.pieces[1]) else ""
        if ln.row or ln.size >= largest * _SAME_SIZE or not _is_names(text) or _heading_key(text) in headings:
            continue  # (a table's row, "First; Last; Email", names no author)
        parts, own = [_author_text(text)], []
        # "W. N. Venables, D. M. Smith" / "and the R Core Team": one author line set over two; or one
        # author a line, in the same type, each with an address or institution (Texinfo's @author lines).
        for nxt in rest[i + 1:i + 4]:
            if not own and re.match(r"^(?:and|&|with)\b", nxt.text.strip(), re.I) and _is_names(nxt.text):
                parts.append(_author_text(nxt.text))
            elif len(parts) == 1 and abs(nxt.size - ln.size) < 0.5 and _is_names(nxt.text) \
                    and _set_apart(ln.text, nxt.text):
                own.append(_author_text(nxt.text))
            else:
                break
        if own:  # "A, B and C"
            names = parts + own
            parts = [", ".join(names[:-1]) + " and " + names[-1]]
        author = _BY.sub("", clean_text(" ".join(parts)))
        break
    return title, author


def _same_name(a: str, b: str) -> bool:
    return bool(a) and re.sub(r"\W+", " ", a).casefold().strip() == re.sub(r"\W+", " ", b).casefold().strip()


def names_its_program(author: str, title: str) -> bool:
    """Return whether a metadata author is one word of the title, the program the document is about ("gnuplot"
    for "gnuplot documentation", as a generator fills it in): it names no one who wrote the book."""
    a = clean_text(author or "").strip().casefold()
    return bool(a) and " " not in a and a in re.findall(r"[\w+.-]+", clean_text(title or "").casefold())


def book_title(title: str, author: str) -> tuple[str, str]:
    """Return (the book's name, its author) from a title that wraps it as a web page's title does.

    Converters carry an HTML edition's <title> into the PDF's metadata ("The Project Gutenberg eBook of
    The Mill on the Weir, by Ann Writer"), and a title page may print it so: the book is "The Mill on the
    Weir" by Ann Writer. A ", by Ann Writer" tail goes only when it names the author read (or none was):
    "Murder, by Decree" keeps its comma's words when its author is another.
    """
    named, by = title_from_page_title(title)
    if named and (not author or not by or _same_name(by, author)):
        return named, author or by
    m = _BY_TAIL.search(title)
    if m and _is_names(m.group(1)) and (not author or _same_name(m.group(1), author)):
        name = title[:m.start()].strip(" ,;:")
        if re.search(r"[^\W\d_]{2}", name):
            return name, author or clean_text(m.group(1))
    return title, author

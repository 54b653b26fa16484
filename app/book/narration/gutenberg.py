"""Project Gutenberg's wrapping around a book: its header, its licence, and the metadata in the header.

Gutenberg has framed its texts in several ways since 1971: the "*** START OF THE PROJECT GUTENBERG
EBOOK ... ***" marker of today (and "THIS", "***START" without a space, a marker wrapped over two
lines), the "*END*THE SMALL PRINT! ..." line that closed the old header, and at the end "End of the
Project Gutenberg EBook of ...", "*** END OF THIS PROJECT GUTENBERG EBOOK ... ***" and the full licence
("*** START: FULL LICENSE ***"). Where a copy lost its markers, the licence's and header's own
sentences mark them. None of it is the book: it is matter, out unless --include-matter.

The same rules serve plain text (lines) and HTML (the text of its blocks).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

#: The line that ends Gutenberg's header: today's START marker and the old small print's end.
_START = re.compile(
    r"^\W{0,8}\*+\s*START\s*(?:OF\s*)?(?:THE\s*|THIS\s*)?PROJECT\s*GUTENBERG\b"
    r"|^\W{0,8}\*?\s*END\s*\*?\s*THE\s+SMALL\s+PRINT\b",
    re.IGNORECASE,
)
#: The line that starts the end matter: the END marker, "End of (the) Project Gutenberg('s) ...", the licence.
_END = re.compile(
    r"^\W{0,8}\*+\s*END\s*(?:OF\s*)?(?:THE\s*|THIS\s*)?PROJECT\s*GUTENBERG\b"
    r"|^\W{0,8}END\s+OF\s+(?:THE\s+|THIS\s+)?PROJECT\s+GUTENBERG\b"
    r"|^\W{0,8}(?:The\s+)?End\s+of\s+(?:the\s+|this\s+)?Project\s+Gutenberg(?:'s|\u2019s)?\b"
    r"|^\W{0,8}\*+\s*START:?\s*(?:OF\s+)?(?:THE\s+)?FULL\s+LICEN[CS]E\b",
    re.IGNORECASE,
)
#: Sentences of the licence and of the header, for copies whose markers are gone.
_LICENCE_LINE = re.compile(
    r"THE\s+FULL\s+PROJECT\s+GUTENBERG\s+LICEN[CS]E|PLEASE\s+READ\s+THIS\s+BEFORE\s+YOU\s+DISTRIBUTE"
    r"|Project\s+Gutenberg(?:-tm|\u2122)|Updated\s+editions\s+will\s+replace\s+the\s+previous\s+one"
    r"|Section\s+1\.\s+General\s+Terms\s+of\s+Use|\*BEFORE!\*\s+YOU\s+USE\s+OR\s+READ"
    r"|Information\s+about\s+Project\s+Gutenberg|START\s+OF\s+THE\s+SMALL\s+PRINT",
    re.IGNORECASE,
)
_HEADER_LINE = re.compile(
    r"This\s+e-?(?:Book|text)\s+is\s+for\s+the\s+use\s+of\s+anyone\s+anywhere"
    r"|(?:The\s+)?Project\s+Gutenberg(?:'s|\u2019s)?\s+(?:e-?(?:Book|text)|Etext)\b|Project\s+Gutenberg's\s"
    r"|Copyright\s+laws\s+are\s+changing\s+all\s+over\s+the\s+world|\*\*Welcome\s+To\s+The\s+World\s+of\s+Free",
    re.IGNORECASE,
)
#: The header's own fields ("Title: ...", "Release Date: ..."), one a line.
_FIELD = re.compile(
    r"^\s*(Title|Author|Authors|Editor|Translator|Illustrator|Release\s+Date|Posting\s+Date|"
    r"Last\s+Updated|Language|Character\s+set\s+encoding|Produced\s+by|Credits|Most\s+recently\s+updated)"
    r"\s*:\s*(.*)$",
    re.IGNORECASE,
)
#: Any "Name: value" line of a header (the book's metadata takes more of them than mark a header).
_ANY_FIELD = re.compile(r"^\s*([A-Za-z][A-Za-z ]{1,30}?)\s*:\s*(.*?)\s*$")
#: The credits under the START marker: who produced the e-text, and Gutenberg's notes on its files.
_CREDIT = re.compile(
    r"^\s*(?:(?:e-?text|html\s+file|text\s+file|this\s+e-?(?:text|book))?\s*(?:was\s+)?"
    r"(?:produced|prepared|transcribed|scanned|proofread)\s+by\b"
    r"|note:\s+project\s+gutenberg\b)"
    r"|distributed\s+proofread|pgdp\.net|gutenberg\.(?:org|net)",
    re.IGNORECASE,
)
#: The old first line: "The Project Gutenberg EBook of <title>, by <author>" (also "Project Gutenberg's").
_FIRST_LINE = re.compile(
    r"^\W*(?:The\s+)?Project\s+Gutenberg(?:'s|\u2019s)?\s*(?:e-?Book|Etext|e-?text)?\s*(?:of|,)?\s+"
    r"(?P<title>.+?)(?:,?\s+by\s+(?P<author>.+?))?\s*$",
    re.IGNORECASE | re.S,
)
#: The chapter title the licence gets when --include-matter reads it.
LICENCE_TITLE = "The Project Gutenberg License"
#: How far from the top a header, and from the bottom a licence, may start without markers (lines).
_HEADER_REACH = 120
#: Credits are looked for among this many paragraphs after the START marker.
_CREDIT_REACH = 6
#: Words a wrapped title line can end with (its next line goes on with the same title).
_JOINING = frozenset("a an and as at but by for in of on or the to with from into upon nor".split())
#: Gutenberg's "Language:" names, as the codes a Book carries.
_LANGUAGES = {
    "english": "en", "french": "fr", "german": "de", "spanish": "es", "italian": "it", "portuguese": "pt",
    "dutch": "nl", "finnish": "fi", "swedish": "sv", "danish": "da", "norwegian": "no", "latin": "la",
    "greek": "el", "russian": "ru", "polish": "pl", "chinese": "zh", "japanese": "ja", "esperanto": "eo",
    "hungarian": "hu", "czech": "cs", "catalan": "ca", "tagalog": "tl", "welsh": "cy", "irish": "ga",
}


@dataclass(frozen=True)
class Wrapped:
    """A Gutenberg text cut into its header, the book and its end matter, with the header's metadata."""

    header: str
    body: str
    footer: str
    title: str = ""
    author: str = ""
    #: A language code ("en"), "" when the header names none.
    language: str = ""


def split_text(text: str) -> Wrapped | None:
    """Return a plain-text Gutenberg book cut at its markers (or its licence's words); None when it is not one."""
    lines = text.split("\n")
    start = header_end(lines)
    end = footer_start(lines, start)
    if start == 0 and end == len(lines):
        return None
    start = _skip_credits(lines, start, end)
    header = "\n".join(lines[:start])
    title, author, language = header_metadata(header)
    return Wrapped(header, "\n".join(lines[start:end]), "\n".join(lines[end:]), title, author, language)


def header_end(lines: list[str]) -> int:
    """Return the index of the first line after Gutenberg's header (0 when there is none)."""
    for n, line in enumerate(lines):
        if _START.match(line):
            # A marker wrapped over lines ("...ON THE" / "COLUMBIA***") ends where its stars do.
            for k in range(n, min(n + 3, len(lines))):
                if lines[k].rstrip().endswith("*") and (k > n or line.count("*") > 3):
                    return k + 1
            return n + 1
    last, worded = -1, False
    for n, line in enumerate(lines[:_HEADER_REACH]):
        # Fields alone ("Author: ...") are common in other texts; Gutenberg's own wording must be there too.
        worded = worded or bool(_HEADER_LINE.search(line))
        if _HEADER_LINE.search(line) or (_FIELD.match(line) and _FIELD.match(line).group(2).strip()):
            last = n
    if last < 0 or not worded:
        return 0
    while last + 1 < len(lines) and lines[last + 1].strip():
        last += 1  # the rest of that header paragraph
    return last + 1


def footer_start(lines: list[str], start: int = 0) -> int:
    """Return the index of the first line of Gutenberg's end matter (len(lines) when there is none)."""
    for n in range(start, len(lines)):
        if _END.match(lines[n]):
            return n
    # No marker: the licence's own sentences, in the last part of the text only (a novel may name Gutenberg).
    floor = max(start, len(lines) // 2)
    for n in range(floor, len(lines)):
        if _LICENCE_LINE.search(lines[n]):
            while n > floor and lines[n - 1].strip():
                n -= 1  # from that paragraph's first line
            return n
    return len(lines)


def _skip_credits(lines: list[str], start: int, end: int) -> int:
    """Return the index after the credit paragraphs ("Produced by ...") that follow the START marker."""
    n, seen = start, 0
    while n < end and seen < _CREDIT_REACH:
        while n < end and not lines[n].strip():
            n += 1
        para_end = n
        while para_end < end and lines[para_end].strip():
            para_end += 1
        if n >= end or not is_credit(" ".join(lines[n:para_end])):
            return start
        start, seen = para_end, seen + 1
        n = para_end
    return start


def is_credit(paragraph: str) -> bool:
    """Return whether a paragraph near the START marker credits the e-text's producers or Gutenberg's files."""
    return bool(_CREDIT.search(paragraph)) and len(paragraph.split()) <= 80


def is_header_text(paragraph: str) -> bool:
    """Return whether a paragraph is Gutenberg's header wording (its fields alone are not enough)."""
    return bool(_HEADER_LINE.search(paragraph) or _START.match(paragraph))


def is_start_marker(line: str) -> bool:
    """Return whether a line ends Gutenberg's header (the START marker, the old small print's end)."""
    return bool(_START.match(line.strip()))


def is_end_marker(paragraph: str) -> bool:
    """Return whether a paragraph starts Gutenberg's end matter (END marker, "End of ...", the licence)."""
    return bool(_END.match(paragraph.strip()))


def is_licence_text(paragraph: str) -> bool:
    """Return whether a paragraph is the licence's wording."""
    return bool(_LICENCE_LINE.search(paragraph))


def header_fields(header: str) -> dict[str, str]:
    """Return a Gutenberg header's "Name: value" fields by lower-case name (the first of each), wraps joined.

    Any field is returned ("Translator", "Original publication", ...), not only those that mark a header.
    """
    fields: dict[str, str] = {}
    lines = header.split("\n")
    n = 0
    while n < len(lines):
        m = _ANY_FIELD.match(lines[n])
        n += 1
        if not m:
            continue
        key = re.sub(r"\s+", " ", m.group(1).lower()).strip()
        value = m.group(2).strip()
        # A long value wraps onto indented lines under its field.
        while n < len(lines) and lines[n].startswith((" ", "\t")) and lines[n].strip() and not _FIELD.match(lines[n]):
            more = lines[n].strip()
            # "A Tale of Two Cities" / "A Story of the French Revolution" is a subtitle; "... on" / "the
            # Columbia" one title wrapped. Other fields (a list of names) go on with a space.
            last = value.rsplit(" ", 1)[-1].lower()
            subtitle = (key == "title" and value and more[:1].isupper() and last not in _JOINING
                        and not value.endswith((",", ";", ":", "-")))
            value = f"{value}: {more}" if subtitle else f"{value} {more}".strip()
            n += 1
        if value:
            fields.setdefault(key, _tidy(value))
    return fields


def header_metadata(header: str) -> tuple[str, str, str]:
    """Return the title, author and language code that a Gutenberg header names ("" where it does not)."""
    fields = header_fields(header)
    lines = header.split("\n")
    title = fields.get("title", "")
    author = fields.get("author") or fields.get("authors") or fields.get("editor", "")
    if not title or not author:
        for para in _naming_paragraphs(lines):
            m = _FIRST_LINE.match(para)
            if m and not _HEADER_LINE.match(m.group("title")):
                title = title or m.group("title").strip(" ,")
                author = author or (m.group("author") or "").strip(" ,.")
                break
    return _tidy(title), _tidy(author), language_code(fields.get("language", ""))


def _naming_paragraphs(lines: list[str]) -> list[str]:
    """Return the header's paragraphs that name the eBook ("The Project Gutenberg EBook of X, by Y"), joined.

    Today's header opens with that line (wrapped at times); the old one has it framed in stars
    ("**The Project Gutenberg Etext of Frankenstein by Mary Shelley**") below its welcome.
    """
    found: list[str] = []
    para: list[str] = []
    for line in lines + [""]:
        starred = line.strip().startswith("*")
        if line.strip() and not (starred and para):
            para.append(line.strip().strip("*").strip())
            if not starred:
                continue
            line = ""  # a line framed in stars is a paragraph of its own
        if para and re.match(r"^\W*(?:The\s+)?Project\s+Gutenberg(?:'s|\u2019s)?\s+(?:e-?Book|Etext|e-?text)?\s*"
                             r"(?:of|,)\s", para[0], re.I):
            found.append(" ".join(para))
        para = []
    return found


def _tidy(value: str) -> str:
    return re.sub(r"\s+", " ", value).strip()


def language_code(name: str) -> str:
    """Return the code for a "Language:" field ("English" -> "en"); the first of several; "" when unknown."""
    first = re.split(r"[,;/&]|\band\b", name.strip(), maxsplit=1)[0].strip().lower()
    if re.fullmatch(r"[a-z]{2,3}(?:-[a-z0-9]+)?", first) and first not in _LANGUAGES:
        return first.split("-")[0]
    return _LANGUAGES.get(first, "")


def title_from_page_title(text: str) -> tuple[str, str]:
    """Return (title, author) from an HTML <title> "The Project Gutenberg eBook of X, by Y"; ("", "") otherwise."""
    m = _FIRST_LINE.match(re.sub(r"\s+", " ", text).strip())
    if not m:
        return "", ""
    return m.group("title").strip(" ,."), (m.group("author") or "").strip(" ,.")


#: A catalogue's life dates after a name: ", 1775-1817", ", 1812?-", ", -1640", ", 1900".
_LIFE_DATES = re.compile(r",?\s*(?:\d{3,4}\??\s*-\s*(?:\d{3,4}\??)?|-\s*\d{3,4}|\d{3,4})\s*$")


def catalogue_form(name: str) -> tuple[str, str]:
    """Return (name, file-as) for a catalogue's "Austen, Jane, 1775-1817": ("Jane Austen", "Austen, Jane").

    Other names come back as they are (life dates off) with an empty file-as: "Last, First" only, so
    "Tolstoy, Leo, graf", "Smith and Sons, Ltd." or two people ("Smith, John; Doe, Jane") are left alone.
    """
    name = _LIFE_DATES.sub("", name.strip()).strip(" ,")
    parts = [p.strip() for p in name.split(",")]
    if (len(parts) == 2 and all(parts) and len(parts[0].split()) == 1 and parts[1][:1].isupper()
            and not re.search(r"\band\b|&|;", name)):
        return f"{parts[1]} {parts[0]}", f"{parts[0]}, {parts[1]}"
    return name, ""


def catalogue_name(name: str) -> str:
    """Return a catalogue's "Austen, Jane, 1775-1817" as "Jane Austen"; other names as they are."""
    return catalogue_form(name)[0]

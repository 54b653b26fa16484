"""Paragraph and heading blocks, and splitting a run of them into chapters.

Every format reduces its text to a list of blocks; TXT, Markdown and HTML then
share one rule for where chapters start.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from app.book.model import Chapter, ReadOptions
from app.book.narration.cleanup import CODE_MENTION, is_apparatus_title, is_boilerplate, is_matter_title, strip_inline
from app.book.normalize import clean_paragraphs, clean_text
from app.book.structure.lines import CHAPTER_WORDS, KEYWORD, PICTURE, is_named_heading, leading_number, numbering_restarts

#: Headings deeper than this never start a chapter (h4+ are sections).
MAX_CHAPTER_LEVEL = 3
#: Front matter outside the chapters is read only when it is this long (a real unlisted prologue).
UNLISTED_MIN_WORDS = 300

_NUMBER_WORDS = (
    "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|"
    "sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|"
    "first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last"
)
#: "Chapter 12", "CHAPTER XII.", "Part One", "Book the First", "Chapter 1: The Beginning".
_KEYWORD_HEADING = re.compile(
    rf"^(?:chapter|part|book|volume|canto|letter|appendix)\s+"
    rf"(?:the\s+)?(?:\d+|[ivxlcdm]+|[a-z]|(?:{_NUMBER_WORDS})(?:[\s-](?:{_NUMBER_WORDS}))?)\b"
    r"\s*(?P<rest>[.:\-\u2013\u2014]?.*)$",
    re.IGNORECASE,
)
_NAMED_HEADING = re.compile(
    r"^(?:prologue|epilogue|preface|foreword|introduction|afterword|interlude)\b\s*(?P<rest>[.:\-\u2013\u2014]?.*)$",
    re.IGNORECASE,
)
_MAX_HEADING_WORDS = 14


@dataclass
class Block:
    """A paragraph (level 0) or a heading (level 1-6) of raw text."""

    text: str
    level: int = 0
    #: Element ids that start at or inside this block (EPUB TOC anchors).
    ids: set[str] = field(default_factory=set)
    #: "text", or "code" for a preformatted block (read per ReadOptions.code).
    kind: str = "text"
    #: In-page links in this block, in order, as (target id, link text): "#chapter-1" -> ("chapter-1", "I").
    links: tuple[tuple[str, str], ...] = ()


@dataclass
class Document:
    """One HTML document reduced to what a book needs."""

    blocks: list[Block]
    title: str = ""
    author: str = ""
    #: epub:type / role values on <body> and its top-level sections.
    types: set[str] = field(default_factory=set)
    #: The document's declared language (lang / xml:lang on <html> or <body>), "" when none.
    language: str = ""
    #: Words marked with ssml:ph (EPUB 3 text-to-speech) -> their IPA phonemes.
    phonemes: dict[str, str] = field(default_factory=dict)
    #: Entries of contents listings that are not read (class="toc", <nav>): (text, target id, block index).
    listing: list[tuple[str, str, int]] = field(default_factory=list)


def keyword_heading(text: str) -> bool:
    """Return whether a one-line paragraph reads like a chapter heading."""
    line = clean_text(text)
    if not line or len(line.split()) > _MAX_HEADING_WORDS:
        return False
    for pattern in (_KEYWORD_HEADING, _NAMED_HEADING):
        m = pattern.match(line)
        if m:
            rest = m.group("rest").strip()
            # "Chapter 12 began badly." is prose; a heading's rest is empty or set off.
            return not rest or rest[0] in ".:-\u2013\u2014" or line.isupper()
    return False


#: A heading that is a number alone ("IV.", "12").
_BARE_NUMERAL = re.compile(r"^(?:[IVXLCDM]{1,8}|\d{1,3})\.?$")


def _is_bare(title: str) -> bool:
    """Return whether a heading is only a label like "Chapter 3" or "IV." with no name."""
    if _BARE_NUMERAL.match(title.strip()):
        return True
    m = _KEYWORD_HEADING.match(title) or _NAMED_HEADING.match(title)
    return bool(m) and not m.group("rest").strip(" .:-\u2013\u2014")


def _subtitle(block: Block | None, level: int, promoted: bool) -> str | None:
    """Return the block's text if it names the chapter whose bare label precedes it."""
    # A deeper heading names it; so does a short line after a "CHAPTER I." line of plain text.
    if block is None or not (block.level > level or promoted and block.level == 0):
        return None
    text = clean_text(block.text)
    bare = text.strip("\"'\u201c\u201d\u2018\u2019 ")
    # A quoted name ('"THE RESCUE OF THE PRINCESS WINSOME"') is a title; a sentence ends with a stop.
    if not bare or len(text.split()) > 10 or bare[-1] in "!?,;:" or (bare[-1] == "." and not block.level):
        return None
    return text.rstrip(" .") if block.level else text


def promote_keyword_headings(blocks: list[Block]) -> list[Block]:
    """Return blocks with one-line "Chapter N"-style paragraphs marked as level-1 headings."""
    return [Block(b.text, 1, b.ids, b.kind) if b.level == 0 and b.kind == "text" and keyword_heading(b.text) else b
            for b in blocks]


#: A heading level divides the body only if no one of its sections holds more than this share of the
#: words: a title <h1> (or texinfo's "Top" <h1>) spans the whole book and must not hide the chapters.
_MAX_SECTION_SHARE = 0.8


def _split_level(blocks: list[Block], outline: bool = False) -> int | None:
    """Return the heading level that divides the book: the highest one repeated that spreads the text.

    With `outline` (a word processor's document, whose heading levels its author set), the highest level
    repeated, whatever its sections' sizes: a long chapter is still the chapter the outline says."""
    counts: dict[int, int] = {}
    for b in blocks:
        if 1 <= b.level <= MAX_CHAPTER_LEVEL:
            counts[b.level] = counts.get(b.level, 0) + 1
    if not counts:
        return None
    repeated = sorted(lvl for lvl, n in counts.items() if n >= 2)
    for k, level in enumerate(repeated):
        if outline or _largest_share(blocks, level) <= _MAX_SECTION_SHARE:
            return level
        if k + 1 < len(repeated) and _numbered_within(blocks, repeated[k + 1]):
            # The level below numbers its headings within their chapter ("1.1.", "1.2."): they are a
            # chapter's sections, so this level is the chapters', however long one chapter is.
            return level
    return repeated[0] if repeated else min(counts)


#: A heading numbered within its chapter: "2.1. Getting started", "3.1.1 Scope".
_SECTION_NUMBER = re.compile(r"^\s*\d{1,3}(?:\.\d{1,3})+\.?(?:\s|$)")


def _numbered_within(blocks: list[Block], level: int) -> bool:
    """Return whether most headings of a level are numbered within their chapter."""
    heads = [b.text for b in blocks if b.level == level]
    return sum(bool(_SECTION_NUMBER.match(t)) for t in heads) * 2 > len(heads)


def split_level(blocks: list[Block], outline: bool = False) -> int | None:
    """Return the heading level at which split_chapters divides these blocks (None: no headings)."""
    return _split_level(blocks, outline)


def _largest_share(blocks: list[Block], level: int) -> float:
    """Return the largest share of the words that one section at this heading level holds."""
    sections = [0]
    for b in blocks:
        if 0 < b.level <= level:
            sections.append(0)
        sections[-1] += len(b.text.split())
    total = sum(sections)
    return max(sections) / total if total else 1.0


def _title_for(blocks: list[Block], i: int, promoted: bool) -> str:
    """Return the chapter title for the heading at i, adding a name line after a bare label."""
    title = clean_text(blocks[i].text)
    if _is_bare(title):
        sub = _subtitle(blocks[i + 1] if i + 1 < len(blocks) else None, blocks[i].level, promoted)
        if sub:
            return f"{title.rstrip(' .:')}: {sub}"
    return title


def split_chapters(blocks: list[Block], fallback_title: str, options: ReadOptions | None = None,
                   outline: bool = False) -> list[Chapter]:
    """Return chapters split at headings, numbered from 1; one chapter when there are none.

    Text before the first chapter heading is front matter (title page, licence, contents): it is
    read only when it is long enough to be a real unlisted prologue or the options include matter.
    Chapters titled as matter (licence, index) are left out unless the options include them.
    `outline`: split at the highest heading level repeated, as a word processor's outline says (_split_level).
    """
    options = options or ReadOptions()
    promoted = not any(1 <= b.level <= MAX_CHAPTER_LEVEL for b in blocks)
    if promoted:
        blocks = promote_keyword_headings(blocks)
    level = _split_level(blocks, outline)
    groups: list[tuple[str | None, list[Block]]] = [(None, [])]
    for i, b in enumerate(blocks):
        if level is not None and b.level == level:
            groups.append((_title_for(blocks, i, promoted), [b]))
        else:
            groups[-1][1].append(b)
    preamble = groups.pop(0)[1]
    if preamble and groups and all(b.level for b in preamble):
        # Only headings before the first chapter (the book's title): read them with chapter 1.
        groups[0] = (groups[0][0], preamble + groups[0][1])
    elif preamble and (not groups or options.include_matter or body_words(preamble) >= UNLISTED_MIN_WORDS):
        heads = [b for b in preamble if b.level]
        groups.insert(0, (clean_text(heads[0].text) if heads else fallback_title, preamble))
    if not options.include_matter:
        # A book's notes and lists are matter where the book has other chapters (a file of notes is the book).
        apparatus = len(groups) > 1
        # A weekly opens its text with its "Notes" (then "Queries", "Replies"): notes that open the text,
        # with three chapters after them, are its first section, not the notes gathered at the end.
        opening = next((i for i, (t, _) in enumerate(groups) if not (t and is_matter_title(t))), None)
        groups = [(t, bs) for i, (t, bs) in enumerate(groups) if not (t and (is_matter_title(t) or apparatus and is_apparatus_title(t)
                  and not (i == opening and len(groups) - i > 3 and _OPENING_NOTES.match(t))))]
    titled = [(t, narration(bs, options)) for t, bs in _fold_title_pages(groups, fallback_title, outline)]
    return [Chapter(n, title or fallback_title, paras) for n, (title, paras) in enumerate(
        ((t, p) for t, p in titled if p), start=1)]


def _fold_title_pages(
    groups: list[tuple[str | None, list[Block]]], book_title: str, outline: bool = False
) -> list[tuple[str | None, list[Block]]]:
    """Return the groups with heading-only ones folded into the next title ("Part Two: Chapter 5").

    A heading whose title comes back later, with at most one line under it, is a contents listing
    and is dropped; a heading-only group repeating the book's title is the title page and adds
    nothing to the next title. A document with no text under any heading is left as it is. In a
    word processor's outline (`outline`), a heading with nothing under it (a section holding only a
    chart or a formula) is a chapter of its own: its author set it at the level of the next, not over it.
    """
    if not any(body_words(bs) for _, bs in groups):
        # A document of headings only (an outline) has no title pages to fold: its headings are its text.
        return groups
    out: list[tuple[str | None, list[Block]]] = []
    prefix = ""
    part = ""
    # Where chapter numbers go back to one in each part, every chapter carries its part's name
    # ("Book the Second, I: Five Years Later"); else only the first after the part's page does.
    restarts = numbering_restarts(_part_titles(groups))
    # Titles still to come, counted, so "comes back later" is one look-up (books with thousands of headings).
    later = Counter((t or "").casefold() for t, _ in groups)
    # A heading alone before the first text, and nowhere else, is the book's title set over its text
    # ("THE SALT ROAD." over "Chapter I."): a part's title page recurs at every part.
    bare = [n for n, (_, bs) in enumerate(groups) if not body_words(bs) and n + 1 < len(groups)]
    first_text = next((n for n, (_, bs) in enumerate(groups) if body_words(bs)), None)
    half_title = bare[0] if first_text is not None and len(bare) == 1 and bare[0] == first_text - 1 else None
    listing = set() if outline else _listed_run(groups)
    for n, (title, blocks) in enumerate(groups):
        if n in listing:
            continue
        if n == half_title and not KEYWORD.match(clean_text(title or "")) and not (
                outline and not names_the_book(title or "", book_title)):
            # In a word processor's outline the half title goes only when it repeats the title (announced):
            # another bare heading there ("Received on: date" set at level 1) is a line of the page.
            continue
        key = (title or "").casefold()
        later[key] -= 1
        # A bare label between texts ("CHAPTER I" over "The River" after a preface) names the chapter under it,
        # though its number comes back (an appendix or notes numbered by the chapters).
        label = not blocks[1:] and 0 < n < len(groups) - 1 and body_words(groups[n - 1][1]) and body_words(groups[n + 1][1])
        if key and later[key] > 0 and sum(1 for b in blocks if not b.level) <= 1 and not label:
            continue  # a contents listing: the title, perhaps one line, and the chapter itself comes later
        if not body_words(blocks) and n + 1 < len(groups) and not (outline and key):
            if key and not names_the_book(title, book_title):
                piece = title.rstrip(" .:")
                prefix = f"{prefix}: {piece}" if prefix else piece
            continue
        if prefix:
            part = prefix if restarts and leading_number(title or "") else ""
            title = (f"{prefix}, {title}" if part else f"{prefix}: {title}") if title else prefix
            prefix = ""
        elif part and not is_named_heading(title or "") and not is_matter_title(title or ""):
            title = f"{part}, {title}"
        else:
            part = ""  # a prelude, epilogue or finale stands outside the parts
        out.append((title, blocks))
    return out


#: A weekly's first section: its notes, before its queries.
_OPENING_NOTES = re.compile(r"^\W*notes\W*$", re.I)
#: A heading that opens the book's end matter: "NOTES", "Author's Notes", "Endnotes", "Appendix", "Appendices".
_ENDMATTER_HEAD = re.compile(r"^(?:[\w'\u2019-]+\s+){0,3}(?:end)?notes$|^append(?:ix|ices)\b", re.IGNORECASE)


def _listed_run(groups: list[tuple[str | None, list[Block]]]) -> set[int]:
    """Return the groups of a contents listing set as headings: a run of headings with no text between them
    that holds two chapter headings in a row ("Chapter 1: ...", "Chapter 2: ..."). A chapter is never the
    title page of the next chapter, so such a run is no chain of part titles, whether or not its chapters come
    back later (a book's excerpt lists chapters it does not hold)."""
    def chapter(n: int) -> bool:
        m = KEYWORD.match(clean_text(groups[n][0] or ""))
        return bool(m) and re.fullmatch(CHAPTER_WORDS, m.group("word"), re.I) is not None
    bare = [not body_words(bs) for _, bs in groups]
    out: set[int] = set()
    n = 0
    while n < len(groups):
        end = n
        while end < len(groups) and bare[end]:
            end += 1
        if any(chapter(k) and chapter(k + 1) for k in range(n, end - 1)):
            out.update(range(n, end))
            # The listing's last entry set over the short front page after it (a dedication, a motto).
            if end < len(groups) and not chapter(end) and body_words(groups[end][1]) < UNLISTED_MIN_WORDS:
                out.add(end)
        n = end + 1
    return out


def _part_titles(groups: list[tuple[str | None, list[Block]]]) -> list[str]:
    """Return the titles whose numbering tells parts apart: the chapters' with text, up to the end matter.

    Notes after the last chapter are often numbered afresh ("NOTES", then "I.", "II."): a numbering
    that goes back to one there starts the notes, not a second part, so the chapters carry no part name.
    """
    titles: list[str] = []
    for title, blocks in groups:
        t = clean_text(title or "").strip(" .:")
        if any(leading_number(x) for x in titles) and (_ENDMATTER_HEAD.match(t) or is_apparatus_title(t)
                                                       or is_matter_title(t)):
            break
        if body_words(blocks):
            titles.append(title or "")
    return titles


def names_the_book(title: str, book_title: str) -> bool:
    """Return whether a heading is the book's title (or its main part, without a series or by-line): the
    title page's heading over the first chapter ("THE SALT ROAD" in "The Salt Road, by Ann Lee")."""
    heading = re.findall(r"\w+", title.casefold())
    book = re.findall(r"\w+", book_title.casefold())
    if heading == book:
        return True
    n = len(heading)
    return n >= 3 and any(book[k:k + n] == heading for k in range(len(book) - n + 1))


def narration(blocks: Iterable[Block], options: ReadOptions) -> tuple[str, ...]:
    """Return the paragraphs to speak for blocks: boilerplate out, code blocks as the options say."""
    texts: list[str] = []
    for b in blocks:
        if b.kind == "code":
            if options.code == "read":
                texts.append(b.text)
            elif options.code == "mention" and (not texts or texts[-1] != CODE_MENTION):
                # Consecutive blocks (a command and its output) are one example to a listener.
                texts.append(CODE_MENTION)
            continue
        if is_boilerplate(b.text):
            continue
        texts.append(strip_inline(b.text))
    return clean_paragraphs(texts)


def body_words(blocks: Iterable[Block]) -> int:
    """Return the words of a run of blocks that are not headings (a part-title page has none)."""
    # (A transcriber's "[Illustration: ...]" is no word of the text: a part's page with its picture has none.)
    return sum(len(b.text.split()) for b in blocks
               if not b.level and not is_boilerplate(b.text) and not PICTURE.match(b.text))

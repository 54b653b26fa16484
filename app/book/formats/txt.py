"""Read plain text and Markdown into chapters split at heading lines."""
from __future__ import annotations

import re
from pathlib import Path

from app.book.structure.blocks import Block, split_chapters
from app.book.narration.cleanup import is_code_block, is_numbered_listing
from app.book.narration.gutenberg import LICENCE_TITLE, split_text
from app.book.formats.html import document_blocks, parse_html
from app.book.formats.mdrender import render_markdown
from app.book.inputfile import read_book_bytes
from app.book.model import Book, ReadOptions
from app.book.normalize import clean_text, is_speakable, looks_binary
from app.book.structure.headings import mark_headings
from app.book.formats.txttable import box_table_rows
from app.core.errors import CorruptBook

#: A "# Title" line. A hash with a wide run of spaces after it is no heading mark but a sign drawn in the text (a
#: printer's sign explained in a column beside it): Markdown's own headings put one space there.
_ATX = re.compile(r"^\s{0,3}(#{1,6})[ \t]{1,3}(\S.*?)\s*#*\s*$")
_BLANK = re.compile(r"\n[ \t\f\v\u00a0]*\n")
_META_LINE = re.compile(r"^(title|author|by)\s*:\s*(.+)$", re.IGNORECASE)
#: A by-line under a title: "Written by Ian A. Murdock", "by Jane Austen".
_BYLINE = re.compile(r"^(?:written\s+)?by\s+([A-Z][\w.'-]*(?:\s+[A-Z][\w.'-]*){1,4})$", re.IGNORECASE)
_FRONT_MATTER = re.compile(r"\A---[ \t]*\n(.*?)\n(?:---|\.\.\.)[ \t]*\n", re.S)
#: A setext underline: a line of only "=" or only "-".
_UNDERLINE = re.compile(r"^\s*(?:=+|-+)\s*$")
#: A line of only rule characters or spaced stars ("-----", "*       *       *").
_RULE_LINE = re.compile(r"^\s*(?:([=\-*_~#+.])\1*|(?:\*\s+){2,}\*)\s*$")
#: A bullet at a line's start: "* item", "- item", "• item".
_BULLET = re.compile(r"^\s*[*\u2022+-]\s+(?=\S)")
#: A contents entry line: "1. Title", "  2.3. Title", "Chapter 4. Title", "A. Title", "IV. Title".
_TOC_ENTRY = re.compile(r"^\s*(?:(?i:chapter|appendix|part)\s+)?(?:\d+(?:\.\d+)*\.?|[A-Z]\.|[IVXLC]+\.)\s+\S")
#: Lines longer than this are not hard-wrapped prose: one line is one paragraph.
_UNWRAPPED_LINE = 100
#: A first line longer than this is prose, not the book's title.
_MAX_TITLE_WORDS = 12
#: The title is looked for among this many paragraphs at the top (after notes, rules, banners).
_TITLE_SEARCH_PARAGRAPHS = 4


def decode_text(data: bytes, name: str) -> str:
    """Return the file's text: UTF-8 (BOM or not), UTF-16 with a BOM, else Windows-1252, else Latin-1."""
    if data.startswith(b"\xef\xbb\xbf"):
        text = data[3:].decode("utf-8", errors="replace")
    elif data.startswith((b"\xff\xfe", b"\xfe\xff")):
        text = data.decode("utf-16", errors="replace")
    else:
        for enc in ("utf-8", "cp1252", "latin-1"):
            try:
                text = data.decode(enc)
                break
            except UnicodeDecodeError:
                continue
    if looks_binary(text):
        raise CorruptBook(f"{name} does not look like a text file (it is mostly binary data)",
                          hint="Pass a .txt, .md, .html or .epub book")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _join_lines(lines: list[str]) -> str:
    """Return hard-wrapped lines as one paragraph, rejoining words hyphenated and URLs or paths broken at a line end."""
    # A list, not repeated string concatenation: a 2 MB hard-wrapped paragraph is 30,000 lines.
    parts: list[str] = []
    for line in (ln.strip() for ln in lines):
        if not line:
            continue
        last = parts[-1] if parts else ""
        if last.endswith("-") and len(last) > 1 and last[-2].isalpha() and line[:1].islower():
            parts[-1] = last + line
        elif last and _broken_path(last.rsplit(" ", 1)[-1], line):
            parts[-1] = last + line
        else:
            parts.append(line)
    return " ".join(parts)


def _broken_path(tail: str, line: str) -> bool:
    """Return whether a line continues a URL or file path that the wrapper broke ("https://" + "www...")."""
    if tail.endswith(":") and line.startswith("//"):
        return True
    if tail == "~" and line.startswith("/"):
        return True
    return tail.endswith("/") and ("://" in tail or tail.startswith(("/", "~/"))) and not line.startswith("(")


def text_blocks(text: str) -> list[Block]:
    """Return the paragraphs of plain text, with '#' heading lines as headings.

    A contents listing is left out, and its top-level entries name the chapter headings in the body
    ("1. Definitions and overview" listed, "Chapter 1. Definitions and overview" or the bare line there).
    Bullet items become paragraphs of their own without the bullet, and shell command blocks are code.
    """
    paragraphs = _BLANK.split(text)
    if len(paragraphs) == 1:
        lines = text.split("\n")
        if len(lines) > 1 and max(len(ln) for ln in lines) > _UNWRAPPED_LINE:
            paragraphs = lines
    blocks: list[Block] = []
    entries: set[str] = set()
    for para in paragraphs:
        raw = para.split("\n")
        if all(_RULE_LINE.match(ln) or not ln.strip() for ln in raw):
            continue  # a rule ("----", "* * *") between parts of the text: layout, not words
        if _is_contents(raw):
            entries.update(_top_entries(raw))
            continue
        if (rows := box_table_rows(raw)) is not None:
            blocks.extend(Block(row) for row in rows)  # row by row, as a <table> is read
            continue
        if is_code_block(raw):
            blocks.append(Block("\n".join(raw), kind="code"))
            continue
        lines: list[str] = []
        for n, line in enumerate(raw):
            m = _ATX.match(line)
            bullet = _BULLET.match(line)
            setext = _setext_level(line, raw[n + 1] if n + 1 < len(raw) else "")
            if m or bullet or setext:
                if lines and _join_lines(lines):
                    blocks.append(Block(_join_lines(lines)))
                lines = []
            if m:
                blocks.append(Block(m.group(2), len(m.group(1))))
            elif setext:
                blocks.append(Block(line.strip(), setext))
            elif _UNDERLINE.match(line) and n and _setext_level(raw[n - 1], line):
                continue
            elif bullet:
                lines.append(line[bullet.end():])
            else:
                lines.append(line)
        if lines and _join_lines(lines):
            blocks.append(Block(_join_lines(lines)))
    if entries and sum(1 for b in blocks if b.level == 1) < 2:
        # Where the text marks its chapters ("# Title", or mark_headings found them), a listing is a
        # chapter's own contents and names its sections: only a text without chapters takes it as chapters.
        blocks = [Block(b.text, 1, b.ids) if not b.level and _entry_key(b.text) in entries else b for b in blocks]
    return blocks


#: A setext heading's line is indented at most this much (CommonMark: four spaces make it a code or table line).
_SETEXT_INDENT = 3


def _setext_level(line: str, under: str) -> int:
    """Return 1 or 2 when the next line underlines this one with = or - (a setext heading), else 0."""
    m = _UNDERLINE.match(under)
    text = line.strip()
    if not m or not text or _UNDERLINE.match(line) or not 0.7 <= len(under.strip()) / len(text) <= 1.4:
        return 0
    if len(line) - len(line.lstrip(" ")) > _SETEXT_INDENT or "\t" in line[: len(line) - len(line.lstrip())] \
            or "|" in text:
        return 0  # a table's row ("Tin  |  4 lb." over a rule) or a line indented as code: no heading
    if not any(ch.isalpha() for ch in text):
        return 0  # figures over a rule ("3209   12   2" under a column of sums): a table's total, no heading
    return 1 if under.strip()[0] == "=" else 2


def _is_contents(lines: list[str]) -> bool:
    """Return whether a block of lines is a table of contents: mostly numbered entry lines."""
    lines = [ln for ln in lines if ln.strip()]
    if len(lines) < 3 or not _TOC_ENTRY.match(lines[0]) or is_numbered_listing(lines):
        return False
    return sum(1 for ln in lines if _TOC_ENTRY.match(ln)) >= 0.5 * len(lines)


def _top_entries(lines: list[str]) -> set[str]:
    """Return the keys of a contents block's least-indented entries (the chapters)."""
    numbered = [ln for ln in lines if _TOC_ENTRY.match(ln)]
    indent = min(len(ln) - len(ln.lstrip()) for ln in numbered)
    return {_entry_key(ln) for ln in numbered if len(ln) - len(ln.lstrip()) == indent}


def _entry_key(text: str) -> str:
    """Return a heading or contents entry without its "Chapter"/"Appendix" word, for matching."""
    line = clean_text(text)
    line = re.sub(r"^(?:chapter|appendix|part)\s+", "", line, flags=re.IGNORECASE)
    return line.casefold() if len(line.split()) <= 16 else ""


def _header_metadata(text: str) -> tuple[str, str, str]:
    """Return the title, the author and the text without "Title:"/"Author:" lines near the top."""
    title = author = ""
    lines = text.split("\n")
    for n, line in enumerate(lines[:60]):
        m = _META_LINE.match(line.strip())
        if m:
            lines[n] = ""
            key, value = m.group(1).lower(), clean_text(m.group(2))
            if key == "title" and not title:
                title = value
            elif key in ("author", "by") and not author:
                author = value
        elif not author and (by := _BYLINE.match(line.strip())) and by.group(1)[0].isupper():
            author = clean_text(by.group(1))
    return title, author, "\n".join(lines)


def _title_line(text: str) -> str:
    """Return the first one-line paragraph near the top when it reads as a title (short, not a sentence)."""
    for para in _BLANK.split(text.strip())[:_TITLE_SEARCH_PARAGRAPHS]:
        lines = [ln.strip() for ln in para.split("\n") if ln.strip() and is_speakable(ln)]
        if len(lines) != 1:
            continue
        m = _ATX.match(lines[0])
        line = clean_text(m.group(2) if m else lines[0])
        if len(line.split()) <= _MAX_TITLE_WORDS and line[-1] not in ".,;:!" and "@" not in line:
            return line
        return ""
    return ""


def load_text(path: Path, data: bytes, options: ReadOptions | None = None) -> Book:
    """Return a plain-text book split at its heading lines, without Project Gutenberg's header and licence."""
    options = options or ReadOptions()
    text = decode_text(data, path.name)
    wrapped = split_text(text)
    footer = ""
    if wrapped:
        text = f"{wrapped.header}\n\n{wrapped.body}" if options.include_matter else wrapped.body
        footer = wrapped.footer if options.include_matter else ""
    title, author, text = _header_metadata(text)
    if wrapped:
        title, author = wrapped.title or title, wrapped.author or author
    title = title or _title_line(text)
    marked = _marked(text)
    if footer.strip():
        # The licence as a chapter of its own (matter: only with --include-matter), not the last chapter's end.
        marked = f"{marked}\n\n# {LICENCE_TITLE}\n\n{footer}" if marked is not text else f"{marked}\n\n{footer}"
    chapters = split_chapters(text_blocks(marked), title or path.stem, options)
    return Book(title=title, author=author, chapters=tuple(chapters), source=path,
                language=(wrapped.language if wrapped else "") or "en")


def _marked(text: str) -> str:
    """Return the text with its chapter headings as "# Title" lines: its own markup where it marks its headings
    itself, else what the plain-text rules find.

    One or two underlined lines in a long text are seldom its headings: a table's caption over its rule, a
    periodical's masthead ("VOL. IV. NO. 4." over a rule) (round txt23). The rules read such a text; only
    where they find no chapters does its markup divide it ("First Part" / "==========" twice in a short essay).
    """
    markup = _markup_headings(text)
    if markup >= _MIN_MARKUP_HEADINGS:
        return text
    ruled = mark_headings(text)
    return text if markup and ruled is text else ruled


#: Markup headings ("# Title", setext underlines) that show a text marks its headings itself, whatever the rules find.
_MIN_MARKUP_HEADINGS = 3


def _markup_headings(text: str) -> int:
    """Return how many headings the text marks itself ("# Title" or a setext underline)."""
    lines = text.split("\n")
    return sum(1 for ln in lines if _ATX.match(ln)) + sum(
        1 for a, b in zip(lines, lines[1:]) if a.strip() and _setext_level(a, b))


def load_markdown(path: Path, data: bytes, options: ReadOptions | None = None) -> Book:
    """Return a Markdown book split at its headings, with the syntax stripped."""
    text = decode_text(data, path.name)
    title = author = ""
    front = _FRONT_MATTER.match(text)
    if front:
        title, author, _ = _header_metadata(front.group(1))
        text = text[front.end():]
    html = render_markdown(text)
    doc = document_blocks(parse_html(html.encode("utf-8"), path.name))
    if not title:
        heads = [b for b in doc.blocks if b.level == 1]
        title = clean_text(heads[0].text) if len(heads) == 1 else ""
    chapters = split_chapters(doc.blocks, title or path.stem, options or ReadOptions())
    return Book(title=title, author=author, chapters=tuple(chapters), source=path)


def read_text(path: Path, options: ReadOptions | None = None) -> Book:
    """Return the TXT book at path (the formats table's reader: the file read within its cap)."""
    return load_text(path, read_book_bytes(path), options)


def read_markdown(path: Path, options: ReadOptions | None = None) -> Book:
    """Return the Markdown book at path (the formats table's reader: the file read within its cap)."""
    return load_markdown(path, read_book_bytes(path), options)

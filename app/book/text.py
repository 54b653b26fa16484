"""Read plain text and Markdown into chapters split at heading lines."""
from __future__ import annotations

import re
from pathlib import Path

from app.book.blocks import Block, split_chapters
from app.book.html import document_blocks, parse_html
from app.book.mdrender import render_markdown
from app.book.model import Book
from app.book.normalize import clean_text, looks_binary
from app.errors import CorruptBook

_ATX = re.compile(r"^\s{0,3}(#{1,6})\s+(.+?)\s*#*\s*$")
_BLANK = re.compile(r"\n[ \t\f\v\u00a0]*\n")
_META_LINE = re.compile(r"^(title|author|by)\s*:\s*(.+)$", re.IGNORECASE)
_FRONT_MATTER = re.compile(r"\A---[ \t]*\n(.*?)\n(?:---|\.\.\.)[ \t]*\n", re.S)
#: Lines longer than this are not hard-wrapped prose: one line is one paragraph.
_UNWRAPPED_LINE = 100


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
    """Return hard-wrapped lines as one paragraph, rejoining words hyphenated at a line end."""
    # A list, not repeated string concatenation: a 2 MB hard-wrapped paragraph is 30,000 lines.
    parts: list[str] = []
    for line in (ln.strip() for ln in lines):
        if not line:
            continue
        last = parts[-1] if parts else ""
        if last.endswith("-") and len(last) > 1 and last[-2].isalpha() and line[:1].islower():
            parts[-1] = last + line
        else:
            parts.append(line)
    return " ".join(parts)


def text_blocks(text: str) -> list[Block]:
    """Return the paragraphs of plain text, with '#' heading lines as headings."""
    paragraphs = _BLANK.split(text)
    if len(paragraphs) == 1:
        lines = text.split("\n")
        if len(lines) > 1 and max(len(ln) for ln in lines) > _UNWRAPPED_LINE:
            paragraphs = lines
    blocks: list[Block] = []
    for para in paragraphs:
        lines: list[str] = []
        for line in para.split("\n"):
            m = _ATX.match(line)
            if m:
                if lines:
                    blocks.append(Block(_join_lines(lines)))
                    lines = []
                blocks.append(Block(m.group(2), len(m.group(1))))
            else:
                lines.append(line)
        if lines and _join_lines(lines):
            blocks.append(Block(_join_lines(lines)))
    return blocks


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
    return title, author, "\n".join(lines)


def load_text(path: Path, data: bytes) -> Book:
    """Return a plain-text book split at its heading lines."""
    text = decode_text(data, path.name)
    title, author, text = _header_metadata(text)
    chapters = split_chapters(text_blocks(text), title or path.stem)
    return Book(title=title, author=author, chapters=tuple(chapters), source=path)


def load_markdown(path: Path, data: bytes) -> Book:
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
    chapters = split_chapters(doc.blocks, title or path.stem)
    return Book(title=title, author=author, chapters=tuple(chapters), source=path)

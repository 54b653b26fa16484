"""Project Gutenberg's HTML editions: the header and licence out of the blocks, metadata from the page.

The header is a <pre> (older editions), paragraphs, or a section id="pg-header"; the licence ends the
page the same ways. The rules are gutenberg.py's, applied to the text of the blocks. The title and the
author come from the page's metadata (dc.title, dc.creator, dc.language meta tags), else the header's
"Title:"/"Author:" fields, never from a <title> that reads "The Project Gutenberg eBook of X, by Y"
(that one gives X and Y only when nothing else names them).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from lxml import etree

from app.book.narration import gutenberg
from app.book.structure.blocks import Block, split_level
from app.book.structure.blocks import Document
from app.book.model import ReadOptions
from app.book.normalize import clean_text

#: The header is looked for among this many blocks at the top.
_HEADER_REACH = 40
_META_TITLE = ("dc.title", "dcterms.title")
_META_AUTHOR = ("dc.creator", "dcterms.creator", "author", "creator")
_META_LANGUAGE = ("dc.language", "dcterms.language", "language")


@dataclass(frozen=True)
class Page:
    """An HTML book's blocks to read and its metadata."""

    blocks: list[Block]
    title: str
    author: str
    language: str
    #: How many of the document's blocks were taken off the top (positions in it move up by this many).
    offset: int = 0
    #: Gutenberg's licence and end matter, kept only when --include-matter reads it.
    footer: list[Block] = field(default_factory=list)
    #: Whether the page is a Gutenberg edition (its header or licence was found): the rules written on
    #: Gutenberg's heading conventions (app/book/formats/htmllevels.py) apply to it only.
    gutenberg: bool = False


def with_licence(blocks: list[Block], footer: list[Block]) -> list[Block]:
    """Return the blocks with the licence after them as a chapter of its own, at the level chapters start."""
    if not footer:
        return blocks
    return blocks + [Block(gutenberg.LICENCE_TITLE, split_level(blocks) or 1)] + footer


def _meta(root: etree._Element, names: tuple[str, ...]) -> str:
    for name in names:
        for meta in root.iter("meta"):
            if (meta.get("name") or meta.get("property") or "").strip().lower() == name:
                value = clean_text(meta.get("content") or "")
                if value:
                    return value
    return ""


def _lines(block: Block) -> list[str]:
    return [ln for ln in block.text.split("\n") if ln.strip()] or [block.text]


def _bounds(blocks: list[Block]) -> tuple[int, int]:
    """Return (first block of the book, first block of the end matter); (0, len) when the page is not Gutenberg's."""
    start = 0
    for i, b in enumerate(blocks):
        if any(gutenberg.is_end_marker(ln) for ln in _lines(b)):
            # Past the book's end: an old edition's small print set after the text closes with
            # "*END*THE SMALL PRINT!", which ends no header here.
            break
        if any(gutenberg.is_start_marker(ln) for ln in _lines(b)):
            start = i + 1
            break
    else:
        for i, b in enumerate(blocks[:_HEADER_REACH]):
            if any(gutenberg.is_header_text(ln) for ln in _lines(b)):
                start = i + 1
    while start < len(blocks) and gutenberg.is_credit(clean_text(blocks[start].text)):
        start += 1
    end = len(blocks)
    for i in range(start, len(blocks)):
        if any(gutenberg.is_end_marker(ln) for ln in _lines(blocks[i])):
            end = i
            break
    else:
        floor = max(start, len(blocks) // 2)
        end = next((i for i in range(floor, len(blocks)) if gutenberg.is_licence_text(blocks[i].text)), end)
    return start, end


def unwrap(root: etree._Element, doc: Document, options: ReadOptions) -> Page:
    """Return the page's blocks without Gutenberg's header and licence (kept as matter with the options)."""
    blocks = doc.blocks
    start, end = _bounds(blocks)
    header = "\n".join(b.text for b in blocks[:start])
    h_title, h_author, h_language = gutenberg.header_metadata(header) if start else ("", "", "")
    p_title, p_author = gutenberg.title_from_page_title(doc.title)
    offset = 0
    footer: list[Block] = []
    if start or end < len(blocks):
        body = [_pre_as_words(b) for b in blocks[start:end]]
        offset = start
        if options.include_matter:
            # Gutenberg's header and licence sit in <pre> for their line breaks: prose to read, not code.
            offset = 0
            body = [_as_text(b) for b in blocks[:start]] + body
            footer = [_as_text(b) for b in blocks[end:]]
    else:
        body = blocks
    title = _meta(root, _META_TITLE) or h_title or (p_title if p_title else doc.title)
    # The header's "Author: Jane Austen" reads as the book says it; the catalogue's creator is
    # "Austen, Jane, 1775-1817".
    author = h_author or gutenberg.catalogue_name(_meta(root, _META_AUTHOR) or doc.author) or p_author
    language = doc.language or _meta(root, _META_LANGUAGE) or h_language
    return Page(body, title, author, language, offset, footer, gutenberg=bool(start or end < len(blocks)))


#: A token that carries a word (letters or digits), not a rule, a box or a tree's branch.
_WORDY = re.compile(r"[^\W_]")
#: Program text's braces, sigils and calls ("f(x);"); verse, tables and family trees ("=" for a marriage)
#: never have them.
_SYNTAX = re.compile(r"[{}<>$\\@#^`]|\w\(\w|\);")
#: A token of dashes, stars or rules only: a pause in dialogue or a divider, nothing to say.
_RULE = re.compile(r"[-\u2010-\u2015_=*.\u00b7|+~]+")
#: The share of a <pre> block's tokens that must be words for a Gutenberg book to read it as text.
_WORD_SHARE = 0.6


def _pre_as_words(block: Block) -> Block:
    """Return a <pre> block of a Gutenberg book as text when it is mostly words.

    Gutenberg's editions set verse, genealogy trees, tables and dialogue in <pre> for its layout; what a
    listener needs are its words, never "Code example." (the rules, boxes and branches are dropped; a
    line of dashes alone says nothing). Real code (mostly symbols) stays code.
    """
    if block.kind != "code":
        return block
    if _SYNTAX.search(block.text):
        return block
    tokens = [t for t in block.text.split() if not _RULE.fullmatch(t)]
    words = [t for t in tokens if _WORDY.search(t)]
    if tokens and len(words) < _WORD_SHARE * len(tokens):
        return block
    lines = [" ".join(t for t in ln.split() if _WORDY.search(t)) for ln in block.text.split("\n")]
    return Block(" ".join(ln for ln in lines if ln), block.level, block.ids, "text", block.links)


def _as_text(block: Block) -> Block:
    return Block(" ".join(block.text.split()), block.level, block.ids, "text", block.links)


"""Read HTML into blocks (shared with EPUB) and split an HTML book at its headings."""
from __future__ import annotations

import re
from pathlib import Path

import lxml.html
from lxml import etree

from app.book.formats.htmlnotes import NOTE_TYPES, PAGE_CLASS, is_note_marker, page_anchors, tag_of, types_of
from app.book.formats.htmltoc import apply_contents
from app.book.narration.gutenberg_html import unwrap, with_licence
from app.book.structure.blocks import Block, Document, split_chapters
from app.book.structure.headings import FRONT_MATTER, mark_back_matter
from app.book.structure.lines import join_heading_lines
from app.book.narration.cleanup import prose_of_pre, reads_as_prose
from app.book.formats.htmlhidden import is_hidden
from app.book.formats.htmltitle import is_credit_line, without_headless_title_page, without_title_page
from app.book.formats.htmllevels import with_lone_parts, with_parts_over_chapters, with_piece_titles
from app.book.formats.htmlnav import is_back_link
from app.book.formats.htmlclosing import without_closing_headings
from app.book.formats.htmlfront import (after_contents, opens_before_listed, without_pre_contents_headings, without_title_headings,
                                        with_title_lines_joined, without_publishers_preamble, without_title_preamble,
                                        without_title_page_chapters)
from app.book.inputfile import read_book_bytes
from app.book.model import Book, ReadOptions
from app.book.normalize import clean_text
from app.core.errors import CorruptBook

#: Elements whose content is never read: code, metadata, navigation, notes, captions.
_SKIP = frozenset(
    "head script style template noscript nav svg math object embed iframe canvas audio video "
    "select button input textarea figcaption rt rp".split()
)
#: Elements that end one paragraph and start another.
_BLOCK = frozenset(
    "p div section article aside main header footer blockquote pre ul ol li dl dt dd table tr "
    "caption thead tbody tfoot h1 h2 h3 h4 h5 h6 hr br address figure center body html".split()
)
#: Table cells: a row is read as one line, its cells set apart.
_CELL = frozenset(("td", "th"))
#: Class names generators give to what is not narration: navigation bars (Sphinx related/relbar and
#: sidebar, DocBook navheader/navfooter, texinfo nav-panel), contents and index listings (DocBook and
#: texinfo toc/contents, Sphinx genindex, texinfo printindex), link targets shown in brackets
#: (Sphinx link-target), heading permalinks, and paragraph or line numbers (SiSU ocn, Pygments linenos).
_SKIP_CLASS = frozenset(
    "navheader navfooter nav-panel navigation related relbar rellinks sphinxsidebar sphinxsidebarwrapper "
    "breadcrumbs breadcrumb toc toc-title contents shortcontents short-toc genindex printindex index-entry "
    "link-target headerlink anchorjs-link ocn lnkocn paranum para-num parnum lineno linenos linenodiv "
    "line-number line-numbers pagenum pageno page-no pagenumber page-num pgnum page-number skip-link copiable-link copiable-anchor section-toc mini-toc "
    "summary-letter".split()
)
#: Classes of contents listings among the skipped ones (their links are the book's own word on its chapters).
_LISTING_CLASS = frozenset("toc contents shortcontents short-toc section-toc mini-toc".split())
#: Classes that mark page headers and footers; skipped unless they hold a heading (some books put the
#: chapter title in a "header" block).
_FRAME_CLASS = frozenset("header footer page-header page-footer site-footer docfooter".split())
#: epub:type / role values of blocks that are not narration (EPUB 3 Structural Semantics, DPUB-ARIA, ARIA).
_NOT_NARRATION_TYPES = frozenset(
    "navigation toc doc-toc index doc-index page-list doc-pagelist landmarks banner contentinfo".split()
)
_HEADING = {f"h{n}": n for n in range(1, 7)}
_XML_DECL = re.compile(r"^\s*<\?xml[^>]*\?>", re.S)
_DECL_ENCODING = re.compile(rb"""^\s*<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']""")
_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?([A-Za-z0-9._-]+)""", re.I)
_ENTITY_DECL = re.compile(rb"<!ENTITY", re.I)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def decode_markup(data: bytes, name: str) -> str:
    """Return the document's text, honouring a BOM, XML declaration or meta charset."""
    if _ENTITY_DECL.search(data[:65536]):
        raise CorruptBook(
            f"{name} declares XML entities, which this tool refuses to expand (entity-expansion attack)",
            hint="Use a clean copy of the book",
        )
    for bom, enc in ((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be")):
        if data.startswith(bom):
            return data[len(bom):].decode(enc, errors="replace")
    declared = _DECL_ENCODING.match(data) or _META_CHARSET.search(data[:4096])
    candidates = [declared.group(1).decode("ascii").lower()] if declared else []
    if candidates and candidates[0].startswith(("utf-16", "utf16", "utf-32", "utf32", "ucs-2", "ucs2")):
        # The declaration was just read as single bytes, so the document is not UTF-16/32:
        # a false declaration, common in converted books; trust the bytes (else: mojibake).
        candidates = []
    for enc in candidates + ["utf-8", "cp1252"]:
        try:
            return data.decode(enc)
        except (UnicodeDecodeError, LookupError):
            continue
    return data.decode("latin-1")


def parse_html(data: bytes, name: str) -> etree._Element:
    """Return the parsed tree of an HTML or XHTML document, never touching the network."""
    text = decode_markup(data, name)
    # lxml refuses str input that carries an encoding declaration; we already decoded.
    # lxml refuses control characters in str input; one stray byte should not sink a whole book.
    text = _CONTROL.sub("", _XML_DECL.sub("", text, count=1))
    parser = lxml.html.HTMLParser(
        encoding="utf-8", no_network=True, remove_comments=True, remove_pis=True, recover=True,
        # Unclosed <font>, <div> or <center> nest one level per tag; without huge_tree libxml2
        # silently drops everything below depth 256 (a quarter of a book, exit 0).
        huge_tree=True,
    )
    try:
        # Bytes with a fixed encoding: a (possibly mangled) declaration in the text cannot mislead lxml.
        root = lxml.html.document_fromstring(text.encode("utf-8"), parser=parser) if text.strip() else None
    except (etree.ParserError, etree.XMLSyntaxError, ValueError) as exc:
        raise CorruptBook(f"{name} is not readable HTML ({exc})", hint="Check the file or convert it again") from None
    if any(e.type_name == "ERR_RESOURCE_LIMIT" for e in parser.error_log):
        # Past ~2,048 open elements libxml2 stops reading; a silently shortened book is worse than none.
        raise CorruptBook(f"{name} nests its elements too deeply to be read whole (thousands of unclosed tags)",
                          hint="Repair the HTML (e.g. open and save it in Calibre or tidy) and run again")
    if root is None:
        return lxml.html.document_fromstring("<html><body></body></html>")
    return root


def _skipped(node: etree._Element, tag: str) -> bool:
    """Return whether an element and its content are left unread."""
    if tag == "" or tag in _SKIP:
        return True
    if tag in ("body", "html"):
        return False
    if is_hidden(node):
        return True
    types = types_of(node)
    if types & NOTE_TYPES or types & _NOT_NARRATION_TYPES:
        return True
    classes = set((node.get("class") or "").lower().split())
    if classes & _SKIP_CLASS or any(c.startswith("index-") for c in classes):
        return True
    if classes & _FRAME_CLASS and not any(tag_of(d) in _HEADING for d in node.iter()):
        return True
    return is_note_marker(node, tag) or (tag == "a" and is_back_link(node))


class _Walker:
    """Collect blocks from a tree in document order."""

    def __init__(self) -> None:
        self.blocks: list[Block] = []
        self.buf: list[str] = []
        self.level = 0
        self.pending_ids: set[str] = set()
        #: Open table rows: paragraphs inside a cell stay on the row's line.
        self.rows = 0
        self.phonemes: dict[str, str] = {}
        #: In-page link targets of the block being collected.
        self.links: list[tuple[str, str]] = []
        #: (entry text, target id, blocks before it) of contents listings the walk skips.
        self.listing: list[tuple[str, str, int]] = []

    def flush(self, kind: str = "text") -> None:
        text = _heading_lines("".join(self.buf)).strip().rstrip(";").strip()
        self.buf = []
        if text:
            self.blocks.append(Block(text, self.level, self.pending_ids, kind, tuple(self.links)))
            self.pending_ids = set()
        self.links = []
        self.level = 0

    def listed(self, node: etree._Element) -> None:
        """Note the in-page links of a skipped contents listing (its outermost entries), where it stands."""
        classes = set((node.get("class") or "").lower().split())
        if tag_of(node) != "nav" and not classes & _LISTING_CLASS and not types_of(node) & {"toc", "doc-toc"}:
            return
        links = [a for a in node.iter("a") if (a.get("href") or "").startswith("#") and len(a.get("href")) > 1]
        if tag_of(node) == "a" and node in links[:1]:
            links = [node]
        if not links:
            return
        depth = {id(a): sum(1 for e in a.iterancestors() if tag_of(e) in ("li", "dd")) for a in links}
        top = min(depth.values())
        for a in links:
            if depth[id(a)] != top:
                continue
            row = next((e for e in a.iterancestors() if tag_of(e) in ("tr", "p")), None)
            if row is not None and sum(1 for x in row.iter("a") if x in links) > 1:
                row = None  # a row of several entries: each is its link's own text
            text = clean_text(" ".join((row if row is not None else a).itertext()))
            self.listing.append((text, a.get("href")[1:], len(self.blocks)))

    def code(self, node: etree._Element) -> None:
        """Take a <pre> block whole: code, read or not as the options say; verse or prose kept as text."""
        self.flush()
        for el in node.iter():
            if isinstance(el.tag, str) and el.get("id"):
                self.pending_ids.add(el.get("id"))
        text = "".join(t for t in node.itertext() if isinstance(t, str))
        if reads_as_prose(text):
            text = prose_of_pre(text)
            # Old HTML editions set verse, letters and title pages in <pre> for its line breaks.
            for stanza in re.split(r"\n[ \t]*\n", text):
                self.buf.append(" ".join(ln.strip() for ln in stanza.split("\n") if ln.strip()))
                self.flush()
            return
        self.buf.append(text)
        self.flush("code")

    def walk(self, el: etree._Element) -> None:
        stack: list[tuple[etree._Element, bool]] = [(el, False)]
        # Iterative, so a deeply nested (or hostile) document cannot overflow the stack.
        while stack:
            node, closing = stack.pop()
            tag = tag_of(node)
            if closing:
                if tag == "tr":
                    self.rows -= 1
                    self.flush()
                elif tag == "br" and self.level and not self.rows:
                    pass  # a line break inside a heading: the heading goes on
                elif (tag in _BLOCK or _aside(node)) and self.rows:
                    self.buf.append(" ")
                elif tag in _BLOCK or _aside(node):
                    self.flush()
                elif tag in _CELL and "".join(self.buf).strip():
                    self.buf[:] = ["".join(self.buf).rstrip(), "; "]
                if node.tail:
                    self.buf.append(node.tail)
                continue
            if _skipped(node, tag):
                self.listed(node)
                if PAGE_CLASS & set((node.get("class") or "").lower().split()):
                    # A page number is not read, but a contents line may link to its anchor ("I. Early
                    # Days ... 1" -> #Page_1): the anchor stays where the page begins.
                    self.pending_ids.update(i for e in node.iter() if isinstance(e.tag, str)
                                            for i in (e.get("id"), e.get("name") if tag_of(e) == "a" else None) if i)
                if node.tail:
                    self.buf.append(node.tail)
                continue
            if node.get("id"):
                self.pending_ids.add(node.get("id"))
            _note_phonemes(node, self.phonemes)
            if node.get("name") and tag == "a":
                self.pending_ids.add(node.get("name"))
            if tag == "a" and (node.get("href") or "").startswith("#") and len(node.get("href")) > 1:
                self.links.append((node.get("href")[1:], clean_text(node.text_content())))
            if tag == "pre":
                self.code(node)
                if node.tail:
                    self.buf.append(node.tail)
                continue
            if tag == "tr":
                self.flush()
                self.rows += 1
            elif tag == "br" and self.level and not self.rows:
                self.buf.append(_HEADING_BREAK)  # "CHAPTER I<br/>A COLD HARBOUR": one heading over two lines
            elif (tag in _BLOCK or _aside(node)) and self.rows:
                self.buf.append(" ")
            elif tag in _BLOCK or _aside(node):
                self.flush()
                self.level = _HEADING.get(tag, 0) or _hgroup_level(node)
            if node.text:
                self.buf.append(node.text)
            stack.append((node, True))
            stack.extend((child, False) for child in reversed(node))


#: Classes of margin notes set inline ("<span class="sidenote">May 4</span>The court met"): read apart.
_ASIDE_CLASS = frozenset("sidenote sidenotes marginnote margin-note marginal leftnote rightnote".split())


def _aside(node: etree._Element) -> bool:
    """Return whether an inline element is a margin note, a paragraph of its own, never glued to the text."""
    return bool(_ASIDE_CLASS & set((node.get("class") or "").lower().split()))


#: Where a <br> breaks a heading's line; join_heading_lines joins the lines.
_HEADING_BREAK = "\u2028"


def _heading_lines(text: str) -> str:
    return join_heading_lines(text.split(_HEADING_BREAK)) if _HEADING_BREAK in text else text


def _hgroup_level(node: etree._Element) -> int:
    """Return the heading level of a paragraph in an <hgroup> (a heading's title or subtitle), else 0.

    Standard Ebooks set "Book the First" as <h2> and "Recalled to Life" as <p> in one <hgroup>: the
    page is a title page, not a page of text.
    """
    parent = node.getparent()
    if parent is None or tag_of(parent) != "hgroup" or tag_of(node) in _HEADING:
        return 0
    return min(6, next((_HEADING[tag_of(c)] for c in parent if tag_of(c) in _HEADING), 5) + 1)


_SSML_NS = "{http://www.w3.org/2001/10/synthesis}"


def _ssml(node: etree._Element, name: str) -> str | None:
    """Return an ssml: attribute (ssml:ph, ssml:alphabet) as the HTML parser or an XML parser names it."""
    value = node.get(f"ssml:{name}") or node.get(f"{_SSML_NS}{name}")
    return str(value) if value else None


def _note_phonemes(node: etree._Element, phonemes: dict[str, str]) -> None:
    """Record the IPA of an element marked ssml:ph (other alphabets are not read)."""
    ph = _ssml(node, "ph")
    if not ph:
        return
    # ssml:alphabet is inherited from the nearest ancestor that sets it; IPA when none does.
    alphabet = _ssml(node, "alphabet") or next(
        (a for a in (_ssml(el, "alphabet") for el in node.iterancestors()) if a), "ipa")
    word = clean_text(node.text_content())
    if word and alphabet.lower() == "ipa":
        phonemes[word] = clean_text(ph)


def document_blocks(root: etree._Element) -> Document:
    """Return the readable blocks of a parsed document, with its title and section types."""
    title_el = root.find(".//title")
    title = clean_text(title_el.text_content()) if title_el is not None else ""
    author = ""
    for meta in root.iter("meta"):
        if (meta.get("name") or "").lower() in ("author", "dc.creator", "creator"):
            author = clean_text(meta.get("content") or "")
            break
    body = root.find(".//body")
    if body is None:
        body = root
    types = types_of(body)
    for child in body:
        if tag_of(child) in ("section", "div", "article"):
            types |= types_of(child)
    walker = _Walker()
    walker.walk(body)
    walker.flush()
    return Document(walker.blocks, title, author, types, language=_language(root, body),
                    phonemes=walker.phonemes, listing=walker.listing)


def _language(root: etree._Element, body: etree._Element) -> str:
    """Return the lang or xml:lang declared on <body> or <html>."""
    for el in (body, root):
        for key, value in el.attrib.items():
            if str(key) == "lang" or str(key).endswith("}lang") or str(key) == "xml:lang":
                if str(value).strip():
                    return str(value).strip()
    return ""


def html_document(data: bytes, name: str) -> Document:
    """Return the blocks, title and types of an HTML/XHTML file's bytes."""
    return document_blocks(parse_html(data, name))


def load_html(path: Path, data: bytes, options: ReadOptions | None = None) -> Book:
    """Return a book whose chapters start at the headings that divide it, without Gutenberg's header and licence."""
    options = options or ReadOptions()
    root = parse_html(data, path.name)
    doc = document_blocks(root)
    page = unwrap(root, doc, options)
    title = page.title or next((clean_text(b.text) for b in page.blocks if b.level == 1), "")
    # A title page's "BY" / "By Ann Lee" / "Illustrated by J. R. Holt" set as a heading is no chapter: text of the
    # page it is on.
    credits = [bool(b.level) and is_credit_line(b.text) for b in page.blocks]
    body = [Block(b.text, 0, b.ids, b.kind, b.links) if credit else b for b, credit in zip(page.blocks, credits)]
    body = without_title_page(body, credits)
    blocks = apply_contents(body, [(text, target, at - page.offset) for text, target, at in doc.listing],
                            page_anchors(root))
    if blocks is body:
        blocks = body = without_pre_contents_headings(body)
    if blocks is not body and blocks and blocks[0].level != 1:
        # Before the first chapter the page's contents names: title page, imprint, advertisements
        # (a preface there is the book's own and keeps its heading; a "Conclusion" inside a chapter,
        # unlisted, stays a section of it).
        first = next((i for i, b in enumerate(blocks) if b.level == 1), len(blocks))
        opening = opens_before_listed(blocks, first, after_contents(body, [at - page.offset for _, _, at in doc.listing]))
        blocks = [Block(FRONT_MATTER, 1)] + [
            Block(b.text, 1, b.ids, b.kind, b.links) if i in opening else b for i, b in enumerate(blocks)]
    blocks = without_title_headings(blocks, blocks is not body)
    if page.gutenberg:
        # Gutenberg's editions set parts, prefaces and pieces' title pages by conventions of their own; a
        # manual's <h2> over its <h3> sections (AsciiDoc, Sphinx) is a chapter over its sections.
        blocks = with_piece_titles(with_lone_parts(with_parts_over_chapters(blocks)))
        blocks = without_title_preamble(without_publishers_preamble(with_title_lines_joined(blocks, title), title), title)
        blocks = without_headless_title_page(blocks)
        blocks = without_closing_headings(without_title_page_chapters(blocks, title))
    blocks = with_licence(mark_back_matter(blocks), page.footer)
    chapters = split_chapters(blocks, title or path.stem, options)
    return Book(title=title, author=page.author, chapters=tuple(chapters), source=path,
                language=(page.language or "en").split("-")[0].lower() or "en")


def read_html(path: Path, options: ReadOptions | None = None) -> Book:
    """Return the HTML book at path (the formats table's reader: the file read within its cap)."""
    return load_html(path, read_book_bytes(path), options)

"""Read a PDF as a book, not as pages: chapters from its outline (else its headings), narration only.

PDFium (through pypdfium2, Apache-2.0/BSD) gives every character with its position, size and
font; pdflayout makes lines of them page by page, pdfclean takes out what is not narration and
joins the rest into paragraphs. PDFium was chosen over pdfminer.six because it is C: a
1,000-page book's characters are read in seconds, not minutes, and a page's objects are freed
when the page is closed, so memory stays flat in page count (benchmarks/pdf_plan.py).
"""
from __future__ import annotations

import ctypes
import dataclasses
import re
import struct
import zlib
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as raw

from app.book.structure.blocks import UNLISTED_MIN_WORDS, Block, body_words, narration, split_chapters
from app.book.narration.cleanup import is_matter_title
from app.book.formats.pdftitle import (TITLE_PAGES, book_title, is_placeholder, is_placeholder_author,
                                      names_its_program, title_page)
from app.book.formats.pdfclean import Page, Paragrapher, measure, strip_page_furniture
from app.book.formats.pdfnotes import strip_footnotes
from app.book.formats.pdfwords import vocabulary
from app.book.formats.pdflisted import internal_links, strip_listings
from app.book.formats.pdffigure import MIN_OWN_CHARS, figure_text_objects
from app.book.formats.pdfoutline import breaks as outline_breaks, headings as outline_headings, outline
from app.book.formats.pdfocr import reorder_ocr_lines, repair_numbers, settle_ocr_sizes
from app.book.formats.language import guess_language
from app.book.formats.pdflayout import FontCache, Line, page_lines
from app.book.model import Book, Chapter, Cover, ReadOptions
from app.book.normalize import clean_text
from app.core.errors import CorruptBook, ProtectedBook, ScannedBook

#: Pages past which a PDF is refused (the longest printed books run to a few thousand).
MAX_PAGES = 20_000
#: A page with fewer characters than this has no text layer (a picture, a blank page, a scan).
SCAN_CHARS_PER_PAGE = 20
#: Fewer pages with text than this share of all, and the PDF is (mostly) a scan: refused, not half read.
MIN_TEXT_PAGES = 0.5
#: A PDF of this many pages or fewer is a document, not a book: it has no front matter (a title page or a
#: contents listing takes pages of its own), so its text before the first heading is read as the rest is.
DOCUMENT_PAGES = 5
_OCR_HINT = ("Run OCR on it first (e.g. Debian's ocrmypdf: 'ocrmypdf book.pdf book-ocr.pdf'), "
             "then convert the result")


def _open(path: Path) -> pdfium.PdfDocument:
    try:
        return pdfium.PdfDocument(str(path))
    except pdfium.PdfiumError as exc:
        code = getattr(exc, "err_code", None)
        if code == raw.FPDF_ERR_PASSWORD:
            raise ProtectedBook(f"{path.name} is password-protected (encrypted PDF)",
                                hint="Save an unprotected copy (e.g. 'qpdf --decrypt --password=PW in.pdf out.pdf') "
                                     "and convert that") from None
        if code == raw.FPDF_ERR_SECURITY:
            raise ProtectedBook(f"{path.name} is DRM-protected (an unsupported security handler)",
                                hint="Convert a DRM-free copy") from None
        why = {raw.FPDF_ERR_FORMAT: "damaged, or not a PDF", raw.FPDF_ERR_FILE: "cannot be opened"}.get(
            code, f"PDFium error {code}")
        raise CorruptBook(f"{path.name} is not a readable PDF ({why})", hint="Use a clean copy of the book") from None


def _read_pages(doc: pdfium.PdfDocument) -> tuple[list[Page], int, bool]:
    """Return every page's lines, how many pages with (almost) no text hold an image (a scan's
    pages), and whether the text is mostly drawn invisible (a scan's OCR layer); each page is closed
    before the next is opened."""
    fonts = FontCache()
    pages: list[Page] = []
    pictures = 0
    for i in range(len(doc)):
        try:
            page = doc[i]
        except pdfium.PdfiumError:
            pages.append(Page(i, 792.0, []))  # one damaged page costs that page, not the book
            continue
        try:
            height = page.get_height()
            textpage = page.get_textpage()
            try:
                fonts.figures = figure_text_objects(page.raw)
                lines = page_lines(textpage, i, height, fonts)
                if fonts.figures and sum(len(ln.text) for ln in lines) < MIN_OWN_CHARS:
                    fonts.forget_page()  # a page drawn as forms, not a page with a figure: its text is read
                    lines = page_lines(textpage, i, height, fonts)
            finally:
                fonts.forget_page()
                textpage.close()
            if sum(len(ln.text) for ln in lines) < SCAN_CHARS_PER_PAGE:
                pictures += _holds_image(page)
            links = internal_links(doc, page, height) if lines else []
        finally:
            page.close()
        pages.append(Page(i, height, lines, links))
    return pages, pictures, fonts.invisible > fonts.seen / 2


def _holds_image(page: pdfium.PdfPage) -> bool:
    """Return whether a page draws an image (its top-level objects only: bounded, and a scan's page is one)."""
    try:
        return next(page.get_objects(filter=[raw.FPDF_PAGEOBJ_IMAGE], max_depth=1), None) is not None
    except (pdfium.PdfiumError, ValueError):
        return False


def _meta(doc: pdfium.PdfDocument, key: str) -> str:
    try:
        return clean_text(doc.get_metadata_value(key) or "")
    except (pdfium.PdfiumError, KeyError, ValueError):
        return ""


def _language(doc: pdfium.PdfDocument) -> str:
    """Return the catalog's /Lang as a primary subtag ("de"), "" when absent."""
    try:
        n = raw.FPDFCatalog_GetLanguage(doc, None, 0)
        if n <= 2 or n > 200:
            return ""
        buf = (ctypes.c_ushort * (n // 2 + 1))()
        raw.FPDFCatalog_GetLanguage(doc, buf, n)
        lang = bytes(buf)[: n - 2].decode("utf-16-le", "replace").strip()
    except (AttributeError, OSError, ValueError, ctypes.ArgumentError):
        return ""
    return lang.split("-")[0].lower() if lang.replace("-", "").isalpha() else ""


#: Fewest bytes of file per page a PDF of many pages can have: a page object takes ~50 bytes
#: at the least. 19,999 entries of one Kids array naming the same page object take 6 bytes each
#: and cost PDFium minutes; the sandbox's deadline is the net under this check.
MIN_BYTES_PER_PAGE, FEW_PAGES = 16, 1_000


def check_page_objects(count: int, path: Path) -> None:
    """Refuse a PDF declaring thousands of pages in too few bytes to hold them (one page object shared)."""
    size = path.stat().st_size
    if count > FEW_PAGES and size < count * MIN_BYTES_PER_PAGE:
        raise CorruptBook(f"{path.name} declares {count:,} pages in {size:,} bytes: its pages repeat one page "
                          "object", hint="Use a clean copy of the book (e.g. rewritten by 'qpdf in.pdf out.pdf')")


#: Widest cover drawn, in pixels (a banner-shaped first page is drawn smaller, not gigabytes wide).
COVER_MAX_WIDTH = 2000


def _cover(doc: pdfium.PdfDocument) -> Cover | None:
    """Return the first page drawn as a PNG, 600 pixels tall: the book's cover."""
    try:
        page = doc[0]
        try:
            # 600 pixels tall, and never wider than COVER_MAX_WIDTH: a 300000 x 200 MediaBox is not a bitmap.
            width, height = page.get_size()
            scale = min(3.0, 600 / max(1.0, height), COVER_MAX_WIDTH / max(1.0, width))
            bitmap = page.render(scale=scale, rev_byteorder=True)  # RGB(A) byte order, as PNG wants it
            pixels = bitmap.to_numpy()
        finally:
            page.close()
    except (pdfium.PdfiumError, ValueError, IndexError, MemoryError):
        return None  # a cover is a nicety: a page that cannot be drawn costs only it
    return Cover(png(pixels[:, :, :3]), "image/png")


def png(rgb) -> bytes:
    """Return an RGB pixel array (height x width x 3, uint8) as PNG bytes (no picture library needed)."""
    height, width = rgb.shape[0], rgb.shape[1]
    rows = b"".join(b"\x00" + rgb[y].tobytes() for y in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 6))
            + chunk(b"IEND", b""))


#: An index entry's page references: "Atlas, 24", "Abstand, 86-88".
_NAMES_SOMETHING = re.compile(r"[^\W\d_]{2}")
_ROMAN = re.compile(r"[ivxlcdm]+", re.I)
_PAGE_REF = re.compile(r",\s*\d{1,4}(?:\s*[-\u2013]\s*\d{1,4})?\b")


#: An index entry's page references: after its term ("arrays, 12, 40-45"; "arrays 12, 40"), never after a number
#: alone, so that a listing of numbers ("[ [ 1, 0, 1, 0 ], ...", a program's output) is no index.
_ENTRY_REFS = re.compile(r"[^\W\d_][^\s,]*(?:\s+\d{1,4})?((?:,\s*\d{1,4}(?:\s*[-\u2013]\s*\d{1,4})?\b)+)")


def _is_index(paragraphs: tuple[str, ...]) -> bool:
    """Return whether a chapter is a back-of-book index: page references every few words."""
    words = sum(len(p.split()) for p in paragraphs)
    refs = sum(len(_PAGE_REF.findall(p)) for p in paragraphs)
    after_terms = sum(len(_PAGE_REF.findall(m.group(1))) for p in paragraphs for m in _ENTRY_REFS.finditer(p))
    # Most of an index's references stand in runs after a term; a listing's numbers follow numbers.
    return words >= 30 and refs >= words / 6 and after_terms * 4 >= refs


#: A listing's title, whatever it lists ("Subject and Name Index", "List of Maps"): where its
#: page was taken out, its heading is not said with the next chapter.
_LISTING_TITLE = re.compile(r"\bindex$|^(?:list|table)\s+of\s+\w+", re.I)


def _outline_chapters(blocks: list[Block], options: ReadOptions) -> list[Chapter]:
    """Return one chapter per outline entry (the level-1 blocks), as the outline says, titles repeated or not.

    The text before the first entry (title page, contents) is read only when it is long enough to
    be an unlisted preface, or with the matter; entries titled as matter (index, licence) likewise.
    """
    groups: list[tuple[str, list[Block]]] = [("", [])]
    for block in blocks:
        if block.level == 1:
            groups.append((block.text, [block]))
        else:
            groups[-1][1].append(block)
    front = groups.pop(0)[1]
    out: list[tuple[str, tuple[str, ...]]] = []
    if front and (options.include_matter or body_words(front) >= UNLISTED_MIN_WORDS):
        heads = [b.text for b in front if b.level]
        paragraphs = narration(front, options)
        if options.include_matter or not (heads and is_matter_title(heads[0]) or _is_index(paragraphs)):
            out.append((heads[0] if heads else "", paragraphs))
    held: list[Block] = []
    for title, group in groups:
        if not body_words(group):
            # Only its heading: a listing page taken out (matter, not said), or a part's title or a title
            # page's line set as a heading (its subtitle, its author's line): said at the next chapter's start.
            held += [] if is_matter_title(title) or _LISTING_TITLE.search(title.strip(" .:")) else group
            continue
        paragraphs = narration(group, options)
        if not options.include_matter and (is_matter_title(title) or _is_index(paragraphs)):
            continue  # matter left out; what is held goes on to the next chapter
        if held:
            paragraphs, held = narration(held + group, options), []
        out.append((title, paragraphs))
    chapters: list[Chapter] = []
    for title, paragraphs in out:
        if paragraphs:
            chapters.append(Chapter(len(chapters) + 1, title or f"Chapter {len(chapters) + 1}", paragraphs))
    return chapters


def read_pdf(path: Path, options: ReadOptions) -> Book:
    """Return the narrated chapters of a PDF, with its title, author, language and cover."""
    doc = _open(path)
    try:
        if len(doc) > MAX_PAGES:
            raise CorruptBook(f"{path.name} has {len(doc):,} pages (limit {MAX_PAGES:,})",
                              hint="Split the book into smaller files")
        check_page_objects(len(doc), path)
        pages, pictures, ocr = _read_pages(doc)
        texts = sum(1 for p in pages if sum(len(ln.text) for ln in p.lines) >= SCAN_CHARS_PER_PAGE)
        if not texts and not pictures and any(p.lines for p in pages):
            pass  # a short text ("Hello, world!") and no picture of text: a document, not a scan
        elif not texts:
            raise ScannedBook(f"{path.name} has no text layer: its pages are images of text (a scan)",
                              hint=_OCR_HINT)
        elif texts < len(pages) * MIN_TEXT_PAGES:
            # Reading the few pages that have text would be a fraction of the book, silently.
            raise ScannedBook(f"{path.name} has a text layer on only {texts} of its {len(pages)} pages; "
                              "the others are pictures of text or blank", hint=_OCR_HINT)
        entries, book_entry = outline(doc)
        headings = outline_headings(doc) - {" ".join(book_entry.casefold().split())}
        title = _meta(doc, "Title")
        author = _meta(doc, "Author")
        language = options.language or _language(doc)
        cover = _cover(doc)
    finally:
        doc.close()
    if ocr:
        reorder_ocr_lines(pages)  # the page's geometry, not the OCR engine's blocks, is the reading order
    style = measure(pages, ocr)
    if ocr:
        settle_ocr_sizes(pages, style)
    # The title page as printed, before running heads and listings are taken off the pages.
    page_title, page_author = title_page([list(p.lines) for p in pages[:TITLE_PAGES]], headings)
    strip_page_furniture(pages, style, listings=not options.include_matter)
    strip_footnotes(pages, style)
    plain, compounds = vocabulary(ln for page in pages for ln in page.lines)
    para = Paragrapher(style, plain, compounds, outline_levels=bool(entries))
    if not options.include_matter:
        strip_listings(pages, entries)  # contents and lists of links printed without page numbers
    breaks = outline_breaks(entries, pages, para.level_of) if entries else {}
    for page in pages:
        para.page(page, breaks.get(page.index, {}))
    para.flush()
    if ocr:
        repair_numbers(para.blocks)  # an OCR engine's misread chapter numbers, by their sequence
    if is_placeholder(title, path.stem):
        # The first heading, never a matter one ("Imprint", "Contents"); a bare chapter number ("I", "12")
        # names no book; nor does an outline's first chapter (a book whose title page prints no title):
        # the outline's lone top entry does, else none (the file's name is used).
        first = next((clean_text(b.text) for b in para.blocks if b.level == 1 and not is_matter_title(b.text)), "")
        named = _NAMES_SOMETHING.search(first) and not _ROMAN.fullmatch(first.strip(" .:"))
        if len(entries) >= 2:
            first, named = book_entry, bool(book_entry)
        title = page_title or (first if named else "")
    if is_placeholder_author(author):
        author = page_author
    elif page_author and names_its_program(author, title):
        author = page_author
    language = language or guess_language(b.text for b in para.blocks if not b.level and b.kind == "text")
    if len(pages) <= DOCUMENT_PAGES:
        options = dataclasses.replace(options, include_matter=True)
    if entries:
        chapters = _outline_chapters(para.blocks, options)
    else:
        chapters = split_chapters(para.blocks, title or path.stem, options)
    # The book's name out of a web page's title the metadata or the title page carries (the chapters above
    # were split with it whole: a title page's heading over the first chapter is matched as printed).
    title, author = book_title(title, author)
    return Book(title=title, author=author, chapters=tuple(chapters), source=path, language=language, cover=cover)

"""The hostile files, one builder each, written at test time (no blob is committed).

Each case says how it must end: "read" (exit 0, every word of `words` in the exported text),
"refuse" (exit 2, one line matching `refuse`), or "either" (one of the two, whichever the
reader can honour). `absent` lists what must never appear in the export (a local file's text).
"""
from __future__ import annotations

import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from tests.hostile.zips import BZIP2, DEFLATE, LZMA, STORED, Member, bomb_member, write_zip

#: Words that open and close every hostile book: a reading that keeps both dropped nothing around the trap.
FIRST, LAST = "aardvark", "zymurgy"
PROSE = "The river ran past the old mill and the children watched it from the bridge."


@dataclass(frozen=True)
class Case:
    id: str
    build: Callable[[Path], Path]
    outcome: str
    words: tuple[str, ...] = (FIRST, LAST)
    refuse: str = ""
    absent: tuple[str, ...] = ()
    env: dict = field(default_factory=dict)


def _sentences(n: int, word: str = "stone") -> str:
    return " ".join(f"The {word} number {i} lay by the water." for i in range(n))


# -- EPUB ------------------------------------------------------------------------------------------

_CONTAINER = ('<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">'
              '<rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/>'
              '</rootfiles></container>')


def _opf(n: int) -> str:
    items = "".join(f'<item id="c{i}" href="c{i}.xhtml" media-type="application/xhtml+xml"/>' for i in range(n))
    spine = "".join(f'<itemref idref="c{i}"/>' for i in range(n))
    return ('<?xml version="1.0" encoding="utf-8"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" '
            'unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">'
            'h</dc:identifier><dc:title>Hostile</dc:title><dc:language>en</dc:language></metadata>'
            f'<manifest>{items}</manifest><spine>{spine}</spine></package>')


def _xhtml(title: str, body: str, head: str = "") -> bytes:
    return (f'<?xml version="1.0" encoding="utf-8"?>{head}<html xmlns="http://www.w3.org/1999/xhtml"><head><title>'
            f'{title}</title></head><body><h1>{title}</h1>{body}</body></html>').encode()


def _epub(path: Path, chapters: list[Member], extra: list[Member] = ()) -> Path:
    members = [Member("mimetype", b"application/epub+zip", STORED), Member("META-INF/container.xml", _CONTAINER.encode()),
               Member("OEBPS/content.opf", _opf(len(chapters)).encode()), *chapters, *extra]
    return write_zip(path, members)


def _epub_plain(path: Path, trap: Member) -> Path:
    first = Member("OEBPS/c0.xhtml", _xhtml("One", f"<p>{FIRST} {PROSE}</p>"))
    return _epub(path, [first, trap, Member("OEBPS/c2.xhtml", _xhtml("Three", f"<p>{PROSE} {LAST}</p>"))])


def epub_bomb(method: int):
    return lambda d: _epub_plain(d / "bomb.epub", bomb_member("OEBPS/c1.xhtml", method))


def epub_flagged(flags: int = 0, method: int = DEFLATE):
    return lambda d: _epub_plain(d / "flagged.epub", Member("OEBPS/c1.xhtml", _xhtml("Two", f"<p>{PROSE}</p>"),
                                                           method=method, flags=flags))


def epub_deep(depth: int):
    body = "<div>" * depth + f"<p>{PROSE} deep</p>" + "</div>" * depth + f"<p>{PROSE} {LAST}</p>"
    return lambda d: _epub(d / "deep.epub", [Member("OEBPS/c0.xhtml", _xhtml("One", f"<p>{FIRST} {PROSE}</p>" + body))])


def epub_laughs(d: Path) -> Path:
    head = ('<!DOCTYPE html [<!ENTITY a "ha"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">'
            '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY e "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]>')
    return _epub_plain(d / "laughs.epub", Member("OEBPS/c1.xhtml", _xhtml("Two", "<p>&e;&e;&e;</p>", head)))


def epub_many_entries(d: Path) -> Path:
    extra = [Member(f"OEBPS/x/{i}.txt", b"", STORED) for i in range(10_050)]
    return _epub(d / "many.epub", [Member("OEBPS/c0.xhtml", _xhtml("One", f"<p>{FIRST} {PROSE} {LAST}</p>"))], extra)


def epub_traversal(d: Path) -> Path:
    return _epub_plain(d / "climb.epub", Member("../../c1.xhtml", _xhtml("Two", f"<p>{PROSE}</p>")))


def epub_utf16(d: Path) -> Path:
    doc = _xhtml("Two", f"<p>{PROSE} café</p>").decode().replace('encoding="utf-8"', 'encoding="utf-16"')
    return _epub_plain(d / "utf16.epub", Member("OEBPS/c1.xhtml", doc.encode("utf-16")))


# -- DOCX ------------------------------------------------------------------------------------------

_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_DOCX_TYPES = ('<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/'
               'content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
               'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName='
               '"/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.'
               'document.main+xml"/></Types>')
_DOCX_RELS = ('<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/'
              '2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/'
              '2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>')


def _p(text: str, outline: str | None = None) -> str:
    ppr = f'<w:pPr><w:outlineLvl w:val="{outline}"/></w:pPr>' if outline is not None else ""
    return f"<w:p>{ppr}<w:r><w:t>{text}</w:t></w:r></w:p>"


def _document(body: str, head: str = "") -> bytes:
    return (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>{head}<w:document xmlns:w="{_W}"><w:body>'
            f'{_p("Chapter One", "0")}{_p(FIRST + " " + PROSE)}{body}{_p(PROSE + " " + LAST)}</w:body></w:document>'
            ).encode()


def _docx(path: Path, document: Member, extra: list[Member] = ()) -> Path:
    return write_zip(path, [Member("[Content_Types].xml", _DOCX_TYPES.encode()), Member("_rels/.rels", _DOCX_RELS.encode()),
                            document, *extra])


def docx_body(body: str, head: str = ""):
    return lambda d: _docx(d / "trap.docx", Member("word/document.xml", _document(body, head)))


def docx_bomb(method: int, where: str = "word/media/image1.bin"):
    def build(d: Path) -> Path:
        if where == "word/document.xml":
            return _docx(d / "bomb.docx", bomb_member(where, method))
        return _docx(d / "bomb.docx", Member("word/document.xml", _document("")), [bomb_member(where, method)])
    return build


def docx_flagged(flags: int = 0, method: int = DEFLATE):
    return lambda d: _docx(d / "flagged.docx", Member("word/document.xml", _document(""), method=method, flags=flags))


def _row(*cells: str) -> str:
    return "<w:tr>" + "".join(f"<w:tc>{c}</w:tc>" for c in cells) + "</w:tr>"


def _tc(text: str, props: str = "") -> str:
    return (f"<w:tcPr>{props}</w:tcPr>" if props else "") + _p(text)


_VMERGE_TOP = "<w:tbl>" + _row(_tc("top merged", "<w:vMerge/>"), _tc("beside")) + _row(_tc("below"), _tc("last cell")) \
    + "</w:tbl>"
_MERGE_CHAIN = "<w:tbl>" + _row(_tc("chain head", '<w:vMerge w:val="restart"/>'), _tc("row 0")) + "".join(
    _row("<w:tcPr><w:vMerge/></w:tcPr><w:p/>", _tc(f"row {i}" if i < 2999 else "last link")) for i in range(1, 3000)
) + "</w:tbl>"
_GRIDSPAN = "<w:tbl>" + _row(_tc("wide cell", '<w:gridSpan w:val="1000000000"/>'), _tc("narrow cell")) + "</w:tbl>"
_DOCX_XXE = '<!DOCTYPE w:document [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>'
_DOCX_LAUGHS = ('<!DOCTYPE w:document [<!ENTITY a "haha"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">'
                '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY e "&c;&c;&c;&c;&c;&c;&c;&c;'
                '&c;&c;&c;&c;&c;&c;&c;&c;"><!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;">]>')


# -- ODT -------------------------------------------------------------------------------------------

_ODT_NS = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
           'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
           'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"')


def _content(body: str, head: str = "") -> bytes:
    return (f'<?xml version="1.0" encoding="UTF-8"?>{head}<office:document-content {_ODT_NS} office:version="1.2">'
            f'<office:body><office:text><text:h text:outline-level="1">Chapter One</text:h><text:p>{FIRST} {PROSE}'
            f'</text:p>{body}<text:p>{PROSE} {LAST}</text:p></office:text></office:body></office:document-content>'
            ).encode()


def _odt(path: Path, content: Member) -> Path:
    return write_zip(path, [Member("mimetype", b"application/vnd.oasis.opendocument.text", STORED), content])


def odt_body(body: str, head: str = ""):
    return lambda d: _odt(d / "trap.odt", Member("content.xml", _content(body, head)))


def odt_bomb(method: int):
    return lambda d: _odt(d / "bomb.odt", bomb_member("content.xml", method))


# -- FB2 -------------------------------------------------------------------------------------------

def _fb2(body: str, encoding: str = "utf-8") -> bytes:
    return (f'<?xml version="1.0" encoding="{encoding}"?><FictionBook xmlns="http://www.gribuser.ru/xml/fictionbook/'
            '2.0"><description><title-info><book-title>Hostile</book-title><lang>en</lang></title-info></description>'
            f'<body><section><title><p>Chapter One</p></title><p>{FIRST} {PROSE}</p>{body}<p>{PROSE} {LAST}</p>'
            '</section></body></FictionBook>').encode(encoding)


def fb2_body(body: str, encoding: str = "utf-8"):
    def build(d: Path) -> Path:
        path = d / "trap.fb2"
        path.write_bytes(_fb2(body, encoding))
        return path
    return build


def fb2_laughs(d: Path) -> Path:
    path = d / "laughs.fb2"
    doctype = _DOCX_LAUGHS.replace("w:document", "FictionBook").encode()
    path.write_bytes(_fb2("<p>&f;</p>").replace(b"<FictionBook", doctype + b"<FictionBook", 1))
    return path


def fb2zip_bomb(method: int):
    return lambda d: write_zip(d / "bomb.fb2.zip", [bomb_member("book.fb2", method)])


# -- PDF -------------------------------------------------------------------------------------------

def _stream(data: bytes, compress: bool = True) -> bytes:
    if compress:
        data = zlib.compress(data, 6)
        return b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(data) + data + b"\nendstream"
    return b"<< /Length %d >>\nstream\n" % len(data) + data + b"\nendstream"


def _text_ops(lines: list[str], top: int = 700) -> bytes:
    ops = [b"BT /F1 11 Tf 14 TL 72 %d Td" % top]
    ops += [b"(" + line.encode("latin-1") + b") '" for line in lines]
    return b" ".join(ops) + b" ET"


def write_pdf(path: Path, objects: dict[int, bytes]) -> Path:
    """Write numbered objects (1 is the catalog) with a correct xref table."""
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = {}
    for n in sorted(objects):
        offsets[n] = len(out)
        out += b"%d 0 obj\n" % n + objects[n] + b"\nendobj\n"
    size = max(objects) + 1
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % size
    for n in range(1, size):
        out += (b"%010d 00000 n \n" % offsets[n]) if n in offsets else b"0000000000 65535 f \n"
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (size, xref)
    path.write_bytes(bytes(out))
    return path


_LINES = [FIRST + " " + PROSE[:60], PROSE[60:], *[f"The stone number {i} lay by the water today." for i in range(30)],
          PROSE[:60] + " " + LAST]


def pdf_book(*, content: bytes | None = None, media: str = "0 0 612 792", kids: int = 1, catalog_extra: bytes = b"",
             extra: dict[int, bytes] | None = None, name: str = "trap.pdf"):
    def build(d: Path) -> Path:
        ops = content if content is not None else _text_ops(_LINES)
        objects = {
            1: b"<< /Type /Catalog /Pages 2 0 R " + catalog_extra + b">>",
            2: b"<< /Type /Pages /Kids [" + b"3 0 R " * kids + b"] /Count %d >>" % kids,
            3: (b"<< /Type /Page /Parent 2 0 R /MediaBox [" + media.encode() + b"] /Contents 4 0 R "
                b"/Resources << /Font << /F1 5 0 R >> >> >>"),
            4: _stream(ops),
            5: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
            **(extra or {}),
        }
        return write_pdf(d / name, objects)
    return build


_Q_BOMB = b"q " * 25_000_000 + _text_ops(_LINES)
_CIRCULAR_OUTLINE = {
    6: b"<< /Type /Outlines /First 7 0 R /Last 8 0 R /Count 2 >>",
    7: b"<< /Title (One) /Parent 6 0 R /Dest [3 0 R /Fit] /Next 8 0 R /Prev 8 0 R >>",
    8: b"<< /Title (Two) /Parent 6 0 R /Dest [3 0 R /Fit] /Next 7 0 R /Prev 7 0 R /First 7 0 R /Last 7 0 R >>",
}


def pdf_many_pages(count: int):
    """Return a builder of `count` distinct page objects sharing one content stream (a slow, honest PDF)."""
    def build(d: Path) -> Path:
        kids = b" ".join(b"%d 0 R" % (10 + i) for i in range(count))
        objects = {1: b"<< /Type /Catalog /Pages 2 0 R >>", 2: b"<< /Type /Pages /Kids [" + kids + b"] /Count %d >>" % count,
                   4: _stream(_text_ops(_LINES)), 5: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"}
        for i in range(count):
            objects[10 + i] = (b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
                               b"/Resources << /Font << /F1 5 0 R >> >> >>")
        return write_pdf(d / "slow.pdf", objects)
    return build


def pdf_deep_pages(d: Path) -> Path:
    depth = 3000
    objects = {1: b"<< /Type /Catalog /Pages 10 0 R >>", 4: _stream(_text_ops(_LINES)),
               5: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"}
    for i in range(depth):
        parent = b"/Parent %d 0 R " % (9 + i) if i else b""
        objects[10 + i] = b"<< /Type /Pages " + parent + b"/Kids [%d 0 R] /Count 1 >>" % (11 + i)
    objects[10 + depth] = (b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
                           b"/Resources << /Font << /F1 5 0 R >> >> >>" % (9 + depth))
    return write_pdf(d / "deep.pdf", objects)


def pdf_truncated(d: Path) -> Path:
    path = pdf_book(name="whole.pdf")(d)
    data = path.read_bytes()
    cut = d / "cut.pdf"
    cut.write_bytes(data[: len(data) // 2])
    path.unlink()
    return cut


# -- MOBI ------------------------------------------------------------------------------------------

def _palm(records: int, first: int, body: bytes = b"") -> bytes:
    head = b"Hostile".ljust(32, b"\0") + b"\0" * 28 + b"BOOKMOBI" + b"\0" * 8
    return head + records.to_bytes(2, "big") + first.to_bytes(4, "big") + b"\0" * 4 + body


def mobi_file(records: int, first: int, body: bytes = b""):
    def build(d: Path) -> Path:
        path = d / "trap.mobi"
        path.write_bytes(_palm(records, first, body))
        return path
    return build


_MOBI_GARBAGE_RECORD0 = (b"\x00\x02\x00\x00" + (10**9).to_bytes(4, "big") + b"\xff\xff\x10\x00" + b"\0" * 4
                         + b"MOBI" + (232).to_bytes(4, "big") + b"\xff" * 400)


def _palmdoc(records: list[bytes], compression: int = 2, table: int | None = None) -> bytes:
    """A PalmDOC (TEXtREAd) file: record 0 (compression, text length, record count) then the text records."""
    count = len(records) + 1 if table is None else table
    head = b"Hostile".ljust(32, b"\0") + b"\0" * 28 + b"TEXtREAdREAd" + b"\0" * 4 + count.to_bytes(2, "big")
    start = len(head) + 8 * (len(records) + 1)
    rec0 = (compression.to_bytes(2, "big") + b"\0\0" + sum(map(len, records)).to_bytes(4, "big")
            + len(records).to_bytes(2, "big") + (4096).to_bytes(2, "big") + b"\0" * 4)
    offsets, at = [], start
    for rec in [rec0, *records]:
        offsets.append(at)
        at += len(rec)
    return head + b"".join(o.to_bytes(4, "big") + b"\0" * 4 for o in offsets) + rec0 + b"".join(records)


def palmdoc_file(data: bytes):
    def build(d: Path) -> Path:
        path = d / "palm.mobi"
        path.write_bytes(data)
        return path
    return build


# PalmDOC's LZ77: ASCII bytes stand for themselves; 0x80 0x18 repeats the 3 bytes 3 back ("mill" -> "millill").
_PALM_TEXT = f"{FIRST}. The river ran past the old mill\x80\x18, and it ran on. {LAST}.".encode("latin-1")

# -- text, Markdown, HTML --------------------------------------------------------------------------

def text_file(name: str, data: bytes | Callable[[], bytes]):
    def build(d: Path) -> Path:
        path = d / name
        path.write_bytes(data() if callable(data) else data)
        return path
    return build


def _one_line_50mb() -> bytes:
    word = b"water "
    return b"Chapter 1\n\n" + word * (50 * 1024 * 1024 // len(word))


def _nested_md() -> bytes:
    items = "".join("  " * i + f"- item {i}\n" for i in range(999)) + "  " * 999 + "- deepest item\n"
    return f"# Lists\n\n{FIRST} {PROSE}\n\n{items}\n{PROSE} {LAST}\n".encode()


def _md_headings() -> bytes:
    return (f"{FIRST}\n\n" + "".join(f"# Heading {i}\n\n{PROSE}\n\n" for i in range(99_999))
            + f"# Heading last\n\n{LAST}\n").encode()


def _deep_html() -> bytes:
    return (f"<html><body><h1>One</h1><p>{FIRST} {PROSE}</p>" + "<div>" * 10_000 + "<p>deep</p>" + "</div>" * 10_000
            + f"<p>{PROSE} {LAST}</p></body></html>").encode()


_TXT = f"Chapter 1\n\n{FIRST} {PROSE}\n\n{PROSE} café {LAST}\n"

REFUSE_BOMB = r"zip bomb|larger than|not readable"

CASES: list[Case] = [
    # Zip members that lie about their size, by method and container.
    Case("epub-bzip2-bomb", epub_bomb(BZIP2), "refuse", refuse=REFUSE_BOMB),
    Case("epub-lzma-bomb", epub_bomb(LZMA), "refuse", refuse=REFUSE_BOMB),
    Case("epub-deflate-bomb", epub_bomb(DEFLATE), "refuse", refuse=REFUSE_BOMB),
    Case("docx-bzip2-bomb", docx_bomb(BZIP2), "refuse", refuse=REFUSE_BOMB),
    Case("docx-lzma-bomb-document", docx_bomb(LZMA, "word/document.xml"), "refuse", refuse=REFUSE_BOMB),
    Case("odt-bzip2-bomb", odt_bomb(BZIP2), "refuse", refuse=REFUSE_BOMB),
    Case("fb2zip-bzip2-bomb", fb2zip_bomb(BZIP2), "refuse", refuse=REFUSE_BOMB),
    # Encrypted members and methods nobody can bound.
    Case("epub-zipcrypto", epub_flagged(flags=0x1), "refuse", refuse=r"encrypted \(ZipCrypto"),
    Case("docx-zipcrypto", docx_flagged(flags=0x1), "refuse", refuse=r"encrypted \(ZipCrypto"),
    Case("docx-implode", docx_flagged(method=6), "refuse", refuse=r"method 6 \(implode\)"),
    Case("epub-deflate64", epub_flagged(method=9), "refuse", refuse=r"method 9 \(deflate64\)"),
    Case("epub-ppmd", epub_flagged(method=98), "refuse", refuse=r"method 98 \(PPMd\)"),
    # Other archive tricks.
    Case("epub-10050-entries", epub_many_entries, "refuse", refuse=r"zip entries \(limit"),
    Case("epub-path-climbs-out", epub_traversal, "refuse", refuse=r"unsafe path"),
    # XML tricks.
    Case("epub-billion-laughs", epub_laughs, "refuse", refuse=r"entit"),
    Case("epub-nested-10000", epub_deep(10_000), "either", refuse=r"nested|deep"),
    Case("epub-utf16-chapter", epub_utf16, "read", words=(FIRST, "café", LAST)),
    Case("docx-external-entity", docx_body(_p("&xxe;"), _DOCX_XXE), "either", absent=("root:",)),
    Case("docx-billion-laughs", docx_body(_p("&f;"), _DOCX_LAUGHS), "either", absent=("hahahahahahahahahahaha",)),
    Case("odt-billion-laughs", odt_body("<text:p>&e;</text:p>", _DOCX_LAUGHS.replace("w:document", "x")), "refuse",
         refuse=r"entit"),
    Case("odt-nested-10000", odt_body("<text:section>" * 10_000 + "<text:p>deep down</text:p>"
                                      + "</text:section>" * 10_000), "either", words=(FIRST, "deep down", LAST),
         refuse=r"nested|deep"),
    Case("fb2-billion-laughs", fb2_laughs, "refuse", refuse=r"entit|DTD"),
    Case("fb2-nested-sections-5000", fb2_body("<section>" * 5000 + "<p>deep down</p>" + "</section>" * 5000),
         "either", words=(FIRST, "deep down", LAST), refuse=r"nested|deep"),
    Case("fb2-windows-1251", fb2_body("<p>Привет, река.</p>", "windows-1251"), "read", words=(FIRST, "Привет", LAST)),
    # Office-library traps.
    Case("docx-vmerge-in-top-row", docx_body(_VMERGE_TOP), "read", words=(FIRST, "top merged", "last cell", LAST)),
    Case("docx-3000-row-merge-chain", docx_body(_MERGE_CHAIN), "read", words=(FIRST, "chain head", "last link", LAST)),
    Case("docx-gridspan-1e9", docx_body(_GRIDSPAN), "read", words=(FIRST, "wide cell", "narrow cell", LAST)),
    Case("docx-outline-level-one", docx_body(_p("A heading in words", "one")), "read",
         words=(FIRST, "A heading in words", LAST)),
    Case("odt-outline-level-superscript", odt_body('<text:h text:outline-level="²">Second part</text:h>'), "read",
         words=(FIRST, "Second part", LAST)),
    # PDF object graphs.
    Case("pdf-25M-unbalanced-q", pdf_book(content=_Q_BOMB), "either", refuse=r"."),
    Case("pdf-mediabox-300000x200", pdf_book(media="0 0 300000 200", content=_text_ops(_LINES, top=190)), "read",
         words=(FIRST,)),
    Case("pdf-19999-pages-one-object", pdf_book(kids=19_999), "refuse", refuse=r"repeat one page object"),
    Case("pdf-read-past-its-deadline", pdf_many_pages(1500), "refuse", refuse=r"longer than 2 s",
         env={"AUDIOBOOK_READ_SECONDS": "2"}),
    Case("pdf-circular-outline", pdf_book(catalog_extra=b"/Outlines 6 0 R ", extra=_CIRCULAR_OUTLINE), "read"),
    Case("pdf-page-tree-3000-deep", pdf_deep_pages, "either", refuse=r"."),
    Case("pdf-truncated-half", pdf_truncated, "either", refuse=r"."),
    # MOBI headers that lie.
    Case("mobi-record-table-past-end", mobi_file(5, 10_000), "refuse", refuse=r"MOBI|Kindle"),
    Case("mobi-garbage-record0", mobi_file(1, 86, _MOBI_GARBAGE_RECORD0), "refuse", refuse=r"MOBI|Kindle|read"),
    # PalmDOC: a whole reading, a record table that lies, a back reference to nothing.
    Case("palmdoc-compressed", palmdoc_file(_palmdoc([_PALM_TEXT])), "read", words=(FIRST, "millill", LAST)),
    Case("palmdoc-record-table-past-end", palmdoc_file(_palmdoc([_PALM_TEXT], table=60_000)), "refuse",
         refuse=r"PalmDOC"),
    Case("palmdoc-back-reference-to-nothing", palmdoc_file(_palmdoc([b"\x80\x08" + _PALM_TEXT])), "refuse",
         refuse=r"PalmDOC"),
    # Encodings and sizes of plain text.
    Case("txt-utf16-bom", text_file("utf16.txt", _TXT.encode("utf-16")), "read", words=(FIRST, "café", LAST)),
    Case("txt-latin1", text_file("latin1.txt", _TXT.encode("latin-1")), "read", words=(FIRST, "café", LAST)),
    Case("txt-nul-bytes", text_file("nul.txt", _TXT.replace("river", "ri\0ver").encode()), "either"),
    Case("txt-50MB-one-line", text_file("line.txt", _one_line_50mb), "either", words=("water",),
         refuse=r"line|paragraph"),
    Case("md-1000-nested-list-items", text_file("nested.md", _nested_md), "either",
         words=(FIRST, "deepest item", LAST), refuse=r"nested|deep"),
    Case("md-100000-headings", text_file("headings.md", _md_headings), "either", words=(FIRST, "Heading last", LAST),
         refuse=r"chapters|headings"),
    Case("html-nested-10000", text_file("deep.html", _deep_html), "either", words=(FIRST, "deep", LAST),
         refuse=r"nested|deep"),
]

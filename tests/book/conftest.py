"""Book fixtures built at test time: EPUB 3 (ebooklib), EPUB 2 (NCX only), TXT, Markdown, HTML."""
from __future__ import annotations

import struct
import zipfile
import zlib
from pathlib import Path

import pytest
from ebooklib import epub


def tiny_png() -> bytes:
    """Return a valid 2x2 PNG."""
    rows = b"\x00\xff\x00\x00\x00\xff\x00" * 2

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


CH1 = (
    "<h1>The Arrival</h1>"
    '<p>Mr. Smith arrived at 3.30 p.m. on the train.<sup><a href="notes.xhtml#n1" epub:type="noteref">1</a></sup> '
    "He carried a small case.</p>"
    "<p>The station was quiet.<a href=\"#fn2\" class=\"footnote-ref\"><sup>2</sup></a> Nobody came.</p>"
    '<aside epub:type="footnote" id="fn2"><p>FOOTNOTE TEXT that must not be read.</p></aside>'
)
CH2 = (
    "<h1>The House</h1>"
    "<p>The house stood on a hill above the town.</p>"
    '<figure><img src="images/cover.png" alt="A house"/><figcaption>CAPTION TEXT under the picture.</figcaption></figure>'
    "<p>Its windows were dark.</p>"
)
#: Two TOC entries point into this one file; it must be split at the anchors.
SPLIT = (
    '<h1 id="c3">The Letter</h1><p>A letter lay on the table.</p><p>It was unsigned.</p>'
    '<h1 id="c4">The Answer</h1><p>She wrote back at once.</p>'
)


def make_epub3(path: Path) -> Path:
    """Write an EPUB 3 with cover, nav TOC, title page, copyright, 4 chapters, notes and an index."""
    book = epub.EpubBook()
    book.set_identifier("test-epub3")
    book.set_title("The Test Book")
    book.set_language("en")
    book.add_author("Ada Writer")
    book.set_cover("images/cover.png", tiny_png())
    pages = {}
    for name, title, body in [
        ("title", "Title Page", "<h1>The Test Book</h1><p>Ada Writer</p>"),
        ("copyright", "Copyright", '<section epub:type="copyright-page"><p>Copyright 2024 Ada Writer. '
                                   "All rights reserved. COPYRIGHT TEXT.</p></section>"),
        ("ch1", "The Arrival", CH1),
        ("ch2", "The House", CH2),
        ("split", "Letters", SPLIT),
        ("empty", "Plates", '<p><img src="images/cover.png" alt=""/></p>'),
        ("notes", "Notes", '<section epub:type="endnotes"><p id="n1">ENDNOTE TEXT.</p></section>'),
        ("index", "Index", "<h1>Index</h1><p>INDEX TEXT: arrival, 1; house, 2.</p>"),
    ]:
        page = epub.EpubHtml(title=title, file_name=f"{name}.xhtml", lang="en")
        page.content = body
        book.add_item(page)
        pages[name] = page
    book.toc = [
        epub.Link("title.xhtml", "Title Page", "t"),
        epub.Link("copyright.xhtml", "Copyright", "c"),
        epub.Link("ch1.xhtml", "One: The Arrival", "c1"),
        epub.Link("ch2.xhtml", "Two: The House", "c2"),
        epub.Link("split.xhtml#c3", "Three: The Letter", "c3"),
        epub.Link("split.xhtml#c4", "Four: The Answer", "c4"),
        epub.Link("empty.xhtml", "Plates", "p"),
        epub.Link("index.xhtml", "Index", "i"),
    ]
    book.add_item(epub.EpubNcx())
    book.add_item(epub.EpubNav())
    book.spine = ["cover", pages["title"], "nav", pages["copyright"], pages["ch1"], pages["ch2"],
                  pages["split"], pages["empty"], pages["notes"], pages["index"]]
    epub.write_epub(str(path), book, {})
    return path


OPF2 = """<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="2.0" unique-identifier="id">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:opf="http://www.idpf.org/2007/opf">
    <dc:title>Old Format</dc:title><dc:creator opf:role="aut">Bo Author</dc:creator>
    <dc:language>en-GB</dc:language><dc:identifier id="id">x</dc:identifier>
    <meta name="cover" content="cover-img"/>
  </metadata>
  <manifest>
    <item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>
    <item id="cover-img" href="img/c.png" media-type="image/png"/>
    <item id="cov" href="text/cover.html" media-type="application/xhtml+xml"/>
    <item id="toc" href="text/contents.html" media-type="application/xhtml+xml"/>
    <item id="a" href="text/a.html" media-type="application/xhtml+xml"/>
    <item id="b" href="text/b.html" media-type="application/xhtml+xml"/>
    <item id="b2" href="text/b2.html" media-type="application/xhtml+xml"/>
    <item id="c" href="text/c.html" media-type="application/xhtml+xml"/>
  </manifest>
  <spine toc="ncx">
    <itemref idref="cov"/><itemref idref="toc"/><itemref idref="a"/><itemref idref="b"/>
    <itemref idref="b2"/><itemref idref="c"/>
  </spine>
  <guide>
    <reference type="cover" href="text/cover.html" title="Cover"/>
    <reference type="toc" href="text/contents.html" title="Contents"/>
  </guide>
</package>"""

NCX = """<?xml version="1.0" encoding="UTF-8"?>
<ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1"><navMap>
  <navPoint id="p1" playOrder="1"><navLabel><text>First Light</text></navLabel><content src="text/a.html"/>
    <navPoint id="p1s" playOrder="2"><navLabel><text>A Section</text></navLabel><content src="text/a.html#s"/></navPoint>
  </navPoint>
  <navPoint id="p2" playOrder="3"><navLabel><text>Second Wind</text></navLabel><content src="text/b.html"/></navPoint>
  <navPoint id="p3" playOrder="4"><navLabel><text>Third Time</text></navLabel><content src="text/c.html"/></navPoint>
</navMap></ncx>"""


def _page(body: str, title: str = "Old Format") -> str:
    return (f'<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>{title}'
            f"</title></head><body>{body}</body></html>")


def epub2_files() -> dict[str, bytes]:
    """Return the entries of the EPUB 2 fixture (without mimetype)."""
    return {
        "META-INF/container.xml": b'<?xml version="1.0"?><container version="1.0" '
        b'xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" '
        b'media-type="application/oebps-package+xml"/></rootfiles></container>',
        "OEBPS/content.opf": OPF2.encode(),
        "OEBPS/toc.ncx": NCX.encode(),
        "OEBPS/img/c.png": tiny_png(),
        "OEBPS/text/cover.html": _page('<div><img src="../img/c.png" alt="cover"/></div>').encode(),
        "OEBPS/text/contents.html": _page("<h2>Contents</h2><p>First Light</p><p>Second Wind</p>").encode(),
        "OEBPS/text/a.html": _page("<h2>First Light</h2><p>Dawn came early.</p><h3 id='s'>A Section</h3>"
                                   "<p>Birds sang.</p>").encode(),
        "OEBPS/text/b.html": _page("<h2>Second Wind</h2><p>Caf\u00e9 au lait, she said.</p>").encode(),
        # Not in the NCX: a continuation of chapter two in its own file.
        "OEBPS/text/b2.html": _page("<p>The wind kept blowing.</p>").encode(),
        "OEBPS/text/c.html": _page("<h2>Third Time</h2><p>It ended well.</p>").encode(),
    }


def make_epub2(path: Path, *, extra: dict[str, bytes] | None = None) -> Path:
    """Write an EPUB 2 with an NCX and no nav document, by hand; extra adds or replaces entries."""
    files = epub2_files()
    files.update(extra or {})
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(zipfile.ZipInfo("mimetype"), "application/epub+zip")
        for name, data in files.items():
            zf.writestr(name, data)
    return path


TXT = """Title: A Plain Tale
Author: Cy Plain

CHAPTER I.

Down the Road

It was a bright cold day in April, and the clocks
were striking thirteen. Mr. Jones looked at the well-
known square.

He walked on.

CHAPTER II. The River

The water was high. Dr. Who waved.

Chapter 3: The End

Nothing more happened.
"""

MD = """# The Markdown Book

## Chapter One

Some *emphasis*, a [link](http://example.com) and `code`.

![a picture](pic.png)

## Chapter Two

- a list item
- another item

## Chapter Three

> A quoted line.
"""

HTML = """<!DOCTYPE html><html><head><title>Web Book</title><meta name="author" content="Hy Pertext">
<style>p { color: red }</style><script>var SCRIPT_TEXT = 1;</script></head><body>
<nav><a href="#a">NAV TEXT</a></nav>
<h1>Web Book</h1>
<h2>Opening</h2><p>First &amp; foremost.</p>
<h2>Middle</h2><p>Then the middle part.</p><h3>A subsection</h3><p>Detail.</p>
<h2>Closing</h2><p>The end.</p>
</body></html>"""


@pytest.fixture(scope="session")
def book_files(tmp_path_factory) -> dict[str, Path]:
    """Return one fixture file per format."""
    d = tmp_path_factory.mktemp("books")
    (d / "tale.txt").write_text(TXT, encoding="utf-8")
    (d / "book.md").write_text(MD, encoding="utf-8")
    (d / "web.html").write_text(HTML, encoding="utf-8")
    return {
        "epub3": make_epub3(d / "book3.epub"),
        "epub2": make_epub2(d / "book2.epub"),
        "txt": d / "tale.txt",
        "md": d / "book.md",
        "html": d / "web.html",
    }


@pytest.fixture
def epub2_builder():
    """Return the EPUB 2 builder, for variants of the NCX-only fixture."""
    return make_epub2


@pytest.fixture
def epub3_builder():
    """Return the EPUB 3 builder."""
    return make_epub3


@pytest.fixture
def epub2_parts():
    """Return the EPUB 2 fixture's entries, to build hostile variants from."""
    return epub2_files()

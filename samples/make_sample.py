"""Build samples/aesop.epub, the small public-domain book the README converts.

Three fables from Aesop in George Fyler Townsend's translation (1867, public
domain): about 270 words, so a CPU voice reads it in well under a minute. It
has what real EPUBs have: a cover image, a cover page, a navigation TOC, a
copyright page and landmarks. Run: .venv/bin/python samples/make_sample.py (it needs EbookLib,
AGPL-3.0, from the test extra: the app itself never imports it).
"""
from __future__ import annotations

import os
import struct
import sys
import tempfile
import zlib
from pathlib import Path

from ebooklib import epub

HERE = Path(__file__).resolve().parent
OUT = HERE / "aesop.epub"

FABLES = [
    ("The Fox and the Grapes", [
        "A famished Fox saw some clusters of ripe black grapes hanging from a trellised vine. "
        "She resorted to all her tricks to get at them, but wearied herself in vain, for she could not reach them.",
        "At last she turned away, hiding her disappointment and saying: "
        "\u201cThe Grapes are sour, and not ripe as I thought.\u201d",
    ]),
    ("The Hare and the Tortoise", [
        "A Hare one day ridiculed the short feet and slow pace of the Tortoise, who replied, laughing: "
        "\u201cThough you be swift as the wind, I will beat you in a race.\u201d "
        "The Hare, believing her assertion to be simply impossible, assented to the proposal.",
        "On the day appointed for the race the two started together. The Tortoise never for a moment stopped, "
        "but went on with a slow but steady pace straight to the end of the course. The Hare, lying down by the "
        "wayside, fell fast asleep. At last waking up, and moving as fast as he could, he saw the Tortoise had "
        "reached the goal, and was comfortably dozing after her fatigue.",
        "Slow but steady wins the race.",
    ]),
    ("The Crow and the Pitcher", [
        "A Crow perishing with thirst saw a pitcher, and hoping to find water, flew to it with delight. "
        "When he reached it, he discovered to his grief that it contained so little water that he could not "
        "possibly get at it.",
        "At last he collected as many stones as he could carry and dropped them one by one with his beak into "
        "the pitcher, until he brought the water within his reach and thus saved his life.",
        "Necessity is the mother of invention.",
    ]),
]


def png(width: int, height: int, pixel) -> bytes:
    """Return a truecolour PNG whose pixel(x, y) gives each (r, g, b)."""
    rows = b"".join(b"\x00" + b"".join(bytes(pixel(x, y)) for x in range(width)) for y in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


def cover_png() -> bytes:
    """Return a small striped cover image (no image library needed)."""
    return png(120, 180, lambda x, y: (40, 70, 120) if (y // 12) % 2 else (200, 170, 90))


def build(path: Path) -> None:
    """Write the sample EPUB to path (atomically)."""
    book = epub.EpubBook()
    book.set_identifier("audiobook-sample-aesop")
    book.set_title("Three Fables")
    book.set_language("en")
    book.add_author("Aesop")
    book.set_cover("images/cover.png", cover_png())
    rights = epub.EpubHtml(title="Copyright", file_name="copyright.xhtml", lang="en")
    rights.content = (
        '<section epub:type="copyright-page"><p>Translated by George Fyler Townsend (1867).</p>'
        "<p>This edition is in the public domain.</p></section>"
    )
    book.add_item(rights)
    chapters = []
    for n, (title, paragraphs) in enumerate(FABLES, 1):
        ch = epub.EpubHtml(title=title, file_name=f"fable_{n}.xhtml", lang="en")
        ch.content = f"<h1>{title}</h1>" + "".join(f"<p>{p}</p>" for p in paragraphs)
        book.add_item(ch)
        chapters.append(ch)
    book.toc = [epub.Link(c.file_name, c.title, f"fable{n}") for n, c in enumerate(chapters, 1)]
    book.add_item(epub.EpubNcx())
    book.add_item(epub.EpubNav())
    book.guide = [{"type": "copyright-page", "href": "copyright.xhtml", "title": "Copyright"}]
    book.spine = ["cover", "nav", rights, *chapters]
    fd, tmp = tempfile.mkstemp(suffix=".epub", dir=path.parent)
    os.close(fd)
    try:
        epub.write_epub(tmp, book, {})
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


if __name__ == "__main__":
    build(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT)
    print(f"wrote {sys.argv[1] if len(sys.argv) > 1 else OUT}")

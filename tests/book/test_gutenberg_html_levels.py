"""Gutenberg HTML conventions (issue 32), continued: which headings divide the book and which are its front and
back (a weekly's "THE END" between its pieces, a contents entry that is a number alone or a by-line, title-page
lines at the pieces' level, months over numbered sections, figures set as headings, prefaces by name).

Each test names the convention, not a book; the HTML is invented."""
from __future__ import annotations

from app.book import load_book
from tests.book.test_gutenberg_html_unlisted import _PROSE, _book


def test_the_end_of_a_first_story_under_a_one_heading_title_does_not_end_the_book(tmp_path):
    # A weekly's issue: its title in one <h1>, the lead story's chapters in <h2>, "THE END." after them,
    # then a second story and the news, each an <h2> of its own.
    chapters = "".join(f"<h2>CHAPTER {n}.<br/><br/>{name}</h2>{_PROSE}"
                       for n, name in (("I", "THE LOCKED DOOR"), ("II", "THE LANTERN"), ("III", "THE FERRY")))
    book = _book(tmp_path, "<h1>THE WINTER LANTERN; Or, A Tale of the Mill</h1>" + chapters
                 + "<p>THE END.</p><h2>THE FOG AT THE WEIR</h2>" + _PROSE * 2
                 + "<h2>NEWS OF THE WEEK.</h2>" + _PROSE)
    titles = [c.title for c in book.chapters]
    assert len(titles) == 5, titles
    assert titles[3] == "THE FOG AT THE WEIR"
    assert titles[4].startswith("NEWS OF THE WEEK")


def test_the_end_after_the_last_chapter_still_heads_the_publishers_list_as_back_matter(tmp_path):
    # The same layout with nothing of the author's after "THE END": the publisher's list is not read.
    chapters = "".join(f"<h2>CHAPTER {n}.</h2>{_PROSE}" for n in ("I", "II", "III"))
    book = _book(tmp_path, "<h1>THE WINTER LANTERN</h1>" + chapters + "<p>THE END.</p>"
                 + "<p>Books of the Mill Press, sold at all stations, price one shilling each.</p>")
    assert [c.title for c in book.chapters] == ["CHAPTER I.", "CHAPTER II.", "CHAPTER III."]
    assert "Mill Press" not in " ".join(book.chapters[-1].paragraphs)


def test_a_contents_entry_that_is_a_number_alone_names_the_chapter_of_that_number(tmp_path):
    # A contents table: number, name, page (linked to the page mark); chapter III has no name, so its row is
    # "III." and its page; a few rows link the chapter's heading, still by its page number. The book's title
    # stands over chapter I at the chapters' level, so the headings alone would not divide it right.
    names = ("The Locked Door", "The Lantern", None, "The Ferry", "The Weir", "The Mill", "The Road Home")
    rows = "".join(
        f'<tr><td>{n}.</td><td>{name or ""}</td><td><a href="#{"c" if k == 4 else "Page_"}{k}">{k}0</a></td></tr>'
        for k, (n, name) in enumerate(zip(("I", "II", "III", "IV", "V", "VI", "VII"), names), start=1))
    body = "".join(
        f'<p><span class="pagenum" id="Page_{k}">[Pg {k}0]</span></p>' + ("<h2>THE LOCKED DOOR AND OTHER TALES.</h2>" if k == 1 else "")
        + f'<h2 id="c{k}">CHAPTER {n}.{"<br/><br/>" + name.upper() if name else ""}</h2>{_PROSE}'
        for k, (n, name) in enumerate(zip(("I", "II", "III", "IV", "V", "VI", "VII"), names), start=1))
    book = _book(tmp_path, f"<h2>TABLE OF CONTENTS</h2><table>{rows}</table>{body}")
    titles = [c.title for c in book.chapters]
    assert len(titles) == 7, titles
    assert titles[2] == "CHAPTER III."
    assert titles[3].startswith("CHAPTER IV")


def _verses_book(tmp_path):
    """A book of verses named after its first poem: the title page's lines set as headings of every level
    (the author's name and the publisher's at the poems' level), a contents of page links (each entry a
    name over a first line), the title again over the first part, a second part's title over the rest."""
    first = ("THE WINTER LANTERN", "THE MILL AT DUSK", "THE FERRY")
    second = ("A PRAYER", "TO A FRIEND", "THE ROAD HOME")
    # Each entry: the poem's name over its first line, and its page.
    rows = "".join(f'<tr><td>{name.title()}<br/><i>When evening comes along the road</i></td>'
                   f'<td><a href="#Page_{k}">{k}</a></td></tr>' for k, name in enumerate(first + second, start=1))
    pieces = "".join(f'<p><span class="pagenum" id="Page_{k}">{k}</span></p><h2>{name}</h2>{_PROSE}'
                     for k, name in enumerate(first, start=1))
    more = "".join(f'<p><span class="pagenum" id="Page_{k}">{k}</span></p><h2>{name}</h2>{_PROSE}'
                   for k, name in enumerate(second, start=4))
    return _book(tmp_path, "<h1>THE WINTER LANTERN</h1><h3>BY</h3><h2>MARY HOLT</h2><h3>LONDON</h3>"
                 "<h2>THE MILL PRESS</h2><h3>NINETEEN HUNDRED</h3><h4>TO MY FRIEND</h4><h3>ANN LEE</h3>"
                 f"<h2>CONTENTS</h2><table>{rows}</table><h1>THE WINTER LANTERN</h1>{pieces}"
                 f"<h1>OTHER VERSES</h1>{more}")


def test_title_page_lines_set_at_the_pieces_level_before_the_contents_are_no_pieces(tmp_path):
    titles = [c.title for c in _verses_book(tmp_path).chapters]
    assert len(titles) == 6, titles
    assert not any("MARY HOLT" in t or "MILL PRESS" in t for t in titles)


def test_a_part_named_as_its_first_piece_is_said_once(tmp_path):
    titles = [c.title for c in _verses_book(tmp_path).chapters]
    assert titles[0] == "THE WINTER LANTERN"
    assert titles[3] == "OTHER VERSES: A PRAYER"


def test_a_last_contents_entry_that_is_a_by_line_heads_the_authors_other_books(tmp_path):
    # The contents ends with "By Mary Holt", linked to a heading over the list of her other novels.
    names = ("The Mill", "The Weir", "The Ferry", "The Lantern", "The Road")
    rows = "".join(f'<a href="#c{k}">{n}</a><br/>' for k, n in enumerate(names)) + '<a href="#by">By Mary Holt</a><br/>'
    body = "".join(f'<h2 id="c{k}">{n.upper()}</h2>{_PROSE}' for k, n in enumerate(names))
    books = "".join(f"<span>{t}<br/></span>" for t in ("The Winter Lantern", "The Road Home", "A Lock Keeper"))
    book = _book(tmp_path, f'<h2>CONTENTS</h2><p>{rows}</p>{body}<h2 id="by">By Mary Holt</h2><div>{books}</div>')
    assert [c.title for c in book.chapters] == [n.upper() for n in names]
    assert "Road Home" not in " ".join(book.chapters[-1].paragraphs)


_ORDERS = "<p>" + "The keeper has been pleased to command that the record of every boat be kept at the lock. " * 4 + "</p>"


def _front_book(tmp_path, under_heading: str, rows: str):
    """A title page in short lines, a heading before the contents with `under_heading` below it, a preface, a
    contents table of `rows`, then two chapters."""
    title = "<h1>A RECORD OF THE MILL</h1><p>COMPILED BY</p><p>MARY HOLT</p><p>LONDON:</p><p>THE MILL PRESS</p>"
    body = "".join(f'<p><span class="pagenum" id="Page_{k}">{k}</span></p><h2>CHAPTER {n}.</h2>{_PROSE * 6}'
                   for k, n in ((1, "I"), (5, "II")))
    return _book(tmp_path, f"{title}<h2>ORDERS OF THE BOARD.</h2>{under_heading}<h2>PREFACE.</h2>{_PROSE}"
                 f"<h2>CONTENTS.</h2><table>{rows}</table>{body}")


def _row(year: str, entry: str, page: int | None) -> str:
    cell = f'<a href="#Page_{page}">{page}</a>' if page else "&ndash;"
    return f"<tr><td>{year}</td><td>{entry}</td><td>{cell}</td></tr>"


_ROWS = (_row("1801", "The mill is built", 1) + _row("——", "The wheel", 1) + _row("——", "The first flood", 1)
         + _row("——", "The weir mended", None) + _row("1802", "The ferry", None) + _row("——", "The bridge", None)
         + _row("1803", "The second flood", 5) + _row("——", "The lock", None))


def test_a_heading_over_short_lines_before_the_contents_is_still_the_title_pages(tmp_path):
    verso = "<p>Printed by the Mill Press,</p><p>at the sign of the lantern.</p>"
    titles = [c.title for c in _front_book(tmp_path, verso, _ROWS).chapters]
    assert titles == ["PREFACE.", "CHAPTER I.", "CHAPTER II."]
    # (So is one over a paragraph of prose shorter than a page: a publisher's note, orders printed there.)
    titles = [c.title for c in _front_book(tmp_path, _ORDERS, _ROWS).chapters]
    assert titles == ["PREFACE.", "CHAPTER I.", "CHAPTER II."]


def test_contents_rows_whose_page_is_a_dash_are_entries_never_read(tmp_path):
    # Three rows in a row with a dash for their page (on the page of the row before): still the contents.
    book = _front_book(tmp_path, _ORDERS, _ROWS)
    assert not any("ferry" in p for c in book.chapters for p in c.paragraphs)


def _titled_book(tmp_path, under_title: str):
    """A Gutenberg page titled "The Mill", its title page's heading the title with its second title."""
    chapters = "".join(f"<h2>CHAPTER {n}.</h2>{_PROSE}" for n in ("I", "II", "III"))
    path = tmp_path / "book.html"
    path.write_text("<html><head><title>The Project Gutenberg eBook of The Mill, by Mary Holt</title></head><body>"
                    "<p>*** START OF THE PROJECT GUTENBERG EBOOK THE MILL ***</p>"
                    f"<h1>THE MILL; OR, A YEAR AT THE WEIR.</h1>{under_title}{chapters}"
                    "<p>*** END OF THE PROJECT GUTENBERG EBOOK THE MILL ***</p></body></html>", encoding="utf-8")
    return load_book(path)


def test_a_title_page_in_short_lines_before_the_first_chapter_is_front_matter(tmp_path):
    # The book's title set above the chapters, over a by-line, an imprint and the publisher's long list of
    # the author's other books, in lines of a few words: no first chapter.
    lines = ["BY", "MARY HOLT", "LONDON:", "THE MILL PRESS", "BOOKS BY THE SAME AUTHOR."] + [
        f"The {name} Series. {k} vols. Cloth." for k, name in enumerate(("Lantern", "Ferry", "Weir", "Lock") * 20)]
    book = _titled_book(tmp_path, "".join(f"<p>{ln}</p>" for ln in lines))
    assert [c.title for c in book.chapters] == ["CHAPTER I.", "CHAPTER II.", "CHAPTER III."]


def test_prose_under_the_books_title_before_the_first_chapter_is_still_read(tmp_path):
    book = _titled_book(tmp_path, _PROSE * 4)
    assert len(book.chapters) == 4
    assert book.chapters[0].title.startswith("THE MILL")


def test_months_over_sections_numbered_afresh_are_the_chapters(tmp_path):
    # A year's book: each month an <h2> over <h3> sections "I", "II", "III" that start again every month.
    months = ("JANUARY", "FEBRUARY", "MARCH", "APRIL", "MAY")
    body = "".join(f"<h2>{m}</h2>" + "".join(f"<h3>{n}</h3>{_PROSE}" for n in ("I", "II", "III")) for m in months)
    assert [c.title for c in _book(tmp_path, body).chapters] == list(months)


def test_two_parts_over_numbered_chapters_are_still_divided_at_the_chapters(tmp_path):
    # A novel in two parts, each a label over its chapters "I" .. "IV": the chapters are the division.
    body = "".join(f"<h2>PART {p}</h2>" + "".join(f"<h3>{n}</h3>{_PROSE * 3}" for n in ("I", "II", "III", "IV"))
                   for p in ("ONE", "TWO"))
    titles = [c.title for c in _book(tmp_path, body).chapters]
    assert len(titles) == 8 and titles[4].startswith("PART TWO")


_JOKES = ("THE LATE TRAIN", "ONE WAY OF PUTTING IT", "AT THE LOCK", "A FAIR QUESTION", "THE MILLER'S ANSWER")


def _jokes_book(tmp_path):
    """A book of short pieces: a preface, a few longer ones, then each piece a heading over a few lines."""
    piece = "<p>" + "The miller asked the keeper why the lock was shut, and the keeper said it was Sunday. " * 2 + "</p>"
    body = "".join(f"<h2>{name}</h2>{piece}" for name in _JOKES)
    long = "".join(f"<h2>THE {name} AT LENGTH</h2>{_PROSE}" for name in ("MILL", "WEIR", "FERRY", "LOCK", "BRIDGE", "ROAD"))
    return _book(tmp_path, f"<h1>FUNNY STORIES</h1><h2>PREFACE</h2>{_PROSE}{long}{body}")


def test_a_title_opening_with_the_word_one_is_no_first_chapter_under_a_title_page(tmp_path):
    # "ONE WAY OF PUTTING IT" after a short piece is a piece's name, not chapter one of a piece titled by the
    # heading before it.
    titles = [c.title for c in _jokes_book(tmp_path).chapters]
    assert "ONE WAY OF PUTTING IT" in titles and not any(t.endswith(": ONE WAY OF PUTTING IT") for t in titles)


def test_a_foreword_for_its_readers_before_the_listed_chapters_is_read(tmp_path):
    # Unlisted, between the contents and the first listed chapter: "FOREWORD FOR TEACHERS." opens the text as
    # a plain "FOREWORD." does; the title page's heading before it does not.
    rows = "".join(f'<p><a href="#c{k}">CHAPTER {k}</a></p>' for k in range(1, 4))
    body = "".join(f'<h2 id="c{k}">CHAPTER {k}</h2>{_PROSE}' for k in range(1, 4))
    book = _book(tmp_path, f"<h1>THE MILL BOOK</h1><h2>CONTENTS</h2>{rows}<h2>FOREWORD FOR TEACHERS.</h2>{_PROSE}{body}")
    assert [c.title for c in book.chapters] == ["FOREWORD FOR TEACHERS.", "CHAPTER 1", "CHAPTER 2", "CHAPTER 3"]


def test_figures_set_as_headings_under_plates_are_no_chapters(tmp_path):
    # An atlas: each plate an <h2> (a label and a line) over its figures' captions set as <h3>.
    body = "".join(f"<h2>PLATE {p}.</h2>" + "".join(f"<h3>Fig. {3 * k + f}. A stone of the weir.</h3>{_PROSE}"
                                                     for f in (1, 2, 3))
                   for k, p in enumerate(("I", "II", "III")))
    titles = [c.title for c in _book(tmp_path, body).chapters]
    assert titles == ["PLATE I.", "PLATE II.", "PLATE III."]

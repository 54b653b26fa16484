"""Gutenberg HTML conventions (issue 32), continued: the front of a book (title page, half-title) and a
contents listing set in columns.

Each test names the convention, not a book; the HTML is invented."""
from __future__ import annotations

import pytest

from tests.book.test_gutenberg_html_unlisted import _PROSE, _book


def test_a_contents_table_set_in_columns_one_volume_a_column_is_read_column_by_column(tmp_path):
    # Row by row the links jump from the first volume to the second and back; column by column they run on.
    rows = '<tr><td><a href="#v1">Volume I</a></td><td><a href="#v2">Volume II</a></td></tr>' + "".join(
        f'<tr><td><a href="#a{k}">CHAPTER {k}</a></td><td><a href="#b{k}">CHAPTER {k}</a></td></tr>'
        for k in range(1, 4))
    # (Two paragraphs a chapter: a repeated title over a single line reads as a listing's echo.)
    text = _PROSE * 2
    body = ('<h2 id="v1">VOLUME I</h2>' + "".join(f'<h3 id="a{k}">CHAPTER {k}</h3>{text}' for k in range(1, 4))
            + '<h2 id="v2">VOLUME II</h2>' + "".join(f'<h3 id="b{k}">CHAPTER {k}</h3>{text}' for k in range(1, 4)))
    book = _book(tmp_path, f"<h2>CONTENTS</h2><table>{rows}</table>{body}")
    assert len(book.chapters) == 6
    assert [c.title for c in book.chapters][3].startswith("VOLUME II")


def test_a_contents_table_read_row_by_row_keeps_its_order(tmp_path):
    # Two entries a row that already run in order (chapter 1 | chapter 2, chapter 3 | chapter 4).
    rows = "".join(f'<tr><td><a href="#c{k}">CHAPTER {k}</a></td><td><a href="#c{k + 1}">CHAPTER {k + 1}</a></td></tr>'
                   for k in (1, 3, 5))
    body = "".join(f'<h2 id="c{k}">CHAPTER {k}</h2>{_PROSE}' for k in range(1, 7))
    book = _book(tmp_path, f"<h2>CONTENTS</h2><table>{rows}</table>{body}")
    assert [c.title for c in book.chapters] == [f"CHAPTER {k}" for k in range(1, 7)]


def test_a_half_title_listed_first_above_the_chapters_is_no_chapter(tmp_path):
    # The title page's title comes back over the text, a level above the chapters, and the contents lists it first.
    rows = '<p><a href="#t">THE LIFE OF ANN LEE</a></p>' + "".join(
        f'<p><a href="#c{k}">{n}</a></p>' for k, n in enumerate(("EARLY YEARS", "THE MILL", "LATER YEARS")))
    body = ('<h1 id="t">THE LIFE OF ANN LEE</h1><p>To her friends at the mill, this little book.</p>'
            + "".join(f'<h3 id="c{k}">{n}</h3>{_PROSE}' for k, n in enumerate(("EARLY YEARS", "THE MILL", "LATER YEARS"))))
    book = _book(tmp_path, f"<h1>THE LIFE OF ANN LEE</h1><h3>By Mary Holt</h3><h2>CONTENTS</h2>{rows}{body}")
    assert [c.title for c in book.chapters] == ["EARLY YEARS", "THE MILL", "LATER YEARS"]


def test_a_first_listed_piece_named_like_the_collection_but_at_the_pieces_level_stays_a_chapter(tmp_path):
    # A collection named after its first story: the story's heading is at the level of the others.
    names = ("THE WINTER LANTERN", "THE MILL", "THE FERRY")
    rows = "".join(f'<p><a href="#c{k}">{n}</a></p>' for k, n in enumerate(names))
    body = "".join(f'<h2 id="c{k}">{n}</h2>{_PROSE}' for k, n in enumerate(names))
    book = _book(tmp_path, f"<h1>THE WINTER LANTERN</h1><h2>CONTENTS</h2>{rows}{body}")
    assert [c.title for c in book.chapters] == list(names)


def _writers_rows() -> str:
    """Return a contents whose three entries each list a writer's pieces and pages (no heading's words)."""
    pieces = "The Mill, The Weir, The Ferry Crossing, The Lock Keeper, The Bridge at Evening, The Long Road Home, " * 2
    return "".join(f'<p><a href="#c{k}">WRITER {k}</a> {pieces}{k}0-{k}9</p>' for k in range(1, 4))


_IMPRINT = "<p>" + "Printed and sold by the Mill Press at the sign of the lantern, in the year of the flood. " * 4 + "</p>"


@pytest.mark.parametrize("front, per_writer, first", [
    # The compiler's name set as a heading over the imprint (more than a line or two), then the contents,
    # whose entries the reader cannot match to the headings (each lists a writer's pieces and pages).
    (f"{_IMPRINT}<h2>PREFACE.</h2>{_PROSE}", 4, "PREFACE."),
    # "TO MY READERS" is no preface by name, but a page and more of text stands under it.
    (f"<p>The Mill Press.</p><h2>TO MY READERS</h2>{_PROSE * 3}", 12, "TO MY READERS"),
], ids=["title-page-over-an-imprint", "a-preface-by-a-name-of-its-own"])
def test_headings_before_the_contents_are_the_title_pages_whatever_their_words(tmp_path, front, per_writer, first):
    body = "".join(f'<h2 id="c{k}">WRITER {k}.</h2>{_PROSE * per_writer}' for k in range(1, 4))
    book = _book(tmp_path, f"<h1>Stories of the Valley</h1><h2>MARY HOLT</h2>{front}"
                           f"<h2>CONTENTS.</h2>{_writers_rows()}{body}")
    titles = [c.title for c in book.chapters]
    assert "MARY HOLT" not in titles
    assert titles[0] == first


def test_headings_before_a_contents_at_the_back_keep_their_place(tmp_path):
    # A contents printed at the end of the book: what stands before it is the book, not its front.
    rows = _writers_rows()
    body = "".join(f'<h2 id="c{k}">THE {n} TALE</h2>{_PROSE}' for k, n in enumerate(("FIRST", "SECOND", "THIRD"), 1))
    book = _book(tmp_path, f"{body}<h2>CONTENTS.</h2>{rows}")
    assert [c.title for c in book.chapters][:3] == ["THE FIRST TALE", "THE SECOND TALE", "THE THIRD TALE"]


def test_an_introduction_set_above_the_chapters_level_is_a_chapter(tmp_path):
    # <h2> for the introduction, the list of the party and the part, <h3> for the dated chapters under it.
    days = "".join(f"<h3>MONDAY, MAY {d}TH.</h3>{_PROSE * 2}" for d in range(4, 16))
    body = (f"<h1>A Long Journey by Rail</h1><p>By the Secretary.</p><h2>INTRODUCTION.</h2>{_PROSE * 2}"
            f"<h2>LIST OF THE PARTY.</h2>{_PROSE * 2}<h2>The Journey West.</h2>{days}")
    book = _book(tmp_path, body)
    titles = [c.title for c in book.chapters]
    assert titles[:2] == ["INTRODUCTION.", "LIST OF THE PARTY."]
    assert len(titles) == 14 and "MAY 4TH" in titles[2]


def _parts(*mottos: str) -> str:
    return "".join(f"<h2>PART {n}.</h2>{motto}" + "".join(f"<h3>CHAPTER {n}.{r}.</h3>{_PROSE * 2}" for r in (1, 2, 3))
                   for n, motto in enumerate(mottos, 1))


def test_parts_over_their_chapters_are_announced_with_their_first_chapter(tmp_path):
    # Two parts each over three chapters: divided at the parts, the book would be two chapters.
    book = _book(tmp_path, _parts("<p>Slow rivers run deep.</p>", "<p>The mill wheel turns.</p>"))
    assert [c.title for c in book.chapters] == [
        "PART 1: CHAPTER 1.1.", "CHAPTER 1.2.", "CHAPTER 1.3.", "PART 2: CHAPTER 2.1.", "CHAPTER 2.2.", "CHAPTER 2.3."]
    # The part's motto is read after its announcement, before the chapter's text.
    assert book.chapters[0].paragraphs[1] == "Slow rivers run deep."


def test_chapters_with_text_before_their_sections_stay_the_chapters(tmp_path):
    # Each <h2> chapter opens with a page of text before its <h3> sections: the sections are no chapters.
    book = _book(tmp_path, _parts(*[_PROSE * 2] * 3))
    assert [c.title for c in book.chapters] == ["PART 1.", "PART 2.", "PART 3."]


def test_a_title_page_above_the_chapters_level_is_no_chapter(tmp_path):
    # The title over its imprint (a page of words, a publisher's list), set above the chapters' level,
    # before any heading that opens a text.
    imprint = "<p>" + "The Mill Press, Lantern Lane, for the Society of Readers, by subscription. " * 12 + "</p>"
    chapters = "".join(f"<h3>CHAPTER {r}.</h3>{_PROSE * 2}" for r in range(1, 7))
    book = _book(tmp_path, f"<h2>THE WINTER LANTERN</h2>{imprint}<h2>THE SOCIETY OF READERS</h2>{imprint}{chapters}")
    titles = [c.title for c in book.chapters]
    assert titles[-6:] == [f"CHAPTER {r}." for r in range(1, 7)]
    assert "THE WINTER LANTERN" not in titles


def test_a_chapter_set_at_the_wrong_level_still_follows_the_chapter_before_it(tmp_path):
    # The listing names the pieces; the second piece's chapters are unlisted <h3>, but its "CHAPTER IV."
    # was set as an <h2>, the pieces' level.
    names = ("THE MILL", "THE FERRY", "THE WEIR")
    rows = "".join(f'<p><a href="#p{k}">{n}</a></p>' for k, n in enumerate(names))
    chapters = "".join(f"<h{2 if r == 'IV' else 3}>CHAPTER {r}.</h{2 if r == 'IV' else 3}>{_PROSE * 2}"
                       for r in ("I", "II", "III", "IV"))
    body = (f'<h2 id="p0">THE MILL</h2>{_PROSE * 2}<h2 id="p1">THE FERRY</h2>{chapters}'
            f'<h2 id="p2">THE WEIR</h2>{_PROSE * 2}')
    book = _book(tmp_path, f"<h2>CONTENTS</h2>{rows}{body}")
    titles = [c.title for c in book.chapters]
    assert len(titles) == 6 and titles[4] == "CHAPTER IV."


def test_a_contents_of_long_synopses_is_not_read(tmp_path):
    # Each entry a chapter's synopsis of fifty words, linked at its page mark inside the text, under the
    # author's name set as a heading: too long for a listing's line, and naming no heading.
    synopsis = "The mill by night—A ferry in the fog—The keeper's lantern—" * 5
    rows = "".join(f'<p>{synopsis} <span class="content"><a href="#Page_{k}">{k}</a></span></p>' for k in range(1, 7))
    page = '<p><span class="pagenum"><a id="Page_{k}">[Pg {k}]</a></span></p>'
    body = "".join(f"<h3>BOOK {b}</h3>" + "".join(f"<h5>CHAPTER {k}</h5>{page.format(k=k)}{_PROSE * 4}"
                                                for k in range(3 * b - 2, 3 * b + 1)) for b in (1, 2))
    book = _book(tmp_path, f"<h1>The Winter Lantern</h1><h2>ANN LEE</h2><h4>CONTENTS</h4>{rows}{body}")
    assert [c.title for c in book.chapters] == ["BOOK 1: CHAPTER 1", "BOOK 2: CHAPTER 4"]
    assert not any("ferry in the fog" in p for c in book.chapters for p in c.paragraphs)


def test_a_first_piece_the_contents_names_before_it_is_read_under_its_title(tmp_path):
    # The title page is the first story's title: after the contents its text runs on with no heading of
    # its own, and the later pieces are headed. The first story is read, under the name the contents gives.
    pieces = "The Mill, The Weir, The Ferry Crossing, The Lock Keeper, The Bridge at Evening, The Long Road Home, " * 2
    rows = ('<p><a href="#s1">The Winter Lantern; Ann Lee; 5</a></p>'
            + "".join(f'<p><a href="#s{k}">WRITER {k}</a> {pieces}</p>' for k in (2, 3)))
    body = (f'<p id="s1"></p>{_PROSE * 6}'
            + "".join(f'<h2 id="s{k}">WRITER {k}.</h2>{_PROSE * 6}' for k in (2, 3)))
    book = _book(tmp_path, f"<h2>The Winter Lantern</h2><h3>Ann Lee</h3><h2>Contents</h2>{rows}{body}")
    titles = [c.title for c in book.chapters]
    assert titles == ["The Winter Lantern", "WRITER 2.", "WRITER 3."]


def test_a_pieces_title_page_over_its_first_chapter_is_announced_with_it(tmp_path):
    # A collection's last piece: its title, "OR", a second title, a by-line and the author's other works,
    # then its own "CHAPTER I" .. at the level of the pieces' titles.
    stories = "".join(f"<h2>THE {n} TALE</h2>{_PROSE * 3}" for n in ("FIRST", "SECOND", "THIRD"))
    piece = ("<h2>THE LANTERN BAND</h2><h4>OR</h4><h2>THE MILLER, THE FERRYMAN AND THE KEEPER</h2>"
             "<h4>BY A FRIEND OF THE MILL</h4><h5>Author of \"The Weir,\" \"The Lock,\" etc.</h5>"
             + "".join(f"<h2>CHAPTER {r}</h2>{_PROSE * 3}" for r in ("I", "II")))
    book = _book(tmp_path, stories + piece)
    titles = [c.title for c in book.chapters]
    assert titles[3:] == ["THE LANTERN BAND: CHAPTER I", "CHAPTER II"]
    assert book.chapters[3].paragraphs[1] == "OR"


def test_a_short_piece_before_a_first_chapter_with_text_of_its_own_stays_a_chapter(tmp_path):
    # A poem of sixty words is a piece of its own, even before a "CHAPTER I".
    poem = "<p>" + "The wheel turns slow, the water low, the miller sings. " * 6 + "</p>"
    body = (f"<h2>THE WHEEL</h2>{poem}" + "".join(f"<h2>CHAPTER {r}</h2>{_PROSE * 3}" for r in ("I", "II", "III")))
    book = _book(tmp_path, body)
    assert [c.title for c in book.chapters] == ["THE WHEEL", "CHAPTER I", "CHAPTER II", "CHAPTER III"]

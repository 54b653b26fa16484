"""Gutenberg HTML conventions (issue 32), continued: what opens a book before its first listed chapter, and
chapter labels set over their names.

Each test names the convention, not a book; the HTML is invented."""
from __future__ import annotations

from tests.book.test_gutenberg_html_unlisted import _PROSE, _book

_TALES = ("THE MILL", "THE WEIR", "THE FERRY", "THE LOCK", "THE BRIDGE")


def _contents() -> str:
    return "<h2>CONTENTS.</h2><table>" + "".join(
        f'<tr><td><a href="#t{k}">{name.title()}</a></td><td>{10 * k}</td></tr>' for k, name in enumerate(_TALES)) + "</table>"


def _tales() -> str:
    return "".join(f'<h2 id="t{k}">{name}.</h2>{_PROSE}' for k, name in enumerate(_TALES))


def test_an_unlisted_frame_story_after_the_contents_is_a_chapter(tmp_path):
    # The tales are listed; the story that frames them, set after the contents under a heading of its own
    # (often the book's title), is not: it is the book's text, not its title page, and must be read.
    book = _book(tmp_path, "<h1>TALES OF THE KETTLE</h1><h2>BY ANN LEE</h2>" + _contents()
                 + "<h2>TALES OF THE KETTLE.</h2>" + _PROSE * 3 + _tales())
    assert [c.title for c in book.chapters] == ["TALES OF THE KETTLE.", "THE MILL.", "THE WEIR.", "THE FERRY.", "THE LOCK.", "THE BRIDGE."]


def test_a_short_heading_after_the_contents_stays_front_matter(tmp_path):
    # A half-title or a motto after the contents is a line or two, no chapter.
    book = _book(tmp_path, "<h1>TALES OF THE KETTLE</h1>" + _contents() + "<h2>TALES OF THE KETTLE.</h2>"
                 + "<p>Sing, kettle, sing.</p>" + _tales())
    assert [c.title for c in book.chapters] == ["THE MILL.", "THE WEIR.", "THE FERRY.", "THE LOCK.", "THE BRIDGE."]


def test_a_preface_set_with_its_dedication_before_the_contents_is_read(tmp_path):
    # "PREFACE AND DEDICATION." opens the author's text as a preface does.
    book = _book(tmp_path, "<h1>TALES OF THE KETTLE</h1><h2>PREFACE AND DEDICATION.</h2>" + _PROSE
                 + _contents() + _tales())
    assert [c.title for c in book.chapters] == ["PREFACE AND DEDICATION.", "THE MILL.", "THE WEIR.", "THE FERRY.", "THE LOCK.", "THE BRIDGE."]


def test_a_chapter_label_over_its_name_keeps_its_number_when_an_appendix_repeats_it(tmp_path):
    # "CHAPTER I" set as a heading of its own over "The River", and an appendix whose notes are headed by the
    # chapters again ("CHAPTER I: NATURE"): the label names its chapter, no contents line to drop.
    names = ("The River", "The Hills", "The Town")
    chapters = "".join(f"<h2>CHAPTER {r}</h2><h2>{n}</h2>{_PROSE}" for r, n in zip(("I", "II", "III"), names))
    notes = "".join(f"<h2>CHAPTER {r}</h2><h2>{n.upper()} IN OLD RECORDS</h2>{_PROSE}" for r, n in zip(("I", "II", "III"), names))
    book = _book(tmp_path, "<h2>PREFACE</h2>" + _PROSE + chapters + "<h2>APPENDIX</h2>" + notes)
    titles = [c.title for c in book.chapters]
    assert titles[:4] == ["PREFACE", "CHAPTER I: The River", "CHAPTER II: The Hills", "CHAPTER III: The Town"], titles


def _titled(tmp_path, title: str, body: str):
    from app.book import load_book
    path = tmp_path / "book.html"
    path.write_text(f"<html><head><title>{title}</title></head><body>"
                    "<p>*** START OF THE PROJECT GUTENBERG EBOOK TESTS ***</p>"
                    f"{body}<p>*** END OF THE PROJECT GUTENBERG EBOOK TESTS ***</p></body></html>", encoding="utf-8")
    return load_book(path)


#: The publisher's catalogue an old edition binds in before its title page: titles, prices, press notices.
_CATALOGUE = "<p>RECENT PUBLICATIONS.</p>" + "".join(
    f"<p>Price {k}s. 6d., cloth,</p><p>THE {name} BOOK.</p><p>By the Author of “The Orchard.”</p>"
    "<p>“Quiet and kind, a story for every reader who loves the country and its slow seasons, told "
    "with a grace that does not tire from the first page to the last.”</p>"
    for k, name in enumerate(("GARDEN", "HERON", "LANTERN", "BARLEY", "CANDLE", "FIDDLE", "TIMBER", "WAGON", "KESTREL", "HARVEST",
                                "COTTAGE", "MEADOW")))


def test_a_publishers_catalogue_before_the_title_page_is_no_chapter(tmp_path):
    # A tale in one piece: its title page, then its text under its title again. The catalogue before the
    # title page, read as the text before the first heading, became a chapter of its own.
    book = _titled(tmp_path, "The Mill Stream", _CATALOGUE + "<h1>THE MILL STREAM.</h1><p>BY ANN LEE.</p>"
                   + "<h2>THE MILL STREAM.</h2>" + _PROSE * 3)
    assert [c.title for c in book.chapters] == ["THE MILL STREAM."]


def test_a_preface_in_prose_before_the_title_heading_is_still_read(tmp_path):
    chapters = "".join(f"<h2>CHAPTER {r}.</h2>{_PROSE}" for r in ("I", "II", "III"))
    book = _titled(tmp_path, "The Mill Stream", _PROSE * 3 + "<h1>THE MILL STREAM.</h1>" + chapters)
    assert sum(c.words for c in book.chapters) >= 6 * 120


def test_the_title_pages_headings_before_a_volumes_contents_are_no_chapters(tmp_path):
    # "CONTENTS OF VOL. V." heads the contents as "CONTENTS." does: the author's name set as a heading over the
    # imprint and dedication before it is the title page's, though the listing (page links to headings of
    # longer names) did not divide the book.
    names = ("THE WIND", "THE SNOW", "THE RAIN", "THE FROST")
    rows = "".join(f'<tr><td>{n}</td><td><a href="#Page_{5 * k + 1}">{5 * k + 1}</a></td></tr>' for k, n in enumerate(names))
    body = "".join(f'<p><span class="pagenum"><a name="Page_{5 * k + 1}">[{5 * k + 1}]</a></span></p>'
                   f"<h2>THE STORY OF {n}, TOLD BY ITSELF.</h2>{_PROSE}" for k, n in enumerate(names))
    front = ("<h1>WEATHER TALES:</h1><h3>THE THIRD VOLUME OF TALES.</h3><h2>ANN LEE,</h2>"
             "<p>THE AUTHOR OF “THE ORCHARD.” NEW YORK: MILL AND STREAM, 21 AND 23 RIVER STREET. 1863.</p>"
             "<p>Registered for copyright in the year 1861 by MILL AND STREAM, at the office of the court of the "
             "district where the firm keeps its presses. Printed and bound by the Mill Press, printers and "
             "binders, at the sign of the wheel, 50 Green Lane, by the river.</p>"
             "<p>TO MY AUNT, WHO TOLD THE FIRST OF THESE, THIS BOOK IS GIVEN.</p>")
    book = _book(tmp_path, front + "<h2>CONTENTS OF VOL. V.</h2><table>" + rows + "</table>" + body)
    assert [c.title for c in book.chapters] == [f"THE STORY OF {n}, TOLD BY ITSELF." for n in names]


def _toc_listing(entries: list[tuple[str, str]]) -> str:
    return "<h2>CONTENTS</h2><div>" + "".join(f"<p class='toc'><a href='#{t}'>{name}</a></p>" for t, name in entries) + "</div>"


def test_a_contents_entry_with_no_words_names_no_chapter(tmp_path):
    # A producer's listing sets a piece's poems as entries whose names were left out: each empty link points
    # at a poem's first line with no heading. They are the piece's text, not chapters with no name.
    pieces = ("THE MILL", "THE WEIR", "THE FERRY", "THE LOCK")
    entries = [("p0", "The Mill"), ("p1", "The Weir"), ("v1", ""), ("v2", ""), ("p2", "The Ferry"), ("p3", "The Lock")]
    body = ""
    for k, name in enumerate(pieces):
        body += f"<h2 id='p{k}'>{name}.</h2>{_PROSE}"
        if k == 1:
            body += "".join(f"<p id='v{j}'>Sing, river, sing of the mill and the weir.</p>{_PROSE}" for j in (1, 2))
    book = _book(tmp_path, _toc_listing(entries) + body)
    assert [c.title for c in book.chapters] == ["THE MILL.", "THE WEIR.", "THE FERRY.", "THE LOCK."]


def test_a_line_after_the_contents_pointing_at_the_transcribers_notes_names_matter(tmp_path):
    # "Transcriber's Notes are at the end of this book.": its link points at the notes' first line
    # (no heading); they are the producer's, no chapter titled by that sentence.
    entries = [(f"p{k}", name.title()) for k, name in enumerate(_TALES)]
    note = "<p><a href='#notes'>Transcriber’s Notes</a> are at the end of this book.</p>"
    body = _tales().replace("id=\"t", "id=\"p") + "<p><a id='notes'></a>Transcriber’s Notes:</p>" + _PROSE
    book = _book(tmp_path, _toc_listing(entries) + note + body)
    assert [c.title for c in book.chapters] == [f"{name}." for name in _TALES]


def test_two_poems_on_one_page_are_each_named_by_its_page_link(tmp_path):
    # "To the Weir ... 26" and "The Ferry Bell ... 26": the second poem begins lower on the page the first
    # begins on, many lines below the page's mark; its entry names it there, not the first poem again.
    poems = (("The Mill Race", 20), ("To the Weir", 26), ("The Ferry Bell", 26), ("The Lock Gate", 28), ("Evening", 30),
             ("The Heron", 32), ("Barley", 34), ("The Bridge", 36), ("Night", 38))
    rows = "".join(f'<tr><td>{name}</td><td><a href="#Page_{p}">{p}</a></td></tr>' for name, p in poems)
    stanza = "".join(f"<span>Line {n} of the river's song goes on and on,<br /></span>" for n in range(8))
    body, seen = "", set()
    for name, p in poems:
        if p not in seen:
            body += f'<p><span class="pagenum"><a name="Page_{p}">[Pg {p}]</a></span></p>'
            seen.add(p)
        body += f"<h2>{name}</h2><div class='poem'><div class='stanza'>{stanza}</div><div class='stanza'>{stanza}</div></div>"
    # (Where more than a fifth of the page links named no heading, the headings would divide the book instead.)
    book = _book(tmp_path, "<h2>CONTENTS</h2><table>" + rows + "</table>" + body)
    assert [c.title for c in book.chapters] == [name for name, _ in poems]


def test_an_unlisted_poem_after_the_contents_is_read(tmp_path):
    # A poem in memory of someone, set after the contents under its own heading and not listed: short lines,
    # but more than a half-title's motto. It is the book's, not its title page's.
    stanza = "".join(f"<span>The willows lean above the water, line {n},<br /></span>" for n in range(8))
    book = _book(tmp_path, "<h1>TALES OF THE KETTLE</h1>" + _contents() + "<h2>THE LAST VIOLET</h2>"
                 + "<div class='poem'>" + f"<div class='stanza'>{stanza}</div>" * 3 + "</div>" + _tales())
    assert [c.title for c in book.chapters] == ["THE LAST VIOLET", "THE MILL.", "THE WEIR.", "THE FERRY.", "THE LOCK.",
                                                "THE BRIDGE."]


def test_a_half_title_set_line_by_line_in_headings_adds_nothing_to_the_first_chapters_title(tmp_path):
    # "Some" / "Recollections of" / "the Old Mill", each an <h2>, over "I": the lines together are the book's
    # title, not a part's name to say with chapter I.
    chapters = "".join(f"<h2>{r}</h2>{_PROSE}" for r in ("I", "II", "III"))
    book = _titled(tmp_path, "Some Recollections of the Old Mill",
                   "<h2>Some</h2><h2>Recollections of</h2><h2>the Old Mill</h2>" + chapters)
    assert [c.title for c in book.chapters] == ["I", "II", "III"]


def test_a_page_link_names_its_heading_in_other_words(tmp_path):
    # The producer retyped the contents: "Later voyages of Ann B. Lee ... 58" for the heading "Later Voyage of
    # Ann Lee", set far down the page below another piece's end. The entry still names that heading.
    pieces = [("The First Voyage", "The First Voyage", 10), ("The Second Voyage", "The Second Voyage", 20),
              ("A Winter Ashore", "A Winter Ashore", 30), ("Later voyages of Ann B. Lee", "Later Voyage of Ann Lee", 40),
              ("The Last Harbour", "The Last Harbour", 50), ("Home Again", "Home Again", 60)]
    rows = "".join(f'<tr><td>{entry}</td><td><a href="#Page_{p}">{p}</a></td></tr>' for entry, _, p in pieces)
    body = ""
    for k, (_, heading, p) in enumerate(pieces):
        body += f'<p><span class="pagenum"><a name="Page_{p}">[Pg {p}]</a></span></p>'
        if k == 3:
            body += "".join(f"<p>The end of the winter's tale, line {n}.</p>" for n in range(8))
        body += f"<h3>{heading}</h3>{_PROSE}"
    book = _book(tmp_path, "<h2>CONTENTS</h2><table>" + rows + "</table>" + body)
    assert [c.title for c in book.chapters] == [heading for _, heading, _ in pieces]

"""Gutenberg HTML conventions (issue 32): the short pages before the first listed chapter that are the author's own
text under a name no preface has (a note to the readers, an edition's note, the author's acknowledgment), and the
publisher's priced list after the last one.

Each test names the convention, not a book; the HTML is invented."""
from __future__ import annotations

from tests.book.test_gutenberg_html_opening import _contents, _tales
from tests.book.test_gutenberg_html_unlisted import _PROSE, _book

_LISTED = ["THE MILL.", "THE WEIR.", "THE FERRY.", "THE LOCK.", "THE BRIDGE."]


def test_a_note_to_the_readers_by_any_name_after_the_contents_is_read(tmp_path):
    # "A Note to Travellers (and Others)": a page of the author's under a heading of its own, after the
    # contents, shorter than a preface usually is; it was left out with the title page's lines.
    book = _book(tmp_path, "<h1>TALES OF THE KETTLE</h1>" + _contents()
                 + "<h2>A Note to Travellers <br/> (and Others)</h2>" + _PROSE + _tales())
    assert [c.title for c in book.chapters] == ["A Note to Travellers (and Others)", *_LISTED]


def test_an_editions_note_and_preface_set_over_a_line_break_are_read(tmp_path):
    # "NOTE TO THIRD EDITION." and "PREFACE:" / "to the 1950 Edition" (one heading over a <br>) before the
    # contents: each an edition's own preface.
    book = _book(tmp_path, "<h1>TALES OF THE KETTLE</h1><h2>NOTE TO THIRD EDITION.</h2>" + _PROSE
                 + "<h2>PREFACE<br/>to the 1950 Edition</h2>" + _PROSE + _contents() + _tales())
    titles = [c.title for c in book.chapters]
    assert titles[0] == "NOTE TO THIRD EDITION.", titles
    assert titles[1].startswith("PREFACE") and titles[1].endswith("to the 1950 Edition"), titles
    assert titles[2:] == _LISTED


def test_the_authors_acknowledgment_before_the_listed_chapters_is_read(tmp_path):
    book = _book(tmp_path, "<h1>TALES OF THE KETTLE</h1>" + _contents() + "<h2>ACKNOWLEDGMENT.</h2>"
                 + "<p>The editor thanks the keepers of the county records for their patience and their kindness.</p>"
                 + _tales())
    assert [c.title for c in book.chapters] == ["ACKNOWLEDGMENT.", *_LISTED]


def test_a_note_to_a_chapter_before_the_listed_chapters_is_no_chapter_of_its_own(tmp_path):
    # A note that names a chapter or a page is the apparatus's, not a page addressed to the readers.
    book = _book(tmp_path, "<h1>TALES OF THE KETTLE</h1>" + _contents()
                 + "<h2>NOTE TO CHAPTER III.</h2><p>The ferry was rebuilt in a later year.</p>" + _tales())
    assert [c.title for c in book.chapters] == _LISTED



def test_acknowledgments_before_the_contents_stay_the_title_pages_verso(tmp_path):
    # Before the contents the thanks are the permissions on the title page's back (the publishers thanked), not
    # the author's text; after it (above) they are read.
    book = _book(tmp_path, "<h1>TALES OF THE KETTLE</h1><h2>ACKNOWLEDGMENTS</h2>"
                 + "<p>The poems are used by permission of the publishers, to whom thanks are given.</p>" + _contents() + _tales())
    assert [c.title for c in book.chapters] == _LISTED


def test_a_publishers_list_priced_net_without_a_sign_ends_the_book_as_back_matter(tmp_path):
    # "A LIST OF PLAYS" after the last scene, each title priced in a column of its own ("1.25 net", ".75 net"): the
    # publisher's pages, no chapter of the play.
    plays = "".join(f"<tr><td>The {name}</td><td>{price} net</td></tr>" for name, price in (
        ("Lantern", "$1.25"), ("Kestrel", ".75"), ("Barley Field", "1.25"), ("Candle", ".75"), ("Orchard Gate", "1.00"),
        ("Timber Yard", ".75"), ("Wagon", "1.25")))
    book = _book(tmp_path, "<h1>THE KETTLE</h1><h2>SCENE I</h2>" + _PROSE + "<h2>SCENE II</h2>" + _PROSE
                 + "<h2>A LIST OF PLAYS</h2><table>" + plays + "</table>")
    assert [c.title for c in book.chapters] == ["SCENE I", "SCENE II"]


def test_the_printers_errata_are_apparatus_never_read_as_a_chapter(tmp_path):
    # "ERRATA." after the last chapter: the printer's corrections ("Page 12, line 4, for mill read weir"), no text.
    book = _book(tmp_path, "<h1>THE KETTLE</h1><h2>CHAPTER I</h2>" + _PROSE + "<h2>CHAPTER II</h2>" + _PROSE
                 + "<h2>ERRATA.</h2><p>Page 12, line 4, for <i>mill</i> read <i>weir</i>.</p>"
                 + "<p>Page 31, line 9, for <i>ferry</i> read <i>lock</i>.</p>")
    assert [c.title for c in book.chapters] == ["CHAPTER I", "CHAPTER II"]

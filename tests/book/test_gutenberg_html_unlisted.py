"""Gutenberg HTML conventions (issue 32), continued: headings a contents listing leaves out, and title pages.

Each test names the convention, not a book; the HTML is invented."""
from __future__ import annotations

from tests.book.test_gutenberg_html_conventions import _book

_PROSE = "<p>" + "They walked on along the road and talked of many things until the evening came. " * 8 + "</p>"


def _listed(n: int) -> tuple[str, str]:
    rows = "".join(f'<p><a href="#c{k}">CHAPTER {k}</a></p>' for k in range(1, n + 1))
    body = "".join(f'<h2 id="c{k}">CHAPTER {k}</h2>{_PROSE}' for k in range(1, n + 1))
    return "<h2>CONTENTS</h2>" + rows, body


def test_an_unlisted_heading_after_the_last_listed_chapter_at_its_level_is_a_chapter(tmp_path):
    # A thesis lists its chapters, not the author's vita after them: read as the last chapter's text, the
    # vita would be announced as nothing and its words counted to the chapter before.
    listing, body = _listed(3)
    book = _book(tmp_path, listing + body + "<h2>VITA</h2>" + _PROSE)
    assert [c.title for c in book.chapters] == ["CHAPTER 1", "CHAPTER 2", "CHAPTER 3", "VITA"]


def test_the_chapters_of_a_last_piece_listed_at_its_picture_are_chapters(tmp_path):
    # The last entry's page opens on a picture and its caption; the piece's own chapters follow unlisted.
    pieces = (("The Mill", 1), ("The Weir", 5), ("The Ferry", 9), ("The Lock", 11), ("The Bridge", 12))
    rows = "".join(f'<p>{name} <a href="#page{p}">{p}</a></p>' for name, p in pieces + (("The Keeper's Book", 13),))
    body = "".join(f'<p><span class="pagenum"><a name="page{p}">{p}</a></span></p><h2>{name.upper()}</h2>{_PROSE}'
                   for name, p in pieces)
    body += ('<p><span class="pagenum"><a name="page13">13</a></span></p><p>The KEEPER\'S BOOK</p>'
             + "".join(f"<h2>CHAPTER {r}</h2>{_PROSE}" for r in ("I", "II", "III")))
    book = _book(tmp_path, "<h2>CONTENTS</h2>" + rows + body)
    titles = [c.title for c in book.chapters]
    assert titles[:5] == ["THE MILL", "THE WEIR", "THE FERRY", "THE LOCK", "THE BRIDGE"], titles
    assert [t for t in titles if t.startswith("CHAPTER")] == ["CHAPTER I", "CHAPTER II", "CHAPTER III"], titles


def test_after_a_listed_index_its_letter_headings_stay_the_indexs(tmp_path):
    listing, body = _listed(3)
    letters = "".join(f"<h2>{a}</h2>" + _PROSE for a in "ABC")
    book = _book(tmp_path, listing + '<p><a href="#ix">INDEX</a></p>' + body + '<h2 id="ix">INDEX</h2>' + letters)
    assert [c.title for c in book.chapters if c.title in "ABC"] == []


def test_a_short_unlisted_heading_after_the_last_chapter_stays_its_text(tmp_path):
    # "THE END" or a closing line set as a heading, with a few words under it, is no chapter.
    listing, body = _listed(3)
    book = _book(tmp_path, listing + body + "<h2>FINIS</h2><p>Printed at the mill press.</p>")
    assert [c.title for c in book.chapters] == ["CHAPTER 1", "CHAPTER 2", "CHAPTER 3"]


def test_a_publishers_list_after_the_last_chapter_and_the_books_it_offers_are_no_chapters(tmp_path):
    listing, body = _listed(3)
    book = _book(tmp_path, listing + body + "<h2>UNIFORM WITH THIS VOLUME.</h2>" + _PROSE
                 + "<h2>THE MILLER'S YEAR</h2>" + _PROSE + "<h2>GLOSSARY</h2>" + _PROSE)
    assert [c.title for c in book.chapters] == ["CHAPTER 1", "CHAPTER 2", "CHAPTER 3"]


def test_a_subtitle_heading_over_the_by_line_is_the_title_page_not_a_chapter(tmp_path):
    # Title, genre line, author's name and a transcriber's note, then the story's own headings.
    book = _book(tmp_path, "<h1>THE LOCK KEEPER</h1><h3>A Novelette of the Canals</h3><h2>by Ann Lee</h2>"
                 "<p>[Transcriber's Note: This text was produced from a magazine of 1950.]</p>"
                 + "".join(f"<h3>{n}</h3>{_PROSE}" for n in ("1", "2", "3")))
    assert [c.title for c in book.chapters] == ["1", "2", "3"]


def test_stories_over_their_authors_names_stay_chapters(tmp_path):
    # In a collection each story's title stands over its author's name, with the story under them.
    stories = "".join(f"<h2>{t}</h2><h3>By {a}</h3>{_PROSE}" for t, a in
                      (("THE MILL", "Ann Lee"), ("THE WEIR", "Tom Hay"), ("THE FERRY", "Jo Ash")))
    book = _book(tmp_path, "<h1>TALES OF THE RIVER</h1>" + stories)
    assert [c.title for c in book.chapters] == ["THE MILL", "THE WEIR", "THE FERRY"]

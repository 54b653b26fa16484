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

"""EPUB table-of-contents conventions (issue 32): sub-entries inside their parent's own file.

A chapter's sections listed under it stay in the chapter; an entry that is only a label over two or more
sub-entries in its file (an act's heading over its scenes, a story's title over its numbered parts) gives
way to them, the first announced with it. Each test names the convention; the books are invented."""
from __future__ import annotations

from app.book import load_book
from tests.book.test_structure import li, prose, titles, toc, write_epub


def _act(n: int, setting: str = "") -> str:
    scenes = "".join(f'<section id="act-{n}-scene-{k}"><h3>Scene {k}</h3>{prose(200)}</section>' for k in (1, 2))
    return f'<section id="act-{n}"><h2>Act {n}</h2>{setting}{scenes}</section>'


def _nav(*acts: int) -> str:
    return toc(*(li(f"act-{n}.xhtml", f"Act {n}", *(li(f"act-{n}.xhtml#act-{n}-scene-{k}", f"Scene {k}") for k in (1, 2)))
                 for n in acts))


def test_an_act_that_is_only_a_label_over_its_scenes_gives_way_to_them(tmp_path):
    pages = [(f"act-{n}.xhtml", "en", _act(n, "<p>A room in the mill.</p>")) for n in (1, 2)]
    book = load_book(write_epub(tmp_path / "play.epub", pages, _nav(1, 2)))
    assert titles(book) == ["Act 1: Scene 1", "Scene 2", "Act 2: Scene 1", "Scene 2"]
    assert "A room in the mill." in book.chapters[0].paragraphs


def test_a_chapter_with_text_of_its_own_keeps_its_listed_sections(tmp_path):
    pages = [(f"act-{n}.xhtml", "en", _act(n, prose(600))) for n in (1, 2)]
    book = load_book(write_epub(tmp_path / "essays.epub", pages, _nav(1, 2)))
    assert titles(book) == ["Act 1", "Act 2"]


def _chapter(n: int, sections: list[str]) -> str:
    # pandoc's layout of a technical book: the chapter's heading straight over its first section's heading.
    body = "".join(f'<section id="c{n}-s{k}"><h2>{name}</h2>{prose(200)}</section>' for k, name in enumerate(sections))
    return f'<section id="c{n}"><h1>Chapter title {n}</h1>{body}</section>'


def test_a_chapter_heading_straight_over_named_sections_keeps_them(tmp_path):
    sections = ["Getting Ready", "A First Try", "Upgrading to Version 4"]
    pages = [(f"c{n}.xhtml", "en", _chapter(n, sections)) for n in (1, 2)]
    nav = toc(*(li(f"c{n}.xhtml", f"Chapter title {n}",
                   *(li(f"c{n}.xhtml#c{n}-s{k}", name) for k, name in enumerate(sections))) for n in (1, 2)))
    book = load_book(write_epub(tmp_path / "manual.epub", pages, nav))
    assert titles(book) == ["Chapter title 1", "Chapter title 2"]
    assert sum(len(c.paragraphs) for c in book.chapters) >= 6

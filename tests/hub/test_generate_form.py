"""The Generate form offers what the CLI does: the picker's start folder, refusing non-books, chapters, title/author,
output, formats, no-cache; and one real Piper run whose output carries them (read back with ffprobe)."""
from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from textual.widgets import DirectoryTree

from app.hub.app import HubApp
from app.hub.book_choice import SOURCE_ROOT, browse_start, chapter_spec
from app.hub.generate import GenerateScreen
from app.hub.modals import FilePickModal
from app.hub.run_screen import RunScreen
from tests.hub.conftest import screen_text, wait_for
from tests.hub.layout import assert_in_view

pytestmark = pytest.mark.hub

THREE_CHAPTERS = ("# The Harbour\n\nThe boats came in at dawn.\n\n"
                  "# The Market\n\nFish were sold by the crate.\n\n"
                  "# The Lighthouse\n\nThe lamp turned all night long.\n")


@pytest.mark.parametrize(("selected", "spec"), [
    ([1, 2, 3, 4, 5], None), ([1, 2, 3], "1-3"), ([1, 3, 4, 5], "1,3-5"), ([2], "2"), ([5, 1, 2], "1-2,5"),
])
def test_the_chapter_choice_is_written_as_the_clis_spec(selected, spec):
    assert chapter_spec(selected, [1, 2, 3, 4, 5]) == spec


def test_the_browser_opens_outside_the_source_tree(tmp_path):
    home, books = tmp_path / "home", tmp_path / "books"
    home.mkdir(), books.mkdir()
    inside = SOURCE_ROOT / "samples"
    # Started from the checkout (it has .git): home, not the code.
    assert browse_start("", cwd=SOURCE_ROOT, home=home) == home
    # Started anywhere else: that folder.
    assert browse_start("", cwd=books, home=home) == books
    # Started from a folder below the checkout's root on purpose: there.
    assert browse_start("", cwd=inside, home=home) == inside
    # A book already in the field: its folder, unless that is inside the source tree and not the cwd.
    assert browse_start(str(books / "a.epub"), cwd=SOURCE_ROOT, home=home) == books
    assert browse_start(str(inside / "x.txt"), cwd=books, home=home) == books
    assert browse_start(str(tmp_path / "gone" / "a.epub"), cwd=books, home=home) == books


async def test_the_picker_starts_in_home_when_the_hub_runs_from_the_checkout(tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(SOURCE_ROOT)
    app = HubApp(setup_wizard=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("g", "ctrl+o")
        await wait_for(pilot, lambda: isinstance(app.screen, FilePickModal), what="the file picker")
        assert Path(app.screen.query_one(DirectoryTree).path) == home


async def test_a_file_the_tool_cannot_read_is_refused_where_it_is_picked(tmp_path, monkeypatch):
    (tmp_path / "a-scan.djvu").write_bytes(b"AT&TFORM")
    (tmp_path / "b-book.md").write_text(THREE_CHAPTERS)
    monkeypatch.chdir(tmp_path)
    app = HubApp(setup_wizard=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("g", "ctrl+o")
        await wait_for(pilot, lambda: isinstance(app.screen, FilePickModal), what="the file picker")
        picker = app.screen
        await pilot.press("down", "enter")  # the DjVu scan (sorted first)
        await pilot.pause()
        assert app.screen is picker, "the DjVu file was taken"
        line = str(picker.query_one("#filepick-error").render())
        assert "a-scan.djvu" in line and ".djvu is not a format this tool reads" in line and "EPUB" in line
        assert "\n" not in line.strip()
        assert_in_view(picker.query_one("#filepick-error"))  # at 80x24, under the tree
        await pilot.press("down", "enter")  # the Markdown book
        await wait_for(pilot, lambda: isinstance(app.screen, GenerateScreen), what="the picker to close")
        form = app.screen
        assert form.query_one("#book").value == str(tmp_path / "b-book.md")
        # The book is read at once: its chapters are offered, its title is the field's hint.
        await wait_for(pilot, lambda: form.chapter_numbers == [1, 2, 3], what="the chapter list")
        chooser = form.query_one("#chapter-choice")
        assert "The Lighthouse" in str(chooser.get_option_at_index(2).prompt) and chooser.selected == [1, 2, 3]
        assert not form.query_one("#book-error").display


async def test_a_typed_path_to_a_non_book_gets_one_line_in_the_form_and_start_refuses(tmp_path):
    scan = tmp_path / "notes.djvu"
    scan.write_bytes(b"AT&TFORM")
    app = HubApp(setup_wizard=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("g")
        await pilot.pause()
        form = app.screen
        form.query_one("#book").value = str(scan)
        await pilot.pause()
        error = form.query_one("#book-error")
        assert error.display and "notes.djvu: .djvu is not a format this tool reads" in str(error.render())
        assert_in_view(error)  # under the field, wrapped at 80 columns
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert app.screen is form  # no run started
        form.query_one("#book").value = ""
        await pilot.pause()
        assert not error.display


async def test_a_broken_book_is_refused_as_soon_as_it_is_chosen(tmp_path):
    """An .epub that is no EPUB: the reader's own line under the field, before any Start."""
    broken = tmp_path / "broken.epub"
    broken.write_bytes(b"not a zip")
    app = HubApp(setup_wizard=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("g")
        await pilot.pause()
        form = app.screen
        form.query_one("#book").value = str(broken)
        error = form.query_one("#book-error")
        await wait_for(pilot, lambda: error.display, what="the reader's verdict")
        assert "broken.epub is not a readable EPUB" in str(error.render())
        assert form.chapter_numbers == [] and not form.query_one("#chapter-choice").display
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert app.screen is form  # Start refuses what the form already knows it cannot read


async def test_the_form_builds_the_clis_request(tmp_path):
    book = tmp_path / "harbour.md"
    book.write_text(THREE_CHAPTERS)
    app = HubApp(setup_wizard=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("g")
        await pilot.pause()
        form = app.screen
        form.query_one("#book").value = str(book)
        await wait_for(pilot, lambda: form.chapter_numbers == [1, 2, 3], what="the chapter list")
        # What the output gets when the fields stay empty, shown as their hints.
        assert (form.query_one("#title").placeholder, form.query_one("#author").placeholder) == ("harbour", "Unknown")
        req = form.request()
        assert (req.chapters, req.title, req.author, req.output, req.no_cache) == (None, None, None, None, False)
        chooser = form.query_one("#chapter-choice")
        chooser.focus()
        chooser.highlighted = 1
        await pilot.press("space")  # chapter 2 off
        form.query_one("#title").value = "  Harbour Days "
        form.query_one("#author").value = "A. Keeper"
        form.query_one("#output").value = str(tmp_path / "out") + "/"
        form.query_one("#no-cache").focus()
        await pilot.press("space")
        req = form.request()
        assert req.chapters == "1,3"
        assert (req.title, req.author, req.no_cache) == ("Harbour Days", "A. Keeper", True)
        assert req.output == str(tmp_path / "out") + "/"  # a folder: the slash kept, as on the command line
        chooser.deselect_all()
        assert form.request() is None  # no chapter: the form says so instead of starting
        assert app.screen is form


async def test_the_form_offers_the_clis_library_options(tmp_path):
    """--series, --series-index, --narrator, --year and --library: typed in the form, the request the
    command line builds from the same words; a library and an output together are refused, as there."""
    from app.cli.entry import _request
    from app.cli.parser import build_convert_parser

    book = tmp_path / "harbour.md"
    book.write_text(THREE_CHAPTERS)
    shelf = tmp_path / "shelf"
    app = HubApp(setup_wizard=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("g")
        await pilot.pause()
        form = app.screen
        form.query_one("#book").value = str(book)
        await wait_for(pilot, lambda: form.chapter_numbers == [1, 2, 3], what="the chapter list")
        empty = form.request()
        assert (empty.series, empty.series_index, empty.narrator, empty.year, empty.library) == (None,) * 5
        for field, value in (("#series", " Harbour Tales "), ("#series-index", "2"), ("#narrator", "A. Reader"),
                             ("#year", "1911"), ("#library", str(shelf))):
            form.query_one(field).value = value
        req = form.request()
        cli = _request(build_convert_parser().parse_args(
            [str(book), "--series", "Harbour Tales", "--series-index", "2", "--narrator", "A. Reader",
             "--year", "1911", "--library", str(shelf)]))
        fields = ("series", "series_index", "narrator", "year", "library")
        assert [getattr(req, f) for f in fields] == [getattr(cli, f) for f in fields]
        assert req.library == shelf and req.series == "Harbour Tales"
        form.query_one("#output").value = str(tmp_path / "out.m4b")
        assert form.request() is None  # both a library and an output: the form says so instead of starting
        assert app.screen is form
        form.query_one("#output").value = ""
        assert form.request().library == shelf  # the library alone is taken again


@pytest.mark.slow
async def test_chosen_title_author_formats_and_chapters_reach_the_output(tmp_path):
    """End to end with Piper at 80x24: the form's choices, read back from the files with ffprobe."""
    book = tmp_path / "harbour.md"
    book.write_text(THREE_CHAPTERS)
    target = tmp_path / "shelf" / "Harbour Days.m4b"
    app = HubApp(setup_wizard=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("g")
        await pilot.pause()
        form = app.screen
        form.query_one("#book").value = str(book)
        await wait_for(pilot, lambda: form.chapter_numbers == [1, 2, 3], what="the chapter list")
        formats = form.query_one("#format")
        formats.deselect_all()
        formats.select("m4b")
        formats.select("vtt")
        form.query_one("#chapter-choice").deselect(2)
        form.query_one("#title").value = "Harbour Days"
        form.query_one("#author").value = "A. Keeper"
        form.query_one("#output").value = str(target)
        await pilot.press("ctrl+r")
        await pilot.pause()
        run = app.screen
        assert isinstance(run, RunScreen)
        await wait_for(pilot, lambda: run.outcome, timeout=120, what="the Piper run")
        assert run.outcome == "done", screen_text(app)
        # The live view at 80x24: its parts in view, the outcome said, the work forgotten.
        for part in ("#status", "#stats", "#chapters", "#log", "#cancel", "#again", "#back"):
            assert_in_view(run.query_one(part))
        text = screen_text(app)
        assert "Done:" in text and re.search(r"chunks (\d+)/\1", text)
        table = run.query_one("#chapters")
        assert table.row_count == 2 and all("done" in table.get_row_at(i) for i in range(2))
        assert app.tasks == {}
    assert run.output == target
    probe = json.loads(subprocess.run(
        ["ffprobe", "-v", "error", "-show_chapters", "-show_format", "-of", "json", str(target)],
        capture_output=True, text=True, check=True, timeout=60).stdout)
    tags = {k.lower(): v for k, v in probe["format"].get("tags", {}).items()}
    assert tags.get("title") == "Harbour Days"
    assert tags.get("artist") == "A. Keeper" or tags.get("album_artist") == "A. Keeper"
    assert [c["tags"]["title"] for c in probe["chapters"]] == ["The Harbour", "The Lighthouse"]
    captions = target.with_suffix(".vtt")
    assert captions.read_text().startswith("WEBVTT")
    assert not target.with_suffix(".epub").exists() and not target.with_suffix(".srt").exists()

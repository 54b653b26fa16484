"""Each new format converts from the CLI (real Piper, real ffmpeg; chapters read back with ffprobe) and the hub."""
from __future__ import annotations

import shutil
import subprocess

import pytest
from textual.widgets import DirectoryTree

from tests.formats.twins import sample
from tests.media import read_chapters
from tests.pipeline.helpers import CHAPTERS


def _pandoc_book(tmp_path, fmt: str):
    if not shutil.which("pandoc"):
        pytest.skip("the small DOCX/FB2 books are made with Debian's pandoc")
    md = tmp_path / "voyage.md"
    md.write_text("".join(f"# {title}\n\n{text}\n\n" for title, text in CHAPTERS.items()), encoding="utf-8")
    out = tmp_path / f"voyage.{fmt}"
    subprocess.run(["pandoc", str(md), "-o", str(out), "--metadata", "title=The Voyage"], check=True, timeout=120)
    return out


@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["docx", "odt", "fb2"])
def test_a_pandoc_made_book_becomes_an_m4b_with_its_chapters(tmp_path, run_cli, fmt):
    book = _pandoc_book(tmp_path, fmt)
    out = tmp_path / "voyage.m4b"
    result = run_cli(book, "--output", out, "--chunk-size", "8")
    assert result.returncode == 0, result.stderr
    assert [title for title, _, _ in read_chapters(out)] == list(CHAPTERS)


@pytest.mark.slow
def test_a_pdf_becomes_an_m4b(tmp_path, run_cli):
    out = tmp_path / "trivial.m4b"
    result = run_cli(sample("002-trivial-libre-office-writer.pdf"), "--output", out)
    assert result.returncode == 0, result.stderr
    chapters = read_chapters(out)
    assert len(chapters) == 1 and chapters[0][2] - chapters[0][1] > 20  # ~100 words of Lorem ipsum


def test_a_kindle_book_lists_its_chapters_and_nothing_else_on_stdout(run_cli):
    from app.book import load_book

    mobi = sample("demo.mobi")
    result = run_cli(mobi, "--list-chapters")
    assert result.returncode == 0, result.stderr
    book = load_book(mobi)
    lines = result.stdout.splitlines()
    assert lines[0].startswith(book.title)
    listed = [ln for ln in lines if ln[:5].strip().isdigit()]
    assert len(listed) == len(book.chapters) and book.chapters[1].title in listed[1]
    # KindleUnpack prints as it unpacks; none of it may reach stdout, which scripts read.
    assert not any(word in result.stdout for word in ("Unpacking", "Processing", "Info:", "mobi8"))


@pytest.mark.hub
async def test_the_hubs_browser_takes_a_pdf_and_offers_its_outline_chapters(tmp_path, monkeypatch):
    from app.hub.app import HubApp
    from app.hub.generate import GenerateScreen
    from app.hub.modals import FilePickModal
    from tests.hub.conftest import wait_for

    shutil.copy(sample("pdflatex-outline.pdf"), tmp_path / "outline.pdf")
    monkeypatch.chdir(tmp_path)
    app = HubApp(setup_wizard=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("g", "ctrl+o")
        await wait_for(pilot, lambda: isinstance(app.screen, FilePickModal), what="the file picker")
        assert app.screen.query_one(DirectoryTree)
        await pilot.press("down", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, GenerateScreen), what="the picker to close")
        form = app.screen
        assert form.query_one("#book").value == str(tmp_path / "outline.pdf")
        await wait_for(pilot, lambda: form.chapter_numbers == list(range(1, 10)), what="the PDF's chapters")
        assert not form.query_one("#book-error").display

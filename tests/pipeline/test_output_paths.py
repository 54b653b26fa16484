"""The user's files are safe (issues 11 and 17): each output-path case as a real CLI run with Piper.

Formats and chapter lists are read back with ffprobe, an independent reader.
"""
from __future__ import annotations

import json
import subprocess

import pytest

from tests.pipeline.helpers import write_txt_book

from .test_bad_input import _one_error_line

ROOT = __import__("pathlib").Path(__file__).resolve().parents[2]
SMALL = {"Dawn": "The boat left at dawn.", "Noon": "The sky turned grey.", "Dusk": "They came home."}
TITLE = "Sail"



def probe(path) -> dict:
    out = subprocess.run(["ffprobe", "-v", "error", "-show_chapters", "-show_streams", "-of", "json", str(path)],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def small_book(tmp_path):
    return write_txt_book(tmp_path, SMALL, name="sail.txt")


def no_chunks_rendered(home) -> bool:
    return not list((home / "cache" / "chunks").rglob("*.wav")) if (home / "cache").exists() else True


@pytest.mark.slow
def test_a_partial_run_names_its_selection_and_never_replaces_the_whole_book(tmp_path, run_cli, isolated_home):
    book = small_book(tmp_path)
    assert run_cli(book, "--title", TITLE).returncode == 0
    whole = isolated_home / "output" / f"{TITLE}.m4b"
    before = whole.read_bytes()
    result = run_cli(book, "--title", TITLE, "--chapters", "2-3")
    assert result.returncode == 0, result.stderr
    partial = isolated_home / "output" / f"{TITLE} (chapters 2-3).m4b"
    assert partial.exists(), sorted(p.name for p in (isolated_home / "output").iterdir())
    assert whole.read_bytes() == before, "the complete book is untouched"
    assert len(probe(whole)["chapters"]) == 3 and len(probe(partial)["chapters"]) == 2


@pytest.mark.slow
def test_mp3_files_are_numbered_by_the_books_chapter_numbers_and_the_suffix_decides_the_format(
        tmp_path, run_cli, isolated_home):
    book = small_book(tmp_path)
    result = run_cli(book, "--title", TITLE, "--chapters", "3", "--output", tmp_path / "x.mp3")
    assert result.returncode == 0, result.stderr
    files = sorted((tmp_path / "x").iterdir())
    assert [f.name for f in files] == ["03 - Chapter 3 Dusk.mp3"], files
    assert probe(files[0])["streams"][0]["codec_name"] == "mp3", "MP3 data under the .mp3 name"


def test_a_path_ending_in_slash_is_a_folder_created_if_missing(tmp_path, run_cli):
    book = small_book(tmp_path)
    result = run_cli(book, "--title", TITLE, "--chapters", "1", "--output", f"{tmp_path / 'newdir'}/")
    assert result.returncode == 0, result.stderr
    out = tmp_path / "newdir" / f"{TITLE} (chapter 1).m4b"
    assert out.is_file() and probe(out)["streams"][0]["codec_name"] == "aac"
    assert not (tmp_path / "newdir.m4b").exists()


@pytest.mark.parametrize("args,words", [
    (("--output", "y.m4b", "--format", "mp3"), ("M4B", "mp3")),
    (("--output", "y.txt"), (".m4b", ".txt")),
], ids=["suffix-contradicts-format", "non-audio-suffix"])
def test_an_output_name_that_contradicts_its_format_is_an_error_naming_both(args, words, tmp_path, run_cli,
                                                                            isolated_home):
    book = small_book(tmp_path)
    result = run_cli(book, *[tmp_path / a if a.startswith("y.") else a for a in args])
    assert result.returncode == 2, result.stderr
    line = _one_error_line(result)
    assert all(w in line for w in words), line
    assert not (tmp_path / "y.m4b").exists() and not (tmp_path / "y.txt").exists()
    assert no_chunks_rendered(isolated_home)


def test_output_never_replaces_the_book_or_a_file_that_is_not_audio(tmp_path, run_cli, isolated_home):
    book = small_book(tmp_path)
    text = book.read_bytes()
    result = run_cli(book, "--output", book)
    assert result.returncode == 2 and "the book itself" in _one_error_line(result)
    notes = tmp_path / "notes.m4b"
    notes.write_text("my notes, not audio")
    result = run_cli(book, "--output", notes)
    assert result.returncode == 2 and "is not M4B audio" in _one_error_line(result)
    assert book.read_bytes() == text and notes.read_text() == "my notes, not audio"
    assert no_chunks_rendered(isolated_home)


def test_an_unwritable_output_location_fails_before_anything_is_synthesized(tmp_path, run_cli, isolated_home):
    book = small_book(tmp_path)
    result = run_cli(book, "--output", "/sys/kernel/x.m4b")
    assert result.returncode == 3, result.stderr
    line = _one_error_line(result)
    assert "/sys/kernel" in line and "This is a bug" not in line
    assert no_chunks_rendered(isolated_home), "nothing was synthesized for a location that cannot be written"


def test_a_closed_stdout_ends_quietly(tmp_path, app_python):
    book = write_txt_book(tmp_path, {f"Part {i}": "Words here." for i in range(3000)}, name="long.txt")
    lister = subprocess.Popen([app_python, str(ROOT / "audiobook.py"), str(book), "--list-chapters"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    head = subprocess.run(["head", "-1"], stdin=lister.stdout, capture_output=True, text=True)
    lister.stdout.close()
    _, err = lister.communicate(timeout=60)
    assert head.stdout.startswith("Chapter 1: Part 0"), head.stdout  # the listing's first line, then quiet
    assert err.decode() == "" and lister.returncode == 0

"""Bad input: one clear line, a non-zero exit, no traceback, nothing lost."""
from __future__ import annotations


from tests.pipeline.helpers import write_txt_book


def _one_error_line(result) -> str:
    lines = [l for l in result.stderr.splitlines() if l.startswith("error:")]
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    return lines[0]


def test_missing_book(tmp_path, run_cli):
    result = run_cli(tmp_path / "nope.epub")
    assert result.returncode == 2
    assert "nope.epub" in _one_error_line(result)


def test_unsupported_format_names_the_supported_ones(tmp_path, run_cli):
    djvu = tmp_path / "book.djvu"
    djvu.write_bytes(b"AT&TFORM")
    result = run_cli(djvu)
    assert result.returncode == 2
    line = _one_error_line(result)
    assert ".epub" in line and ".txt" in line


def test_corrupt_epub(tmp_path, run_cli):
    bad = tmp_path / "broken.epub"
    bad.write_bytes(b"PK\x03\x04 this is not really a zip file")
    result = run_cli(bad)
    assert result.returncode == 2
    assert "broken.epub" in _one_error_line(result)


def test_book_with_no_text(tmp_path, run_cli):
    empty = tmp_path / "empty.txt"
    empty.write_text("   \n\n\t\n")
    result = run_cli(empty)
    assert result.returncode == 2
    _one_error_line(result)


def test_unwritable_output(tmp_path, run_cli):
    book = write_txt_book(tmp_path)
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    result = run_cli(book, "--output", blocker / "sub" / "out.m4b")
    assert result.returncode == 3
    assert "output" in _one_error_line(result).lower()


def test_debug_variable_shows_the_traceback(tmp_path, run_cli):
    result = run_cli(tmp_path / "nope.txt", env={"AUDIOBOOK_DEBUG": "1"})
    assert result.returncode != 0
    assert "Traceback" in result.stderr


def test_unknown_backend_lists_valid_ones(tmp_path, run_cli):
    book = write_txt_book(tmp_path)
    result = run_cli(book, "--backend", "espeak")
    assert result.returncode == 2
    line = _one_error_line(result)
    assert "piper" in line and "sglomni" in line


def test_bad_chapter_spec(tmp_path, run_cli):
    book = write_txt_book(tmp_path)
    result = run_cli(book, "--chapters", "9-12")
    assert result.returncode == 2
    _one_error_line(result)


def test_list_chapters_prints_index_title_words(tmp_path, run_cli):
    book = write_txt_book(tmp_path)
    result = run_cli(book, "--list-chapters")
    assert result.returncode == 0, result.stderr
    # Each chapter: "  N  Title  (W words)", then its first words, indented.
    lines = result.stdout.splitlines()[1:]
    rows = [line.split() for line in lines[0::2]]
    assert [r[0] for r in rows] == ["1", "2", "3"]
    assert all(line.startswith("      ") and line.strip() for line in lines[1::2])
    assert "Harbour" in result.stdout and "words)" in result.stdout


def test_second_run_of_the_same_book_refuses_while_first_holds_the_lock(tmp_path, run_cli, isolated_home):
    from app.pipeline import runlock

    book = write_txt_book(tmp_path)
    with runlock.hold(book, tmp_path / "other.m4b"):  # the book's lock, held here as a first run would
        result = run_cli(book, "--output", tmp_path / "x.m4b")
    assert result.returncode == 5
    assert "Another run" in _one_error_line(result)

"""--chapters specs."""
from __future__ import annotations

from pathlib import Path

import pytest

from app.book import select_chapters
from app.book.model import Book, Chapter
from app.core.errors import InputError

BOOK = Book("B", "A", tuple(Chapter(i, f"C{i}", (f"Text {i}.",)) for i in range(1, 11)), Path("b.txt"))


@pytest.mark.parametrize("spec,indices", [
    ("3-5,9", [3, 4, 5, 9]), ("9,3-5", [3, 4, 5, 9]), ("2", [2]), ("8-", [8, 9, 10]), ("-2", [1, 2]),
    (" 1 - 2 , 2 ", [1, 2]), ("10", [10]),
])
def test_specs_select_in_book_order_keeping_indices(spec, indices):
    picked = select_chapters(BOOK, spec)
    assert [c.index for c in picked.chapters] == indices
    assert [c.title for c in picked.chapters] == [f"C{i}" for i in indices]
    assert picked.title == BOOK.title


@pytest.mark.parametrize("spec,words", [
    ("11", "chapter 11 does not exist; the book has 10 chapters"), ("0", "numbered from 1"),
    ("5-3", "runs backwards"), ("a", "cannot read 'a'"), ("", "empty"), ("1,,2", "cannot read ''"),
    ("3-12", "chapter 12 does not exist"), ("-", "cannot read"),
])
def test_bad_specs_raise_input_error_with_a_clear_line(spec, words):
    with pytest.raises(InputError) as exc:
        select_chapters(BOOK, spec)
    assert words in exc.value.one_line() and "--list-chapters" in exc.value.one_line()

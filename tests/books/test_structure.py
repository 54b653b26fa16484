"""Real books of every generator in the corpus: chapters as their own TOC says, no boilerplate spoken."""
from __future__ import annotations

import functools

import pytest

from app.book import Book, ReadOptions, load_book
from tests.books.corpus import BOOKS, expected_titles, fetch, title_key

KEYS = sorted(BOOKS)


@functools.lru_cache(maxsize=None)
def _load(key: str, include_matter: bool = False) -> Book:
    return load_book(fetch(BOOKS[key]), options=ReadOptions(include_matter=include_matter))


@pytest.mark.parametrize("key", KEYS)
def test_chapters_and_titles_match_the_books_own_toc(key):
    book = BOOKS[key]
    expected = expected_titles(book, fetch(book))
    assert len(expected) >= 3, expected  # the independent TOC reader found the TOC
    assert [title_key(c.title) for c in _load(key).chapters] == [title_key(t) for t in expected]


@pytest.mark.parametrize("key", KEYS)
def test_no_boilerplate_of_the_generator_is_spoken(key):
    spoken = [p for c in _load(key).chapters for p in c.paragraphs]
    text = "\n".join(spoken)
    for marker in BOOKS[key].boilerplate:
        assert marker not in text, f"{BOOKS[key].generator}: {marker!r} is read aloud"
    assert not [p for p in spoken if p.startswith(("* ", "\u2022"))], "list bullets read as symbols"


@pytest.mark.parametrize("key", KEYS)
def test_title_and_author_are_the_books_not_a_file_name_or_address(key):
    loaded, path = _load(key), fetch(BOOKS[key])
    assert loaded.title and loaded.title != path.stem and "@" not in loaded.title
    assert "@" not in loaded.author


@pytest.mark.parametrize("key", [k for k in KEYS if BOOKS[k].matter])
def test_matter_comes_back_with_include_matter(key):
    with_matter = [title_key(c.title) for c in _load(key, True).chapters]
    for title in BOOKS[key].matter:
        assert title_key(title) in with_matter
        assert title_key(title) not in [title_key(c.title) for c in _load(key).chapters]

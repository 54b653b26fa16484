"""Fiction read right, structurally: chapters as the book's own contents, no Gutenberg boilerplate spoken,
title and author the book's. Each expectation is read independently (tests/literature/corpus.py)."""
from __future__ import annotations

import functools
import re

import pytest

from app.book import Book, ReadOptions, load_book
from app.book.narration.cleanup import CODE_MENTION
from tests.literature.corpus import (
    GUTENBERG_BOILERPLATE, SE_BOILERPLATE, TITLES, contents_agree, epub_metadata, expected_contents, gutenberg_header, require_corpus,
    words,
)

KEYS = {t.key: t for t in TITLES}


@pytest.fixture(autouse=True)
def _corpus():
    require_corpus()


@functools.lru_cache(maxsize=None)
def _load(key: str, include_matter: bool = False) -> Book:
    return load_book(KEYS[key].file, options=ReadOptions(include_matter=include_matter))


@pytest.mark.parametrize("key", sorted(KEYS))
def test_chapters_are_the_books_own_contents(key):
    expected = expected_contents(KEYS[key])
    assert len(expected) >= 3, expected  # the independent reader found the contents
    got = [c.title for c in _load(key).chapters]
    if KEYS[key].file.suffix == ".epub":
        assert [words(t) for t in got] == [words(t) for t in expected]
        return
    assert contents_agree(got, expected) == []


@pytest.mark.parametrize("key", sorted(KEYS))
def test_no_boilerplate_is_spoken(key):
    spoken = "\n".join(p for c in _load(key).chapters for p in c.paragraphs)
    for marker in GUTENBERG_BOILERPLATE + SE_BOILERPLATE:
        assert marker not in spoken, f"{marker!r} is read aloud"
    assert CODE_MENTION not in spoken, "fiction has no code examples"


@pytest.mark.parametrize("key", sorted(KEYS))
def test_title_and_author_are_the_books(key):
    book, path = _load(key), KEYS[key].file
    title, author = epub_metadata(path) if path.suffix == ".epub" else gutenberg_header(path.with_suffix(".txt"))
    assert (book.title, book.author) == (title, author)
    assert "Gutenberg" not in book.title and book.author != "Unknown"


@pytest.mark.parametrize("key", sorted(k for k in KEYS if KEYS[k].source == "gutenberg"))
def test_include_matter_brings_the_header_and_licence_back(key):
    spoken = "\n".join(p for c in _load(key, True).chapters for p in c.paragraphs)
    assert "Project Gutenberg" in spoken and re.search(r"(?i)full\s+licen[cs]e|Project Gutenberg-tm", spoken)

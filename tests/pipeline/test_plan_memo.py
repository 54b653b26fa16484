"""The plan memo: a re-run plans only the chapters that changed, and its plan is the one planning would make."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.book import load_book
from app.book.spoken import Speaker
from app.pipeline.plan import make_plan
from app.pipeline.planmemo import PlanMemo
from tests.pipeline.helpers import write_txt_book

# Numbers, dates and money: the spoken form differs from the text, so a memo that kept the
# written text instead of the spoken one would show.
CHAPTERS = {
    "Arrival": "On 3 May 1921 the ship docked. It carried 1,250 crates worth $3.50 each.",
    "The Market": "Dr. Lee sold 12 of them by noon. The rest went north on the 2nd train.",
    "Home": "They were back by 14:30. Nobody counted the 7 gulls on the roof.",
}


class CountingSpeaker(Speaker):
    """A real Speaker that counts the paragraphs it puts in spoken form."""

    calls = 0

    def __call__(self, text: str) -> str:
        self.calls += 1
        return super().__call__(text)


def plan(book, memo: PlanMemo | None, speaker: Speaker | None = None, chunk_size: int = 8):
    speaker = speaker or CountingSpeaker(book.language, hints=book.lexicon)
    return make_plan(book, {"voice": "x"}, chunk_size=chunk_size, fmt="m4b", output=Path("out.m4b"),
                     speaker=speaker, memo=memo), speaker


@pytest.fixture
def book(tmp_path):
    return load_book(write_txt_book(tmp_path, CHAPTERS))


def test_a_remembered_plan_is_the_plan_and_speaks_nothing(book, tmp_path):
    fresh, _ = plan(book, None)
    memo_file = tmp_path / "memo.json"
    first, spoke = plan(book, PlanMemo(memo_file))
    assert spoke.calls > 0 and memo_file.is_file()
    again, silent = plan(book, PlanMemo(memo_file))
    assert again == first == fresh
    assert silent.calls == 0
    assert "twelve" in " ".join(pc.text for pc in again.chunks)  # the spoken form, not "12"


def test_an_edited_chapter_alone_is_planned_again(book, tmp_path):
    memo_file = tmp_path / "memo.json"
    plan(book, PlanMemo(memo_file))
    edited = load_book(write_txt_book(tmp_path, {**CHAPTERS, "The Market": "Dr. Lee sold 13 of them by noon."},
                                      name="edited.txt"))
    replanned, speaker = plan(edited, PlanMemo(memo_file))
    assert speaker.calls == len(edited.chapters[1].paragraphs)  # the edited chapter's heading and text only
    assert replanned == plan(edited, None)[0]
    assert len(json.loads(memo_file.read_text())["chapters"]) == len(CHAPTERS)  # the old entry is dropped


@pytest.mark.parametrize("change", ["chunk size", "lexicon", "language"])
def test_other_settings_plan_again(book, tmp_path, change):
    memo_file = tmp_path / "memo.json"
    plan(book, PlanMemo(memo_file))
    if change == "chunk size":
        replanned, speaker = plan(book, PlanMemo(memo_file), chunk_size=5)
    else:
        other = (CountingSpeaker(book.language, {"gulls": "seagulls"}, hints=book.lexicon) if change == "lexicon"
                 else CountingSpeaker("de", hints=book.lexicon))
        replanned, speaker = plan(book, PlanMemo(memo_file), speaker=other)
    assert speaker.calls > 0


def test_a_damaged_memo_is_no_memo(book, tmp_path):
    memo_file = tmp_path / "memo.json"
    plan(book, PlanMemo(memo_file))
    data = json.loads(memo_file.read_text())
    for entry in data["chapters"].values():
        entry["chunks"] = [["text", "not a pause"]]
    memo_file.write_text(json.dumps(data))
    replanned, speaker = plan(book, PlanMemo(memo_file))
    assert speaker.calls > 0 and replanned == plan(book, None)[0]
    memo_file.write_text("[1, 2")
    assert plan(book, PlanMemo(memo_file))[0] == replanned

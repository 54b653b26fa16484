"""--cast-llm: the quotations the rules leave unsure, asked of a model behind the real chat protocol."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from app.core import proc
from app.core.http import probe_json
from tests.sglomni.conftest import free_port

HERE = Path(__file__).resolve().parent

#: A line with no tag and no name near it: no rule can be sure who says it.
BOOK = """The Watch

Chapter One

The night was cold on the wall.

"Is anyone out there in the dark?"

Nobody answered for a long while.

"Only the wind," said Whitcombe.
"""


@pytest.fixture
def llm(tmp_path):
    started = []

    def start(answers: dict, mode: str = "json") -> str:
        port = free_port()
        env = {**os.environ, "LLM_DOUBLE_ANSWERS": json.dumps(answers), "LLM_DOUBLE_MODE": mode,
               "LLM_DOUBLE_RECORD": str(tmp_path / "chats.jsonl")}
        p = proc.spawn([sys.executable, str(HERE / "llm_double.py"), str(port)], env=env,
                       stdout=subprocess.DEVNULL, new_session=True)
        started.append(p)
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 15
        while probe_json(url, "/v1/models", timeout=1) is None:
            assert p.poll() is None and time.monotonic() < deadline, "the LLM double did not come up"
            time.sleep(0.05)
        return url

    yield start
    for p in started:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        p.wait(5)


def chats(tmp_path) -> list[dict]:
    path = tmp_path / "chats.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def export(run_cli, book, out, *extra):
    done = run_cli(book, "--export-cast", out, *extra)
    assert done.returncode == 0, done.stderr
    return json.loads(out.read_text(encoding="utf-8"))


def test_the_model_answers_unsure_lines_once_and_only_with_listed_characters(run_cli, tmp_path, llm):
    book = tmp_path / "watch.txt"
    book.write_text(BOOK, encoding="utf-8")
    url = llm({"anyone out there": "Whitcombe", "Only the wind": "Mortlake"})
    found = export(run_cli, book, tmp_path / "a.json", "--cast-llm", url)
    asked = chats(tmp_path)
    assert asked and asked[0]["model"] == "tiny-llm"  # the model /v1/models reports
    prompt = asked[0]["messages"][-1]["content"]
    assert "- Whitcombe" in prompt and "|" in prompt
    quotes = {q["text"]: q for q in found["quotes"]}
    assert quotes["Is anyone out there in the dark?"]["speaker"] == "Whitcombe"
    assert quotes["Is anyone out there in the dark?"]["method"] == "llm"
    # "Mortlake" is no character of the book: the rules' answer stands.
    assert quotes["Only the wind,"]["speaker"] == "Whitcombe" and quotes["Only the wind,"]["method"] != "llm"
    # Asked once: a second run takes the cached answers.
    again = export(run_cli, book, tmp_path / "b.json", "--cast-llm", url)
    assert len(chats(tmp_path)) == len(asked) and again["quotes"] == found["quotes"]


@pytest.mark.parametrize("mode, expected", [("garbage", None), ("prose", "Whitcombe")])
def test_an_answer_that_is_not_json_keeps_the_rules_guess(run_cli, tmp_path, llm, mode, expected):
    book = tmp_path / "watch.txt"
    book.write_text(BOOK, encoding="utf-8")
    rules = {q["text"]: q["speaker"] for q in export(run_cli, book, tmp_path / "r.json")["quotes"]}
    url = llm({"anyone out there": "Whitcombe"}, mode)
    quotes = {q["text"]: q["speaker"] for q in export(run_cli, book, tmp_path / "l.json", "--cast-llm", url)["quotes"]}
    line = "Is anyone out there in the dark?"
    assert quotes[line] == (expected if expected else rules[line])


def test_a_server_that_is_not_there_is_one_line(run_cli, tmp_path):
    book = tmp_path / "watch.txt"
    book.write_text(BOOK, encoding="utf-8")
    done = run_cli(book, "--export-cast", tmp_path / "x.json", "--cast-llm", f"http://127.0.0.1:{free_port()}")
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert len([line for line in done.stderr.splitlines() if line.startswith("error:")]) == 1


def test_a_narrators_line_the_model_gives_a_character_is_no_longer_the_narrators(tmp_path, llm):
    from app.book.model import Book, Chapter
    from app.cast import llm as cast_llm
    from app.cast.model import Cast, Character, Quote

    paragraphs = ("\u201cWho is there?\u201d", "\u201cOnly the wind.\u201d", "\u201cAnd the rain.\u201d")
    book = Book("T", "A", (Chapter(1, "One", paragraphs),), source=None)
    # The rules' unsure answers: two lines of the first-person narrator, one of Whitcombe's.
    rules = Cast((Character("Whitcombe", (), "M", 1),),
                 (Quote(1, 0, 0, 15, "Who is there?", None, "turn-taking", 0.5, by_narrator=True),
                  Quote(1, 1, 0, 16, "Only the wind.", "Whitcombe", "turn-taking", 0.5),
                  Quote(1, 2, 0, 15, "And the rain.", None, "turn-taking", 0.5, by_narrator=True)), True)
    client = cast_llm.ChatClient(llm({"Who is there": "Whitcombe"}), tmp_path / "cache")
    try:
        refined, changed = cast_llm.refine(book, rules, client)
    finally:
        client.close()
    who, wind, rain = refined.quotes
    assert (who.speaker, who.by_narrator, who.method) == ("Whitcombe", False, "llm")
    assert (wind.speaker, wind.by_narrator) == (None, False)  # null: the narrator or nobody, not "I"
    assert (rain.speaker, rain.by_narrator) == (None, True)  # null keeps the narrator's line the narrator's
    assert changed == 2 and refined.characters[0].lines == 1

"""End to end: a server that says chunks wrong, heard and re-rendered until the book says its text.

The double speaks real Piper speech (SGO_DOUBLE_SPEECH=piper, one take per
request seed) and garbles the first take of one chunk in four (half skipped, a phrase said three times,
silence where words belong); the app listens with the bundled tiny.en; an
independent faster-whisper pass over the finished M4B measures the book's
word error.
"""
from __future__ import annotations

import json
import shutil

import pytest

from tests.listen.conftest import STORY, book_transcript, story_text, word_error
from tests.sglomni.conftest import fake_venv  # noqa: F401  (autouse: isolated home, request log)

pytestmark = pytest.mark.slow

PIPER = {"SGO_DOUBLE_SPEECH": "piper"}


def convert(run_cli, url, tmp_path, name, *extra):
    book = tmp_path / f"{name}.txt"
    shutil.copyfile(STORY, book)
    out = tmp_path / f"{name}.m4b"
    result = run_cli(book, "--backend", "sglomni", "--model", "moss_tts_local", "--api-url", url,
                     "--output", out, "--chunk-size", "14", "--verify", *extra, timeout=600)
    return result, out, json.loads(out.with_suffix(".report.json").read_text())


def test_garbled_chunks_are_heard_and_rendered_again(tmp_path, run_cli, external_double, requests_log):
    clean_url = external_double("moss_tts_local", env=PIPER)
    clean, clean_out, _ = convert(run_cli, clean_url, tmp_path, "clean")
    assert clean.returncode == 0, clean.stderr
    url = external_double("moss_tts_local", env={**PIPER, "SGO_DOUBLE_GARBLE": "4"})
    garbled, out, report = convert(run_cli, url, tmp_path, "garbled", "--no-cache")
    assert garbled.returncode == 0, garbled.stderr

    shaped = [r for r in requests_log("shaped") if r["garble"]]
    assert len(shaped) >= 3 and {r["garble"] for r in shaped} == {"skip half", "repeat phrase", "silence"}
    rerendered = {r["text"] for r in report["verification"]["rerendered"]}
    assert {r["input"] for r in shaped} <= rerendered, "every garbled chunk was rendered again"
    assert report["verification"]["failing"] == []
    assert "still wrong" in garbled.stdout + garbled.stderr

    clean_error = word_error(story_text(), book_transcript(clean_out))
    garbled_error = word_error(story_text(), book_transcript(out))
    print(f"book word error: clean {clean_error:.1%}, garbled one in four {garbled_error:.1%}")
    assert garbled_error <= 0.07, (garbled_error, clean_error)
    # Issue 13: within 2 points of the clean run. The double says one take per seed (as a sampling
    # model does), so the two books differ only in the garbled chunks' re-takes.
    assert garbled_error <= clean_error + 0.02, (garbled_error, clean_error)


def test_a_chunk_never_said_right_is_reported_and_fails_the_run(tmp_path, run_cli, external_double):
    url = external_double("moss_tts_local", env={**PIPER, "SGO_DOUBLE_GARBLE_ALWAYS": "great lamp"})
    result, out, report = convert(run_cli, url, tmp_path, "stubborn", "--chapters", "2", "--verify-takes", "2")
    assert result.returncode == 4, result.stderr
    assert out.exists(), "the book is written with the best take"
    failing = report["verification"]["failing"]
    assert [f["chapter"] for f in failing] == [2] and "great lamp" in failing[0]["text"]
    assert failing[0]["takes"] == 2 and "missing words" in failing[0]["problems"]
    assert "1 chunk still sounds wrong" in result.stderr and str(out.with_suffix(".report.json")) in result.stderr

"""A busy server never fails a book (issue 11): 503 "queue full" requeues a chunk without spending an attempt.

The server is the double as a real process with sglang-omni 0.1.9's admission: SGO_DOUBLE_SLOTS requests
run, SGO_DOUBLE_QUEUE more wait, the rest get HTTP 503 "The request queue is full." The conformance tier
runs the same book against the real 0.1.9 app (tests/conformance/test_book.py).
"""
from __future__ import annotations

import time
from collections import Counter, defaultdict

import pytest

from app.pipeline.problems import REPEAT_SECONDS

from .books import book
from .conftest import sglomni_args
from .test_server_answers import assert_sane_chapters


def first_seeds_only(log: list[dict]) -> bool:
    """Return whether every answered request used its text's first seed (no attempt was spent)."""
    seeds = defaultdict(list)
    for r in log:
        seeds[r["input"]].append(r["seed"])
    return all(len(set(s)) == 1 for s in seeds.values())


@pytest.mark.parametrize("flags", [(), ("--concurrency", 16)], ids=["adaptive-no-flag", "pinned-16"])
def test_a_book_converts_against_a_server_whose_queue_holds_two(flags, tmp_path, cli, external, fault_log):
    url = external.start(env={"SGO_DOUBLE_SLOTS": "3", "SGO_DOUBLE_QUEUE": "2", "SGO_DOUBLE_SLOW": "0.3"})
    src = book(tmp_path, sentences=8)
    out = tmp_path / "river.m4b"
    started = time.monotonic()
    run = cli(*sglomni_args(src, out, "--api-url", url, "--chunk-size", 12, *flags))
    assert run.finish(timeout=300) == 0, run.stderr
    elapsed = time.monotonic() - started
    log = fault_log()
    rejected = [r for r in log if r["fault"] == "queue-full"]
    answered = Counter(r["input"] for r in log if r["fault"] is None)
    assert rejected, "the server pushed back (the test must exercise a full queue)"
    assert len(answered) == 27 and set(answered.values()) == {1}, "every chunk rendered exactly once"
    assert first_seeds_only(log), "no attempt was spent on a busy answer (a retry changes the seed)"
    busy_lines = [line for line in run.stderr.splitlines() if line.startswith("server busy")]
    assert 1 <= len(busy_lines) <= 1 + elapsed / REPEAT_SECONDS, \
        "one line per kind of problem with a running count, not one per answer"
    assert len(rejected) >= len(busy_lines), "never more lines than busy answers"
    assert "so far" in busy_lines[0] and "no attempt spent" in busy_lines[0]
    assert "error" not in run.stderr.lower()
    assert_sane_chapters(out, src, 12)


def test_busy_answers_are_classified_once_for_every_status(tmp_path):
    from app.core.http import BUSY, PERMANENT, TRANSIENT, classify, error_for_status
    from app.core.errors import OutOfMemory, ServerBusy

    table = {
        (503, "The request queue is full."): BUSY,
        (429, "Too Many Requests"): BUSY,
        (500, "server is busy, try again later"): BUSY,
        (500, "Error generating speech: engine step failed"): TRANSIENT,
        (502, "Bad Gateway"): TRANSIENT,
        (408, "timeout"): TRANSIENT,
        (400, "input must be a non-empty string"): PERMANENT,
        (404, "Not Found"): PERMANENT,
        (422, "Field required"): PERMANENT,
    }
    for (status, message), kind in table.items():
        assert classify(status, message) == kind, (status, message)
    busy = error_for_status(503, b'{"error": {"message": "The request queue is full."}}', url="http://h:1/v1/x")
    assert isinstance(busy, ServerBusy) and busy.transient and "queue is full" in busy.message
    assert "Retrying" not in busy.one_line(), "the line never promises a retry the run will not make"
    oom = error_for_status(500, b'{"error": {"message": "CUDA out of memory. Tried"}}', url="http://h:1/v1/x")
    assert isinstance(oom, OutOfMemory) and oom.transient, "a persisting OOM spends attempts"

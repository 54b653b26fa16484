"""Many books as one queue through the server double (issue 16): one server, per-book results, stop and resume.

The managed double is launched by the app's own lifecycle code (the fake venv's `sgl-omni`);
the stop test uses a double started by hand, as a user starts sgl-omni, behind --api-url.
"""
from __future__ import annotations

import re
import signal
from pathlib import Path

import pytest

from tests.pipeline.many_books import chapter_titles, ffprobe_chapters, summary_rows, synthesized_per_book, write_books
from tests.sglomni.conftest import free_port

from .conftest import venv_processes

pytestmark = pytest.mark.slow


def queue_args(books, out, *extra) -> list:
    return [*books, "--backend", "sglomni", "--model", "moss_tts_local", "--output", f"{out}/",
            "--chunk-size", 8, *extra]


def test_three_books_and_a_bad_one_through_one_managed_server(tmp_path, run_cli, fault_env):
    books = write_books(tmp_path / "in", 3)
    missing = tmp_path / "in" / "lost.epub"
    out = tmp_path / "out"
    args = queue_args([books[0], missing, books[1], books[2]], out, "--port", free_port())
    result = run_cli(*args, timeout=300)
    # The bad book's exit status (2, input) is the queue's; the others are converted all the same.
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr and "This is a bug" not in result.stderr
    rows = summary_rows(result.stderr)
    assert rows == {books[0].name: "done", "lost.epub": "failed", books[1].name: "done", books[2].name: "done"}
    failed = next(line for line in result.stderr.splitlines() if "failed" in line and "lost.epub" in line)
    assert "No such file" in failed and "Check the path" in failed, failed
    written = result.stdout.splitlines()
    assert len(written) == 3, result.stdout
    for book, m4b in zip(books, written):
        chapters = ffprobe_chapters(Path(m4b))
        assert [t for t, _, _ in chapters] == chapter_titles(book)
        assert all(end - start > 1.0 for _, start, end in chapters)
    assert venv_processes(fault_env) == [], "the managed server is stopped once the queue ends"

    again = run_cli(*args, timeout=300)
    assert again.returncode == 2, again.stderr
    assert synthesized_per_book(again.stderr) == {b.name: 0 for b in books}, "each book resumes on its own"


def test_ctrl_c_keeps_the_finished_book_and_the_rerun_resumes_the_rest(tmp_path, cli, external, isolated_home):
    url = external.start(env={"SGO_DOUBLE_SLOW": "0.5"})
    # A short first book, then two long enough to be synthesizing when it is done.
    books = write_books(tmp_path / "in", 3, chapters=2, sentences=[1, 8, 2])
    out = tmp_path / "out"
    args = queue_args(books, out, "--api-url", url, "--concurrency", 2)
    run = cli(*args)
    first = books[0].name
    run.wait_line(f"[1/3 {first}] done:", timeout=120)
    run.signal(signal.SIGINT)
    assert run.finish(timeout=60) == 130, run.stderr
    assert "Traceback" not in run.stderr
    rows = summary_rows(run.stderr)
    assert rows[first] == "done" and rows[books[2].name] in ("stopped", "not started"), run.stderr
    assert rows[books[1].name] == "stopped", run.stderr
    finished = [line for line in run.out.splitlines() if line]
    assert len(finished) == 1 and ffprobe_chapters(Path(finished[0]))
    assert len(list(out.glob("*.m4b"))) == 1, "only the finished book has an output"

    stopped_total = int(re.search(rf"\[2/3 {books[1].name}\] Converting: \d+ chapters, (\d+) chunks", run.stderr)[1])
    rerun = cli(*args)
    assert rerun.finish(timeout=240) == 0, rerun.stderr
    counts = synthesized_per_book(rerun.stderr)
    assert counts[first] == 0, rerun.stderr
    assert counts[books[1].name] < stopped_total, "the stopped book keeps the chunks it finished"
    assert len(list(out.glob("*.m4b"))) == 3

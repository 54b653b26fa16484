"""The queue's parts that need no server: the shared pool's arithmetic, stop requests, exit status, finding books."""
from __future__ import annotations

import io
import threading
from pathlib import Path

import pytest

from app.batch import BookResult, QueueStop, find_books, worst_exit
from app.cli.queue import TaggedLines, print_summary
from app.core.errors import InputError
from app.pipeline.adaptive import FixedLimit
from app.pipeline.pool import SharedPool


def test_a_later_book_gets_only_the_slots_the_earlier_books_leave():
    pool = SharedPool(FixedLimit(96))
    first, second, third = pool.share(0), pool.share(1), pool.share(2)
    pool.set_remaining(0, 500)
    assert first.limit == 96 and second.limit == 0 and not pool.has_room()
    pool.set_remaining(0, 60)  # the first book's tail: all of it fits in flight
    assert pool.has_room() and second.limit == 36
    pool.set_remaining(1, 200)
    assert third.limit == 0 and not pool.has_room()
    pool.leave(0)
    assert second.limit == 96 and third.limit == 0


def test_the_shared_limiter_hears_every_books_requests():
    class Counting(FixedLimit):
        def __init__(self):
            super().__init__(8)
            self.seen: list[int] = []

        def on_sent(self, in_flight: int) -> float:
            self.seen.append(in_flight)
            return 0.0

    limiter = Counting()
    pool = SharedPool(limiter)
    pool.set_remaining(0, 5)
    pool.share(1).on_sent(2)
    assert limiter.seen == [7], "the earlier book's share counts as in flight"


def test_first_stop_drains_only_books_with_requests_in_flight_and_the_second_cuts():
    queue = QueueStop()
    sending, encoding = queue.for_book(), queue.for_book()
    sending.draining_with(lambda: (3, 4.0))
    cuts: list[str] = []
    sending.on_stop_now(lambda: cuts.append("sending"))
    encoding.on_stop_now(lambda: cuts.append("encoding"))  # an earlier scheduler's cutter, still registered
    line = queue.request()
    assert "3 requests in flight will finish" in line
    assert sending.cancel.is_set() and encoding.cancel.is_set()
    assert not queue.now.is_set() and cuts == [], "a book that is only encoding must not abort the shared backend"
    queue.request()
    assert queue.now.is_set() and sending.now.is_set() and "sending" in cuts


def test_a_stop_with_nothing_in_flight_stops_now_and_later_books_start_stopped():
    queue = QueueStop()
    assert queue.request().startswith("Stopping now")
    assert queue.now.is_set() and queue.for_book().cancel.is_set()


@pytest.mark.parametrize("codes, worst", [([0, 0], 0), ([0, 2, 4], 4), ([2, 1, 4], 1), ([4, 130, 1], 130),
                                          ([3, 5], 3), ([], 0)])
def test_the_queue_exits_with_its_worst_book(codes, worst):
    assert worst_exit([BookResult(book=Path(f"{i}.txt"), exit_code=c)
                       for i, c in enumerate(codes)]) == worst


def test_a_folder_gives_its_books_sorted_and_nothing_else(tmp_path):
    for name in ("b.md", "a.epub", "notes.json", ".hidden.txt", "c.TXT"):
        (tmp_path / name).write_text("x")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "d.txt").write_text("x")
    assert [p.name for p in find_books([tmp_path, tmp_path / "z.txt"])] == ["a.epub", "b.md", "c.TXT", "z.txt"]


def test_a_folder_without_books_is_one_input_error(tmp_path):
    (tmp_path / "notes.json").write_text("{}")
    with pytest.raises(InputError, match="holds no book"):
        find_books([tmp_path])


def test_tagged_lines_keep_each_books_lines_whole():
    out = io.StringIO()
    a, b = TaggedLines(out, "[1/2 a] "), TaggedLines(out, "[2/2 b] ")
    a.write("chunks 1/4")
    b.write("chunks 2/8\n")
    a.write("\n")
    assert out.getvalue() == "[2/2 b] chunks 2/8\n[1/2 a] chunks 1/4\n"
    threads = [threading.Thread(target=lambda t=t: [t.write(f"line {i}\n") for i in range(200)]) for t in (a, b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    lines = out.getvalue().splitlines()[2:]
    assert len(lines) == 400 and all(line.startswith(("[1/2 a] line ", "[2/2 b] line ")) for line in lines)


def test_the_summary_lists_every_book_and_prints_only_finished_outputs(tmp_path):
    results = [BookResult(tmp_path / "a.txt", "done", tmp_path / "A.m4b", 65.0),
               BookResult(tmp_path / "b.txt", "failed", problem="No such file: b.txt. Check the path", exit_code=2),
               BookResult(tmp_path / "c.txt", "stopped", exit_code=130),
               BookResult(tmp_path / "d.txt", "not started", exit_code=130)]
    out, err = io.StringIO(), io.StringIO()
    print_summary(results, out, err)
    assert out.getvalue() == f"{tmp_path / 'A.m4b'}\n"
    text = err.getvalue()
    assert "1 of 4 books converted" in text and "0:01:05 of audio" in text
    assert "failed      b.txt: No such file" in text and "stopped     c.txt: run the same command again" in text
    assert "not started d.txt" in text


@pytest.mark.parametrize("extra, words", [(["--output", "one.m4b"], ["--output", "folder ending in /"]),
                                          (["--title", "T"], ["--title", "one book"]),
                                          (["--chapters", "1"], ["--chapters", "one book"])])
def test_options_for_one_book_are_refused_for_many_with_one_line(tmp_path, run_cli, extra, words):
    books = [tmp_path / "a.txt", tmp_path / "b.txt"]
    for b in books:
        b.write_text("Chapter 1: A\n\nWords.\n")
    result = run_cli(*books, *extra)
    assert result.returncode == 2, result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and all(w in errors[0] for w in words), result.stderr
    assert "Traceback" not in result.stderr

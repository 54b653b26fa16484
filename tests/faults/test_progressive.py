"""Progressive chapter encoding (issue 16, P3) through the real CLI against the server double.

A chapter's encoder (an ffmpeg reading PCM from its stdin) runs while the
chapter's chunks are still being synthesized; the finished M4B's chapter
marks are read back by ffprobe; a Ctrl-C while a chapter is half encoded
leaves the good output, no temp file and no encoder behind, and a re-run
resumes from the cached chunks without asking the server again.
"""
from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from tests.media import read_chapters

from .books import book, chapter_titles, expected_chapter_seconds
from .conftest import sglomni_args


def _stream_encoders(pid: int) -> list[int]:
    """Return live processes whose parent is `pid` and that read audio from their stdin (our encoders)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmd = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == pid and b"pipe:0" in cmd and stat.rsplit(")", 1)[1].split()[0] != "Z":
            found.append(int(entry.name))
    return found


def _temp_files(*folders: Path) -> list[Path]:
    return [p for f in folders if f.exists() for p in f.rglob("*")
            if ".part" in p.name or p.name.endswith((".tmp", ".log")) or p.suffix == ".wav" and "chapters" in p.parts]


def test_chapters_are_encoded_while_their_chunks_arrive_and_the_marks_are_right(tmp_path, cli, external, fault_log):
    url = external.start(env={"SGO_DOUBLE_SLOW": "0.4"})
    src = book(tmp_path, 2, 6)  # two chapters of 13 chunks (10 different ones each), sent one at a time
    out = tmp_path / "out" / "river.m4b"
    # Unmastered: the test is about when the encoder starts, and mastering adds nothing to it but CPU.
    run = cli(*sglomni_args(src, out, "--api-url", url, "--chunk-size", 8, "--concurrency", 1, "--no-master"))
    # An encoder reading the first chapter while its later chunks are still to be requested.
    run.wait_for(lambda: _stream_encoders(run.p.pid), timeout=60, what="a chapter encoder on a pipe")
    asked = len(fault_log())
    assert asked < 10, f"the encoder started only after {asked} requests: chapter 1 was complete"
    assert run.finish() == 0, run.stderr

    marks = read_chapters(out)
    assert [t for t, _, _ in marks] == chapter_titles(2)
    expected = expected_chapter_seconds(src, 8)
    assert marks[0][1] == 0.0 and marks[1][1] == pytest.approx(marks[0][2], abs=0.001)
    # Each span: the chapter's tone and pauses, plus up to two AAC frames of priming and padding.
    for (_, start, end), seconds in zip(marks, expected):
        assert seconds - 0.05 <= end - start <= seconds + 0.1, marks


def test_ctrl_c_while_a_chapter_is_half_encoded_keeps_the_good_book_and_the_rerun_resumes(
        tmp_path, cli, external, fault_log, isolated_home):
    url = external.start()
    src = book(tmp_path, 2, 4)
    out = tmp_path / "out" / "river.m4b"
    args = sglomni_args(src, out, "--api-url", url, "--chunk-size", 8, "--concurrency", 2)
    assert cli(*args).finish() == 0
    good = out.read_bytes()

    # Stitch again from the cache (--no-cache re-renders: the double answers the same), stopped mid-chapter.
    run = cli(*args, "--no-cache", env={"AUDIOBOOK_TEST_PAUSE_AT": "stitch"})
    run.wait_line("test pause at stitch")
    encoders = _stream_encoders(run.p.pid)
    assert encoders, "the chapter's encoder is running while it is half stitched"
    run.signal(signal.SIGINT)
    assert run.finish(timeout=60) == 130, run.stderr
    assert "Traceback" not in run.stderr
    assert out.read_bytes() == good, "the stopped run left the good book as it was"
    work = isolated_home / "work"
    assert _temp_files(out.parent, work, isolated_home / "cache") == []
    assert not [pid for pid in encoders if Path(f"/proc/{pid}").exists()
                and " Z " not in Path(f"/proc/{pid}/stat").read_text()], "no encoder left running"

    asked = len(fault_log())
    rerun = cli(*args)
    assert rerun.finish() == 0, rerun.stderr
    assert len(fault_log()) == asked, "the re-run resumed from the cache without asking the server"
    assert [t for t, _, _ in read_chapters(out)] == chapter_titles(2)
    assert os.listdir(out.parent) == ["river.m4b", "river.report.json"] or sorted(os.listdir(out.parent)) == [
        "river.m4b", "river.report.json"]

"""Leftovers of a killed run, the run lock by content, and `audiobook.py cache [prune]` (issue 17)."""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

from tests.faults.books import book as river_book
from tests.faults.conftest import cached_chunks, error_line, sglomni_args
from tests.pipeline.helpers import write_txt_book


def _dead_pid() -> int:
    """Return the pid of a process that has exited."""
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return p.pid


def _plant(folder: Path, name: str, size: int = 1000) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_bytes(b"\x00" * size)
    return path


def test_a_kill_9_leaves_files_the_next_run_sweeps_and_a_live_runs_files_stay(tmp_path, cli, external, isolated_home):
    """kill -9 at the mux left a full-size .part.m4b beside the output, never swept."""
    url = external.start()
    book = river_book(tmp_path, 2, 2)
    out_dir = tmp_path / "out"
    args = sglomni_args(book, out_dir / "river.m4b", "--api-url", url, "--chunk-size", "8")
    first = cli(*args, env={"AUDIOBOOK_TEST_PAUSE_AT": "mux"})
    first.wait_line("test pause at mux")
    os.kill(first.p.pid, signal.SIGKILL)
    first.finish()
    part = [p for p in out_dir.iterdir() if ".part" in p.name]
    assert part and part[0].stat().st_size > 0, "the killed run left its temp output"
    # What a run killed mid-synthesis or mid-stitch leaves, tagged with the killed run's pid.
    tag = f"{first.p.pid}-0123abcd"
    chunks = isolated_home / "cache" / "chunks" / "ab"
    planted = [_plant(chunks, f".{'ab' * 32}.{tag}.tmp.wav"),
               _plant(chunks, f"..{'ab' * 32}.{tag}.tmp.wav.140.part"),
               _plant(out_dir, f".cover.{tag}.png")]
    work = next((isolated_home / "cache" / "work").glob("river-*"))
    planted.append(_plant(work / "chapters", "0123456789abcdef01234567.wav"))
    # A live run's temp file (this test process) must survive the sweep.
    live = _plant(chunks, f".{'cd' * 32}.{os.getpid()}-89abcdef.tmp.wav")

    rerun = cli(*args)
    assert rerun.finish() == 0, rerun.stderr
    assert not [p for p in part + planted if p.exists()]
    assert live.exists()
    # The book and its report (issue 13's per-book report sits beside the output); nothing else.
    assert sorted(p.name for p in out_dir.iterdir()) == ["river.m4b", "river.report.json"]


def test_a_symlink_or_a_copy_of_a_running_book_cannot_run_at_once(tmp_path, cli, external, run_cli):
    url = external.start()
    book = river_book(tmp_path, 2, 2)
    out = tmp_path / "river.m4b"
    first = cli(*sglomni_args(book, out, "--api-url", url, "--chunk-size", "8"),
                env={"AUDIOBOOK_TEST_PAUSE_AT": "stitch"})
    first.wait_line("test pause at stitch")
    link = tmp_path / "link.txt"
    link.symlink_to(book)
    copy = tmp_path / "elsewhere" / "copy.txt"
    copy.parent.mkdir()
    shutil.copy(book, copy)
    for other in (link, copy):
        result = run_cli(*sglomni_args(other, tmp_path / f"{other.stem}.m4b", "--api-url", url, "--chunk-size", "8"))
        assert result.returncode == 5, result.stderr
        assert "Another run is converting" in error_line(result.stderr)
    different = river_book(tmp_path / "elsewhere", 1, 1, name="other.txt")
    result = run_cli(*sglomni_args(different, out, "--api-url", url, "--chunk-size", "8"))
    assert result.returncode == 5, result.stderr
    assert "Another run is writing river.m4b" in error_line(result.stderr)
    first.signal(signal.SIGINT)
    assert first.finish() == 130, first.stderr


def test_cache_shows_size_per_book_and_prune_keeps_exactly_what_books_need(tmp_path, run_cli, external,
                                                                           isolated_home, fault_log):
    url = external.start()
    keep = river_book(tmp_path, 2, 2, name="keep.txt")
    gone = write_txt_book(tmp_path, {"Elsewhere": "The red fox ran across the wide field. "
                                                  "The brown hen hid inside the old barn."}, name="gone.txt")
    counts = []
    for book in (keep, gone):
        result = run_cli(*sglomni_args(book, tmp_path / f"{book.stem}.m4b", "--api-url", url, "--chunk-size", "8"))
        assert result.returncode == 0, result.stderr
        counts.append(len(cached_chunks(isolated_home)))
    kept_chunks, gone_only = counts[0], counts[1] - counts[0]
    assert gone_only >= 2
    chunks = isolated_home / "cache" / "chunks"
    orphan = _plant(chunks / "ff", f"{'ff' * 32}.wav", 5000)
    orphan.with_suffix(".json").write_text(json.dumps({"sha256": "x"}))
    leftover = _plant(chunks / "ff", f".{'ff' * 32}.{_dead_pid()}-00000000.tmp.wav", 7000)

    shown = run_cli("cache")
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert any("keep" in line and f"({kept_chunks} chunks" in line for line in lines), shown.stdout
    assert any("gone" in line and "chunks" in line for line in lines), shown.stdout
    assert any("1 chunk no book needs" in line for line in lines), shown.stdout
    assert any("1 leftover file of" in line for line in lines), shown.stdout

    gone.unlink()  # the book's file is gone: its work folder and its chunks go too
    pruned = run_cli("cache", "prune")
    assert pruned.returncode == 0, pruned.stderr
    assert (f"Removed 1 leftover file, 1 book folder whose book is gone and {gone_only + 1} chunks"
            in pruned.stdout), pruned.stdout
    assert not orphan.exists() and not leftover.exists()
    assert len(cached_chunks(isolated_home)) == kept_chunks

    requests = len(fault_log())
    for encoded in (isolated_home / "cache" / "work").rglob("chapters/*"):
        encoded.unlink()  # so the re-run needs the chunks themselves, not the encoded chapters
    rerun = run_cli(*sglomni_args(keep, tmp_path / "keep2.m4b", "--api-url", url, "--chunk-size", "8"))
    assert rerun.returncode == 0, rerun.stderr
    assert len(fault_log()) == requests  # every chunk the book needs survived the prune


def test_prune_keeps_chunks_while_a_book_folder_has_no_record(tmp_path, run_cli, isolated_home):
    chunks = isolated_home / "cache" / "chunks"
    chunk = _plant(chunks / "ee", f"{'ee' * 32}.wav")
    chunk.with_suffix(".json").write_text("{}")
    (isolated_home / "cache" / "work" / "old-book-0123456789abcdef" / "chapters").mkdir(parents=True)
    pruned = run_cli("cache", "prune")
    assert pruned.returncode == 0, pruned.stderr
    assert "Kept unlisted chunks" in pruned.stdout
    assert chunk.exists()

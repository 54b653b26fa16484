"""Faults around the run itself: Ctrl-C/SIGTERM at each stage, disk full, corrupted cache, two runs at once."""
from __future__ import annotations

import shutil
import signal
import subprocess
from pathlib import Path

import pytest

from tests.media import read_chapters
from app.pipeline.cache import ChunkCache
from tests.pipeline.helpers import synthesized_count
from tests.sglomni.conftest import free_port

from .books import book, chapter_titles
from .conftest import cached_chunks, error_line, sglomni_args, venv_processes


def leftovers(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if ".part" in p.name or ".tmp" in p.name]


@pytest.mark.slow
@pytest.mark.parametrize("stage,sig", [
    ("synthesis", signal.SIGTERM),
    ("stitch", signal.SIGINT),
    ("mux", signal.SIGINT),
    ("mux", signal.SIGTERM),
], ids=["sigterm-during-synthesis", "ctrl-c-during-stitching", "ctrl-c-during-muxing", "sigterm-during-muxing"])
def test_interrupt_keeps_the_good_output_and_the_rerun_finishes(stage, sig, tmp_path, cli, fault_log, external,
                                                                isolated_home, fault_env):
    src = book(tmp_path)
    out = tmp_path / "out" / "river.m4b"
    # Synthesis runs on a managed server (which the stop must take down); the rest on an external one.
    server = ("--port", free_port()) if stage == "synthesis" else ("--api-url", external.start())
    args = sglomni_args(src, out, *server, "--chunk-size", 12, "--concurrency", 2)
    assert cli(*args).finish() == 0
    good = out.read_bytes()
    first_requests = len(fault_log())

    env = {"SGO_DOUBLE_SLOW": "0.2"} if stage == "synthesis" else {"AUDIOBOOK_TEST_PAUSE_AT": stage}
    run = cli(*args, "--no-cache", env=env)
    if stage == "synthesis":
        run.wait_for(lambda: len(fault_log()) >= first_requests + 3, what="3 chunks re-rendered")
    else:
        run.wait_line(f"test pause at {stage}")
    run.signal(sig)
    assert run.finish(timeout=60) == 130, run.stderr
    assert "resume" in run.stderr and "Traceback" not in run.stderr
    assert out.read_bytes() == good, "the interrupted run left the good output as it was"
    assert leftovers(out.parent) == [] and leftovers(isolated_home / "cache") == []
    assert venv_processes(fault_env) == [], "the managed server was stopped"

    rerun = cli(*args)
    assert rerun.finish() == 0, rerun.stderr
    assert [t for t, _, _ in read_chapters(out)] == chapter_titles()


@pytest.fixture
def tiny_disk(tmp_path):
    """Mount a small tmpfs (root only); return a function that sets its size."""
    mount = tmp_path / "disk"
    mount.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=200k", "tmpfs", str(mount)],
                      capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tmpfs here (needs root)")

    def resize(size: str) -> Path:
        subprocess.run(["mount", "-o", f"remount,size={size}", str(mount)], check=True)
        return mount

    yield resize
    subprocess.run(["umount", "-l", str(mount)], check=False)


def test_disk_full_for_the_output_is_a_clear_error_and_the_cache_stays_intact(tmp_path, cli, external, tiny_disk,
                                                                               isolated_home, fault_log):
    url = external.start()
    disk = tiny_disk("200k")
    src = book(tmp_path)
    out = disk / "river.m4b"
    run = cli(*sglomni_args(src, out, "--api-url", url, "--chunk-size", 12, "--concurrency", 2))
    assert run.finish() == 3, run.stderr
    line = error_line(run.stderr)
    assert str(disk) in line or "space" in line.lower(), line
    assert list(disk.iterdir()) == [], "no partial file is left on the full disk"
    cache = ChunkCache(isolated_home / "cache")
    chunks = cached_chunks(isolated_home)
    assert len(chunks) == 15
    assert all(cache.get(p.stem) for p in (isolated_home / "cache" / "chunks").rglob("*.wav"))

    tiny_disk("20m")
    rerun = cli(*sglomni_args(src, out, "--api-url", url, "--chunk-size", 12, "--concurrency", 2))
    assert rerun.finish() == 0, rerun.stderr
    assert synthesized_count(rerun.stderr) == 0
    assert len(fault_log()) == 15


def test_disk_full_for_the_cache_is_a_clear_error_and_finished_chunks_survive(tmp_path, cli, external, tiny_disk,
                                                                               fault_log):
    url = external.start()
    disk = tiny_disk("1500k")  # three chunks of 48 kHz stereo speech
    src = book(tmp_path)
    out = tmp_path / "river.m4b"
    env = {"AUDIOBOOK_CACHE": str(disk)}
    run = cli(*sglomni_args(src, out, "--api-url", url, "--chunk-size", 12, "--concurrency", 1), env=env)
    assert run.finish() == 3, run.stderr
    line = error_line(run.stderr)
    assert "space" in line.lower() or "No space" in line, line
    cache = ChunkCache(disk)
    kept = [p for p in (disk / "chunks").rglob("*.wav") if not p.name.startswith(".")]
    assert kept and all(cache.get(p.stem) == p for p in kept), "every finished chunk verifies"
    assert leftovers(disk) == []
    mtimes = {p: p.stat().st_mtime_ns for p in kept}

    tiny_disk("50m")
    rerun = cli(*sglomni_args(src, out, "--api-url", url, "--chunk-size", 12, "--concurrency", 1), env=env)
    assert rerun.finish() == 0, rerun.stderr
    assert synthesized_count(rerun.stderr) == 15 - len(kept)
    assert all(p.stat().st_mtime_ns == m for p, m in mtimes.items())


def test_corrupted_cache_entry_is_detected_and_rendered_again(tmp_path, cli, external, isolated_home, fault_log):
    url = external.start()
    src = book(tmp_path)
    out = tmp_path / "river.m4b"
    args = sglomni_args(src, out, "--api-url", url, "--chunk-size", 12, "--concurrency", 2)
    assert cli(*args).finish() == 0
    victim = sorted((isolated_home / "cache" / "chunks").rglob("*.wav"))[3]
    data = bytearray(victim.read_bytes())
    data[len(data) // 2] ^= 0xFF
    victim.write_bytes(bytes(data))
    others = {n: m for n, m in cached_chunks(isolated_home).items() if n != victim.name}
    # Chapters already encoded need no chunks at all; drop the encoded chapters so the rerun
    # stitches from the chunk cache again and must meet the corrupted entry.
    shutil.rmtree(isolated_home / "cache" / "work")

    rerun = cli(*args, "--chapters", "1-3")
    assert rerun.finish() == 0, rerun.stderr
    assert synthesized_count(rerun.stderr) == 1
    assert len(fault_log()) == 16, "exactly the corrupted chunk was requested again"
    assert ChunkCache(isolated_home / "cache").get(victim.stem) == victim
    assert {n: m for n, m in cached_chunks(isolated_home).items() if n != victim.name} == others


def test_two_runs_of_the_same_book_at_once_the_second_refuses(tmp_path, cli, external, fault_log):
    # The first run is held at the server's gate (its first request waits there) until the second has
    # been refused: on a loaded machine the second's start-up can outlast a whole short run.
    gate = tmp_path / "gate"
    url = external.start(env={"SGO_DOUBLE_GATE": str(gate)})
    src = book(tmp_path)
    first = cli(*sglomni_args(src, tmp_path / "a.m4b", "--api-url", url, "--chunk-size", 12, "--concurrency", 1))
    first.wait_for(lambda: Path(f"{gate}.waiting").exists(), what="the first run synthesizing")
    second = cli(*sglomni_args(src, tmp_path / "b.m4b", "--api-url", url, "--chunk-size", 12))
    assert second.finish() == 5, second.stderr
    assert "Another run is converting river.txt" in error_line(second.stderr)
    gate.touch()
    assert first.finish() == 0, first.stderr
    assert not (tmp_path / "b.m4b").exists()
    assert len(fault_log()) == 15, "the refused run sent nothing"

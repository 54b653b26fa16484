"""Fault: the TTS server dies mid-book (managed: restarted; external: clear error, re-run resumes)."""
from __future__ import annotations

import os
import signal
from collections import Counter

import pytest

from app.backends.sglomni import pidfiles
from tests.media import read_chapters
from app.backends.sglomni import server
from tests.sglomni.conftest import free_port

from .books import book, chapter_titles
from .conftest import cached_chunks, error_line, sglomni_args, venv_processes

CHUNKS = 15  # 3 spoken titles + 12 sentences


def answered(fault_log) -> Counter:
    """Return how many times each text got a good answer."""
    return Counter(r["input"] for r in fault_log() if r["fault"] is None)


@pytest.mark.slow
def test_managed_server_killed_mid_book_is_restarted_and_nothing_is_redone(tmp_path, cli, fault_log,
                                                                           isolated_home, fault_env):
    port = free_port()
    out = tmp_path / "river.m4b"
    run = cli(*sglomni_args(book(tmp_path), out, "--port", port, "--chunk-size", 12, "--concurrency", 2),
              env={"SGO_DOUBLE_SLOW": "0.15"})
    run.wait_for(lambda: len(cached_chunks(isolated_home)) >= 4, what="4 chunks cached")
    first_pid = pidfiles.read_pidfile(port).pid
    before = cached_chunks(isolated_home)
    os.killpg(first_pid, signal.SIGKILL)
    assert run.finish() == 0, run.stderr
    assert "restarting it (1/3)" in run.stderr, run.stderr
    after = cached_chunks(isolated_home)
    assert len(after) == CHUNKS, "no finished chunk was lost"
    assert all(after[name] == mtime for name, mtime in before.items()), "finished chunks were rewritten"
    counts = answered(fault_log)
    assert len(counts) == CHUNKS and set(counts.values()) == {1}, f"a chunk was rendered twice: {counts}"
    assert [t for t, _, _ in read_chapters(out)] == chapter_titles()
    assert pidfiles.read_pidfile(port) is None
    assert venv_processes(fault_env) == [], "the restarted server was stopped at the end"


@pytest.mark.slow
def test_external_server_killed_mid_book_is_a_clear_error_and_the_rerun_resumes(tmp_path, cli, external, fault_log,
                                                                                isolated_home):
    url = external.start(env={"SGO_DOUBLE_SLOW": "0.15"})
    out = tmp_path / "river.m4b"
    args = sglomni_args(book(tmp_path), out, "--api-url", url, "--chunk-size", 12, "--concurrency", 2)
    run = cli(*args)
    run.wait_for(lambda: len(cached_chunks(isolated_home)) >= 4, what="4 chunks cached")
    external.kill()
    assert run.finish() == 4, run.stderr
    line = error_line(run.stderr)
    assert f"Cannot connect to the SGLang-Omni server at {url}" in line and "--api-url" in line, line
    assert not out.exists()
    before = cached_chunks(isolated_home)
    assert 4 <= len(before) < CHUNKS
    assert not list((isolated_home / "cache").rglob("*.tmp*")), "no half-written chunk is left"

    external.start(port=int(url.rsplit(":", 1)[1]))
    rerun = cli(*args)
    assert rerun.finish() == 0, rerun.stderr
    after = cached_chunks(isolated_home)
    assert len(after) == CHUNKS
    assert all(after[name] == mtime for name, mtime in before.items())
    counts = answered(fault_log)
    assert len(counts) == CHUNKS and set(counts.values()) == {1}, f"a chunk was rendered twice: {counts}"
    assert [t for t, _, _ in read_chapters(out)] == chapter_titles()

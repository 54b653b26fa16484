"""Faults in what the server answers: 500s and OOM, hangs, non-WAV bodies, odd formats, silence, runaway."""
from __future__ import annotations

import time
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from tests.media import read_chapters
from app.pipeline.scheduler import MAX_ATTEMPTS, backoff

from .books import book, chapter_titles, expected_chapter_seconds
from .conftest import cached_chunks, error_line, sglomni_args


def chapter_lengths(out: Path) -> list[float]:
    return [end - start for _, start, end in read_chapters(out)]


def assert_sane_chapters(out: Path, book_path: Path, chunk_size: int, n_chapters: int = 3) -> None:
    """Assert the M4B has the right chapters, each as long as its clean speech (nothing garbled or lost)."""
    assert [t for t, _, _ in read_chapters(out)] == chapter_titles(n_chapters)
    expected = expected_chapter_seconds(book_path, chunk_size)
    for got, want in zip(chapter_lengths(out), expected):
        assert got == pytest.approx(want, abs=0.25), (chapter_lengths(out), expected)


def good_answers(fault_log) -> Counter:
    return Counter(r["input"] for r in fault_log() if r["fault"] is None or "/" in str(r["fault"]))


def test_one_request_in_ten_failing_with_500_or_oom_is_retried_and_the_book_completes(tmp_path, cli, external,
                                                                                       fault_log):
    url = external.start(env={"FAULT_FAIL_EVERY": "10"})
    src = book(tmp_path, sentences=8)
    out = tmp_path / "river.m4b"
    run = cli(*sglomni_args(src, out, "--api-url", url, "--chunk-size", 12, "--concurrency", 2))
    assert run.finish() == 0, run.stderr
    log = fault_log()
    faults = Counter(r["fault"] for r in log if r["fault"])
    assert faults["oom"] >= 1 and faults["500"] >= 1, faults
    assert sum(faults.values()) / len(log) == pytest.approx(0.1, abs=0.04)
    answered = good_answers(fault_log)
    assert len(answered) == 27 and set(answered.values()) == {1}
    failed = {r["input"] for r in log if r["fault"]}
    assert failed <= set(answered), "every failed chunk was sent again and succeeded"
    assert_sane_chapters(out, src, 12)


def test_retry_backoff_is_exponential_with_full_jitter():
    for attempt in (1, 2, 3):
        delays = [backoff(attempt) for _ in range(400)]
        ceiling = min(8.0, 0.5 * 2 ** attempt)
        assert 0 <= min(delays) and max(delays) <= ceiling
        assert max(delays) - min(delays) > 0.8 * ceiling, "jittered over the whole window"


def test_persistent_oom_ends_with_the_mem_fraction_remedy_after_one_round_of_retries(tmp_path, cli, external,
                                                                                      requests_log_path):
    url = external.start(env={"SGO_DOUBLE_FAIL": "1000", "SGO_DOUBLE_OOM": "1"})
    out = tmp_path / "river.m4b"
    started = time.monotonic()
    run = cli(*sglomni_args(book(tmp_path), out, "--api-url", url, "--chunk-size", 12, "--concurrency", 1))
    assert run.finish() == 4, run.stderr
    line = error_line(run.stderr)
    assert "ran out of GPU memory" in line and "--mem-fraction-static 0.70" in line, line
    speech = [r for r in requests_log_path() if r["path"] == "/v1/audio/speech"]
    assert len(speech) == MAX_ATTEMPTS, "one owner of retries: the pipeline's attempts, not multiplied"
    assert time.monotonic() - started < 20
    assert not out.exists()


def test_hung_requests_time_out_are_retried_and_leak_no_threads_or_sockets(tmp_path, cli, external, fault_log):
    url = external.start(env={"FAULT_HANG_EVERY": "4", "FAULT_HANG_SECONDS": "30"})
    src = book(tmp_path, sentences=10)
    out = tmp_path / "river.m4b"
    concurrency = 3
    run = cli(*sglomni_args(src, out, "--api-url", url, "--chunk-size", 12, "--concurrency", concurrency),
              env={"AUDIOBOOK_REQUEST_TIMEOUT": "1"})
    samples = []
    task, fds = Path(f"/proc/{run.p.pid}/task"), Path(f"/proc/{run.p.pid}/fd")
    while run.p.poll() is None:
        try:
            sockets = sum(1 for fd in fds.iterdir() if "socket:" in _readlink(fd))
            samples.append((len(list(task.iterdir())), sockets, len(list(fds.iterdir()))))
        except OSError:
            pass
        time.sleep(0.05)
    assert run.finish() == 0, run.stderr
    hangs = [r for r in fault_log() if r["fault"] == "hang"]
    assert len(hangs) >= 6, "the run met hung requests"
    assert "did not answer in time" in run.stderr
    assert set(good_answers(fault_log).values()) == {1}
    assert_sane_chapters(out, src, 12)
    threads, sockets, _ = zip(*samples)
    # tts workers + encoder + main + a few library threads; connections capped per endpoint.
    assert max(threads) <= concurrency + 8, max(threads)
    assert max(sockets) <= concurrency + 4, max(sockets)
    late = samples[len(samples) * 3 // 4:]
    assert max(s for _, s, _ in late) <= concurrency + 1, "hung connections were closed, not kept"
    # Files: the encoders open and close pipes as chapters come and go, so the count swings; a leak per hung
    # request (six or more here) would instead raise the floor the count settles back to late in the run.
    files = [f - s for _, s, f in samples]
    late_files = files[len(files) * 3 // 4:]
    assert min(late_files) <= max(files[:len(files) // 2]), (files[:len(files) // 2], late_files)


def _readlink(path: Path) -> str:
    try:
        return str(path.readlink())
    except OSError:
        return ""


@pytest.mark.parametrize("env", [
    {"FAULT_BAD_EVERY": "3"},                                   # HTML 502 page, text/plain, truncated WAV
    {"FAULT_FORMATS": "48000/2,16000/1,22050/2,24000/1"},       # wrong sample rate / channel count
    {"FAULT_FORMATS": "44100/1", "FAULT_FLOAT": "1"},           # 32-bit float WAV
], ids=["bad-bodies", "wrong-rate-and-channels", "float-wav"])
def test_bad_or_odd_audio_is_retried_or_converted_never_stitched_as_garbage(env, tmp_path, cli, external,
                                                                             fault_log):
    url = external.start(env=env)
    src = book(tmp_path)
    out = tmp_path / "river.m4b"
    run = cli(*sglomni_args(src, out, "--api-url", url, "--chunk-size", 12, "--concurrency", 2))
    assert run.finish() == 0, run.stderr
    assert any(r["fault"] for r in fault_log())
    assert_sane_chapters(out, src, 12)


def test_silent_and_runaway_audio_is_rendered_again_with_another_seed(tmp_path, cli, external, fault_log):
    url = external.start(env={"FAULT_SILENT": "first", "FAULT_RUNAWAY": "mill"})
    src = book(tmp_path)
    out = tmp_path / "river.m4b"
    run = cli(*sglomni_args(src, out, "--api-url", url, "--chunk-size", 12, "--concurrency", 2))
    assert run.finish() == 0, run.stderr
    seeds = defaultdict(list)
    for r in fault_log():
        seeds[r["input"]].append((r["seed"], r["fault"]))
    assert len(seeds) == 15
    for text, tries in seeds.items():
        assert tries[0][1] in ("silent", "runaway") and tries[-1][1] is None, (text, tries)
        assert tries[-1][0] != tries[0][0], f"retried with the same seed: {text} {tries}"
    assert any(f == "runaway" for tries in seeds.values() for _, f in tries)
    assert_sane_chapters(out, src, 12)


def test_audio_that_stays_silent_is_reported_naming_chapter_and_chunk(tmp_path, cli, external, fault_log,
                                                                       isolated_home):
    url = external.start(env={"FAULT_SILENT": "all"})
    out = tmp_path / "river.m4b"
    run = cli(*sglomni_args(book(tmp_path), out, "--api-url", url, "--chunk-size", 12, "--concurrency", 1))
    assert run.finish() == 4, run.stderr
    line = error_line(run.stderr)
    assert "Chapter 1, chunk 1: Silent audio" in line and "after 4 attempts" in line, line
    tried = [r["seed"] for r in fault_log()]
    assert len(tried) == 4 and len(set(tried)) == 4, "each attempt used another seed"
    assert cached_chunks(isolated_home) == {}, "silence never reaches the cache"

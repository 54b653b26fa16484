"""Stopping the CLI (and a queue of books) in every stage: exit 130 within its promise, nothing left behind.

Each cell is a real `audiobook.py` process against a real server process (the held double, or the
managed double booting); a stage is reached by holding the run there (a request held by the double,
an app pause point, a server that takes a minute to boot), never by sleeping. Which cells of the
signal x stage product are left out, and why, is in README.md.
"""
from __future__ import annotations

import re
import signal
import time

import pytest

from app.backends.sglomni import pidfiles
from tests.faults.conftest import sglomni_args
from tests.pipeline.helpers import synthesized_count
from tests.sglomni.conftest import free_port

from .conftest import (HELD, TOTAL_CHUNKS, answered, booting, bound, encoded_chapters, left_running, temp_files)

CHUNK_ARGS = ("--chunk-size", 12, "--concurrency", 2)


def announced_seconds(stderr: str) -> float:
    """Return the seconds the drain line promised (1 when it named none: one request's latency is unknown)."""
    match = re.search(r"in flight will finish and be kept, about (\d+) s", stderr)
    assert "in flight will finish and be kept" in stderr, stderr
    return float(match.group(1)) if match else 1.0


def assert_left_clean(run, home, tmp_path, fault_env) -> None:
    assert "Traceback" not in run.stderr and "This is a bug" not in run.stderr, run.stderr
    assert temp_files(home, tmp_path) == [], "a stopped run leaves no temp file"
    assert left_running(home, tmp_path, fault_env) == [], "a stopped run leaves no encoder or server running"


def hold_mid_synthesis(run, double, fault_log, home) -> None:
    """Wait until chapter 1 is half encoded, waiting for its held last chunk, and chapter 2 is encoded."""
    run.wait_for(double.held, what="the held request")
    run.wait_for(lambda: len(answered(fault_log)) == TOTAL_CHUNKS - 1, what="every other chunk answered")
    run.wait_for(lambda: encoded_chapters(home), what="chapter 2 encoded")


# -- synthesis with a chapter half encoded ------------------------------------------------------------------

@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["first-ctrl-c", "sigterm"])
def test_a_drained_stop_with_a_chapter_half_encoded_ends_within_its_promise(
        sig, tmp_path, small_book, cli, held_double, fault_log, isolated_home, fault_env):
    # The held chunk answers 500 once released: the chapter it belongs to can never be finished by this run.
    double = held_double(answer="500")
    args = sglomni_args(small_book, tmp_path / "river.m4b", "--api-url", double.url, *CHUNK_ARGS)
    run = cli(*args)
    hold_mid_synthesis(run, double, fault_log, isolated_home)
    kept = encoded_chapters(isolated_home)
    run.signal(sig)
    run.wait_line("Stopping:", timeout=10)
    assert "1 request in flight will finish and be kept" in run.stderr, run.stderr
    released = double.release()
    code = run.finish(timeout=60)
    elapsed = time.monotonic() - released
    assert code == 130, run.stderr
    assert elapsed <= bound(announced_seconds(run.stderr)), f"the drained stop took {elapsed:.1f} s"
    assert_left_clean(run, isolated_home, tmp_path, fault_env)
    assert encoded_chapters(isolated_home) == kept, "the finished chapter is kept, the open one leaves nothing"

    rerun = cli(*sglomni_args(small_book, tmp_path / "river.m4b", "--api-url", double.url, *CHUNK_ARGS))
    assert rerun.finish() == 0, rerun.stderr
    assert synthesized_count(rerun.stderr) == 1, "the re-run redoes the one request that was in flight"
    assert all(encoded_chapters(isolated_home)[name] == mtime for name, mtime in kept.items()), \
        "the finished chapter is not encoded again"


def test_a_drained_stop_with_requests_in_flight_ends_within_the_time_it_announces(
        tmp_path, small_book, cli, held_double, fault_log, requests_log_path, isolated_home, fault_env):
    """Issue 35: the announced time is an upper bound, counted from the signal (nothing held).

    Every request takes 2 s more at the double, two run at once: when the third chunk is in,
    chapter 1 is half encoded and two requests are in flight, part-way through. The line must
    announce what is left of them (at the measured rate) plus the tail, and the run end in it + 1 s.
    """
    double = held_double(answer="ok", SGO_DOUBLE_SLOW="2", SGO_DOUBLE_SPEECH="tone")
    double.release()  # nothing is held: the requests are in flight of their own accord
    run = cli(*sglomni_args(small_book, tmp_path / "river.m4b", "--api-url", double.url, *CHUNK_ARGS))
    def two_in_flight() -> bool:
        sent = sum(1 for r in requests_log_path() if r.get("path") == "/v1/audio/speech")
        done = len(answered(fault_log))
        return done >= 2 and sent - done == 2

    run.wait_for(two_in_flight, what="two chunks answered and two in flight")
    sent = time.monotonic()
    run.signal(signal.SIGINT)
    code = run.finish(timeout=60)
    elapsed = time.monotonic() - sent
    assert code == 130, run.stderr
    assert "2 requests in flight will finish and be kept" in run.stderr, run.stderr
    announced = announced_seconds(run.stderr)
    assert re.search(r"about \d+ s", run.stderr), "with answers measured, the line names a time"
    print(f"two in flight: announced {announced:.0f} s, took {elapsed:.2f} s")
    assert elapsed <= bound(announced), f"announced about {announced:.0f} s, took {elapsed:.1f} s"
    assert_left_clean(run, isolated_home, tmp_path, fault_env)


def test_a_second_ctrl_c_with_a_chapter_half_encoded_cuts_the_request_and_ends_at_once(
        tmp_path, small_book, cli, held_double, fault_log, isolated_home, fault_env):
    double = held_double(answer="ok")  # never released: only the cut ends it
    args = sglomni_args(small_book, tmp_path / "river.m4b", "--api-url", double.url, *CHUNK_ARGS)
    run = cli(*args)
    hold_mid_synthesis(run, double, fault_log, isolated_home)
    run.signal(signal.SIGINT)
    run.wait_line("Stopping:", timeout=10)
    sent = time.monotonic()
    run.signal(signal.SIGINT)
    code = run.finish(timeout=60)
    elapsed = time.monotonic() - sent
    assert code == 130, run.stderr
    assert elapsed <= bound(0), f"the second Ctrl-C took {elapsed:.1f} s"  # promised: within 2 s
    assert "Stopping now" in run.stderr
    assert_left_clean(run, isolated_home, tmp_path, fault_env)

    double.release()
    rerun = cli(*args)
    assert rerun.finish() == 0, rerun.stderr
    assert synthesized_count(rerun.stderr) == 1, "the re-run redoes the one request that was cut"


# -- the stages around synthesis: nothing in flight, so the first signal stops at once -----------------------

@pytest.mark.parametrize("stage, extra", [("planned", ()), ("encode", ()), ("mux", ()), ("read-along", ("--format", "m4b,vtt"))],
                         ids=["planning", "final-encode", "mux", "read-along"])
def test_a_first_ctrl_c_outside_synthesis_stops_at_once(stage, extra, tmp_path, small_book, cli, held_double,
                                                       fault_log, isolated_home, fault_env):
    double = held_double(answer="ok")
    double.release()  # nothing is held: the app's pause point is the stage
    out = tmp_path / "river.m4b"
    args = sglomni_args(small_book, out, "--api-url", double.url, *CHUNK_ARGS, *extra)
    run = cli(*args, env={"AUDIOBOOK_TEST_PAUSE_AT": stage})
    run.wait_line(f"test pause at {stage}")
    if stage == "encode":  # chapter 1 may be at its last encode while chapter 2 is still rendered
        run.wait_for(lambda: len(answered(fault_log)) == TOTAL_CHUNKS, what="every chunk answered")
    before = answered(fault_log)
    sent = time.monotonic()
    run.signal(signal.SIGINT)
    code = run.finish(timeout=60)
    elapsed = time.monotonic() - sent
    assert code == 130, run.stderr
    assert elapsed <= bound(0), f"the stop took {elapsed:.1f} s"
    assert_left_clean(run, isolated_home, tmp_path, fault_env)
    assert not out.exists() or stage == "read-along", "no audiobook from a run stopped before its mux finished"

    rerun = cli(*args)
    assert rerun.finish() == 0, rerun.stderr
    redone = answered(fault_log)[len(before):]
    assert not set(redone) & set(before), "nothing the stopped run kept is requested again"
    if stage != "planned":
        assert redone == [], "every chunk was cached before the stop: the re-run sends nothing"


def test_a_first_ctrl_c_while_the_managed_server_boots_stops_it(tmp_path, small_book, cli, isolated_home, fault_env):
    port = free_port()
    # The double loads its "model" for a minute: the run is held in the boot's wait, not raced.
    run = cli(*sglomni_args(small_book, tmp_path / "river.m4b", "--port", port, *CHUNK_ARGS),
              env={"SGO_DOUBLE_BOOT_DELAY": "60"})
    run.wait_for(lambda: booting(port), what="the managed server booting")
    sent = time.monotonic()
    run.signal(signal.SIGINT)
    code = run.finish(timeout=60)
    elapsed = time.monotonic() - sent
    assert code == 130, run.stderr
    assert elapsed <= bound(0), f"the stop took {elapsed:.1f} s"
    assert pidfiles.read_pidfile(port) is None, "the booting server was stopped"
    assert_left_clean(run, isolated_home, tmp_path, fault_env)


# -- a queue of books -----------------------------------------------------------------------------------------

def test_a_queue_stopped_inside_a_book_ends_within_its_promise_and_resumes(
        tmp_path, small_book, cli, held_double, fault_log, isolated_home, fault_env):
    from tests.pipeline.helpers import write_txt_book

    # The second book says other things: no chunk of it is the held one, none shares a cache entry.
    second = write_txt_book(tmp_path, {"Harbour": "The boat left the harbour at dawn. The gulls followed it out."},
                            name="harbour.txt")
    double = held_double(answer="500")
    out = tmp_path / "out"
    args = [small_book, second, "--backend", "sglomni", "--model", "moss_tts_local", "--output", f"{out}/",
            "--api-url", double.url, *CHUNK_ARGS]
    run = cli(*args)
    run.wait_for(double.held, what="the held request")
    run.wait_for(lambda: len(encoded_chapters(isolated_home)) >= 1, what="a chapter of the first book encoded")
    run.signal(signal.SIGINT)
    run.wait_line("Stopping", timeout=10)
    released = double.release()
    code = run.finish(timeout=60)
    elapsed = time.monotonic() - released
    assert code == 130, run.stderr
    promised = max([float(s) for s in re.findall(r"about (\d+) s", run.stderr)] or [1.0])
    assert elapsed <= bound(promised), f"the queue's drained stop took {elapsed:.1f} s"
    assert re.search(rf"stopped\s+{small_book.name}", run.stderr), run.stderr
    assert_left_clean(run, isolated_home, tmp_path, fault_env)

    kept = answered(fault_log)
    rerun = cli(*args)
    assert rerun.finish() == 0, rerun.stderr
    redone = answered(fault_log)[len(kept):]
    assert not set(redone) & set(kept), "nothing the stopped queue kept is requested again"
    assert sum(HELD in text for text in redone) == 1, "the request that was in flight is redone"


# -- verification: takes being heard, and the re-render of a take said wrong ---------------------------------

@pytest.mark.slow  # two runs hearing every take with tiny.en (~30 s); the hold cells above cover the code path
def test_a_first_ctrl_c_while_a_take_said_wrong_is_rendered_again_ends_within_its_promise(
        tmp_path, small_book, cli, held_double, fault_log, requests_log_path, isolated_home, fault_env):
    requests_log = requests_log_path
    # Real speech, heard by the bundled tiny.en; the double says one text in three wrong on its first take.
    # Held at the re-render of the first take heard wrong, while the rest of the book is sent and heard:
    # its chapter can only be finished by a take this stopped run will not render.
    double = held_double(answer="ok", STOP_HOLD="", SGO_DOUBLE_SPEECH="piper", SGO_DOUBLE_GARBLE="3",
                         SGO_DOUBLE_SLOW="0.5")
    args = sglomni_args(small_book, tmp_path / "river.m4b", "--api-url", double.url, *CHUNK_ARGS, "--verify")
    run = cli(*args, env={"AUDIOBOOK_TEST_PAUSE_AT": "retake"})
    run.wait_line("test pause at retake")  # a take was heard wrong; its re-render is about to be sent
    signalled = time.monotonic()
    run.signal(signal.SIGINT)
    code = run.finish(timeout=60)
    elapsed = time.monotonic() - signalled
    assert code == 130, run.stderr
    assert "Stopping" in run.stderr, "the signal is answered with what happens next"
    promised = announced_seconds(run.stderr) if "in flight will finish" in run.stderr else 0
    assert elapsed <= bound(promised), f"the stop took {elapsed:.1f} s"
    assert_left_clean(run, isolated_home, tmp_path, fault_env)
    kept = answered(fault_log)
    # Without verification: what is asked of the server is the point, not hearing the book again (~10 s).
    rerun = cli(*args[:-1], "--no-verify")
    assert rerun.finish(timeout=120) == 0, rerun.stderr
    redone = answered(fault_log)[len(kept):]
    garbled = {r["input"] for r in requests_log() if r.get("path") == "shaped" and r.get("garble")}
    assert garbled, "a take was said wrong"
    assert not set(redone) & (set(kept) - garbled), "no take said right and kept is requested again"


def test_a_first_ctrl_c_while_the_listening_model_boots_stops_its_boot(
        tmp_path, small_book, cli, held_double, fault_log, isolated_home, fault_env):
    from app.backends.sglomni import pidfiles

    # TTS on the external double; the listening model is the managed double, a minute in its boot, while
    # the first takes wait for it on the verification pool.
    double = held_double(answer="ok", STOP_HOLD="", SGO_DOUBLE_SLOW="0.3")
    args = sglomni_args(small_book, tmp_path / "river.m4b", "--api-url", double.url, *CHUNK_ARGS)
    listening = ("--verify", "--asr-model", "whisper_large_v3_turbo")
    run = cli(*args, *listening, env={"SGO_DOUBLE_BOOT_DELAY": "60"})
    run.wait_for(lambda: pidfiles.all_pidfiles() and answered(fault_log), what="the listening model booting")
    signalled = time.monotonic()
    run.signal(signal.SIGINT)
    code = run.finish(timeout=90)
    elapsed = time.monotonic() - signalled
    assert code == 130, run.stderr
    promised = announced_seconds(run.stderr) if "in flight will finish" in run.stderr else 0
    assert elapsed <= bound(promised), f"the stop took {elapsed:.1f} s"
    assert pidfiles.all_pidfiles() == [], "the listening model's boot was stopped"
    assert_left_clean(run, isolated_home, tmp_path, fault_env)

    kept = answered(fault_log)
    rerun = cli(*args, "--no-verify")  # nothing was heard; what matters is what is asked of the server again
    assert rerun.finish(timeout=120) == 0, rerun.stderr
    assert not set(answered(fault_log)[len(kept):]) & set(kept), "no kept take is requested again"

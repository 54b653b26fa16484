"""Ctrl-C and SIGTERM answer at once (issues 11 and 17), against a real CLI process and a real server process.

The first signal prints what happens next within a second, sends nothing new and keeps what finishes;
the second cuts the requests in flight (even a hung or trickling one) and exits 130 within 2 s.
"""
from __future__ import annotations

import signal
import time
from pathlib import Path

import pytest

from tests.pipeline.helpers import synthesized_count

from .books import book
from .conftest import cached_chunks, sglomni_args

TOTAL_CHUNKS = 15


def leftovers(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if ".part" in p.name or ".tmp" in p.name]


def signal_and_time_line(run, sig: int, text: str) -> float:
    """Send `sig` and return the seconds until a stderr line containing `text` appeared."""
    before = len(run.lines)
    sent = time.monotonic()
    run.signal(sig)
    run.wait_for(lambda: any(text in line for line in run.lines[before:]), timeout=10, what=repr(text))
    return time.monotonic() - sent


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_first_signal_says_what_happens_keeps_what_finishes_and_the_rerun_redoes_only_the_rest(
        sig, tmp_path, cli, external, fault_log, isolated_home):
    # A pause point, not a clock: the server answers three chunks and holds the next three at a gate,
    # so the signal surely comes while three requests are in flight. (With slow answers instead, a loaded
    # machine sent it in the moment between one wave's answers and the next wave's sending.)
    gate = tmp_path / "gate"
    url = external.start(env={"SGO_DOUBLE_SLOW": "0.2", "FAULT_HOLD_AFTER": "3", "FAULT_GATE": str(gate)})
    src = book(tmp_path)
    out = tmp_path / "river.m4b"
    args = sglomni_args(src, out, "--api-url", url, "--chunk-size", 12, "--concurrency", 3)
    run = cli(*args)

    def held() -> int:
        return sum(r["fault"] == "held" for r in fault_log())

    run.wait_for(lambda: held() >= 3, what="three chunks answered and three more in flight")
    seconds = signal_and_time_line(run, sig, "Stopping:")
    assert seconds < 1.0, f"the first signal was answered after {seconds:.2f} s"
    line = next((line for line in run.lines if line.startswith("Stopping:")), run.stderr)
    assert "3 requests in flight will finish and be kept" in line and "press Ctrl-C again to stop now" in line, line
    gate.touch()  # the three in flight may now finish
    assert run.finish(timeout=30) == 130, run.stderr
    assert "Traceback" not in run.stderr and "This is a bug" not in run.stderr
    answered = [r for r in fault_log() if r["fault"] is None]
    assert held() == 3 and len(answered) == 6, "nothing new was sent after the signal, and what was in flight finished"
    assert len(cached_chunks(isolated_home)) == len(answered), "every answer that finished was kept"
    assert not out.exists() and leftovers(isolated_home / "cache") == []

    rerun = cli(*args)
    assert rerun.finish(timeout=120) == 0, rerun.stderr
    assert synthesized_count(rerun.stderr) == TOTAL_CHUNKS - len(answered), "the re-run redoes only the rest"


@pytest.mark.slow
@pytest.mark.parametrize("fault", ["hang", "trickle"])
def test_a_second_ctrl_c_during_a_hung_or_trickling_request_exits_within_two_seconds(
        fault, tmp_path, cli, external, fault_log, isolated_home):
    env = {"FAULT_HANG_EVERY": "1", "FAULT_HANG_SECONDS": "120"} if fault == "hang" else {"FAULT_TRICKLE": "all"}
    url = external.start(env=env)
    src = book(tmp_path)
    out = tmp_path / "river.m4b"
    run = cli(*sglomni_args(src, out, "--api-url", url, "--chunk-size", 12, "--concurrency", 2))
    started = "hang" if fault == "hang" else "trickle-started"
    run.wait_for(lambda: sum(r["fault"] == started for r in fault_log()) >= 2, what="two requests stuck")
    time.sleep(0.5)  # the requests are well inside their socket reads
    assert signal_and_time_line(run, signal.SIGINT, "Stopping:") < 1.0
    assert "2 requests in flight" in run.stderr
    time.sleep(0.5)
    sent = time.monotonic()
    run.signal(signal.SIGINT)
    code = run.finish(timeout=30)
    elapsed = time.monotonic() - sent
    assert code == 130, run.stderr
    assert elapsed < 2.0, f"the second Ctrl-C took {elapsed:.2f} s to end the run"
    assert "Stopping now" in run.stderr and "Traceback" not in run.stderr
    assert leftovers(isolated_home / "cache") == [], "the cut requests left no partial file"
    assert sum(r["fault"] == started for r in fault_log()) == 2, "nothing new was sent after the first Ctrl-C"

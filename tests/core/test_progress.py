"""Progress lines: counts in words, the final path once, an ETA that does not swing (issue 15)."""
from __future__ import annotations

import io
import random
from pathlib import Path

from app.pipeline import events as ev
from app.core.plural import plural
from app.progress import ConsoleProgress, SmoothedRate


def test_plural():
    assert [plural(n, "chapter") for n in (0, 1, 2, 1500)] == ["0 chapters", "1 chapter", "2 chapters",
                                                                "1,500 chapters"]


def test_plain_lines_say_one_chapter_and_leave_the_path_to_the_command():
    out = io.StringIO()
    progress = ConsoleProgress(out, force_plain=True)
    progress(ev.RunStarted(chapters=1, total_chunks=1, cached_chunks=0, backend="piper", concurrency=1))
    progress(ev.Muxing(output=Path("/books/Sail.m4b")))
    progress(ev.RunFinished(output=Path("/books/Sail.m4b"), audio_seconds=5, wall_seconds=2, synthesized_chunks=1))
    text = out.getvalue()
    assert "1 chapter, 1 chunk " in text and "chapters" not in text and "chunks" not in text
    assert "/books/Sail.m4b" not in text


def _etas(rates, seed=7):
    """Feed chunks whose pace changes every 10 s (each drawn from `rates`); return the smoothed and raw ETAs.

    The raw ETA is what the last 10 s alone say: the noise the smoothing must absorb.
    """
    rng = random.Random(seed)
    meter, now, total, done, smoothed, raw = SmoothedRate(0.0), 0.0, 4000, 0, [], []
    while done < total - 400:
        rate, window_start = rng.choice(rates), now
        for _ in range(int(rate * 10)):
            now += rng.expovariate(rate)  # bursts: exponential gaps around the pace
            meter.add(now)
            done += 1
        raw.append((total - done) / (int(rate * 10) / (now - window_start)))
        if meter.rate:
            smoothed.append((total - done) / meter.rate)
    return smoothed, raw


def _worst_swing(etas) -> float:
    later = etas[len(etas) // 10:]  # after the first tenth of the run
    return max(abs(b - a) / a for a, b in zip(later, later[1:]))


def test_eta_from_a_pace_that_jumps_fourfold_does_not_swing_by_half():
    smoothed, raw = _etas((1.0, 4.0))
    assert _worst_swing(raw) > 1.0  # the input: the last window alone swings the ETA several-fold
    assert _worst_swing(smoothed) < 0.25, _worst_swing(smoothed)


def test_eta_follows_a_server_that_really_slows_down():
    meter, now = SmoothedRate(0.0), 0.0
    for _ in range(600):  # 2 chunks a second for 5 minutes
        now += 0.5
        meter.add(now)
    for _ in range(150):  # then 0.5 a second for 5 minutes
        now += 2.0
        meter.add(now)
    assert 0.45 < meter.rate < 0.8, meter.rate

"""Every answer is bounded (issue 17): size and total time per request come from the chunk's text.

Hostile server modes run as a real process (tests/faults/double.py): an endless body, a trickle that
restarts every read timeout, a WAV header with an absurd sample rate. Nothing unverified enters the cache.
"""
from __future__ import annotations

import time
from collections import Counter

import pytest

from app.audio.bounds import max_answer_bytes, max_speech_seconds
from app.audio.wav import MAX_SAMPLE_RATE, read_info, validate_wav_bytes
from app.core.http import Endpoint, Timeouts
from app.core.errors import BadAudio, ServerError

from .books import book
from .conftest import sglomni_args
from .test_server_answers import assert_sane_chapters


def test_the_bound_grows_with_the_text_and_leaves_room_for_slow_speech():
    assert max_speech_seconds("") == pytest.approx(12.0)
    twelve = " ".join(["word"] * 12)
    assert max_speech_seconds(twelve) == pytest.approx(72.0), "2 x (2.5 s a word + 6 s)"
    assert max_speech_seconds(twelve + " more") > max_speech_seconds(twelve)
    # A 12-word chunk at 48 kHz stereo float is ~1.3 MB per 3.5 s of speech; its bound is ~28 MB.
    assert 20e6 < max_answer_bytes(twelve) < 30e6


def test_an_absurd_sample_rate_is_refused_before_anything_is_cached():
    good = b"RIFF\xff\xff\xff\xffWAVEfmt " + (16).to_bytes(4, "little") + (1).to_bytes(2, "little") \
        + (1).to_bytes(2, "little")
    for rate, ok in ((24_000, True), (MAX_SAMPLE_RATE, True), (0xFFFFFFF0, False), (MAX_SAMPLE_RATE + 1, False)):
        body = good + rate.to_bytes(4, "little") + (rate * 2 & 0xFFFFFFFF).to_bytes(4, "little") \
            + (2).to_bytes(2, "little") + (16).to_bytes(2, "little") + b"data" + (8).to_bytes(4, "little") + b"\0" * 8
        if ok:
            assert validate_wav_bytes(body).sample_rate == rate
        else:
            with pytest.raises(BadAudio, match="not PCM audio"):
                validate_wav_bytes(body)


def test_an_endless_body_is_cut_at_its_byte_bound(external, tmp_path):
    url = external.start(env={"FAULT_ENDLESS": "all"})
    dest = tmp_path / "answer.part"
    with Endpoint(url) as ep:
        with pytest.raises(BadAudio, match="more than 1 MiB"):
            ep.download("POST", "/v1/audio/speech", dest, json={"input": "Endless words.", "seed": 1},
                        max_bytes=1 << 20, seconds=30)
    assert (1 << 20) < dest.stat().st_size <= (1 << 20) + (64 << 10), "the file stopped growing at the bound"


def test_a_trickling_answer_is_cut_at_its_total_deadline(external, tmp_path):
    url = external.start(env={"FAULT_TRICKLE": "all"})
    started = time.monotonic()
    # The read timeout (30 s) alone would never fire: every byte restarts it.
    with Endpoint(url, timeouts=Timeouts(read=30)) as ep:
        with pytest.raises(ServerError, match="did not finish one chunk within 2 s") as info:
            ep.download("POST", "/v1/audio/speech", tmp_path / "a.part", json={"input": "Slow words.", "seed": 1},
                        seconds=1.5)
    assert info.value.transient
    assert time.monotonic() - started < 3.0


@pytest.mark.parametrize("mode", ["ENDLESS", "ABSURD"])
def test_a_hostile_first_answer_is_refused_and_the_chunk_rendered_again(mode, tmp_path, cli, external, fault_log,
                                                                          isolated_home):
    url = external.start(env={f"FAULT_{mode}": "first"})
    src = book(tmp_path, n_chapters=2, sentences=3)
    out = tmp_path / "river.m4b"
    run = cli(*sglomni_args(src, out, "--api-url", url, "--chunk-size", 12, "--concurrency", 2))
    assert run.finish(timeout=120) == 0, run.stderr
    log = fault_log()
    hostile = Counter(r["input"] for r in log if r["fault"] == f"{mode.lower()}-started")
    answered = Counter(r["input"] for r in log if r["fault"] is None)
    assert set(hostile) == set(answered) and set(answered.values()) == {1}, "each chunk: refused once, then good"
    assert "unusable audio" in run.stderr, "one line names the kind of problem"
    for wav in (isolated_home / "cache" / "chunks").rglob("*.wav"):
        assert read_info(wav).sample_rate <= MAX_SAMPLE_RATE
    assert_sane_chapters(out, src, 12, n_chapters=2)

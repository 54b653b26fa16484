"""A backend error in one worker ends the run with that error's own line and leaves what a clean stop leaves."""
from __future__ import annotations

from pathlib import Path

from tests.faults.conftest import cached_chunks, error_line, sglomni_args
from tests.pipeline.helpers import synthesized_count

from .double import REFUSAL
from .test_cli import CHUNK_ARGS, assert_left_clean, hold_mid_synthesis
from .conftest import TOTAL_CHUNKS, answered, encoded_chapters


def test_a_refused_chunk_with_a_chapter_half_encoded_is_its_own_line_and_the_cache_is_kept(
        tmp_path, small_book, cli, held_double, fault_log, isolated_home, fault_env):
    double = held_double(answer="400")
    args = sglomni_args(small_book, tmp_path / "river.m4b", "--api-url", double.url, *CHUNK_ARGS)
    run = cli(*args)
    hold_mid_synthesis(run, double, fault_log, isolated_home)
    kept = encoded_chapters(isolated_home)
    double.release()
    assert run.finish(timeout=60) == 4, run.stderr
    line = error_line(run.stderr)
    assert REFUSAL in line and "HTTP 400" in line, line
    assert_left_clean(run, isolated_home, tmp_path, fault_env)
    assert len(cached_chunks(isolated_home)) == TOTAL_CHUNKS - 1 == len(answered(fault_log)), \
        "every chunk answered before the error is kept"
    assert encoded_chapters(isolated_home) == kept, "the finished chapter is kept, the open one leaves nothing"

    rerun = cli(*args)  # the double refuses only the first time
    assert rerun.finish() == 0, rerun.stderr
    assert synthesized_count(rerun.stderr) == 1


def test_a_piper_chunk_that_gives_no_audio_says_so_and_leaves_no_file(tmp_path):
    from app.backends.base import BackendOptions
    from app.backends.piper.backend import PiperBackend
    from app.core.errors import BackendError

    out = tmp_path / "chunk.wav"
    try:
        PiperBackend(BackendOptions()).synthesize("...", 1, out)  # real Piper: no sentence, no audio
    except BackendError as exc:
        line = exc.one_line()
    else:
        raise AssertionError("Piper gave audio for '...'")
    # Not "Piper could not speak a chunk (# channels not specified)": the WAV closed empty masked it.
    assert line.startswith("Piper produced no audio for '...'"), line
    assert not Path(out).exists()

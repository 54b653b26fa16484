"""Streamed chapter encodes (app/audio/stream.py), with real ffmpeg: the same file as an encode of the
stitched WAV, and a stopped or failed encode leaves nothing where a good chapter would be read."""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from app.audio import master
from app.audio.assemble import ChapterAssembler
from app.audio.export import BookMeta
from app.audio.stream import FanOut, StreamEncoder
from app.core.errors import OutputError

from .encoding import encode_chapter
from .signals import tone, write_wav

META = BookMeta("The Book", "An Author")


def _chunks(tmp: Path) -> list[Path]:
    rate = 22050
    return [write_wav(tmp / f"c{i}.wav", np.concatenate([np.zeros(2000), tone(0.6 + 0.2 * i, rate, 300 + 90 * i)]),
                      rate) for i in range(3)]


def _encoder(out: Path, fmt: str, ff: str, mastered: bool) -> StreamEncoder:
    audio_filter = master.chapter_filter(master.Target()) if mastered else None
    return StreamEncoder(out, fmt=fmt, meta=META, title="One", track=1, total=2, ffmpeg=ff, audio_filter=audio_filter)


@pytest.mark.parametrize("fmt,mastered", [("m4b", False), ("m4b", True), ("mp3", False)])
def test_a_streamed_chapter_is_the_same_file_as_an_encode_of_the_stitched_wav(tmp_path, ff, fmt, mastered):
    chunks = _chunks(tmp_path)
    ext = "aac" if fmt == "m4b" else "mp3"
    with ChapterAssembler(tmp_path / "chapter.wav") as asm:
        for c in chunks:
            asm.append(c, 0.25)
        wav = asm.finish()
    encode_chapter(wav, tmp_path / f"file.{ext}", fmt=fmt, meta=META, title="One", track=1, total=2, ffmpeg=ff,
                   audio_filter=master.chapter_filter(master.Target()) if mastered else None)

    streamed = _encoder(tmp_path / f"stream.{ext}", fmt, ff, mastered)
    with ChapterAssembler(sink=FanOut([streamed])) as asm:
        for c in chunks:
            asm.append(c, 0.25)
        printed = asm.finish()

    assert (tmp_path / f"stream.{ext}").read_bytes() == (tmp_path / f"file.{ext}").read_bytes()
    stats = master.parse_stats(printed[streamed.out])
    assert (stats is not None) == mastered, "the meter's summary comes back from the streamed encode"


def test_an_aborted_encode_leaves_the_good_chapter_and_no_temp_files(tmp_path, ff):
    folder = tmp_path / "chapters"
    folder.mkdir()
    target = folder / "one.aac"
    target.write_bytes(b"the good chapter")
    enc = _encoder(target, "m4b", ff, False)
    asm = ChapterAssembler(sink=FanOut([enc]))
    asm.append(_chunks(tmp_path)[0], 0.25)
    pid = enc._proc.pid
    asm.abort()
    assert target.read_bytes() == b"the good chapter"
    assert sorted(p.name for p in folder.iterdir()) == ["one.aac"]
    assert not Path(f"/proc/{pid}").exists() or "zombie" in Path(f"/proc/{pid}/status").read_text()


def test_a_failing_encoder_is_one_line_with_its_log_and_leaves_nothing(tmp_path, ff, isolated_home):
    folder = tmp_path / "chapters"
    enc = StreamEncoder(folder / "one.aac", fmt="m4b", meta=META, title="One", track=1, total=1, ffmpeg=ff,
                        audio_filter="nosuchfilter=1")
    with pytest.raises(OutputError) as err:
        with ChapterAssembler(sink=FanOut([enc])) as asm:
            for c in _chunks(tmp_path) * 20:  # more than a pipe holds: the write meets the dead encoder
                asm.append(c, 0.25)
            asm.finish()
    assert "ffmpeg failed encoding one.aac" in err.value.message and "\n" not in err.value.message
    assert err.value.log_path is not None and "nosuchfilter" in err.value.log_path.read_text()
    assert os.listdir(folder) == []

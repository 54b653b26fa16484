"""Mislabelled covers and awkward titles (issue 17): never the book, never a chapter marker.

Outputs are read back with ffprobe (an independent reader), not with the
app's own chapter reader.
"""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from app.audio.assemble import ChapterAssembler
from app.audio.export import BookMeta, ChapterAudio, mux_m4b
from tests.audio.encoding import encode_chapter
from app.audio.ffmpeg import ffmpeg_exe
from app.book.model import Cover
from tests.audio.signals import tone, write_wav
from tests.faults.hostile import opf, prose, write_epub, xhtml

FFPROBE = shutil.which("ffprobe")
pytestmark = pytest.mark.skipif(FFPROBE is None, reason="ffprobe is installed by scripts/system-deps.sh")


def _probe(path: Path) -> dict:
    out = subprocess.run([FFPROBE, "-v", "error", "-show_chapters", "-show_streams", "-of", "json", str(path)],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def _picture(tmp_path: Path, name: str) -> bytes:
    path = tmp_path / name
    subprocess.run([ffmpeg_exe(), "-v", "error", "-f", "lavfi", "-i", "testsrc=size=96x96", "-frames:v", "1",
                    str(path)], check=True)
    return path.read_bytes()


@pytest.fixture(scope="module")
def chapters(tmp_path_factory) -> list[ChapterAudio]:
    """Three encoded chapters whose titles are hard for ffmetadata: trailing and inner backslashes."""
    tmp = tmp_path_factory.mktemp("chapters")
    titles = ["One \\", "Two = 2; #two", "Three \\\\"]
    out = []
    for i, title in enumerate(titles):
        src = write_wav(tmp / f"s{i}.wav", tone(1.0, 22050, 300 + 50 * i), 22050)
        with ChapterAssembler(tmp / f"c{i}.wav") as asm:
            asm.append(src, 0.2)
            wav = asm.finish()
        out.append(ChapterAudio(title, encode_chapter(wav, tmp / f"c{i}.aac", fmt="m4b", meta=BookMeta("B\\", "A"),
                                                      title=title, track=i + 1, total=3, ffmpeg=ffmpeg_exe())))
    return out


def test_titles_ending_in_a_backslash_keep_every_chapter_marker(tmp_path, chapters):
    """A trailing backslash made ffmpeg's metadata reader swallow the next chapter."""
    out = mux_m4b(chapters, tmp_path / "b.m4b", meta=BookMeta("Book \\", "A"), ffmpeg=ffmpeg_exe())
    found = [c["tags"]["title"].rstrip() for c in _probe(out)["chapters"]]
    assert found == ["One \\", "Two = 2; #two", "Three \\\\"]


@pytest.mark.parametrize("kind", ["webp-declared-jpeg", "truncated-jpeg", "garbage-png"])
def test_a_mislabelled_or_broken_cover_never_costs_the_book(tmp_path, chapters, caplog, kind):
    if kind == "webp-declared-jpeg":
        cover = Cover(_picture(tmp_path, "c.webp"), "image/jpeg")
    elif kind == "truncated-jpeg":
        cover = Cover(_picture(tmp_path, "c.jpg")[:700], "image/jpeg")
    else:
        cover = Cover(b"\x89PNG\r\n\x1a\n" + b"\x00" * 200, "image/png")
    out = mux_m4b(chapters, tmp_path / "b.m4b", meta=BookMeta("Book", "A", cover=cover), ffmpeg=ffmpeg_exe())
    info = _probe(out)
    assert len(info["chapters"]) == 3
    pictures = [s for s in info["streams"] if s["codec_type"] == "video"]
    if kind == "webp-declared-jpeg":  # readable, just mislabelled: converted and kept
        assert [p["codec_name"] for p in pictures] == ["png"]
    else:  # unreadable: left out with a warning
        assert pictures == []
        assert "Leaving out the book's cover" in caplog.text
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temp picture left behind


def test_a_genuine_jpeg_cover_is_copied_as_is(tmp_path, chapters):
    jpeg = _picture(tmp_path, "c.jpg")
    out = mux_m4b(chapters, tmp_path / "b.m4b", meta=BookMeta("Book", "A", cover=Cover(jpeg, "image/jpeg")),
                  ffmpeg=ffmpeg_exe())
    assert [s["codec_name"] for s in _probe(out)["streams"] if s["codec_type"] == "video"] == ["mjpeg"]


@pytest.mark.slow
def test_an_epub_with_a_truncated_cover_becomes_a_whole_audiobook(tmp_path, run_cli):
    """The issue's case: all audio rendered, then "ffmpeg failed … Check free disk space" at the mux."""
    jpeg = _picture(tmp_path, "c.jpg")[:700]
    entries = {"c1.xhtml": xhtml("The First", f"<p>{prose(2)}</p>"),
               "c2.xhtml": xhtml("The Second \\", f"<p>{prose(2, 'road')}</p>"),
               "images/cover.jpg": jpeg}
    book = write_epub(tmp_path / "cover.epub", entries,
                      package=opf(["c1.xhtml", "c2.xhtml"], cover=("images/cover.jpg", "image/jpeg")))
    out = tmp_path / "cover.m4b"
    result = run_cli(book, "--output", out, timeout=600)
    assert result.returncode == 0, result.stderr
    assert "Leaving out the book's cover" in result.stderr
    info = _probe(out)
    assert [c["tags"]["title"].rstrip() for c in info["chapters"]] == ["The First", "The Second \\"]

"""The read-along EPUB's package details, on a real (ffmpeg-encoded) chapter; EPUBCheck runs in the e2e tests."""
from __future__ import annotations

import subprocess
import zipfile
from pathlib import Path

import pytest
from lxml import etree

from app.book.model import Book, Cover
from app.output.epub import clock, write_epub
from app.output.timing import ChapterTiming, Sentence
from tests.pipeline.helpers import FFMPEG

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32


@pytest.fixture
def chapter_aac(tmp_path) -> Path:
    out = tmp_path / "chapter.aac"
    subprocess.run([FFMPEG, "-nostdin", "-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=2",
                    "-c:a", "aac", "-b:a", "64k", "-f", "adts", str(out)], check=True)
    return out


def packets(path: Path) -> tuple[str, list[str]]:
    """Return the audio codec and every packet's size, as ffprobe reads them."""
    out = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "a:0", "-show_entries",
                          "stream=codec_name:packet=size", "-of", "csv=p=0", str(path)],
                         capture_output=True, text=True, check=True, timeout=60).stdout.split()
    codec = [line for line in out if not line.isdigit()]
    return codec[0], [line for line in out if line.isdigit()]


def timing() -> ChapterTiming:
    return ChapterTiming(1, "The Fox & the Grapes", 2.0, [
        Sentence("c01-s0001", 0, 0, "The Fox & the Grapes", 0.05, 0.9),
        Sentence("c01-s0002", 1, 1, "She said: <sour>.", 1.2, 1.9)], {"exact": 2})


def test_package_carries_the_book_and_the_overlay(tmp_path, chapter_aac):
    book = Book("Three Fables", "Aesop", (), tmp_path / "aesop.epub", "en-GB", Cover(PNG, "image/jpeg"))
    out = write_epub(book, [(timing(), chapter_aac)], tmp_path / "Fables.epub", ffmpeg=FFMPEG, narrator="piper")
    with zipfile.ZipFile(out) as zf:
        first = zf.infolist()[0]
        assert first.filename == "mimetype" and first.compress_type == zipfile.ZIP_STORED
        assert zf.read("mimetype") == b"application/epub+zip"
        opf = etree.fromstring(zf.read("OEBPS/content.opf"))
        (tmp_path / "a.m4a").write_bytes(zf.read("OEBPS/audio/001.m4a"))
        smil = zf.read("OEBPS/smil/001.smil").decode()
        text = zf.read("OEBPS/text/001.xhtml").decode()
    meta = {el.get("property"): el.text for el in opf.iter("{*}meta") if el.get("refines") is None}
    assert meta["media:duration"] == "0:00:02.000" and meta["media:active-class"] == "-epub-media-overlay-active"
    assert opf.find(".//{*}meta[@refines='#smil-001']").text == "0:00:02.000"
    assert [opf.find(f".//{{*}}{k}").text for k in ("title", "creator", "language")] == ["Three Fables", "Aesop", "en-GB"]
    # The cover's bytes are a PNG though the book called it JPEG: the package says what it is.
    cover = opf.find(".//{*}item[@properties='cover-image']")
    assert cover.get("media-type") == "image/png" and cover.get("href").endswith(".png")
    audio = opf.find(".//{*}item[@id='audio-001']")
    assert audio.get("media-type") == "audio/mp4"
    # The audio is the chapter's encode moved into MP4: the same AAC packets (ADTS adds a 7-byte
    # header to each), so nothing was encoded again.
    codec, inside = packets(tmp_path / "a.m4a")
    adts_codec, original = packets(chapter_aac)
    assert codec == adts_codec == "aac" and inside == [str(int(n) - 7) for n in original]
    assert 'clipBegin="0.050s" clipEnd="1.200s"' in smil and 'clipBegin="1.200s" clipEnd="2.000s"' in smil
    assert '<h1><span id="c01-s0001">The Fox &amp; the Grapes</span></h1>' in text
    assert '<span id="c01-s0002">She said: &lt;sour&gt;.</span>' in text
    assert not list(tmp_path.glob(".*"))  # no temp parts left behind


def test_a_cover_in_no_core_format_is_left_out(tmp_path, chapter_aac):
    book = Book("T", "A", (), tmp_path / "t.epub", "en", Cover(b"<svg xmlns='http://www.w3.org/2000/svg'/>", "image/svg+xml"))
    out = write_epub(book, [(timing(), chapter_aac)], tmp_path / "T.epub", ffmpeg=FFMPEG)
    with zipfile.ZipFile(out) as zf:
        assert "cover-image" not in zf.read("OEBPS/content.opf").decode()
        assert not any(n.startswith("OEBPS/images/") for n in zf.namelist())


@pytest.mark.parametrize("seconds, text", [(0, "0:00:00.000"), (61.2345, "0:01:01.234"), (3725.5, "1:02:05.500")])
def test_clock_values(seconds, text):
    assert clock(seconds) == text

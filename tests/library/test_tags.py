"""The book's metadata in the audio files, read back by mutagen (MP4 atoms, ID3v2.4 frames) and by ffprobe
(what Audiobookshelf's scanner maps: https://www.audiobookshelf.org/docs#book-audio-metadata, "artist /
album-artist: Author; album / title: Title; subtitle; publisher; year; composer: Narrator; description;
genre; series; series-part; language / lang; isbn").

The audio is a second of ffmpeg's tone encoded as the app encodes chapters; the tags are the app's own
mux (M4B) and chapter encode (MP3), from books read by the app's ingest.
"""
from __future__ import annotations

import subprocess
from dataclasses import replace

import pytest
from mutagen.id3 import ID3
from mutagen.mp4 import MP4

from app.audio.booktags import id3_extras
from app.audio.export import BookMeta, ChapterAudio, encode_args, mux_m4b
from app.audio.ffmpeg import ffmpeg_exe
from app.book import load_book

from .books import CALIBRE_METADATA, CHAPTERS, CORPUS, abs_tag, make_epub, png_cover, probe_tags

NARRATOR = "Kim Lee"


@pytest.fixture(scope="module")
def tone(tmp_path_factory):
    """Return one second of AAC (ADTS) and the same as WAV, as chapter encodes take them."""
    folder = tmp_path_factory.mktemp("tone")
    ff = ffmpeg_exe()
    wav = folder / "tone.wav"
    subprocess.run([ff, "-v", "error", "-f", "lavfi", "-i", "sine=f=300:d=1", "-ar", "22050", "-ac", "1", str(wav)],
                   check=True, timeout=60)
    aac = folder / "tone.aac"
    subprocess.run([ff, "-v", "error", "-i", str(wav), "-c:a", "aac", "-b:a", "64k", "-f", "adts", str(aac)],
                   check=True, timeout=60)
    return wav, aac


def _books(tmp_path):
    calibre = make_epub(tmp_path / "dragon.epub", CALIBRE_METADATA, chapters=CHAPTERS, cover=png_cover(tmp_path))
    found = {"calibre": calibre,
             "standard-ebooks": CORPUS / "standard-ebooks" / "charles-dickens_a-christmas-carol.epub",
             "gutenberg": CORPUS / "gutenberg" / "little-colonels-hero.txt",
             "subtitled": CORPUS / "standard-ebooks" / "archibald-alexander_a-day-at-a-time.epub"}
    return found


@pytest.mark.parametrize("kind", ["calibre", "standard-ebooks", "gutenberg", "subtitled"])
def test_the_m4b_carries_the_books_metadata_where_players_and_servers_read_it(tmp_path, tone, kind):
    path = _books(tmp_path)[kind]
    if not path.exists():
        pytest.skip(f"the literature corpus is not at {CORPUS}")
    book = load_book(path)
    m = book.meta
    out = mux_m4b([ChapterAudio("One", tone[1])], tmp_path / "book.m4b", ffmpeg=ffmpeg_exe(),
                  meta=BookMeta(book.title, book.author, cover=book.cover, details=m, narrator=NARRATOR))
    atoms = MP4(out).tags
    text = lambda key: atoms[key][0] if key in atoms else None
    free = lambda name: atoms[f"----:com.apple.iTunes:{name}"][0].decode() if \
        f"----:com.apple.iTunes:{name}" in atoms else None
    assert (text("©nam"), text("©alb"), text("©ART"), text("aART")) == (book.title, book.title, book.author, book.author)
    assert text("©wrt") == NARRATOR and atoms["stik"] == [2]  # 2: an audiobook
    assert text("©day") == (m.year or None) and m.year  # every one of these books dates its work
    assert text("soar") == "; ".join(p.sort_name for p in m.authors)
    assert free("LANGUAGE") == m.language
    probed = probe_tags(out)
    assert abs_tag(probed, "artist", "album-artist") == book.author
    assert abs_tag(probed, "album", "title") == book.title
    assert abs_tag(probed, "composer") == NARRATOR and abs_tag(probed, "date") == m.year
    assert abs_tag(probed, "language", "lang") == m.language
    if kind == "calibre":
        assert (free("SERIES"), free("SERIES-PART"), free("ISBN")) == ("Tales of the Road", "2", "9780306406157")
        assert (abs_tag(probed, "series"), abs_tag(probed, "series-part"), abs_tag(probed, "isbn")) == \
            ("Tales of the Road", "2", "9780306406157")
        assert text("©gen") == "Fantasy; Adventure" and abs_tag(probed, "genre") == "Fantasy; Adventure"
        assert text("sonm") == "Dragon Road, The" and abs_tag(probed, "publisher") == "Harbour Press"
        assert text("desc") == "A road, a dragon and a map. The second of the tales."
        assert text("ldes") == "A road, a dragon and a map.\n\nThe second of the tales."
        assert atoms["covr"][0].imageformat == atoms["covr"][0].FORMAT_PNG
    elif kind == "standard-ebooks":
        assert text("©gen") == "Fiction" and abs_tag(probed, "publisher") == "Standard Ebooks"
        assert text("desc") == m.description and abs_tag(probed, "description") == m.description
        assert text("ldes") == m.long_description and "\n\n" in text("ldes")
        assert text("cprt") == m.rights and free("SERIES") is None
    elif kind == "subtitled":
        assert free("SUBTITLE") == m.subtitle == "And Other Talks on Life and Religion"
        assert abs_tag(probed, "subtitle") == m.subtitle
        # No se:subject: genres from its subjects ("Sermons, English"), one heading kept whole.
        assert text("©gen") == "; ".join(s for s in m.subjects if "--" not in s)
    else:
        assert text("©gen") == "Audiobook"  # a Gutenberg text names no genre: what the M4B said before
        assert free("SERIES") is None and text("desc") is None


def test_an_mp3_chapter_carries_the_same_in_id3v24_frames(tmp_path, tone):
    book = load_book(make_epub(tmp_path / "dragon.epub", CALIBRE_METADATA, chapters=CHAPTERS))
    meta = BookMeta(book.title, book.author, details=replace(book.meta, subtitle="A Tale of Maps"), narrator=NARRATOR)
    out = tmp_path / "01.mp3"
    args = encode_args("mp3", out, channels=1, meta=meta, title="Chapter 1: The Gate", track=1, total=2,
                       cover=None, audio_filter=None)
    subprocess.run([ffmpeg_exe(), "-v", "error", "-i", str(tone[0]), *args, str(out)], check=True, timeout=60)
    id3_extras(out, meta.fields())
    tag = ID3(out, load_v1=False)
    assert tag.version == (2, 4, 0)
    frame = lambda key: str(tag[key].text[0]) if key in tag else None
    assert (frame("TIT2"), frame("TALB"), frame("TPE1"), frame("TPE2")) == \
        ("Chapter 1: The Gate", "The Dragon Road", "Mara Quill", "Mara Quill")
    assert (frame("TDRC"), frame("TCON"), frame("TCOM"), frame("TPUB")) == ("1987", "Fantasy; Adventure", NARRATOR,
                                                                              "Harbour Press")
    assert (frame("TRCK"), frame("TPOS"), frame("TLAN"), frame("TSOP")) == ("1/2", "1/1", "eng", "Quill, Mara")
    assert (frame("TXXX:SERIES"), frame("TXXX:SERIES-PART"), frame("TXXX:ISBN")) == \
        ("Tales of the Road", "2", "9780306406157")
    assert frame("TIT3") == "A Tale of Maps" == frame("TXXX:SUBTITLE")
    comments = tag.getall("COMM")
    assert [c.text[0] for c in comments] == ["A road, a dragon and a map.\n\nThe second of the tales."]
    probed = probe_tags(out)
    assert abs_tag(probed, "series") == "Tales of the Road" and abs_tag(probed, "series-part") == "2"
    assert abs_tag(probed, "composer") == NARRATOR and abs_tag(probed, "date") == "1987"
    assert abs_tag(probed, "description") == "A road, a dragon and a map.\n\nThe second of the tales."
    assert abs_tag(probed, "comment") == abs_tag(probed, "description")
    assert abs_tag(probed, "subtitle", "tit3") == "A Tale of Maps"
    # The frames added after ffmpeg's encode leave the audio playable, whole.
    duration = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0",
                               str(out)], capture_output=True, text=True, check=True).stdout
    assert 0.9 < float(duration) < 1.2

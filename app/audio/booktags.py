"""The tags an audiobook carries, and where each player and server reads them (M4B atoms, MP3 ID3v2.4 frames).

One table of what is said, two spellings. Audiobookshelf reads the tags through ffprobe, case-insensitively,
by the names its documentation lists (https://www.audiobookshelf.org/docs#book-audio-metadata): artist /
album-artist (author), album / title, subtitle, publisher, year (the date tag), composer (narrator),
description, genre ("/" or ";" between genres), series, series-part, language, isbn. Apple Books,
BookPlayer and Smart AudioBook Player read the iTunes atoms (©nam, ©ART, aART, ©alb, ©day, ©gen,
©wrt, desc/ldes, the sort atoms, `stik` 2 = audiobook); Plex's and Jellyfin's audiobook libraries the
same album, album artist, genre and date. What no standard atom or frame holds goes in iTunes freeform
atoms (`----:com.apple.iTunes:SERIES`) and ID3 TXXX frames (`TXXX:SERIES`), the names
Mp3tag and Audiobookshelf share.
"""
from __future__ import annotations

from app.book.model import Metadata
from app.audio import id3

#: What an audiobook is filed under when its book names no genre (the tag ffmpeg's ipod muxer wrote).
DEFAULT_GENRE = "Audiobook"
#: iTunes shows at most this much of `desc`; the whole description goes to `ldes`.
SHORT_DESCRIPTION_CHARS = 255
#: Genres taken from a book's subjects at most: a tag of fifty headings files the book nowhere.
MAX_GENRES = 5
#: ISO 639-1 -> ISO 639-2 (what ID3's TLAN holds); other languages keep the book's own code.
_ISO639_2 = {
    "en": "eng", "de": "ger", "fr": "fre", "es": "spa", "it": "ita", "pt": "por", "nl": "dut", "ru": "rus",
    "pl": "pol", "zh": "chi", "ja": "jpn", "ko": "kor", "la": "lat", "el": "gre", "sv": "swe", "da": "dan",
    "no": "nor", "fi": "fin", "hu": "hun", "cs": "cze", "ca": "cat", "eo": "epo", "cy": "wel", "ga": "gle",
    "ar": "ara", "he": "heb", "hi": "hin", "tr": "tur", "uk": "ukr",
}


def genres(meta: Metadata) -> tuple[str, ...]:
    """Return the book's genres: its own genre list, else its subjects that are not subdivided headings.

    A Library of Congress heading with subdivisions ("London (England) -- Fiction") says where and
    about whom; a plain one ("Ghost stories") is a genre a listener browses by.
    """
    if meta.genres:
        return meta.genres[:MAX_GENRES]
    plain = [s for s in meta.subjects if "--" not in s and len(s) <= 60]
    return tuple(dict.fromkeys(plain))[:MAX_GENRES]


def short_description(meta: Metadata) -> str:
    """Return the blurb for `desc`: the short description, else the long one cut at a word within 255 characters."""
    text = " ".join((meta.description or meta.long_description).split())
    if len(text) <= SHORT_DESCRIPTION_CHARS:
        return text
    cut = text[:SHORT_DESCRIPTION_CHARS - 1].rsplit(" ", 1)[0]
    return cut.rstrip(" ,;:.") + "…"


def long_description(meta: Metadata) -> str:
    """Return the whole description, paragraphs kept: the long one, else the short one."""
    return meta.long_description or meta.description


def author_sort(meta: Metadata, author: str) -> str:
    """Return the author line as sorted ("Dickens, Charles"; several joined by "; ")."""
    if meta.authors:
        return "; ".join(p.sort_name for p in meta.authors)
    return author


def book_fields(*, title: str, author: str, meta: Metadata, year: str, narrator: str) -> dict[str, str]:
    """Return the book's tags by neutral name (empty values left out); both spellings below map these."""
    fields = {
        "title": title,
        "artist": author,
        "album_artist": author,
        "album": title,
        "date": year or meta.year,
        "genre": "; ".join(genres(meta)) or DEFAULT_GENRE,
        "composer": narrator,
        "description": short_description(meta),
        "long_description": long_description(meta),
        "publisher": meta.publisher,
        "copyright": meta.rights,
        "sort_name": meta.title_sort,
        "sort_album": meta.title_sort,
        "sort_artist": author_sort(meta, author) if author_sort(meta, author) != author else "",
        # Freeform: no standard atom or frame holds these.
        "SUBTITLE": meta.subtitle,
        "SERIES": meta.series,
        "SERIES-PART": meta.series_index if meta.series else "",
        "ISBN": meta.isbn,
        "LANGUAGE": meta.language,
        # ©pub is Apple's, but ffprobe (and so Audiobookshelf) reads an M4B's publisher only from here.
        "PUBLISHER": meta.publisher,
    }
    return {k: " ".join(str(v).split()) if k != "long_description" else str(v).strip()
            for k, v in fields.items() if v}


#: Neutral name -> iTunes atom (an M4B's ilst).
MP4_ATOMS = {"title": b"\xa9nam", "artist": b"\xa9ART", "album_artist": b"aART", "album": b"\xa9alb",
             "date": b"\xa9day", "genre": b"\xa9gen", "composer": b"\xa9wrt", "description": b"desc",
             "long_description": b"ldes", "publisher": b"\xa9pub", "copyright": b"cprt",
             "sort_name": b"sonm", "sort_album": b"soal", "sort_artist": b"soar", "encoder": b"\xa9too"}
#: `stik` (iTunes media kind) of an audiobook.
MEDIA_KIND_AUDIOBOOK = 2


def mp4_tags(fields: dict[str, str]) -> tuple[list[tuple[bytes, str]], list[tuple[str, str]]]:
    """Return (iTunes text atoms, freeform com.apple.iTunes atoms) for the fields."""
    atoms = [(MP4_ATOMS[k], v) for k, v in fields.items() if k in MP4_ATOMS]
    freeform = [(k, v) for k, v in fields.items() if k.isupper()]
    return atoms, freeform


#: Neutral name -> ffmpeg's metadata key that its ID3v2.4 writer puts in the named frame.
ID3_KEYS = {"title": "title", "artist": "artist", "album_artist": "album_artist", "album": "album",
            "date": "date", "genre": "genre", "composer": "composer", "publisher": "publisher",
            "copyright": "copyright", "sort_name": "title-sort", "sort_album": "album-sort",
            "sort_artist": "artist-sort"}


def id3_tags(fields: dict[str, str], *, track: int, total: int) -> dict[str, str]:
    """Return ffmpeg -metadata keys for one MP3 chapter (TIT2 the chapter, TALB the book, TRCK n/total).

    Frames: TIT2 TPE1 TPE2 TALB TDRC TCON TCOM TPUB TCOP TSOT TSOA TSOP TLAN TRCK TPOS, and TXXX for
    DESCRIPTION, SUBTITLE, SERIES, SERIES-PART and ISBN. ffmpeg writes no COMM or TIT3 (a "comment"
    key becomes TXXX:comment): id3_extras() adds them to the finished file.
    """
    tags = {ID3_KEYS[k]: v for k, v in fields.items() if k in ID3_KEYS}
    # TLAN and TPUB hold these: a TXXX beside them would be the same key to ffmpeg (keys ignore case).
    tags.update({k: v for k, v in fields.items() if k.isupper() and k not in ("LANGUAGE", "PUBLISHER")})
    if fields.get("long_description"):
        tags["DESCRIPTION"] = fields["long_description"]
    if fields.get("LANGUAGE"):
        primary = fields["LANGUAGE"].split("-")[0].lower()
        tags["language"] = _ISO639_2.get(primary, primary)
    tags["track"] = f"{track}/{total}"
    tags["disc"] = "1/1"
    return tags


def id3_extras(path, fields: dict[str, str]) -> None:
    """Add to an MP3's ID3v2.4 tag what ffmpeg's writer cannot: COMM (the description) and TIT3 (the subtitle)."""

    frames = []
    if fields.get("long_description"):
        frames.append(id3.comment_frame(fields["long_description"]))
    if fields.get("SUBTITLE"):
        frames.append(id3.text_frame("TIT3", fields["SUBTITLE"]))
    if frames:
        id3.add_frames(path, frames)


__all__ = ["id3_extras", "book_fields", "mp4_tags", "id3_tags", "genres", "short_description", "long_description",
           "DEFAULT_GENRE", "MEDIA_KIND_AUDIOBOOK"]

"""A read-along EPUB 3: the book's text, its narration, and Media Overlays pairing them.

Each chapter is one XHTML file whose sentences are elements with ids, one
SMIL file whose <par>s pair each sentence with its clip, and one AAC audio
file: the chapter's own encode (the one the M4B is muxed from), moved from
ADTS into MP4 by stream copy, because EPUB's core audio types are MP3 and
AAC in MP4 (audio/mp4), not raw ADTS.

The text is clean XHTML made from the narrated chapters (headings and
paragraphs) for every source; an EPUB source's own markup (emphasis,
images) is not carried over yet.
"""
from __future__ import annotations

import datetime as dt
import hashlib
import uuid
import zipfile
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from app.audio.ffmpeg import run_ffmpeg
from app.book.model import Book
from app.core.errors import OutputError
from app.core.files import temp_tag
from app.output.timing import METHODS, ChapterTiming

#: The class a reading system puts on the sentence being read (media:active-class).
ACTIVE_CLASS = "-epub-media-overlay-active"
#: Cover images every reading system supports (EPUB 3.2 core media types), by their magic bytes:
#: the bytes decide, since books do mislabel their covers.
_COVER_MAGIC = ((b"\xff\xd8\xff", "image/jpeg", "jpg"), (b"\x89PNG\r\n\x1a\n", "image/png", "png"),
                (b"GIF87a", "image/gif", "gif"), (b"GIF89a", "image/gif", "gif"))
_CSS = f"""body {{ font-family: serif; line-height: 1.5; margin: 0 5%; }}
h1 {{ text-align: center; margin: 2em 0 1em; }}
p {{ text-indent: 1.2em; margin: 0 0 0.4em; }}
.{ACTIVE_CLASS} {{ background-color: #fff2a8; color: inherit; }}
"""


def clock(seconds: float) -> str:
    """Return a SMIL full clock value, h:mm:ss.fff."""
    ms = round(max(0.0, seconds) * 1000)
    h, rem = divmod(ms, 3_600_000)
    m, rem = divmod(rem, 60_000)
    return f"{h}:{m:02d}:{rem // 1000:02d}.{rem % 1000:03d}"


def write_epub(book: Book, chapters: list[tuple[ChapterTiming, Path]], out: Path, *, ffmpeg: str,
               narrator: str = "") -> Path:
    """Write the read-along EPUB to `out` atomically; `chapters` pairs timings with ADTS chapter audio."""
    if not chapters:
        raise OutputError("No chapters to put in the read-along EPUB",
                          hint="Check --chapters selects at least one chapter")
    out = Path(out)
    # Temp names carry the run's tag, so a killed run's parts are swept by the next one.
    tmp = out.with_name(f".{out.stem}.{temp_tag()}.part.epub")
    audio = [tmp.with_name(f"{tmp.name}.{n:03d}.m4a") for n in range(1, len(chapters) + 1)]
    try:
        for (_, adts), clip in zip(chapters, audio):
            _to_mp4(adts, clip, ffmpeg)
        with zipfile.ZipFile(tmp, "w") as zf:
            # The mimetype entry comes first and uncompressed: readers sniff the container by it.
            zf.writestr(zipfile.ZipInfo("mimetype"), "application/epub+zip", compress_type=zipfile.ZIP_STORED)
            _write_package(zf, book, [t for t, _ in chapters], audio, narrator)
        tmp.replace(out)
    except OSError as exc:
        raise OutputError(f"Cannot write {out} ({exc.strerror or exc})", hint="Check free disk space") from None
    finally:
        for part in (tmp, *audio):
            part.unlink(missing_ok=True)
    return out


def _to_mp4(adts: Path, target: Path, ffmpeg: str) -> Path:
    """Move a chapter's AAC from ADTS into MP4 by stream copy (no second encode)."""
    run_ffmpeg([ffmpeg, "-i", str(adts), "-map", "0:a:0", "-c:a", "copy", "-bsf:a", "aac_adtstoasc",
                "-f", "mp4", str(target)])
    return target


def _put(zf: zipfile.ZipFile, name: str, text: str) -> None:
    zf.writestr(f"OEBPS/{name}", text.encode("utf-8"), compress_type=zipfile.ZIP_DEFLATED)


def _write_package(zf, book: Book, timings: list[ChapterTiming], audio: list[Path], narrator: str) -> None:
    zf.writestr("META-INF/container.xml", _CONTAINER, compress_type=zipfile.ZIP_DEFLATED)
    lang = book.language or "en"
    cover = _cover_kind(book.cover.data) if book.cover is not None else None
    if cover is not None:
        zf.writestr(f"OEBPS/images/cover.{cover[1]}", book.cover.data, compress_type=zipfile.ZIP_STORED)
    _put(zf, "style.css", _CSS)
    _put(zf, "nav.xhtml", _nav(book, timings, lang))
    for n, (timing, clip) in enumerate(zip(timings, audio), 1):
        _put(zf, f"text/{n:03d}.xhtml", _chapter_xhtml(timing, lang))
        _put(zf, f"smil/{n:03d}.smil", _smil(timing, n))
        # AAC does not shrink under deflate; storing it lets a reader seek without inflating.
        zf.write(clip, f"OEBPS/audio/{n:03d}.m4a", compress_type=zipfile.ZIP_STORED)
    _put(zf, "content.opf", _opf(book, timings, cover, narrator, lang))


def _xhtml(title: str, lang: str, body: str) -> str:
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE html>\n'
        f'<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" '
        f'xml:lang={quoteattr(lang)} lang={quoteattr(lang)}>\n'
        f'<head><meta charset="UTF-8"/><title>{escape(title)}</title>'
        '<link rel="stylesheet" type="text/css" href="../style.css"/></head>\n'
        f"<body>\n{body}</body>\n</html>\n"
    )


def _chapter_xhtml(timing: ChapterTiming, lang: str) -> str:
    """Return the chapter's text: its heading and paragraphs, every sentence a span with an id."""
    paragraphs: dict[int, list[str]] = {}
    for s in timing.sentences:
        paragraphs.setdefault(s.paragraph, []).append(f'<span id="{s.id}">{escape(s.text)}</span>')
    parts = [f'<section epub:type="chapter" id="chapter-{timing.index:02d}">']
    spoken = timing.title_spoken
    if not spoken:
        parts.append(f"<h1>{escape(timing.title)}</h1>")
    for number, spans in sorted(paragraphs.items()):
        tag = "h1" if spoken and number == 0 else "p"
        parts.append(f"<{tag}>{' '.join(spans)}</{tag}>")
    parts.append("</section>\n")
    return _xhtml(timing.title, lang, "\n".join(parts))


def _smil(timing: ChapterTiming, n: int) -> str:
    pars = "\n".join(
        f'<par id="par-{s.id}"><text src="../text/{n:03d}.xhtml#{s.id}"/>'
        f'<audio src="../audio/{n:03d}.m4a" clipBegin="{s.start:.3f}s" clipEnd="{s.end:.3f}s"/></par>'
        for s in _clips(timing))
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<smil xmlns="http://www.w3.org/ns/SMIL" xmlns:epub="http://www.idpf.org/2007/ops" version="3.0">\n'
        f'<body><seq id="seq-{n:03d}" epub:textref="../text/{n:03d}.xhtml#chapter-{timing.index:02d}" '
        f'epub:type="chapter">\n{pars}\n</seq></body>\n</smil>\n'
    )


def _clips(timing: ChapterTiming):
    """Yield the sentences with each clip running to the next one's start, the last to the audio's end.

    Contiguous clips cover the pauses too, so a reader never jumps over audio.
    """
    sentences = [s for s in timing.sentences if s.end > s.start]
    for k, s in enumerate(sentences):
        end = sentences[k + 1].start if k + 1 < len(sentences) else timing.duration
        yield type(s)(s.id, s.paragraph, s.chunk, s.text, s.start, max(end, s.end))


def _nav(book: Book, timings: list[ChapterTiming], lang: str) -> str:
    items = "\n".join(f'<li><a href="text/{n:03d}.xhtml">{escape(t.title)}</a></li>'
                      for n, t in enumerate(timings, 1))
    body = (f'<nav epub:type="toc" id="toc"><h1>{escape(book.title)}</h1>\n<ol>\n{items}\n</ol></nav>\n')
    return _xhtml(book.title, lang, body).replace('href="../style.css"', 'href="style.css"')


def _identifier(book: Book) -> str:
    seed = f"{book.title}|{book.author}|{book.source.name}|audiobook-readalong"
    return f"urn:uuid:{uuid.UUID(hashlib.sha256(seed.encode()).hexdigest()[:32])}"


def _timing_note(timings: list[ChapterTiming]) -> str:
    counts: dict[str, int] = {}
    for t in timings:
        for method, n in t.methods.items():
            counts[method] = counts.get(method, 0) + n
    labels = {"exact": "exact at chunk boundaries", "engine": "exact from the voice's sentence output",
              "words": "from word timestamps", "gaps": "estimated and placed at pauses",
              "proportional": "estimated by length"}
    parts = [f"{counts[m]} {labels[m]}" for m in METHODS if counts.get(m)]
    return "Read-along sentence timing: " + "; ".join(parts) + "."


def _cover_kind(data: bytes) -> tuple[str, str] | None:
    """Return (media type, extension) of a cover image in a core format, or None (left out)."""
    return next(((kind, ext) for magic, kind, ext in _COVER_MAGIC if data.startswith(magic)), None)


def _opf(book: Book, timings: list[ChapterTiming], cover: tuple[str, str] | None, narrator: str,
         lang: str) -> str:
    modified = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    meta = [
        f'<dc:identifier id="bookid">{escape(_identifier(book))}</dc:identifier>',
        f"<dc:title>{escape(book.title)}</dc:title>",
        f"<dc:creator>{escape(book.author)}</dc:creator>",
        f"<dc:language>{escape(lang)}</dc:language>",
        f"<dc:description>{escape(_timing_note(timings))}</dc:description>",
        f'<meta property="dcterms:modified">{modified}</meta>',
        f'<meta property="media:duration">{clock(sum(t.duration for t in timings))}</meta>',
        f'<meta property="media:active-class">{ACTIVE_CLASS}</meta>',
    ]
    if narrator:
        meta.append(f'<meta property="media:narrator">{escape(narrator)}</meta>')
    items = ['<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>',
             '<item id="css" href="style.css" media-type="text/css"/>']
    if cover:
        items.append(f'<item id="cover" href="images/cover.{cover[1]}" media-type="{cover[0]}" '
                     'properties="cover-image"/>')
    spine = []
    for n, t in enumerate(timings, 1):
        meta.append(f'<meta property="media:duration" refines="#smil-{n:03d}">{clock(t.duration)}</meta>')
        items += [
            f'<item id="text-{n:03d}" href="text/{n:03d}.xhtml" media-type="application/xhtml+xml" '
            f'media-overlay="smil-{n:03d}"/>',
            f'<item id="smil-{n:03d}" href="smil/{n:03d}.smil" media-type="application/smil+xml"/>',
            f'<item id="audio-{n:03d}" href="audio/{n:03d}.m4a" media-type="audio/mp4"/>',
        ]
        spine.append(f'<itemref idref="text-{n:03d}"/>')
    nl = "\n"
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="bookid" '
        f'xml:lang={quoteattr(lang)}>\n'
        f'<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">\n{nl.join(meta)}\n</metadata>\n'
        f"<manifest>\n{nl.join(items)}\n</manifest>\n"
        f"<spine>\n{nl.join(spine)}\n</spine>\n</package>\n"
    )


_CONTAINER = """<?xml version="1.0" encoding="UTF-8"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
<rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>
</container>
"""

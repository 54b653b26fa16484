"""Books made at test time for the library tests, and independent readers of what the app wrote.

The readers use the standard library, ffprobe and mutagen, never the app's own code:
- `abs_opf()` reads a metadata.opf the way Audiobookshelf's scanner does
  (advplyr/audiobookshelf server/utils/parsers/parseOpfMetadata.js: an unprefixed `metadata`
  element, `dc:creator` by `opf:role`, the year before the first "-" of `dc:date`, `opf:scheme="ISBN"`,
  `calibre:series` directly followed by `calibre:series_index`);
- `probe_tags()` the format tags ffprobe reports, which is what Audiobookshelf maps
  (server/utils/prober.js; https://www.audiobookshelf.org/docs#book-audio-metadata).
"""
from __future__ import annotations

import json
import shutil
import subprocess
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

DC = "{http://purl.org/dc/elements/1.1/}"
OPF = "{http://www.idpf.org/2007/opf}"
CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "literature"

CHAPTER = ('<html xmlns="http://www.w3.org/1999/xhtml"><head><title>{title}</title></head>'
           "<body><h1>{title}</h1><p>{text}</p></body></html>")


def make_epub(path: Path, metadata: str, *, chapters: dict[str, str], cover: bytes | None = None,
              cover_type: str = "image/png", version: str = "2.0", package_attrs: str = "") -> Path:
    """Write an EPUB whose OPF <metadata> is `metadata` (calibre-made books are EPUB 2 with an NCX)."""
    items, spine, points = [], [], []
    files: dict[str, bytes] = {}
    for n, (title, text) in enumerate(chapters.items(), 1):
        files[f"OEBPS/c{n}.xhtml"] = CHAPTER.format(title=title, text=text).encode()
        items.append(f'<item id="c{n}" href="c{n}.xhtml" media-type="application/xhtml+xml"/>')
        spine.append(f'<itemref idref="c{n}"/>')
        points.append(f'<navPoint id="p{n}" playOrder="{n}"><navLabel><text>{title}</text></navLabel>'
                      f'<content src="c{n}.xhtml"/></navPoint>')
    if cover is not None:
        ext = "png" if cover_type == "image/png" else "jpg"
        files[f"OEBPS/cover.{ext}"] = cover
        items.append(f'<item id="cover" href="cover.{ext}" media-type="{cover_type}"/>')
        metadata += '<meta name="cover" content="cover"/>'
    items.append('<item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>')
    files["OEBPS/toc.ncx"] = (
        '<?xml version="1.0" encoding="utf-8"?><ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1">'
        f'<head/><docTitle><text>x</text></docTitle><navMap>{"".join(points)}</navMap></ncx>').encode()
    files["OEBPS/content.opf"] = (
        f'<?xml version="1.0" encoding="utf-8"?><package xmlns="http://www.idpf.org/2007/opf" version="{version}" '
        f'unique-identifier="uid" {package_attrs}><metadata xmlns:dc="http://purl.org/dc/elements/1.1/" '
        f'xmlns:opf="http://www.idpf.org/2007/opf">{metadata}</metadata><manifest>{"".join(items)}</manifest>'
        f'<spine toc="ncx">{"".join(spine)}</spine></package>').encode()
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr(zipfile.ZipInfo("mimetype"), "application/epub+zip")
        zf.writestr("META-INF/container.xml",
                    '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:'
                    'container"><rootfiles><rootfile full-path="OEBPS/content.opf" '
                    'media-type="application/oebps-package+xml"/></rootfiles></container>')
        for name, data in files.items():
            zf.writestr(name, data)
    return path


#: What calibre writes for a book in a series (its OPF 2 metadata, as `ebook-convert` leaves it).
CALIBRE_METADATA = (
    '<dc:title>The Dragon Road</dc:title>'
    '<dc:creator opf:role="aut" opf:file-as="Quill, Mara">Mara Quill</dc:creator>'
    '<dc:contributor opf:role="trl" opf:file-as="Ross, Ben">Ben Ross</dc:contributor>'
    '<dc:contributor opf:role="bkp">calibre (7.6.0) [https://calibre-ebook.com]</dc:contributor>'
    '<dc:date>1987-03-01T00:00:00+00:00</dc:date>'
    '<dc:description>&lt;p&gt;A road, a &lt;b&gt;dragon&lt;/b&gt; and a map.&lt;/p&gt;'
    '&lt;p&gt;The second of the tales.&lt;/p&gt;</dc:description>'
    '<dc:publisher>Harbour Press</dc:publisher>'
    '<dc:identifier id="uid" opf:scheme="uuid">0c3d5e36-4f3c-4a0b-9d0e-2e6f3f0a1b2c</dc:identifier>'
    '<dc:identifier opf:scheme="calibre">0c3d5e36-4f3c-4a0b-9d0e-2e6f3f0a1b2c</dc:identifier>'
    '<dc:identifier opf:scheme="ISBN">978-0-306-40615-7</dc:identifier>'
    '<dc:language>en</dc:language>'
    '<dc:subject>Fantasy</dc:subject><dc:subject>Adventure</dc:subject>'
    '<dc:rights>Copyright 1987 Mara Quill</dc:rights>'
    '<meta name="calibre:series" content="Tales of the Road"/>'
    '<meta name="calibre:series_index" content="2.0"/>'
    '<meta name="calibre:title_sort" content="Dragon Road, The"/>'
    '<meta name="calibre:timestamp" content="2024-05-01T10:00:00+00:00"/>'
)
CHAPTERS = {"The Gate": "The gate was open at dawn.", "The Hill": "They climbed the hill by noon."}


def png_cover(folder: Path) -> bytes:
    """Return a 64x48 PNG made by ffmpeg (the EPUB's cover, which the library files as cover.jpg)."""
    out = folder / "cover.png"
    subprocess.run([shutil.which("ffmpeg") or "ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i",
                    "color=c=navy:s=64x48", "-frames:v", "1", str(out)], check=True, timeout=60)
    return out.read_bytes()


def probe_tags(path: Path) -> dict[str, str]:
    """Return ffprobe's format tags of a media file."""
    out = subprocess.run([shutil.which("ffprobe") or "ffprobe", "-v", "error", "-show_format", "-of", "json",
                          str(path)], capture_output=True, text=True, check=True, timeout=60).stdout
    return json.loads(out)["format"].get("tags", {})


def abs_tag(tags: dict[str, str], *names: str) -> str | None:
    """Return the first tag of `names`, matched without regard to case (Audiobookshelf's tryGrabTags)."""
    for name in names:
        for key, value in tags.items():
            if key.lower() == name.lower() and value.strip():
                return value.strip()
    return None


def abs_opf(path: Path) -> dict:
    """Return what Audiobookshelf's OPF parser takes from a metadata.opf."""
    root = ET.parse(path).getroot()
    metadata = root.find(f"{OPF}metadata")
    assert metadata is not None, "the metadata element must be unprefixed in the OPF namespace"
    creators = [(c.get(f"{OPF}role"), c.get(f"{OPF}file-as"), c.text) for c in metadata.findall(f"{DC}creator")]
    metas = [m for m in metadata if m.tag == f"{OPF}meta"]
    series = []
    for i, m in enumerate(metas):
        if m.get("name") == "calibre:series":
            nxt = metas[i + 1] if i + 1 < len(metas) else None
            series.append((m.get("content"), nxt.get("content") if nxt is not None and
                           nxt.get("name") == "calibre:series_index" else None))
    date = (metadata.findtext(f"{DC}date") or "").split("-")[0]
    return {
        "title": metadata.findtext(f"{DC}title"),
        "subtitle": metadata.findtext(f"{DC}subtitle"),
        "authors": [t for r, _, t in creators if r == "aut"],
        "author_sort": [f for r, f, _ in creators if r == "aut"],
        "narrators": [t for r, _, t in creators if r == "nrt"],
        "publishedYear": date if len(date) == 4 and date.isdigit() else None,
        "publisher": metadata.findtext(f"{DC}publisher"),
        "isbn": next((i.text for i in metadata.findall(f"{DC}identifier") if i.get(f"{OPF}scheme") == "ISBN"), None),
        "description": metadata.findtext(f"{DC}description"),
        "genres": [s.text for s in metadata.findall(f"{DC}subject")],
        "language": metadata.findtext(f"{DC}language"),
        "series": series,
    }

"""Open an EPUB's zip container and parse its XML without trusting either."""
from __future__ import annotations

import posixpath
import re
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

from lxml import etree

from app.book.zipstream import stream_member
from app.core.errors import CorruptBook

_HINT = "Use a clean copy of the book, or convert it again with Calibre"


@dataclass(frozen=True)
class Limits:
    """Bounds that keep a hostile EPUB (zip bomb, huge tree) from exhausting the machine."""

    #: Entries in the zip directory.
    max_entries: int = 10_000
    #: Uncompressed bytes of any one entry that is read.
    max_entry_bytes: int = 64 * 1024 * 1024
    #: Uncompressed bytes of all entries together, as declared and as actually read.
    max_total_bytes: int = 1024 * 1024 * 1024


_DRIVE = re.compile(r"^[A-Za-z]:")
_ENTITY_DECL = re.compile(rb"<!ENTITY", re.I)
#: Errors zipfile and its decompressors raise on damaged data.
_ZIP_ERRORS = (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError, NotImplementedError, RuntimeError)


def _unsafe_name(name: str) -> bool:
    """Return whether a zip entry name is absolute or climbs out of the archive."""
    norm = name.replace("\\", "/")
    return norm.startswith("/") or bool(_DRIVE.match(norm)) or ".." in norm.split("/") or "\x00" in norm


class SafeZip:
    """A zip archive checked against Limits, whose entries are read with a hard size cap."""

    def __init__(self, path: Path, limits: Limits | None = None):
        self.path = path
        self.limits = limits or Limits()
        self._read_total = 0
        try:
            self._zip = zipfile.ZipFile(path)
            infos = self._zip.infolist()
        except _ZIP_ERRORS as exc:
            raise CorruptBook(f"{path.name} is not a readable EPUB (bad zip: {exc})", hint=_HINT) from None
        self._check(infos)
        self._infos = {i.filename: i for i in infos if not i.is_dir()}

    def _check(self, infos: list[zipfile.ZipInfo]) -> None:
        lim = self.limits
        if len(infos) > lim.max_entries:
            raise CorruptBook(f"{self.path.name} has {len(infos)} zip entries (limit {lim.max_entries})", hint=_HINT)
        bad = next((i.filename for i in infos if _unsafe_name(i.filename)), None)
        if bad is not None:
            raise CorruptBook(f"{self.path.name} contains an unsafe path {bad!r} (absolute or '..')", hint=_HINT)
        total = sum(i.file_size for i in infos)
        if total > lim.max_total_bytes:
            raise CorruptBook(
                f"{self.path.name} unpacks to {total} bytes (limit {lim.max_total_bytes}); it may be a zip bomb",
                hint=_HINT,
            )

    def __enter__(self) -> SafeZip:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._zip.close()

    def names(self) -> list[str]:
        return list(self._infos)

    def has(self, name: str) -> bool:
        return name in self._infos

    def read(self, name: str) -> bytes:
        """Return an entry's bytes, refusing entries bigger than the limits however they are declared."""
        info = self._infos.get(name)
        if info is None:
            raise CorruptBook(f"{self.path.name} is missing {name!r}", hint=_HINT)
        lim = self.limits
        cap = min(lim.max_entry_bytes, lim.max_total_bytes - self._read_total)
        if info.file_size > cap:
            raise self._too_big(name)
        try:
            # Our own streaming inflater: zipfile caps what it inflates only for deflate.
            data = stream_member(self.path, info, cap + 1)
        except _ZIP_ERRORS as exc:
            raise CorruptBook(f"{self.path.name}: cannot read {name!r} ({exc})", hint=_HINT) from None
        if len(data) > cap:
            raise self._too_big(name)
        self._read_total += len(data)
        return data

    def verify_all(self) -> None:
        """Inflate every entry through the size caps, for a library that will read the zip itself."""
        for name in self._infos:
            self.read(name)
        self._read_total = 0

    def _too_big(self, name: str) -> CorruptBook:
        return CorruptBook(
            f"{self.path.name}: entry {name!r} is larger than {self.limits.max_entry_bytes} bytes "
            "(or the book exceeds its total size limit); it may be a zip bomb",
            hint=_HINT,
        )


def resolve(base: str, href: str) -> str | None:
    """Return the archive name an href relative to base points at, or None if it leaves the archive."""
    parts = urlsplit(href)
    if parts.scheme or parts.netloc:
        return None
    path = unquote(parts.path)
    if not path:
        return base
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(base), path))
    if joined.startswith("../") or joined == ".." or joined.startswith("/"):
        return None
    return joined


def declares_entities(data: bytes) -> bool:
    """Return whether an XML document declares entities, in UTF-8/ASCII or UTF-16/32 bytes."""
    if _ENTITY_DECL.search(data):
        return True
    if b"\x00" not in data[:64]:
        return False
    # UTF-16/32 (with or without a BOM): the declaration's bytes are interleaved with NULs.
    for encoding in ("utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"):
        if re.search(re.escape("<!entity".encode(encoding)), data.lower()):
            return True
    return False


def parse_xml(data: bytes, name: str, book: str) -> etree._Element:
    """Return the root of an XML document, refusing entity declarations, DTDs and network access."""
    if declares_entities(data):
        raise CorruptBook(
            f"{book}: {name} declares XML entities, which this tool refuses to expand (entity-expansion attack)",
            hint=_HINT,
        )
    parser = etree.XMLParser(
        resolve_entities=False, no_network=True, load_dtd=False, dtd_validation=False,
        # huge_tree: libxml2's own depth limit rises from 256 to 2048 levels (entities are refused
        # above, so nothing else it lifts can be abused); past it, recover=True would silently drop
        # the rest of the document, so a resource limit met is refused below, never half read.
        huge_tree=True, recover=True, remove_comments=True, remove_pis=True,
    )
    try:
        root = etree.fromstring(data, parser=parser)
    except (etree.XMLSyntaxError, ValueError) as exc:
        raise CorruptBook(f"{book}: {name} is not readable XML ({exc})", hint=_HINT) from None
    limit = next((e for e in parser.error_log if e.type_name == "ERR_RESOURCE_LIMIT"), None)
    if limit is not None:
        raise CorruptBook(f"{book}: {name} nests its elements too deeply to be read whole ({limit.message.split(',')[0]})",
                          hint=_HINT)
    if root is None:
        raise CorruptBook(f"{book}: {name} is not readable XML", hint=_HINT)
    return root

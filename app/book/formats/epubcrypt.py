"""Tell DRM from font obfuscation by what META-INF/encryption.xml names, not by file extensions.

The OCF spec lets encryption.xml list any resource; obfuscated fonts are
harmless, but an encrypted content document is noise to a narrator. The
CipherReference URIs are relative to the container root and URI-encoded
("Text/Chapter%201.xhtml"), so they are decoded and resolved before they are
compared with the manifest.
"""
from __future__ import annotations

import posixpath
from urllib.parse import unquote, urlsplit

from app.book.safezip import SafeZip, parse_xml
from app.core.errors import CorruptBook

ENCRYPTION_XML = "META-INF/encryption.xml"


def _local(tag: object) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def encrypted_names(zf: SafeZip, book: str) -> set[str]:
    """Return the archive names encryption.xml says are encrypted (empty without one)."""
    if not zf.has(ENCRYPTION_XML):
        return set()
    root = parse_xml(zf.read(ENCRYPTION_XML), ENCRYPTION_XML, book)
    names = set()
    for ref in root.iter():
        if _local(ref.tag) != "CipherReference":
            continue
        uri = urlsplit(ref.get("URI") or "")
        if uri.scheme or uri.netloc:
            continue
        path = posixpath.normpath(unquote(uri.path).lstrip("/"))
        if path and not path.startswith(".."):
            names.add(path)
    return names


def refuse_encrypted_text(zf: SafeZip, content: set[str], book: str) -> None:
    """Raise CorruptBook when any content document (`content`: OPF, spine, nav, NCX names) is encrypted."""
    locked = sorted(encrypted_names(zf, book) & content)
    if locked:
        raise CorruptBook(f"{book} is DRM-protected (its text is encrypted, e.g. {locked[0]})",
                          hint="Convert a DRM-free copy")

"""Open a Word package with python-docx, templates and macro-enabled documents too.

Word saves a template (.dotx), a macro-enabled document (.docm) or a macro-enabled template (.dotm) with
the same main part as a document, under another content type; such files are often renamed .docx, or
handed on as they are. python-docx refuses any main part but a document's ("is not a Word file"), so
their text was not read at all. The package is opened from a copy in memory whose [Content_Types].xml
names the main part a document: the parts, and so the text, are the file's own. Macros are never run
(python-docx does not read vbaProject.bin).
"""
from __future__ import annotations

import io
import zipfile
from pathlib import Path

_DOCUMENT = b"application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"
#: The main part's content types of Word's other kinds of package (ECMA-376 part 2; [MS-OFFMACRO]).
_OTHER_MAIN = (
    b"application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml",
    b"application/vnd.ms-word.document.macroEnabled.main+xml",
    b"application/vnd.ms-word.template.macroEnabledTemplate.main+xml",
)


def open_word(path: Path, content_types: bytes | None):
    """Return python-docx's Document for the file; `content_types` is its [Content_Types].xml (the zip's
    members were checked against bombs already, so they can be copied)."""
    import docx

    if not content_types or not any(t in content_types for t in _OTHER_MAIN):
        return docx.Document(str(path))
    buf = io.BytesIO()
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            data = src.read(info.filename)
            if info.filename == "[Content_Types].xml":
                for kind in _OTHER_MAIN:
                    data = data.replace(kind, _DOCUMENT)
            dst.writestr(info.filename, data)
    buf.seek(0)
    return docx.Document(buf)

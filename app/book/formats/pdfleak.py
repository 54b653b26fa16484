"""What a converter's own bug printed into a PDF's text, which no reader of the page would say.

dblatex 0.3.12 under Python 3 (Debian 12's, through XeTeX) writes each character it escapes in
verbatim text (a tree drawn with "├──", a box's "│") as the repr of an empty bytes object around it:
"b''├b''b''─b''b''─b'' src". The marks are printed on the page, so every text layer reads them;
glued to a character outside ASCII they are no program's text (a program's empty bytes, `data = b''`,
stands among ASCII), and they go.
"""
from __future__ import annotations

import re

_BYTES_REPR = re.compile(r"b['\u2019]{2}(?=[^\x00-\x7f])|(?<=[^\x00-\x7f\s])b['\u2019]{2}")


def without_converter_leaks(text: str) -> str:
    """Return a line's text without the empty bytes marks a converter printed around characters."""
    return _BYTES_REPR.sub("", text) if "b" in text else text

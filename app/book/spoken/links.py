"""URLs and email addresses as a listener wants them: "a link to debian dot org", or nothing."""
from __future__ import annotations

import re

from app.book.spoken.languages import Language

#: What to do with a link: say where it goes, or leave it out.
LINK_MODES = ("read", "skip")

_URL = re.compile(r"(?<![\w@/])(?:(?:https?|ftp)://|www\.)[^\s<>\"'\u201c\u201d]+", re.IGNORECASE)
_EMAIL = re.compile(r"(?<![\w.+-])(?:mailto:)?[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
#: A bare host name with a well-known top-level domain ("packages.debian.org"), and the path
#: that makes it a link without a scheme ("en.tldp.org/FAQ/intro.html").
_HOST = re.compile(
    r"(?<![\w@/.-])(?P<host>(?:[a-z0-9-]+\.)+(?:org|com|net|edu|gov|io|de|uk|eu|info|dev|fr|ch|at))\b"
    r"(?![\w@-]|\.\w)(?P<path>/[^\s<>\"'\u201c\u201d]*)?",
    re.IGNORECASE,
)
#: Characters that end a sentence or a parenthesis, not the link.
_TRAILING = ".,;:!?)]}'\""


def _host_words(host: str, lang: Language) -> str:
    """Return a host name spoken: "packages dot debian dot org"."""
    return f" {lang.dot} ".join(part for part in host.lower().split(".") if part)


def _url(m: re.Match, lang: Language, mode: str) -> str:
    raw = m[0]
    tail = ""
    while raw and raw[-1] in _TRAILING:
        raw, tail = raw[:-1], raw[-1] + tail
    host = re.sub(r"^(?:(?:https?|ftp)://)?(?:[^@/]*@)?", "", raw, flags=re.IGNORECASE).split("/")[0].split(":")[0]
    host = re.sub(r"^www\.", "", host, flags=re.IGNORECASE)
    if mode == "skip" or not host:
        return tail
    return f"{lang.link} {_host_words(host, lang)}{tail}"


def _email(m: re.Match, lang: Language, mode: str) -> str:
    if mode == "skip":
        return ""
    address = re.sub(r"^mailto:", "", m[0], flags=re.IGNORECASE)
    user, _, host = address.partition("@")
    return f"{_host_words(user, lang)} {lang.at} {_host_words(host, lang)}"


def links(text: str, lang: Language, mode: str = "read") -> str:
    """Return text with URLs, email addresses and bare host names read out (or skipped)."""
    if not lang.dot and mode == "read":
        return text  # no words for "dot" in this language: leave them for the voice
    # "<jane@example.org>" and "<https://...>": the angle brackets only mark the address.
    text = re.sub(r"<\s*((?:mailto:)?[^<>\s]+@[^<>\s]+|(?:https?|ftp)://[^<>\s]+)\s*>", r"\1", text)
    text = _EMAIL.sub(lambda m: _email(m, lang, mode), text)
    text = _URL.sub(lambda m: _url(m, lang, mode), text)
    text = _HOST.sub(lambda m: _host(m, lang, mode), text)
    if mode == "skip":
        text = re.sub(r"\s*[(\[<]\s*[)\]>]", "", text)  # "(see https://...)" left nothing inside
    return text


def _host(m: re.Match, lang: Language, mode: str) -> str:
    """Return a bare host name spoken; with a path it is a link, said or skipped like one."""
    if not m["path"]:
        return _host_words(m["host"], lang) if mode == "read" else m[0]
    return _url(m, lang, mode)

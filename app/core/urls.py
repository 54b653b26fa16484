"""Server URLs: the one formatter for URLs in messages and logs, and the check of a user's URL.

Every message that names a server goes through `display_url`, which drops
credentials ("http://user:pass@host"), the query and the fragment, and never
raises, even for a URL no parser accepts ("http://[::1"). `check_server_url`
refuses, with one line, a URL the app cannot talk to (a file:// or ftp://
scheme, a broken host) before anything tries to connect to it.
"""
from __future__ import annotations

import ipaddress
import re
from urllib.parse import urlsplit

from app.core.errors import ConfigError

#: Schemes an SGLang-Omni server answers on.
SCHEMES = ("http", "https")
_USERINFO = re.compile(r"(?<=://)[^/?#@\s]*@")


def display_url(url: object) -> str:
    """Return `url` fit for a message: no credentials, no query, no fragment; never raises."""
    text = str(url).strip()
    try:
        parts = urlsplit(text)
        host = parts.hostname or ""
        port = parts.port
    except ValueError:  # unbalanced brackets, a port that is not a number, ...
        return _USERINFO.sub("", text).split("?", 1)[0].split("#", 1)[0]
    if not parts.scheme or not host:
        return _USERINFO.sub("", text).split("?", 1)[0].split("#", 1)[0]
    netloc = url_host(host) + (f":{port}" if port is not None else "")
    return f"{parts.scheme}://{netloc}{parts.path}"


def url_host(host: str) -> str:
    """Return a host as it goes into a URL: IPv6 literals in brackets."""
    host = host.strip("[]")
    try:
        return f"[{host}]" if ipaddress.ip_address(host).version == 6 else host
    except ValueError:
        return host


def check_server_url(url: str, *, what: str = "--api-url") -> str:
    """Return the URL without a trailing slash, or raise ConfigError naming what is wrong with it."""
    shown = display_url(url)
    hint = "Give the server's address, e.g. http://127.0.0.1:8100 or https://tts.example.org"
    try:
        parts = urlsplit(url.strip())
        host, _port = parts.hostname, parts.port
    except ValueError as exc:
        raise ConfigError(f"{what} {shown} is not a valid URL ({exc})", hint=hint) from None
    if parts.scheme.lower() not in SCHEMES:
        scheme = f"'{parts.scheme}://'" if parts.scheme else "no scheme"
        raise ConfigError(f"{what} {shown} has {scheme}; an SGLang-Omni server speaks http:// or https://",
                          hint=hint)
    if not host:
        raise ConfigError(f"{what} {shown} names no host", hint=hint)
    return url.strip().rstrip("/")

"""Keep secrets out of every message and log line: tokens, API keys, URL credentials.

The CLI's error boundary passes each line it prints through `redact`, and a
`RedactingFilter` on the root log handler does the same for log records, so
a password in `--api-url http://user:pass@host` cannot reach the terminal
whichever path printed it. Messages should still name servers through
`app.core.urls.display_url`; this is the net under that.
"""
from __future__ import annotations

import logging
import re

#: The characters of a secret written after a bare space: no punctuation that ends a sentence.
_TOKEN = r"[A-Za-z0-9_+/=.~-]"
#: Patterns of secrets that must never reach a message or a log line.
_SECRETS = (
    re.compile(r"\bhf_[A-Za-z0-9]{8,}"),
    re.compile(r"\bsk-[A-Za-z0-9_-]{8,}"),
    # After ":" or "=" any value is the secret; after a bare space only a value that looks like one
    # (a digit, one of _+/=~ or an inner capital in it, or 20 characters): "password required" is a sentence.
    re.compile(r"(?i)\b(bearer|token|api[_-]?key|authorization|password|passwd)(\s*[:=]\s*)"
               r"(?:(?:bearer|basic|token)\s+)?[^\s,;\"'&]+"),
    re.compile(r"\b((?i:bearer|token|api[_-]?key|authorization|password|passwd))(\s+)"
               r"(?:(?i:bearer|basic|token)\s+)?"
               rf"(?={_TOKEN}*[0-9_+/=~]|{_TOKEN}+[A-Z]|{_TOKEN}{{20}}){_TOKEN}+"),
    # Any userinfo in a URL, "user:pass@" and a bare "token@" alike.
    re.compile(r"(?<=://)[^/?#@\s]+@"),
)


def redact(text: str) -> str:
    """Return `text` with tokens, API keys and URL credentials masked."""
    for pattern in _SECRETS:
        text = pattern.sub(_mask, text)
    return text


def _mask(match: re.Match[str]) -> str:
    if match.lastindex and match.lastindex >= 2:
        return f"{match.group(1)}{match.group(2)}***"
    return "***@" if match.group(0).endswith("@") else "***"


class RedactingFilter(logging.Filter):
    """A log filter that masks secrets in each record's final message."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = redact(message)
        if cleaned != message:
            record.msg, record.args = cleaned, None
        return True

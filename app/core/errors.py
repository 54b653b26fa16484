"""The app's exceptions, in one place.

Every error a user can cause or meet is one of these; `app.cli` turns each
into one line (what is wrong, what to do) and an exit code. Anything else is a
bug and gets a traceback only with AUDIOBOOK_DEBUG=1. The hint to set it is
printed only where a traceback could help: never after a user's own mistake
(a missing, unsupported, damaged or protected book, a bad option or setting).

    AudiobookError                 base; .hint is the next thing to try
    ├── InputError                 the book or an option is unusable (exit 2)
    │   ├── BookNotFound
    │   ├── UnsupportedFormat
    │   ├── CorruptBook
    │   ├── ProtectedBook          DRM or a password: the text is locked
    │   └── EmptyBook
    │       └── ScannedBook        pages are pictures of text: OCR first
    ├── OutputError                cannot write output or cache (exit 3)
    ├── ConfigError                settings, catalog key, unknown backend (exit 2)
    ├── BackendError               a backend failed to produce audio (exit 4)
    │   ├── ServerError            a TTS server answered with an error
    │   │   ├── OutOfMemory        ... CUDA out of memory
    │   │   └── ServerBusy         ... "queue full", 429, busy: backpressure, not a failure
    │   ├── ServerUnavailable      cannot connect / server died
    │   ├── BadAudio               the answer was not usable audio
    │   ├── UnverifiedChunks       chunks still said wrong after every take (book written, report names them)
    │   └── ServerStartError       a managed server did not come up (.log_path)
    ├── ProvisionError             venv/package/model install failed (.log_path)
    ├── LockedError                another run holds the book's lock (exit 5)
    └── Cancelled                  Ctrl-C or SIGTERM (exit 130)
"""
from __future__ import annotations

import errno
from pathlib import Path


class AudiobookError(Exception):
    """Base of every error the CLI reports as one line."""

    exit_code = 1
    #: Whether "(set AUDIOBOOK_DEBUG=1 for the traceback)" follows the line: not for a user's mistake.
    traceback_helps = True

    def __init__(self, message: str, *, hint: str | None = None, log_path: Path | None = None):
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.log_path = log_path

    def one_line(self) -> str:
        """Return the message, the log path and the hint as one line."""
        parts = [self.message.rstrip(".") + "."]
        if self.log_path is not None:
            parts.append(f"Full log: {self.log_path}.")
        if self.hint:
            parts.append(self.hint.rstrip(".") + ".")
        return " ".join(parts)


class InputError(AudiobookError):
    exit_code = 2
    traceback_helps = False


class BookNotFound(InputError):
    pass


class UnsupportedFormat(InputError):
    pass


class CorruptBook(InputError):
    pass


class ProtectedBook(InputError):
    """DRM or a password locks the book's text."""


class EmptyBook(InputError):
    pass


class ScannedBook(EmptyBook):
    """The pages are pictures of text with no text layer: it needs OCR first."""


class OutputError(AudiobookError):
    exit_code = 3


class ConfigError(AudiobookError):
    exit_code = 2
    traceback_helps = False


class BackendError(AudiobookError):
    exit_code = 4

    #: Whether retrying the same request may succeed (5xx, timeouts, dropped connections).
    #: The pipeline alone retries (app/pipeline/scheduler.py); backends only classify.
    transient = False


class ServerError(BackendError):
    def __init__(self, message: str, *, status: int | None = None, transient: bool = False, **kw):
        super().__init__(message, **kw)
        self.status = status
        self.transient = transient


class OutOfMemory(ServerError):
    pass


class ServerBusy(ServerError):
    """The server is saturated (503 queue full, 429, "busy"): send the chunk again later.

    Backpressure, not a failure: the pipeline requeues the chunk without spending one
    of its attempts and lowers the number of requests it keeps in flight.
    """

    def __init__(self, message: str, **kw):
        kw.setdefault("transient", True)
        super().__init__(message, **kw)


class ServerUnavailable(BackendError):
    transient = True


class BadAudio(BackendError):
    transient = True


class UnverifiedChunks(BackendError):
    """The book was written, but verification heard some chunks said wrong in every take."""


class ServerStartError(BackendError):
    pass


class ProvisionError(AudiobookError):
    exit_code = 4


class LockedError(AudiobookError):
    exit_code = 5
    traceback_helps = False


class Cancelled(AudiobookError):
    exit_code = 130
    traceback_helps = False


#: errno values that mean the user's disk or folders are in the way, not a bug in the app.
_ENVIRONMENT_ERRNOS = frozenset({
    errno.EACCES, errno.EPERM, errno.EROFS, errno.ENOSPC, errno.EDQUOT, errno.ENOTDIR, errno.EISDIR,
    errno.EEXIST, errno.ENAMETOOLONG, errno.ELOOP, errno.EMFILE, errno.ENFILE, errno.EFBIG, errno.EIO,
    errno.ENOTEMPTY, errno.EXDEV,
})
_FULL = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})


def environment_error(exc: OSError) -> OutputError | None:
    """Return the one-line OutputError (exit 3) for a file-system fault, or None if `exc` is something else.

    A read-only app home, a file where a cache folder should be, a folder where
    a chunk WAV should be, a full disk: the user's environment, reported with
    the path and the fix rather than as "This is a bug".
    """
    if exc.errno not in _ENVIRONMENT_ERRNOS:
        return None
    where = exc.filename if exc.filename is not None else "a file"
    if exc.errno in _FULL:
        hint = "Free disk space (or choose another --output / AUDIOBOOK_HOME) and run again; finished chunks are kept"
    elif exc.errno in (errno.ENOTDIR, errno.EISDIR, errno.EEXIST, errno.ENOTEMPTY):
        hint = "Something else sits where the app keeps its files: move it away (or set AUDIOBOOK_HOME) and run again"
    else:
        hint = "Make the folder writable, or point AUDIOBOOK_HOME / --output somewhere writable"
    return OutputError(f"Cannot write {where}: {exc.strerror or exc}", hint=hint)

"""Read a book with a native library in a child process, under a memory, CPU and time limit.

PDFium (pypdfium2), python-docx and `mobi` are libraries this tool cannot change. On a hostile
file they can abort the process (PDFium's SIGABRT on 25 million unbalanced `q` operators), eat
gigabytes (a `gridSpan` of a billion) or run for minutes (thousands of pages sharing one page
object). Checking every such object graph before the library sees it would mean re-implementing
each parser and would still miss the next trap; a child process bounds them all at once:

- RLIMIT_AS caps its memory (MemoryError or a failed allocation ends it, not the machine);
- RLIMIT_CPU and a wall-clock deadline end a runaway;
- RLIMIT_CORE 0: an abort writes no core file beside the book;
- its stderr (library warnings, e.g. pypdfium2's on a circular outline) goes to logs/reader.log,
  not the terminal.

The parent turns each ending into one line (CorruptBook, exit 2) naming what happened and what to
do. An error the reader itself raises (a damaged or protected book) comes back as itself. An
exception raised in this tool's own code stays a bug; one raised inside a library is the file's
fault and is reported as such. The book comes back pickled through a private temp folder.

Set AUDIOBOOK_READ_MEMORY_MB / AUDIOBOOK_READ_SECONDS to change the limits.
"""
from __future__ import annotations

import importlib
import logging
import os
import pickle
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from dataclasses import replace
from pathlib import Path

from app.core import paths, proc
from app.core.errors import AudiobookError, Cancelled, CorruptBook

log = logging.getLogger(__name__)

#: Formats whose reader runs a native or unbounded library: read in a child process.
GUARDED = frozenset({"pdf", "docx", "mobi"})
#: Default limits of one read (the README's "per book" bound).
READ_MEMORY_MB = 1024
READ_SECONDS = 60.0
_APP_DIR = Path(__file__).resolve().parents[1]
_HINT = "The file is damaged or built to attack readers; use a clean copy, or convert it again (e.g. with Calibre)"
_POLL_SECONDS = 0.05
#: The file in the logs folder that keeps what the readers printed.
READER_LOG = "reader.log"
#: The child's exit codes for the endings it can name itself.
_EXIT_MEMORY, _EXIT_RECURSION = 3, 4


def memory_limit_mb() -> int:
    return _env_number("AUDIOBOOK_READ_MEMORY_MB", READ_MEMORY_MB)


def time_limit_seconds() -> float:
    return float(_env_number("AUDIOBOOK_READ_SECONDS", READ_SECONDS))


def _env_number(name: str, default: int | float) -> int:
    raw = os.environ.get(name, "").strip()
    try:
        value = int(float(raw)) if raw else int(default)
    except ValueError:
        value = int(default)
    return max(1, value)


def read_guarded(fmt, path: Path, options):
    """Return fmt.read(path, options), run in a bounded child process when the format needs it."""
    if fmt.key not in GUARDED:
        return fmt.read(path, options)
    seconds, memory = time_limit_seconds(), memory_limit_mb()
    with tempfile.TemporaryDirectory(prefix="audiobook-read-") as tmp:
        folder = Path(tmp)
        request = folder / "request.pickle"
        # Absolute, not resolved: a symlinked folder stays as the user named it.
        request.write_bytes(pickle.dumps((fmt.reader, str(Path(path).absolute()), options, seconds, memory)))
        err_path = folder / "stderr.txt"
        with open(err_path, "wb") as err:
            code, took = _run_child(folder, err, seconds)
        _log_stderr(err_path, fmt.name)
        answer = folder / "answer.pickle"
        if code == 0 and answer.exists():
            return _unpack(pickle.loads(answer.read_bytes()), path)
    raise _failure(code, took, seconds, memory, path, fmt.name)


def _run_child(folder: Path, err, seconds: float) -> tuple[int | None, float]:
    """Run the child; return its exit code (negative: killed by that signal; None: over time) and seconds."""
    start = time.monotonic()
    child = proc.spawn([sys.executable, "-m", "app.book.sandbox", str(folder)], stdout=subprocess.DEVNULL,
                       stderr=err, cwd=folder, env=_child_env(), new_session=True)
    try:
        while True:
            code = child.poll()
            if code is not None:
                return code, time.monotonic() - start
            if time.monotonic() - start > seconds:
                _kill(child)
                return None, time.monotonic() - start
            time.sleep(_POLL_SECONDS)
    except BaseException:
        _kill(child)  # Ctrl-C while reading: the child goes with the run
        raise


def _child_env() -> dict[str, str]:
    """Return the overrides of the reader child's environment (the one subprocess door drops the rest)."""
    # One thread per math library: a pool of BLAS threads reserves address space the limit counts.
    env = {name: os.environ.get(name, "1") for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")}
    env["PYTHONPATH"] = str(_APP_DIR.parent)  # the child imports this very app, wherever it is installed
    return env


def _kill(child: subprocess.Popen) -> None:
    try:
        os.killpg(child.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    child.wait()


def _log_stderr(err_path: Path, what: str) -> None:
    """Append what the reader printed (library warnings) to logs/reader.log, never to the terminal."""
    try:
        text = err_path.read_text(encoding="utf-8", errors="replace")[:64 * 1024]
    except OSError:
        return
    if not text.strip():
        return
    for line in text.splitlines()[:50]:
        if line.strip():
            log.debug("%s reader: %s", what, line)
    try:
        folder = paths.logs_dir()
        folder.mkdir(parents=True, exist_ok=True)
        with open(folder / READER_LOG, "a", encoding="utf-8") as fh:
            fh.write(f"--- {time.strftime('%Y-%m-%d %H:%M:%S')} {what} reader\n{text.rstrip()}\n")
    except OSError:
        pass  # a log that cannot be written costs the log, not the book
    if os.environ.get("AUDIOBOOK_DEBUG") == "1":
        sys.stderr.write(text)


def _unpack(answer: tuple, path: Path):
    kind = answer[0]
    if kind == "book":
        return replace(answer[1], source=path)  # the book file as the caller named it, as in-process readers keep it
    if kind == "error":
        _, module, name, message, hint = answer
        try:
            cls = getattr(importlib.import_module(module), name)
            exc = cls(message, hint=hint)
        except (ImportError, AttributeError, TypeError):
            exc = CorruptBook(message, hint=hint)
        raise exc
    if kind == "library":
        _, name, message, where = answer
        detail = f"{name}: {message}" if message else name
        raise CorruptBook(f"{path.name} could not be read: {where} failed ({detail[:200]})", hint=_HINT)
    # An exception in this tool's own code: a bug, with the child's traceback.
    raise RuntimeError(f"reading {path.name} failed in the reader:\n{answer[1]}")


def _failure(code: int | None, took: float, seconds: float, memory: int, path: Path, what: str) -> AudiobookError:
    name = path.name
    more = "set AUDIOBOOK_READ_MEMORY_MB / AUDIOBOOK_READ_SECONDS higher to try harder"
    if code is None or code == -signal.SIGXCPU:
        return CorruptBook(f"{name}: reading it took longer than {seconds:.0f} s, the limit for one {what} book "
                           f"(a runaway page or object graph)", hint=f"{_HINT}; or {more}")
    if code == _EXIT_MEMORY:
        return CorruptBook(f"{name}: reading it needs more than {memory} MB of memory, the limit for one {what} "
                           f"book", hint=f"{_HINT}; or {more}")
    if code == _EXIT_RECURSION:
        return CorruptBook(f"{name} is nested too deeply to read", hint=_HINT)
    if code == -signal.SIGINT or code == 130:
        return Cancelled("Stopped while reading the book")
    if code is not None and code < 0:
        try:
            sig = signal.Signals(-code).name
        except ValueError:
            sig = f"signal {-code}"
        return CorruptBook(f"{name}: the {what} library crashed reading it ({sig}, after {took:.1f} s)", hint=_HINT)
    return CorruptBook(f"{name}: the {what} reader ended unexpectedly (exit {code})", hint=_HINT)


# -- the child ---------------------------------------------------------------------------------------

def _limit(memory_mb: int, seconds: float) -> None:
    import resource

    def cap(kind: int, value: int) -> None:
        _soft, hard = resource.getrlimit(kind)
        if hard != resource.RLIM_INFINITY:
            value = min(value, hard)
        resource.setrlimit(kind, (value, value if hard == resource.RLIM_INFINITY else hard))

    cap(resource.RLIMIT_AS, memory_mb * 1024 * 1024)
    cap(resource.RLIMIT_CPU, int(seconds) + 1)
    cap(resource.RLIMIT_CORE, 0)


def _in_app(tb) -> bool:
    """Return whether the innermost frame of a traceback is this tool's own code."""
    last = traceback.extract_tb(tb)[-1:] if tb is not None else []
    return bool(last) and Path(last[0].filename).resolve().is_relative_to(_APP_DIR)


def _library_of(tb) -> str:
    """Return the top-level package the innermost frame belongs to ('docx', 'pypdfium2', ...)."""
    frames = traceback.extract_tb(tb)
    for frame in reversed(frames):
        parts = Path(frame.filename).parts
        if "site-packages" in parts:
            i = parts.index("site-packages")
            if i + 1 < len(parts):
                return parts[i + 1].removesuffix(".py")
    return "a library"


def child_main(folder: Path) -> int:
    reader, path, options, seconds, memory = pickle.loads((folder / "request.pickle").read_bytes())
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    _limit(memory, seconds)
    module, _, func = reader.partition(":")
    try:
        book = getattr(importlib.import_module(module), func)(Path(path), options)
        answer: tuple = ("book", book)
    except MemoryError:
        return _EXIT_MEMORY
    except AudiobookError as exc:
        answer = ("error", type(exc).__module__, type(exc).__qualname__, exc.message, exc.hint)
    except RecursionError:
        return _EXIT_RECURSION
    except Exception as exc:  # noqa: BLE001 - sorted into the file's fault or a bug below
        if os.environ.get("AUDIOBOOK_DEBUG") == "1":
            traceback.print_exc()
        if _in_app(exc.__traceback__):
            answer = ("bug", traceback.format_exc())
        else:
            answer = ("library", type(exc).__name__, str(exc).splitlines()[0] if str(exc) else "",
                      _library_of(exc.__traceback__))
    try:
        data = pickle.dumps(answer)
    except MemoryError:
        return _EXIT_MEMORY
    tmp = folder / "answer.part"
    tmp.write_bytes(data)
    tmp.rename(folder / "answer.pickle")
    return 0


if __name__ == "__main__":
    sys.exit(child_main(Path(sys.argv[1])))

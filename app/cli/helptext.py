"""What the command line says about itself: the man-page help of `audiobook.py --help`.

The help's FILES section is written from app.core.paths at run time, so it names
the folders this run would use (AUDIOBOOK_HOME and the other variables applied).
"""
from __future__ import annotations

from app.core import paths
from app.book.formats import FORMATS

SYNOPSIS = """\
audiobook.py BOOK [options]                       convert a book (the formats are listed below)
       audiobook.py BOOK BOOK... | FOLDER [--output DIR/]   many books as one queue through one server
       audiobook.py --list-voices [--backend B] [--api-url URL]
       audiobook.py --preview TEXT [--voice V] [--speed S] [-o FILE.wav]
       audiobook.py hub [--web]                          the terminal UI (or in a browser)
       audiobook.py backends sglomni COMMAND             manage the SGLang-Omni backend
       audiobook.py cache [prune]                        the cache's size per book; free what no book needs"""

DESCRIPTION = """\
Turn a book into an M4B audiobook with chapter markers (and, on request, MP3s, a
read-along EPUB and captions), with the embedded Piper voice on the CPU or an
SGLang-Omni TTS server. A stopped run resumes where it stopped. Options not given
come from the settings file (see FILES), else from the defaults named below."""

EXAMPLES = """\
examples:
  audiobook.py samples/aesop.epub                        the whole book, Piper voice -> output/<title>.m4b
  audiobook.py book.epub --list-chapters                 what will be read, chapter by chapter
  audiobook.py book.epub --chapters 3-5,9                only those chapters
  audiobook.py a.epub b.epub c.txt --output audiobooks/  three books, one summary at the end
  audiobook.py book.epub --format m4b,epub,vtt --output out/Book.m4b
                                                         the audiobook, a read-along EPUB and captions
  audiobook.py --list-voices                             Piper voices installed and installable
  audiobook.py --preview "It was a dark and stormy night." --speed 1.2
                                                         hear the voice at that rate, then choose
  audiobook.py book.epub --voice en_US-joe-medium --speed 1.1 --cover cover.jpg --no-announce
  audiobook.py book.epub --backend sglomni --model moss_tts_local
  audiobook.py book.epub --api-url http://gpu-box:8100   a running sgl-omni server
  audiobook.py cache prune                               free the chunks no book needs"""

#: Exit codes, as app.core.errors assigns them (tests/core/test_cli_help.py checks both agree).
EXIT_CODES = (
    (0, "done"),
    (1, "a bug (the message says how to report it)"),
    (2, "the book, an option or a setting is unusable"),
    (3, "the output or the cache cannot be written (disk full, read-only, a folder in the way)"),
    (4, "a backend failed: a server, a model install, or chunks still said wrong after every take"),
    (5, "another run holds this book or this output (locked)"),
    (130, "stopped by Ctrl-C or SIGTERM; run the same command again to resume"),
)

#: Variables the app reads (tests/core/test_cli_help.py checks none is missing).
ENVIRONMENT = (
    ("AUDIOBOOK_HOME", "the app home: settings, cache, output, logs (default: the checkout)"),
    ("AUDIOBOOK_SETTINGS", "the settings file (default: HOME/settings.toml)"),
    ("AUDIOBOOK_CACHE", "the chunk cache (default: HOME/cache)"),
    ("AUDIOBOOK_LOGS", "server, installer and ffmpeg logs (default: HOME/logs)"),
    ("AUDIOBOOK_ENVS", "managed venvs, e.g. the sglang-omni one (default: app/envs)"),
    ("AUDIOBOOK_VOICES", "reference clips and Piper .onnx voices (default: voices/)"),
    ("AUDIOBOOK_REQUEST_TIMEOUT", "seconds one synthesis request may take (default 900)"),
    ("AUDIOBOOK_READ_SECONDS", "seconds reading one PDF, DOCX or MOBI book may take (default 60)"),
    ("AUDIOBOOK_READ_MEMORY_MB", "memory reading one PDF, DOCX or MOBI book may use (default 1024)"),
    ("AUDIOBOOK_DEBUG", "1: show the traceback of an error, and debug log lines"),
    ("HF_HOME, HF_HUB_CACHE", "where SGLang-Omni model weights are cached (Hugging Face's own)"),
)


#: `audiobook.py backends --help`: the backends that have commands.
BACKENDS_HELP = """\
usage: audiobook.py backends sglomni COMMAND [options]

Manage the backends that need managing. The embedded Piper voice needs none:
its voices are packages ('audiobook.py --list-voices' lists them).

backends:
  sglomni   the SGLang-Omni TTS server: list|status|setup|install KEY...|remove KEY...|
            start KEY|stop|voices ('audiobook.py backends sglomni --help')
"""


def _files() -> str:
    rows = (
        (paths.settings_file(), "settings: defaults for these options (the hub edits it too)"),
        (paths.output_dir(), "finished audiobooks, unless --output or the output_dir setting"),
        (paths.cache_dir(), "finished chunks (resume), encoded chapters; see 'audiobook.py cache'"),
        (paths.logs_dir(), "logs named in error messages"),
        (paths.envs_dir(), "managed venvs (torch and CUDA live only there)"),
        (paths.voices_dir(), "reference clips for --clone, Piper .onnx voices for --voice"),
    )
    return "files:\n" + "\n".join(f"  {path}\n      {what}" for path, what in rows)


def _formats() -> str:
    """Return the formats the tool reads, from the formats table (app/book/formats/table.py)."""
    rows = [f"  {fmt.name:<10} {' '.join(fmt.suffixes)}" for fmt in FORMATS]
    return ("book formats (a file is read by its content when its suffix says otherwise):\n"
            + "\n".join(rows))


def epilog() -> str:
    """Return the help's sections after the options: examples, exit codes, environment, files."""
    codes = "exit codes:\n" + "\n".join(f"  {code:<4} {what}" for code, what in EXIT_CODES)
    env = "environment:\n" + "\n".join(f"  {name:<26} {what}" for name, what in ENVIRONMENT)
    more = ("more: 'audiobook.py hub --help', 'audiobook.py backends --help', 'audiobook.py cache --help'; "
            "the README and app/docs/ in the checkout.")
    return "\n\n".join((_formats(), EXAMPLES, codes, env, _files(), more))

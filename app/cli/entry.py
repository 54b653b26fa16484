"""The command line, and the app's one error boundary.

    python audiobook.py BOOK [options]          convert a book
    python audiobook.py --list-voices | --preview TEXT   choose a voice
    python audiobook.py hub                     the terminal UI
    python audiobook.py hub --web               the same UI in a browser page
    python audiobook.py backends sglomni ...    manage the SGLang-Omni backend
    python audiobook.py cache [prune]           the cache's size per book; free what no book needs

Every known error becomes one line (what is wrong, what to do) and an exit
code; a traceback appears only with AUDIOBOOK_DEBUG=1.
"""
from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
from pathlib import Path

from app.core import allocator
from app.cli import helptext
from app.cli.parser import build_convert_parser, build_hub_parser
from app.cli.suggest import did_you_mean
from app.core.errors import AudiobookError, Cancelled, environment_error
from app.core.redact import RedactingFilter, redact

DEBUG_VAR = "AUDIOBOOK_DEBUG"


def _debug() -> bool:
    return os.environ.get(DEBUG_VAR, "") not in ("", "0")


def _ask_clamp(size: int, cap: int) -> str:
    """Ask on the console whether to clamp the chunk size; a closed stdin clamps.

    An unattended run (no stdin, /dev/null, end of input) must never narrate
    chunks the model cuts off silently, so anything but an explicit "t" or "c"
    sets the chunk size to the model's cap.
    """
    print(f"This model speaks at most {cap} words per request, but the chunk size is {size}.\n"
          f"[S]et chunk to {cap} / [t] keep {size} (audio may be cut off) / [c]ancel? ",
          end="", file=sys.stderr, flush=True)
    try:
        line = sys.stdin.readline() if sys.stdin and not sys.stdin.closed else ""
    except (OSError, ValueError):
        line = ""
    if not line:
        print("(no answer: unattended run)", file=sys.stderr)
    return {"t": "keep", "c": "cancel"}.get(line.strip().lower()[:1], "set")


def run_convert(argv: list[str]) -> int:
    from app.convert import StopControl, convert
    from app.request import read_book
    from app.progress import ConsoleProgress

    parser = build_convert_parser()
    args = parser.parse_args(argv)
    if args.list_voices:
        return list_voices(_request(args))
    if args.preview is not None:
        from app.preview import preview

        print(preview(_request(args), args.preview))
        return 0
    if not args.book:
        parser.error("the book file is required (e.g. python audiobook.py samples/aesop.epub)")
    if args.library is not None and args.output is not None:
        parser.error("--library decides where the audiobook goes; give --library or --output, not both")
    if len(args.book) > 1 or args.book[0].expanduser().is_dir():
        from app.cli.queue import run_many  # several books: one queue through one server (app/batch.py)

        return run_many(args, lambda book: _request(args, book), _stop_on_signals)
    req = _request(args)
    if args.export_text:
        from app.convert import export_text

        print(export_text(req, args.export_text))
        return 0
    if args.export_cast:
        from app.castview import export_cast

        print(export_cast(req, args.export_cast))
        return 0
    if args.preview_cast:
        from app.castview import preview_line

        print(preview_line(req, args.preview_cast))
        return 0
    if args.list_chapters:
        print_chapters(read_book(req))
        return 0
    progress = ConsoleProgress()
    stop = StopControl()
    _stop_on_signals(stop)
    try:
        output = convert(req, listener=progress, confirm_clamp=_ask_clamp, stop=stop)
    finally:
        progress.close()
    # The one place the finished path is printed, on stdout for scripts (progress goes to stderr).
    print(output)
    return 0


def _request(args: argparse.Namespace, book: Path | None = None):
    """Return the ConvertRequest the parsed options ask for (for `book`, else the first book named)."""
    from app.request import ConvertRequest

    if book is None:
        book = args.book[0] if args.book else None
    return ConvertRequest(
        book=book, output=args.output, backend=args.backend, model=args.model,
        chunk_size=args.chunk_size, chapters=args.chapters, fmt=args.fmt, no_cache=args.no_cache,
        title=args.title, author=args.author, voice=args.voice, instructions=args.instructions,
        clone=args.clone, transcription=args.transcription, language=args.language,
        whisper_model=args.whisper_model,
        api_urls=tuple(args.api_urls), concurrency=args.concurrency, port=args.port, host=args.host,
        profile=args.profile, include_matter=args.include_matter, code=args.code or "mention",
        lexicon=args.lexicon, links=args.links, verify=args.verify,
        verify_takes=args.verify_takes, asr_url=args.asr_url, asr_model=args.asr_model,
        loudness=args.loudness, master=args.master,
        speed=args.speed, cover=args.cover, announce=args.announce,
        series=args.series, series_index=args.series_index, narrator=args.narrator, year=args.year,
        library=args.library,
        cast=args.cast, cast_llm=args.cast_llm, cast_voices=args.cast_voices,
    )


def list_voices(req) -> int:
    """Print the voices of the backend a conversion would use: Piper's, or the server's (--list-voices)."""
    from app.core import settings as settings_mod
    from app.request import choose_backend_name

    if choose_backend_name(req, settings_mod.load()) == "piper":
        from app.backends.piper.voices import listing

        print("\n".join(listing()))
        return 0
    from app.cli.sglomni import print_voices

    return print_voices(req.api_urls)


#: Words of each chapter's opening shown by --list-chapters.
LIST_OPENING_WORDS = 12


def print_chapters(book) -> None:
    """Print the book's chapters: number, title, words, and the first words that will be spoken."""
    print(f"{book.title} — {book.author}")
    for ch in book.chapters:
        # The heading is spoken first; the opening shown is what follows it.
        paras = ch.paragraphs[1:] if ch.paragraphs[0].casefold() == ch.title.casefold() else ch.paragraphs
        words = " ".join(paras).split()
        opening = " ".join(words[:LIST_OPENING_WORDS]) + (" …" if len(words) > LIST_OPENING_WORDS else "")
        print(f"{ch.index:>4}  {ch.title}  ({ch.words} words)\n      {opening}")


def run_hub(argv: list[str]) -> int:
    parser = build_hub_parser()
    args = parser.parse_args(argv)
    hub_args = [] if args.wizard is None else ["--setup" if args.wizard else "--no-setup"]
    if args.web:
        from app.hub.web import serve

        return serve(args.host, args.port, tuple(hub_args))
    if args.host is not None or args.port is not None:
        parser.error("--host and --port go with --web (the hub in a browser)")
    from app.hub.app import run

    return run(hub_args)


def run_backends(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(helptext.BACKENDS_HELP, end="", file=sys.stdout if argv else sys.stderr)
        return 0 if argv else 2
    if argv[0] != "sglomni":
        what = ("the piper backend has no commands" if argv[0] == "piper"
                else f"unknown backend {argv[0]!r}{did_you_mean(argv[0], ['sglomni'], quote=True)}")
        print(f"error: {what} (only sglomni has; Piper's voices: 'audiobook.py --list-voices')", file=sys.stderr)
        return 2
    from app.cli.sglomni import main as sglomni_main

    return sglomni_main(argv[1:])


def run_cache(argv: list[str]) -> int:
    from app.cli.cache import main as cache_main

    return cache_main(argv)


COMMANDS = {"hub": run_hub, "backends": run_backends, "cache": run_cache}


def _mistyped_command(word: str) -> bool:
    """Say so and return True when `word` is no file but close to a command ('cahce' for 'cache')."""
    suggestion = did_you_mean(word, COMMANDS, quote=True)
    if not suggestion or word.startswith("-") or Path(word).exists():
        return False
    print(f"error: unknown command {word!r}{suggestion} (a book would be a file; see 'audiobook.py --help')",
          file=sys.stderr)
    return True


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def _raise_on_sigterm(signum, frame):
    # Treat SIGTERM like Ctrl-C so the same clean-stop path runs.
    raise KeyboardInterrupt


def _stop_on_signals(stop) -> None:
    """Route Ctrl-C and SIGTERM to `stop`: the first drains the run, the second stops it now."""
    def handler(signum, frame):
        line = stop.request()
        if not stop.now.is_set():
            return  # draining: the run prints the line itself (take_notice), within 0.2 s
        try:
            # On a line of its own: the handler may run in the middle of a progress line.
            print(f"\n{line}", file=sys.stderr, flush=True)
        except (OSError, ValueError):
            pass  # stderr closed: stopping matters more than saying so
        raise KeyboardInterrupt

    try:
        signal.signal(signal.SIGINT, handler)
        signal.signal(signal.SIGTERM, handler)
    except ValueError:  # not the main thread (tests driving main() from a thread)
        pass


def main(argv: list[str] | None = None) -> int:
    """Run the command line and return the exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    allocator.tune()
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    for handler in logging.getLogger().handlers:
        handler.addFilter(RedactingFilter())
    if _debug():  # the app's own debug lines, not every library's
        logging.getLogger("app").setLevel(logging.DEBUG)
    try:
        signal.signal(signal.SIGTERM, _raise_on_sigterm)
    except ValueError:  # not the main thread (tests driving main() from a thread)
        pass
    command = COMMANDS.get(argv[0]) if argv else None
    try:
        if command is not None:
            return command(argv[1:])
        if argv and _mistyped_command(argv[0]):
            return 2
        return run_convert(argv)
    except BrokenPipeError:
        # The reader went away (`--list-chapters | head`): not an error, and nothing more to write.
        sys.stdout = None
        return 0
    except KeyboardInterrupt:
        print("Stopped. Finished chunks are saved; run the same command again to resume.", file=sys.stderr)
        return Cancelled.exit_code
    except BrokenPipeError:
        # The reader went away (`--list-chapters | head -1`): nothing left to say to it. Point
        # stdout at /dev/null so the interpreter's final flush cannot fail a second time.
        _silence_stdout()
        return 0
    except AudiobookError as exc:
        if _debug():
            raise
        print(redact(f"error: {exc.one_line()}"), file=sys.stderr)
        if exc.traceback_helps:  # a user's mistake (a missing or locked book, a bad option) is no bug report
            print(f"(set {DEBUG_VAR}=1 for the traceback)", file=sys.stderr)
        return exc.exit_code
    except OSError as exc:  # the disk or a folder in the way: the user's environment, unless it is not
        error = environment_error(exc)
        if error is None or _debug():
            return _bug(exc)
        print(f"error: {error.one_line()}", file=sys.stderr)
        print(f"(set {DEBUG_VAR}=1 for the traceback)", file=sys.stderr)
        return error.exit_code
    except Exception as exc:  # a bug: say so briefly, details on request
        return _bug(exc)


def _bug(exc: BaseException) -> int:
    """Report an unexpected exception as a bug (the traceback with AUDIOBOOK_DEBUG=1) and return 1."""
    if _debug():
        raise exc
    print(redact(f"error: unexpected {type(exc).__name__}: {exc}. This is a bug; "
                 f"run again with {DEBUG_VAR}=1 and report the traceback."), file=sys.stderr)
    return 1

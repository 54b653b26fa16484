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

from app import __version__, allocator, clihelp
from app.book.model import CODE_CHOICES
from app.suggest import SuggestingParser, did_you_mean
from app.errors import AudiobookError, Cancelled, environment_error
from app.output.formats import format_help
from app.redact import RedactingFilter, redact

DEBUG_VAR = "AUDIOBOOK_DEBUG"


def _debug() -> bool:
    return os.environ.get(DEBUG_VAR, "") not in ("", "0")


def build_convert_parser() -> argparse.ArgumentParser:
    p = SuggestingParser(prog="audiobook.py", usage=clihelp.SYNOPSIS, description=clihelp.DESCRIPTION,
                         epilog=clihelp.epilog(), formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("book", type=Path, nargs="*",
                   help="the book file (.epub, .txt, .md, .html); several, or a folder, convert as one queue "
                        "(with --output DIR/)")
    # A string, not a Path: Path drops the trailing "/" that says "this is a folder".
    p.add_argument("-o", "--output", metavar="PATH",
                   help="output file (its suffix picks the format) or a folder ending in /; default: output/<title>.m4b")
    p.add_argument("--backend", metavar="NAME", help="piper (embedded CPU voice) or sglomni (SGLang-Omni server)")
    p.add_argument("--model", metavar="KEY", help="sglomni model key (see 'backends sglomni list')")
    p.add_argument("--chunk-size", type=int, metavar="N", help="words per request; default depends on the backend")
    p.add_argument("--chapters", metavar="LIST", help="chapters to convert, e.g. 3-5,9 (see --list-chapters)")
    p.add_argument("--list-chapters", action="store_true",
                   help="print each chapter's title, words and first words, and exit")
    p.add_argument("--include-matter", action="store_true",
                   help="also read front and back matter (title pages, licence, contents, index)")
    p.add_argument("--code", choices=CODE_CHOICES,
                   help="code blocks: 'mention' says \"Code example.\" (default), 'skip' leaves them out, "
                        "'read' reads them as text")
    p.add_argument("--export-text", type=Path, metavar="FILE.md",
                   help="write exactly what will be spoken, chapter by chapter, as Markdown (convert it back to "
                        "fix the text), and exit")
    p.add_argument("--lexicon", type=Path, metavar="FILE.toml",
                   help="words and how to say them (word = \"say it\"); wins over the app home's lexicon.toml "
                        "and the book's own hints")
    p.add_argument("--links", choices=["read", "skip"], default="read",
                   help="read URLs and emails as 'a link to debian dot org' (default) or skip them")
    p.add_argument("--format", dest="fmt", metavar="LIST",
                   help=format_help())
    p.add_argument("--no-cache", action="store_true", help="render every chunk again")
    p.add_argument("--title", metavar="TEXT", help="book title (default: from the book's metadata)")
    p.add_argument("--author", metavar="TEXT", help="book author (default: from the book's metadata)")
    p.add_argument("--cover", type=Path, metavar="IMAGE",
                   help="cover picture for the M4B and EPUB instead of the book's own (JPEG or PNG; "
                        "WebP, GIF, BMP are converted)")
    p.add_argument("--no-announce", dest="announce", action="store_false", default=None,
                   help="do not say each chapter's title before its text (the chapter markers keep it)")
    voice = p.add_argument_group("voice")
    voice.add_argument("--voice", metavar="NAME", help="Piper: a voice name from --list-voices or an .onnx file; "
                                       "sglomni: a preset or uploaded voice name")
    voice.add_argument("--speed", type=float, metavar="RATE",
                       help="speaking rate, 0.5 to 2 (Piper): 1 is the voice's own (default from settings), "
                            "1.25 a quarter faster")
    voice.add_argument("--list-voices", action="store_true",
                       help="list the voices and exit: Piper's installed and installable ones, or, with "
                            "--api-url or --backend sglomni, the server's")
    voice.add_argument("--preview", metavar="TEXT",
                       help="speak TEXT with the chosen backend, voice and speed into a WAV "
                            "(-o FILE.wav; default output/preview.wav), play it when a player is found, and exit")
    voice.add_argument("--instructions", metavar="TEXT", help="voice design / performance direction")
    voice.add_argument("--clone", type=Path, metavar="FILE.wav", help="reference clip to clone, e.g. voices/narrator.wav")
    voice.add_argument("--transcription", metavar="TEXT", help="transcript of the --clone clip (default: transcribed locally)")
    voice.add_argument("--language", metavar="LANG", help="the book's language (default: its metadata, e.g. dc:language); chooses "
                                          "how numbers are read and is sent to the model, e.g. en or German")
    voice.add_argument("--whisper-model", metavar="MODEL",
                       help="faster-whisper model for listening and --clone transcripts: tiny.en (bundled, "
                            "the default), a size in your Hugging Face cache, or a model folder")
    listen = p.add_argument_group("verification and mastering")
    listen.add_argument("--verify", action=argparse.BooleanOptionalAction, default=None,
                        help="hear every chunk and render again what was said wrong "
                             "(default: on for sglomni, off for piper)")
    listen.add_argument("--verify-takes", type=int, metavar="N", help="takes a chunk may get (default 3)")
    listen.add_argument("--asr-url", metavar="URL", help="listen with this server's /v1/audio/transcriptions "
                                          "instead of local faster-whisper")
    listen.add_argument("--asr-model", metavar="KEY", help="listen with this sglang-omni model, started beside the TTS "
                                            "server for the run (GPU): whisper_large_v3_turbo")
    listen.add_argument("--loudness", type=float, metavar="LUFS",
                        help="chapter loudness target, integrated (default -20; true peak <= -3 dBTP)")
    listen.add_argument("--no-master", dest="master", action="store_false",
                        help="leave levels as synthesized (no chunk leveling, no chapter mastering)")
    server = p.add_argument_group("server (sglomni)")
    server.add_argument("--api-url", action="append", default=[], dest="api_urls", metavar="URL",
                        help="an external sgl-omni server; repeat for several")
    server.add_argument("--concurrency", type=int, metavar="N", help="requests in flight (default: adaptive)")
    server.add_argument("--port", type=int, metavar="PORT", help="port of the managed server (default from settings: 8100)")
    server.add_argument("--host", metavar="HOST", help="bind host of the managed server (default 127.0.0.1)")
    server.add_argument("--profile", metavar="NAME", help="server profile, e.g. 'throughput' for moss_tts_local")
    p.add_argument("--version", action="version", version=f"audiobook {__version__}")
    return p


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
    from app.convert import StopControl, convert, read_book
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
    if len(args.book) > 1 or args.book[0].expanduser().is_dir():
        from app.batch_cli import run_many  # several books: one queue through one server (app/batch.py)

        return run_many(args, lambda book: _request(args, book), _stop_on_signals)
    req = _request(args)
    if args.export_text:
        from app.convert import export_text

        print(export_text(req, args.export_text))
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
    from app.convert import ConvertRequest

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
    )


def list_voices(req) -> int:
    """Print the voices of the backend a conversion would use: Piper's, or the server's (--list-voices)."""
    from app import settings as settings_mod
    from app.convert import choose_backend_name

    if choose_backend_name(req, settings_mod.load()) == "piper":
        from app.backends.piper.voices import listing

        print("\n".join(listing()))
        return 0
    from app.cli_sglomni import print_voices

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


def build_hub_parser() -> argparse.ArgumentParser:
    p = SuggestingParser(prog="audiobook.py hub",
                         description="The audiobook hub (terminal UI): convert, watch progress, manage "
                                     "SGLang-Omni models and servers, edit settings.",
                         epilog="examples:\n  audiobook.py hub\n  audiobook.py hub --web --port 8080",
                         formatter_class=argparse.RawDescriptionHelpFormatter)
    group = p.add_mutually_exclusive_group()
    group.add_argument("--setup", dest="wizard", action="store_true", default=None,
                       help="open the setup wizard even when it already ran")
    group.add_argument("--no-setup", dest="wizard", action="store_false", help="skip the first-start wizard")
    web = p.add_argument_group("in a browser")
    web.add_argument("--web", action="store_true", help="serve the hub to a browser page and print its address")
    web.add_argument("--host", metavar="HOST", help="address to serve on (default from settings: 127.0.0.1); any other "
                                    "address is reachable from other machines, behind the page's token")
    web.add_argument("--port", type=int, metavar="PORT", help="port to serve on (default from settings: 8080; 0: any free port)")
    return p


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
        print(clihelp.BACKENDS_HELP, end="", file=sys.stdout if argv else sys.stderr)
        return 0 if argv else 2
    if argv[0] != "sglomni":
        what = ("the piper backend has no commands" if argv[0] == "piper"
                else f"unknown backend {argv[0]!r}{did_you_mean(argv[0], ['sglomni'], quote=True)}")
        print(f"error: {what} (only sglomni has; Piper's voices: 'audiobook.py --list-voices')", file=sys.stderr)
        return 2
    from app.cli_sglomni import main as sglomni_main

    return sglomni_main(argv[1:])


def run_cache(argv: list[str]) -> int:
    from app.cachecmd import main as cache_main

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

"""The command line's parsers: every flag of `audiobook.py BOOK` and `audiobook.py hub`, with its help.

Kept apart from app/cli/entry.py (the commands and the error boundary) so that each stays small.
"""
from __future__ import annotations

import argparse
from pathlib import Path

from app import __version__
from app.cli import helptext
from app.book.formats.table import suffix_list
from app.book.model import CODE_CHOICES
from app.output.formats import format_help
from app.cli.suggest import SuggestingParser


def build_convert_parser() -> argparse.ArgumentParser:
    p = SuggestingParser(prog="audiobook.py", usage=helptext.SYNOPSIS, description=helptext.DESCRIPTION,
                         epilog=helptext.epilog(), formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("book", type=Path, nargs="*",
                   help=f"the book file ({suffix_list()}); several, or a folder, convert as one queue "
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
    library = p.add_argument_group("library (tags and folders audiobook servers read)")
    library.add_argument("--series", metavar="NAME", help="the series the book belongs to (default: its metadata)")
    library.add_argument("--series-index", metavar="N", help="the book's position in its series, e.g. 2 or 1.5")
    library.add_argument("--narrator", metavar="NAME", help="who reads it, in the tags (default: the voice's name)")
    library.add_argument("--year", metavar="YYYY", help="the year the work was first published (default: its metadata)")
    library.add_argument("--library", type=Path, metavar="DIR",
                         help="also file the M4B as DIR/Author/[Series/][N - ]Title/Title.m4b with cover.jpg, "
                              "desc.txt, reader.txt and metadata.opf (Audiobookshelf's layout)")
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
    cast = p.add_argument_group("a cast of voices")
    cast.add_argument("--cast", metavar="FILE.toml|auto",
                      help="a voice per character: a cast file ([narrator], [character.\"Name\"] with voice, "
                           "instructions, clone, speed), or 'auto' for distinct voices the backend offers")
    cast.add_argument("--export-cast", type=Path, metavar="FILE.json",
                      help="write the characters and every quotation with its speaker as JSON (with --cast: "
                           "each character's voice), and exit")
    cast.add_argument("--cast-voices", type=int, metavar="N",
                      help="with --cast auto: N distinct character voices; the characters with most lines get "
                           "their own, the others share a few by gender (default: as many as the backend offers)")
    cast.add_argument("--cast-llm", metavar="URL",
                      help="an OpenAI-compatible server (/v1/chat/completions) whose model attributes the "
                           "quotations the rules leave unsure")
    cast.add_argument("--preview-cast", metavar="NAME",
                      help="speak character NAME's first line in its --cast voice into a WAV (as --preview), "
                           "and exit")
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

"""Generate Audiobooks: the form, and the live view of a run."""
from __future__ import annotations

import os
from pathlib import Path

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll, Vertical
from textual.screen import Screen
from textual.widgets import (Button, Checkbox, Footer, Header, Input, Label, OptionList, Select, SelectionList,
                             Static)
from textual.widgets.option_list import Option

from app.request import ConvertRequest, read_book
from app.core.errors import AudiobookError
from app.output.formats import DESCRIPTIONS, FORMATS, parse_formats
from app import options as options_mod
from app.backends.sglomni import manage
from app.hub.book_choice import KINDS, browse_start, chapter_spec, unsupported_reason
from app.hub.modals import FilePickModal
from app.hub.run_screen import RunScreen
from app.hub.threads import ui
from app.hub.cast_screen import CastScreen

BACKENDS = [("Piper — CPU, bundled voice", "piper"), ("SGLang-Omni — GPU server", "sglomni")]
#: Voice select value for "the model's own default voice".
DEFAULT_VOICE = "default:"


def _default_formats(setting: str) -> tuple[str, ...]:
    """Return the formats the settings name, or just m4b when the setting is unreadable."""
    try:
        return parse_formats(setting)
    except AudiobookError:
        return ("m4b",)


class GenerateScreen(Screen):
    """Pick a book, backend, model and voice, then start a run."""

    BINDINGS = [Binding("ctrl+r", "start", "Start"), Binding("ctrl+o", "browse", "Browse"),
                Binding("escape", "app.pop_screen", "Back")]

    def __init__(self) -> None:
        super().__init__()
        self.server_voice_names: list[str] = []
        #: The chapter numbers of the book in the field, once read; empty while none is.
        self.chapter_numbers: list[int] = []
        #: Why the book in the field cannot be converted, as shown under it; "" when nothing is known against it.
        self.book_problem = ""

    def compose(self) -> ComposeResult:
        conf = self.app.conf
        yield Header()
        with VerticalScroll(id="form"):
            yield Label(f"Book file ({KINDS})")
            with Horizontal(classes="row"):
                yield Input(placeholder="path/to/book.epub", id="book")
                yield Button("Browse…", id="browse")
            yield Static("", id="book-error", classes="error")
            yield Label("Backend")
            yield Select(BACKENDS, value=conf.backend or "piper", allow_blank=False, id="backend")
            yield Label("Model (SGLang-Omni) — capabilities: tts, clone, design", id="model-label")
            keys = manage.model_keys()
            yield OptionList(*[Option(Text(row), id=key) for row, key in zip(manage.picker_rows(keys), keys)],
                             id="model")
            yield Label("Voice")
            yield Select([("(default voice)", DEFAULT_VOICE)], value=DEFAULT_VOICE, allow_blank=False, id="voice")
            yield Label("Instructions (voice design / performance direction)")
            yield Input(id="instructions")
            yield Label("Cast: a cast file (.toml), or auto for a voice per character; empty: one narrator")
            with Horizontal(classes="row"):
                yield Input(placeholder="auto or path/to/cast.toml", id="cast")
                yield Button("Cast…", id="cast-open")
            with Horizontal(classes="row"):
                with Vertical(classes="cell"):
                    yield Label("Chunk size (words; empty = default)")
                    yield Input(value=str(conf.chunk_size) if conf.chunk_size else "", type="integer", id="chunk")
            yield Label("Formats (Space toggles; all are written side by side with one name)")
            yield SelectionList(*[(DESCRIPTIONS[f], f, f in _default_formats(conf.format)) for f in FORMATS],
                                id="format")
            yield Label("Chapters (Space toggles; all by default)", id="chapters-label")
            yield SelectionList(id="chapter-choice")
            with Horizontal(classes="row"):
                with Vertical(classes="cell"):
                    yield Label("Title (empty: the book's)")
                    yield Input(id="title")
                with Vertical(classes="cell"):
                    yield Label("Author (empty: the book's)")
                    yield Input(id="author")
            # The command line's library options (--series, --series-index, --narrator, --year, --library).
            with Horizontal(classes="row"):
                with Vertical(classes="cell"):
                    yield Label("Series (empty: the book's)")
                    yield Input(id="series")
                with Vertical(classes="cell"):
                    yield Label("Number in the series, e.g. 2 or 1.5")
                    yield Input(id="series-index")
            with Horizontal(classes="row"):
                with Vertical(classes="cell"):
                    yield Label("Narrator (empty: the voice's name)")
                    yield Input(id="narrator")
                with Vertical(classes="cell"):
                    yield Label("Year first published (empty: the book's)")
                    yield Input(id="year")
            yield Label("Output file, or a folder ending in /")
            yield Input(placeholder=f"empty: {conf.resolved_output_dir()}{os.sep}<title>.m4b", id="output")
            yield Label("Or a library folder to file it in (Author/[Series/]Title/), instead of an output")
            yield Input(placeholder="path/to/library", id="library")
            yield Checkbox("Render every chunk again (no cache)", id="no-cache")
            with Horizontal(classes="buttons"):
                yield Button("Start", variant="primary", id="start")
                yield Button("Back", id="back")
        yield Footer()

    def on_mount(self) -> None:
        conf = self.app.conf
        models = self.query_one("#model", OptionList)
        keys = manage.model_keys()
        if conf.model in keys:
            models.highlighted = keys.index(conf.model)
        else:
            models.highlighted = 0
        self._backend_changed()
        self._show_chapters([])
        self._book_error("")
        self.query_one("#book", Input).focus()
        self.load_server_voices()

    # -- form behaviour --------------------------------------------------------------------

    @property
    def backend(self) -> str:
        return str(self.query_one("#backend", Select).value)

    @property
    def model_key(self) -> str | None:
        models = self.query_one("#model", OptionList)
        if models.highlighted is None:
            return None
        return models.get_option_at_index(models.highlighted).id

    def _backend_changed(self) -> None:
        sglomni = self.backend == "sglomni"
        self.query_one("#model", OptionList).display = sglomni
        self.query_one("#model-label", Label).display = sglomni
        self._fill_voices()

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "backend":
            self._backend_changed()

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_list.id == "model":
            self._fill_voices()

    def _fill_voices(self) -> None:
        """Offer the model's presets, the server's voices and the clips in voices/."""
        options: list[tuple[str, str]] = [("(default voice)", DEFAULT_VOICE)]
        if self.backend == "sglomni" and self.model_key:
            spec = manage.model_spec(self.model_key)
            options += [(f"preset: {name}", f"voice:{name}") for name in spec.preset_voices]
            options += [(f"server: {name}", f"voice:{name}") for name in self.server_voice_names
                        if name not in spec.preset_voices]
            if "clone" in spec.capabilities:
                options += [(f"clip: {p.name}", f"clone:{p}") for p in manage.voice_clips()]
        select = self.query_one("#voice", Select)
        current = select.value
        select.set_options(options)
        values = [v for _, v in options]
        select.value = current if current in values else DEFAULT_VOICE

    @work(thread=True, exclusive=True, group="voices")
    def load_server_voices(self) -> None:
        """Ask the configured server for its voices, off the UI thread."""
        names = manage.server_voices(manage.server_url(
            options_mod.server_options(self.app.conf, face=options_mod.HUB_FORM)))
        if names:
            def apply() -> None:
                self.server_voice_names = names
                self._fill_voices()
            ui(self.app, apply)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "browse":
            self.action_browse()
        elif event.button.id == "start":
            self.action_start()
        elif event.button.id == "cast-open":
            self.action_cast()
        elif event.button.id == "back":
            self.app.pop_screen()

    def action_browse(self) -> None:
        def chosen(path: Path | None) -> None:
            if path is not None:
                self.query_one("#book", Input).value = str(path)
        typed = self.query_one("#book", Input).value
        self.app.push_screen(FilePickModal(browse_start(typed, cwd=Path.cwd(), home=Path.home())), chosen)

    # -- the book: checked when chosen, its chapters offered -------------------------------

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "book":
            self._book_changed(event.value.strip())

    def _book_changed(self, text: str) -> None:
        """Check the file in the book field at once; read its chapters when it is a book."""
        self._show_chapters([])
        for field in ("#title", "#author"):  # the last book's hints are not this one's
            self.query_one(field, Input).placeholder = ""
        path = Path(text).expanduser()
        if not text or not path.is_file():
            self._book_error("")  # a folder on the way to the file, or still being typed: Start says
            return
        reason = unsupported_reason(path)
        self._book_error(reason or "")
        if reason is None:
            self.read_chapters(path)

    def _book_error(self, line: str) -> None:
        self.book_problem = line
        error = self.query_one("#book-error", Static)
        error.update(Text(line))
        error.display = bool(line)

    @work(thread=True, exclusive=True, group="book")
    def read_chapters(self, path: Path) -> None:
        """Read the book off the UI thread: its chapters for the list, its title and author as hints."""
        try:
            book = read_book(ConvertRequest(book=path))
        except AudiobookError as exc:
            ui(self.app, self._book_read, path, None, exc.one_line())
        except Exception as exc:  # a reader's bug must not take the hub down with it
            ui(self.app, self._book_read, path, None, f"Could not read {path.name}: unexpected "
                                                      f"{type(exc).__name__}: {exc}")
        else:
            ui(self.app, self._book_read, path, book, "")

    def _book_read(self, path: Path, book, error: str) -> None:
        if Path(self.query_one("#book", Input).value.strip()).expanduser() != path:
            return  # the field changed meanwhile: that file's reading is on its way
        self._book_error(error)
        if book is None:
            return
        self._show_chapters([(ch.index, ch.title) for ch in book.chapters])
        self.query_one("#title", Input).placeholder = book.title or ""
        self.query_one("#author", Input).placeholder = book.author or ""

    def _show_chapters(self, chapters: list[tuple[int, str]]) -> None:
        self.chapter_numbers = [number for number, _ in chapters]
        chooser = self.query_one("#chapter-choice", SelectionList)
        chooser.clear_options()
        chooser.add_options([(Text(f"{number:>3}  {title}"), number, True) for number, title in chapters])
        chooser.display = bool(chapters)
        self.query_one("#chapters-label", Label).display = bool(chapters)

    # -- the request -----------------------------------------------------------------------

    def _refuse(self, line: str) -> None:
        self.notify(line, severity="error")

    def _book_path(self) -> Path | None:
        book = self.query_one("#book", Input).value.strip()
        if not book:
            self._refuse("Choose a book file first.")
            return None
        path = Path(book).expanduser()
        reason = None if path.is_file() else f"{path} is not a file."
        reason = reason or unsupported_reason(path) or self.book_problem
        if reason:
            self._refuse(reason)
            return None
        return path

    def _chapters(self) -> str | None | bool:
        """Return the --chapters spec (None: all), or False after saying none is chosen."""
        if not self.chapter_numbers:
            return None  # not read yet (or unreadable): the run reads the whole book and says why
        chosen = [int(n) for n in self.query_one("#chapter-choice", SelectionList).selected]
        if not chosen:
            self._refuse("Choose at least one chapter.")
            return False
        return chapter_spec(chosen, self.chapter_numbers)

    def _output(self) -> Path | str | None:
        text = self.query_one("#output", Input).value.strip()
        if not text:
            return None
        # A trailing slash means "a folder" to convert, and Path would drop it.
        return os.path.expanduser(text) if text.endswith(("/", os.sep)) else Path(text).expanduser()

    def _text(self, selector: str) -> str | None:
        """Return a text field's value without its outer spaces, or None when it is empty."""
        return self.query_one(selector, Input).value.strip() or None

    def request(self) -> ConvertRequest | None:
        """Return the ConvertRequest the form describes, or None after telling the user what is missing."""
        path = self._book_path()
        if path is None:
            return None
        chunk_text = self.query_one("#chunk", Input).value.strip()
        chunk = int(chunk_text) if chunk_text else None
        if chunk is not None and chunk < 1:
            self._refuse("Chunk size must be a positive number of words.")
            return None
        formats = [f for f in FORMATS if f in self.query_one("#format", SelectionList).selected]
        if not formats:
            self._refuse("Choose at least one format.")
            return None
        chapters = self._chapters()
        if chapters is False:
            return None
        library_text = self.query_one("#library", Input).value.strip()
        output = self._output()
        if library_text and output is not None:
            # As on the command line: the library decides where the audiobook goes.
            self._refuse("The library folder decides where the audiobook goes: give a library or an output, "
                         "not both.")
            return None
        voice_value = str(self.query_one("#voice", Select).value)
        kind, _, arg = voice_value.partition(":")
        return ConvertRequest(
            book=path, backend=self.backend,
            model=self.model_key if self.backend == "sglomni" else None,
            chunk_size=chunk, fmt=",".join(formats), chapters=chapters, output=output,
            library=Path(library_text).expanduser() if library_text else None,
            series=self._text("#series"), series_index=self._text("#series-index"),
            narrator=self._text("#narrator"), year=self._text("#year"),
            title=self.query_one("#title", Input).value.strip() or None,
            author=self.query_one("#author", Input).value.strip() or None,
            no_cache=self.query_one("#no-cache", Checkbox).value,
            voice=arg if kind == "voice" else None, clone=Path(arg) if kind == "clone" else None,
            instructions=self.query_one("#instructions", Input).value.strip() or None,
            cast=self.query_one("#cast", Input).value.strip() or None,
            face=options_mod.HUB_FORM,
        )

    def action_cast(self) -> None:
        """Show the book's characters, their lines and voices (the cast the form describes)."""

        req = self.request()
        if req is not None:
            self.app.push_screen(CastScreen(req))

    def action_start(self) -> None:
        req = self.request()
        if req is not None:
            self.app.push_screen(RunScreen(req))

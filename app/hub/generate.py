"""Generate Audiobooks: the form, and the live view of a run."""
from __future__ import annotations

import threading
from pathlib import Path

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll, Vertical
from textual.screen import Screen
from textual.widgets import (Button, DataTable, Footer, Header, Input, Label, OptionList, RichLog, Select,
                             SelectionList, Static)
from textual.widgets.option_list import Option

from app.convert import ConvertRequest, StopControl, convert, read_book
from app.errors import AudiobookError, Cancelled
from app.output.formats import DESCRIPTIONS, FORMATS, parse_formats
from app import options as options_mod
from app.backends.sglomni import manage
from app.hub.modals import ClampModal, FilePickModal
from app.hub.threads import ask_from_thread, ui
from app.pipeline import events as ev
from app.progress import RunStats, hms

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

    def compose(self) -> ComposeResult:
        conf = self.app.conf
        yield Header()
        with VerticalScroll(id="form"):
            yield Label("Book file (EPUB, TXT, Markdown, HTML)")
            with Horizontal(classes="row"):
                yield Input(placeholder="path/to/book.epub", id="book")
                yield Button("Browse…", id="browse")
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
            with Horizontal(classes="row"):
                with Vertical(classes="cell"):
                    yield Label("Chunk size (words; empty = default)")
                    yield Input(value=str(conf.chunk_size) if conf.chunk_size else "", type="integer", id="chunk")
            yield Label("Formats (Space toggles; all are written side by side with one name)")
            yield SelectionList(*[(DESCRIPTIONS[f], f, f in _default_formats(conf.format)) for f in FORMATS],
                                id="format")
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
        elif event.button.id == "back":
            self.app.pop_screen()

    def action_browse(self) -> None:
        def chosen(path: Path | None) -> None:
            if path is not None:
                self.query_one("#book", Input).value = str(path)
        self.app.push_screen(FilePickModal(Path.cwd()), chosen)

    def request(self) -> ConvertRequest | None:
        """Return the ConvertRequest the form describes, or None after telling the user what is missing."""
        book = self.query_one("#book", Input).value.strip()
        if not book:
            self.notify("Choose a book file first.", severity="error")
            return None
        path = Path(book).expanduser()
        if not path.is_file():
            self.notify(f"{path} is not a file.", severity="error")
            return None
        chunk_text = self.query_one("#chunk", Input).value.strip()
        chunk = int(chunk_text) if chunk_text else None
        if chunk is not None and chunk < 1:
            self.notify("Chunk size must be a positive number of words.", severity="error")
            return None
        formats = [f for f in FORMATS if f in self.query_one("#format", SelectionList).selected]
        if not formats:
            self.notify("Choose at least one format.", severity="error")
            return None
        voice_value = str(self.query_one("#voice", Select).value)
        kind, _, arg = voice_value.partition(":")
        req = ConvertRequest(
            book=path, backend=self.backend,
            model=self.model_key if self.backend == "sglomni" else None,
            chunk_size=chunk, fmt=",".join(formats),
            voice=arg if kind == "voice" else None, clone=Path(arg) if kind == "clone" else None,
            instructions=self.query_one("#instructions", Input).value.strip() or None,
            face=options_mod.HUB_FORM,
        )
        return req

    def action_start(self) -> None:
        req = self.request()
        if req is not None:
            self.app.push_screen(RunScreen(req))


class RunScreen(Screen):
    """The live view of one conversion: chapters, chunks, audio, realtime factor, ETA."""

    BINDINGS = [Binding("c", "cancel", "Cancel run"), Binding("r", "again", "Run again / resume"),
                Binding("escape", "back", "Back")]

    def __init__(self, req: ConvertRequest) -> None:
        super().__init__()
        self.req = req
        #: First Cancel drains (requests in flight finish and are kept), a second cuts them.
        self.stop = StopControl()
        self.stats = RunStats()
        # Events from the run's thread wait here for the UI timer: the run never blocks on the
        # UI (a dialog on top must not stall it), and the UI applies them in batches.
        self._inbox: list[ev.Event] = []
        self._inbox_lock = threading.Lock()
        self.running = False
        self.output: Path | None = None
        self.outcome = ""
        self.clamp_answer: str | None = None
        self._rows: dict[int, object] = {}
        self._chunks: dict[int, int] = {}
        self._state: dict[int, str] = {}

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical():
            target = self.req.backend + (f" / {self.req.model}" if self.req.model else "")
            yield Static(Text(f"{self.req.book.name} on {target}"), id="title", classes="heading")
            yield Static("Status: preparing", id="status")
            yield Static("", id="stats")
            table: DataTable = DataTable(id="chapters", cursor_type="row")
            yield table
            yield RichLog(id="log", wrap=True, markup=False, max_lines=300)
            with Horizontal(classes="buttons"):
                yield Button("Cancel", variant="error", id="cancel")
                yield Button("Run again", id="again", disabled=True)
                yield Button("Back", id="back")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("#", "Chapter", "Chunks", "Audio", "Status")
        # An app timer, not the screen's: it keeps running while a dialog covers this screen.
        self._flusher = self.app.set_interval(0.2, self._flush_events)
        self.start()

    def on_unmount(self) -> None:
        self._flusher.stop()

    @property
    def cancel_event(self) -> threading.Event:
        """Return the run's "send nothing new" flag (set by the first Cancel)."""
        return self.stop.cancel

    def start(self) -> None:
        self.stop = StopControl()
        self.stats = RunStats()
        self.running = True
        self.output = None
        self.outcome = ""
        self.clamp_answer = None
        self.query_one("#cancel", Button).disabled = False
        self.query_one("#again", Button).disabled = True
        self.query_one("#status", Static).update("Status: preparing")
        self.app.begin_task("convert", self.stop_now)
        self.run_conversion()

    # -- the worker ------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="convert")
    def run_conversion(self) -> None:
        """Read the book's chapters for the table, then convert through app.convert.convert."""
        try:
            book = read_book(self.req)
            ui(self.app, self._fill_chapters, [(ch.index, ch.title) for ch in book.chapters])
            output = convert(self.req, listener=self._listener, confirm_clamp=self._ask_clamp,
                             stop=self.stop, conf=self.app.conf)
            ui(self.app, self._ended, "done", f"Done: {output}", output)
        except Cancelled:
            ui(self.app, self._ended, "cancelled",
               "Cancelled — finished chunks are saved; press R to resume where it stopped.", None)
        except AudiobookError as exc:
            if self.clamp_answer == "cancel":
                ui(self.app, self._ended, "cancelled", "Cancelled before starting.", None)
            else:
                ui(self.app, self._ended, "failed", f"Failed: {exc.one_line()}", None)
        except Exception as exc:  # a bug must not leave the screen saying "running"
            ui(self.app, self._ended, "failed", f"Failed: unexpected {type(exc).__name__}: {exc}", None)

    def _listener(self, event: ev.Event) -> None:
        with self._inbox_lock:
            self._inbox.append(event)

    def _flush_events(self) -> None:
        with self._inbox_lock:
            events, self._inbox = self._inbox, []
        for event in events:
            self._on_event(event)

    def _ask_clamp(self, size: int, cap: int) -> str:
        answer = ask_from_thread(self.app, ClampModal(size, cap), self.cancel_event)
        self.clamp_answer = answer or "cancel"
        return self.clamp_answer

    # -- UI updates ------------------------------------------------------------------------

    def _fill_chapters(self, chapters: list[tuple[int, str]]) -> None:
        table = self.query_one(DataTable)
        table.clear()
        self._rows.clear()
        self._chunks.clear()
        self._state.clear()
        for index, title in chapters:
            self._rows[index] = table.add_row(str(index), Text(title[:40]), "0", "0:00:00", "waiting",
                                              key=str(index))
            self._chunks[index] = 0
            self._state[index] = "waiting"
        self.query_one("#status", Static).update("Status: starting the backend")

    def _set(self, index: int, column: int, value: str) -> None:
        if column == 4:
            self._state[index] = value
        table = self.query_one(DataTable)
        if str(index) in {str(k) for k in self._rows}:
            table.update_cell_at((table.get_row_index(str(index)), column), value, update_width=True)

    def _on_event(self, event: ev.Event) -> None:
        self.stats.on(event)
        log = self.query_one("#log", RichLog)
        if isinstance(event, ev.RunStarted):
            self.query_one("#status", Static).update(
                f"Status: converting — {event.total_chunks} chunks ({event.cached_chunks} already done) "
                f"on {event.backend}, {event.concurrency} at a time")
        elif isinstance(event, ev.ChunkDone):
            self._chunks[event.chapter_index] = self._chunks.get(event.chapter_index, 0) + 1
            self._set(event.chapter_index, 2, str(self._chunks[event.chapter_index]))
            self._set(event.chapter_index, 4, "rendering")
        elif isinstance(event, ev.ChapterDone):
            self._set(event.chapter_index, 3, hms(event.audio_seconds))
            self._set(event.chapter_index, 4, "done")
        elif isinstance(event, ev.Muxing):
            self.query_one("#status", Static).update(f"Status: writing {event.output}")
        elif isinstance(event, ev.RunFinished):
            log.write(f"{event.synthesized_chunks} chunks synthesized in {hms(event.wall_seconds)}")
        elif isinstance(event, ev.Message):
            log.write(event.text)
        self._show_stats()

    def _show_stats(self) -> None:
        s = self.stats
        eta = "--:--:--" if s.eta is None else hms(s.eta)
        self.query_one("#stats", Static).update(
            f"chunks {s.done}/{s.total}   audio {hms(s.audio)}   {s.realtime_factor:.1f}x realtime   ETA {eta}")

    def _ended(self, outcome: str, line: str, output: Path | None) -> None:
        self._flush_events()  # the last progress first, then the outcome
        self.running = False
        self.outcome = outcome
        self.output = output
        self.app.end_task("convert")
        if outcome != "done":
            for index, state in list(self._state.items()):
                if state != "done":
                    self._set(index, 4, "stopped" if outcome == "cancelled" else "failed")
        self.query_one("#status", Static).update(Text(line))
        self.query_one("#log", RichLog).write(line)
        self.query_one("#cancel", Button).disabled = True
        self.query_one("#again", Button).disabled = False
        self._show_stats()

    # -- actions ---------------------------------------------------------------------------

    def on_button_pressed(self, event: Button.Pressed) -> None:
        {"cancel": self.action_cancel, "again": self.action_again, "back": self.action_back}[
            str(event.button.id)]()

    def action_cancel(self) -> None:
        """Stop the run: the first press lets requests in flight finish, a second cuts them."""
        if not self.running:
            return
        line = self.stop.request()
        if not self.stop.now.is_set():
            line = line.replace("press Ctrl-C again", "press C again")
        self.query_one("#status", Static).update(Text(f"Status: {line}"))
        self.query_one("#log", RichLog).write(line)

    def stop_now(self) -> None:
        """Stop the run at once (quitting the hub): requests in flight are cut, finished chunks kept."""
        self.stop.request()
        self.stop.request()

    def action_again(self) -> None:
        if not self.running:
            self.start()

    def action_back(self) -> None:
        if self.running:
            self.notify("A run is in progress; cancel it (C) before leaving.", severity="warning")
            return
        self.app.pop_screen()

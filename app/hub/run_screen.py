"""The live view of one conversion: chapters, chunks, audio, realtime factor, ETA; cancel and resume."""
from __future__ import annotations

import threading
from pathlib import Path

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, DataTable, Footer, Header, RichLog, Static

from app.request import ConvertRequest, read_book
from app.convert import StopControl, convert
from app.core.errors import AudiobookError, Cancelled
from app.hub.modals import ClampModal
from app.hub.threads import ask_from_thread, ui
from app.pipeline import events as ev
from app.progress import RunStats, hms


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

"""The Cast screen: the book's characters, their lines and voices, and a line previewed in a voice.

It calls what the command line calls (app/castview.py: --export-cast, --preview-cast).
"""
from __future__ import annotations

from dataclasses import replace

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, DataTable, Footer, Header, Static

from app.castview import CastView, cast_view, preview_line
from app.request import ConvertRequest
from app.core.errors import AudiobookError
from app.hub.threads import ui


class CastScreen(Screen):
    """Characters (name, lines, gender, voice) of the form's book under the form's cast."""

    BINDINGS = [Binding("p", "preview", "Preview line"), Binding("escape", "app.pop_screen", "Back")]

    def __init__(self, req: ConvertRequest) -> None:
        super().__init__()
        self.req = req
        self.view: CastView | None = None
        #: The last preview's WAV, once spoken.
        self.previewed = None

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical():
            how = f"cast {self.req.cast}" if self.req.cast else "no cast: one narrator reads every line"
            yield Static(Text(f"{self.req.book.name} — {how}"), classes="heading")
            yield Static("Finding the characters…", id="cast-status")
            yield DataTable(id="characters", cursor_type="row")
            yield Static("", id="cast-notes")
            with Horizontal(classes="buttons"):
                yield Button("Preview line", variant="primary", id="preview", disabled=True)
                yield Button("Back", id="back")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one("#characters", DataTable)
        table.add_columns("Character", "Lines", "Gender", "Voice", "First line")
        self.load()

    @work(thread=True, exclusive=True, group="cast")
    def load(self) -> None:
        try:
            view = cast_view(self.req)
        except AudiobookError as exc:
            ui(self.app, self._status, exc.one_line())
        except Exception as exc:  # a bug must not take the hub down with it
            ui(self.app, self._status, f"unexpected {type(exc).__name__}: {exc}")
        else:
            ui(self.app, self._show, view)

    def _status(self, line: str) -> None:
        self.query_one("#cast-status", Static).update(Text(line))

    def _show(self, view: CastView) -> None:
        self.view = view
        table = self.query_one("#characters", DataTable)
        table.clear()
        for row in view.rows:
            first = (row.first_line or "")[:40]
            table.add_row(row.name, str(row.lines), row.gender or "?", row.voice or "-", first, key=row.name)
        self._status(f"{len(view.rows)} characters, {view.quotes} quotations")
        self.query_one("#cast-notes", Static).update(Text("\n".join(view.notes)))
        self.query_one("#preview", Button).disabled = not view.rows
        table.focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "preview":
            self.action_preview()
        elif event.button.id == "back":
            self.app.pop_screen()

    def selected(self) -> str | None:
        """Return the highlighted character's name."""
        if not self.view or not self.view.rows:
            return None
        table = self.query_one("#characters", DataTable)
        return self.view.rows[min(table.cursor_row, len(self.view.rows) - 1)].name

    def action_preview(self) -> None:
        name = self.selected()
        if name is not None:
            self._status(f"Speaking a line of {name}…")
            self.speak(name)

    @work(thread=True, exclusive=True, group="cast-preview")
    def speak(self, name: str) -> None:
        try:
            wav = preview_line(replace(self.req, output=None), name)  # a WAV where previews go
        except AudiobookError as exc:
            ui(self.app, self._status, exc.one_line())
        else:
            ui(self.app, self._spoken, name, wav)

    def _spoken(self, name: str, wav) -> None:
        self.previewed = wav
        self._status(f"{name}'s line: {wav}")

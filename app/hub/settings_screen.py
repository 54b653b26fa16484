"""Settings: the same TOML file the CLI reads, edited as a form."""
from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Header, Input, Label, Select, SelectionList

from app.core import paths
from app.core import settings as settings_mod
from app.backends.sglomni import manage
from app.core.errors import AudiobookError
from app.hub.modals import UnsavedModal
from app.output.formats import DESCRIPTIONS, FORMATS, parse_formats
from app.core.urls import check_server_url

BACKEND_CHOICES = [("Automatic (SGLang-Omni when configured, else Piper)", ""), ("Piper", "piper"),
                   ("SGLang-Omni", "sglomni")]
#: The fields whose values make up the form, in order (what "unsaved changes" compares).
FIELDS = ("remote_url", "port", "backend", "model", "output_dir", "chunk_size", "format")


def _formats(setting: str) -> tuple[str, ...]:
    """Return the formats a setting names; m4b when it names none this version knows."""
    try:
        return parse_formats(setting)
    except AudiobookError:
        return ("m4b",)


class SettingsScreen(Screen):
    """Edit remote URL, port, default backend/model, output folder, chunk size, formats; Ctrl+S saves.

    Leaving with edits not saved (Escape or Back) asks first: save, discard, or keep editing.
    """

    BINDINGS = [Binding("ctrl+s", "save", "Save"), Binding("escape", "back", "Back")]

    def __init__(self) -> None:
        super().__init__()
        #: The form's values as last loaded or saved.
        self.saved_values: dict[str, object] = {}

    def compose(self) -> ComposeResult:
        conf = self.app.conf
        models = [("(none)", "")] + [(f"{manage.model_spec(key).label} — {key}", key) for key in manage.model_keys()]
        yield Header()
        with VerticalScroll(id="form"):
            yield Label("SGLang-Omni remote URL (empty: the app manages a local server)")
            yield Input(conf.sglomni.remote_url, placeholder="http://gpu-box:8100", id="remote_url")
            yield Label("SGLang-Omni port (managed server)")
            yield Input(str(conf.sglomni.port), type="integer", id="port")
            yield Label("Default backend")
            yield Select(BACKEND_CHOICES, value=conf.backend, allow_blank=False, id="backend")
            yield Label("Default SGLang-Omni model")
            yield Select(models, value=conf.model if conf.model in manage.model_keys() else "", allow_blank=False,
                         id="model")
            yield Label(f"Output folder (empty: {paths.output_dir()})")
            yield Input(conf.output_dir, id="output_dir")
            yield Label("Chunk size in words (0: the backend's default)")
            yield Input(str(conf.chunk_size), type="integer", id="chunk_size")
            yield Label("Formats (Space toggles; written side by side with one name)")
            chosen = _formats(conf.format)
            yield SelectionList(*[(DESCRIPTIONS[f], f, f in chosen) for f in FORMATS], id="format")
            with Horizontal(classes="buttons"):
                yield Button("Save", variant="primary", id="save")
                yield Button("Back", id="back")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#remote_url", Input).focus()
        self.saved_values = self.values()

    def values(self) -> dict[str, object]:
        """Return what the form shows, field by field."""
        shown: dict[str, object] = {}
        for field in FIELDS:
            widget = self.query_one(f"#{field}")
            shown[field] = tuple(sorted(widget.selected)) if isinstance(widget, SelectionList) else widget.value
        return shown

    @property
    def unsaved(self) -> bool:
        return self.values() != self.saved_values

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "save":
            self.action_save()
        else:
            self.action_back()

    def action_back(self) -> None:
        """Leave; with unsaved edits, ask first whether to save, discard or keep editing."""
        if not self.unsaved:
            self.app.pop_screen()
            return

        def answered(choice: str | None) -> None:
            if choice == "discard" or (choice == "save" and self.action_save()):
                self.app.pop_screen()

        self.app.push_screen(UnsavedModal("Settings"), answered)

    def _int(self, field: str, low: int, high: int) -> int | None:
        text = self.query_one(f"#{field}", Input).value.strip() or "0"
        try:
            value = int(text)
        except ValueError:
            value = low - 1
        if not low <= value <= high:
            self.notify(f"{field.replace('_', ' ')} must be a whole number from {low} to {high}.", severity="error")
            return None
        return value

    def action_save(self) -> bool:
        """Write the form to the settings file the CLI reads; return whether it was written."""
        port = self._int("port", 1, 65535)
        chunk = self._int("chunk_size", 0, 10_000)
        if port is None or chunk is None:
            return False
        remote = self.query_one("#remote_url", Input).value.strip()
        if remote:
            try:
                check_server_url(remote, what="The remote URL")  # the same rule as --api-url
            except AudiobookError as exc:
                self.notify(exc.one_line(), severity="error")
                return False
        formats = [f for f in FORMATS if f in self.query_one("#format", SelectionList).selected]
        if not formats:
            self.notify("Choose at least one format.", severity="error")
            return False
        try:
            conf = settings_mod.load()
        except AudiobookError:
            conf = settings_mod.Settings()  # a broken file is replaced by what the form shows
        conf.sglomni.remote_url = remote.rstrip("/")
        conf.sglomni.port = port
        conf.backend = str(self.query_one("#backend", Select).value)
        conf.model = str(self.query_one("#model", Select).value)
        conf.output_dir = self.query_one("#output_dir", Input).value.strip()
        conf.chunk_size = chunk
        conf.format = ",".join(formats)
        try:
            path = settings_mod.save(conf)
        except OSError as exc:
            self.notify(f"Could not save the settings: {exc}", severity="error")
            return False
        self.app.conf = conf
        self.saved_values = self.values()
        self.notify(f"Saved to {path}")
        return True

"""Settings: the same TOML file the CLI reads, edited as a form."""
from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Header, Input, Label, Select

from app import paths
from app import settings as settings_mod
from app.backends.sglomni import manage
from app.errors import AudiobookError
from app.urls import check_server_url

BACKEND_CHOICES = [("Automatic (SGLang-Omni when configured, else Piper)", ""), ("Piper", "piper"),
                   ("SGLang-Omni", "sglomni")]
FORMAT_CHOICES = [("M4B", "m4b"), ("MP3", "mp3"), ("M4B + read-along EPUB + WebVTT", "m4b,epub,vtt")]


class SettingsScreen(Screen):
    """Edit remote URL, port, default backend/model, output folder, chunk size, format; Ctrl+S saves."""

    BINDINGS = [Binding("ctrl+s", "save", "Save"), Binding("escape", "app.pop_screen", "Back")]

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
            yield Label("Format")
            # A list set in the file (m4b,epub,vtt) stays a choice, so saving keeps it.
            choices = FORMAT_CHOICES + ([(conf.format, conf.format)]
                                        if conf.format and conf.format not in dict(FORMAT_CHOICES).values() else [])
            yield Select(choices, value=conf.format or "m4b", allow_blank=False, id="format")
            with Horizontal(classes="buttons"):
                yield Button("Save", variant="primary", id="save")
                yield Button("Back", id="back")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#remote_url", Input).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "save":
            self.action_save()
        else:
            self.app.pop_screen()

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

    def action_save(self) -> None:
        """Write the form to the settings file the CLI reads."""
        port = self._int("port", 1, 65535)
        chunk = self._int("chunk_size", 0, 10_000)
        if port is None or chunk is None:
            return
        remote = self.query_one("#remote_url", Input).value.strip()
        if remote:
            try:
                check_server_url(remote, what="The remote URL")  # the same rule as --api-url
            except AudiobookError as exc:
                self.notify(exc.one_line(), severity="error")
                return
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
        conf.format = str(self.query_one("#format", Select).value)
        try:
            path = settings_mod.save(conf)
        except OSError as exc:
            self.notify(f"Could not save the settings: {exc}", severity="error")
            return
        self.app.conf = conf
        self.notify(f"Saved to {path}")

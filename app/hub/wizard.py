"""The first-start setup wizard: GPU check, venv provisioning, model tree; skippable."""
from __future__ import annotations

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Footer, Header, RichLog, Static

from app.core import paths
from app.core import settings as settings_mod
from app.core.errors import AudiobookError
from app.backends.sglomni import manage
from app.hub.threads import ui
from app.hub.configure import ConfigureScreen

#: Shown in red when nvidia-smi does not answer.
NO_GPU = ("WARNING: nvidia-smi does not answer. SGLang-Omni needs an NVIDIA GPU with a working driver; "
          "its servers will not start here. The Piper backend (CPU) works without one.")


class WizardScreen(Screen):
    """Set up SGLang-Omni on first start; every step is optional."""

    BINDINGS = [Binding("p", "provision", "Provision venv"), Binding("m", "models", "Choose models"),
                Binding("escape,k", "skip", "Skip / done")]

    def __init__(self) -> None:
        super().__init__()
        self.provisioning = False

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical():
            yield Static("First start: set up the SGLang-Omni backend (optional; Piper works without it). "
                         "Skip with Escape.", classes="heading")
            yield Static("Checking the GPU (nvidia-smi)…", id="gpu")
            yield Static("", id="venv")
            with Horizontal(classes="buttons"):
                yield Button("Provision venv", variant="primary", id="provision")
                yield Button("Choose models…", id="choose-models")
                yield Button("Skip / Done", id="skip")
            yield RichLog(id="wizardlog", wrap=True, markup=False, max_lines=300)
        yield Footer()

    def on_mount(self) -> None:
        self._show_venv()
        self.check_gpu()

    def _show_venv(self) -> None:
        ok = manage.venv_provisioned()
        self.query_one("#venv", Static).update(
            "sglang-omni venv: ready" if ok else "sglang-omni venv: not provisioned — P installs it "
                                                 "(a few GB; resumable by running it again)")

    @work(thread=True, exclusive=True, group="wizard-gpu")
    def check_gpu(self) -> None:
        ok = manage.gpu_ok()
        ui(self.app, self._show_gpu, ok)

    def _show_gpu(self, ok: bool) -> None:
        gpu = self.query_one("#gpu", Static)
        if ok:
            gpu.update("GPU: nvidia-smi answers.")
        else:
            gpu.update(Text(NO_GPU, style="bold white on red"))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        {"provision": self.action_provision, "choose-models": self.action_models, "skip": self.action_skip}[
            str(event.button.id)]()

    def action_provision(self) -> None:
        if self.provisioning:
            return
        self.provisioning = True
        self.app.begin_task("provision", lambda: None)
        self.provision()

    @work(thread=True, exclusive=True, group="wizard-provision")
    def provision(self) -> None:
        log = self.query_one("#wizardlog", RichLog)
        try:
            manage.provision_venv(lambda line: ui(self.app, log.write, line))
            ui(self.app, log.write, "venv ready")
        except AudiobookError as exc:
            ui(self.app, log.write, f"error: {exc.one_line()}")
        finally:
            ui(self.app, self._provisioned)

    def _provisioned(self) -> None:
        self.provisioning = False
        self.app.end_task("provision")
        self._show_venv()

    def action_models(self) -> None:
        self.app.push_screen(ConfigureScreen())

    def action_skip(self) -> None:
        if self.provisioning:
            self.notify("Provisioning is running; wait for it to finish.", severity="warning")
            return
        mark_setup_done()
        self.app.pop_screen()


def mark_setup_done() -> None:
    """Write the settings file (defaults if absent) so the wizard does not open again."""
    if not paths.settings_file().exists():
        try:
            settings_mod.save(settings_mod.load())
        except (AudiobookError, OSError):
            pass


def needs_setup() -> bool:
    """Return whether this is a first start (no settings file yet)."""
    return not paths.settings_file().exists()

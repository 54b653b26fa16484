"""Start/Stop Backend Servers: boot a downloaded model, watch its status and log, stop it.

Everything that waits (HTTP probes, the HF cache scan, reading the log) runs in
worker threads; the UI thread only paints what they found. The CLI's twin is
`backends sglomni status|start|stop`.
"""
from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Footer, Header, Log, Static

from app import options as options_mod
from app.backends.base import BackendOptions
from app.backends.sglomni import manage
from app.backends.sglomni.manage import ServerState
from app.core.errors import AudiobookError
from app.hub.modals import PickModal
from app.hub.threads import ui
from app.core.urls import display_url

#: Shown when nothing is downloaded: the start has nothing to load.
NO_MODELS = ("No SGLang-Omni model is downloaded. Open Configure Backends… → Configure SGLang-Omni "
             "to download one, then start it here.")


class ServersScreen(Screen):
    """Start asks which downloaded model to load (none: says so; one: no question)."""

    BINDINGS = [Binding("s", "start", "Start"), Binding("x", "stop", "Stop"), Binding("escape", "back", "Back")]

    def __init__(self) -> None:
        super().__init__()
        self._log_path: Path | None = None
        self._log_offset = 0
        self.busy = False
        self.message = ""
        #: True when Stop was pressed while the server was still booting.
        self.boot_stopped = False
        #: What the remote server (Settings → remote URL) answered last.
        self.remote_line = ""
        #: True while a status poll runs in its worker (a slow /health must not pile polls up).
        self._polling = False

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical():
            yield Static("SGLang-Omni server — S starts, X stops", classes="heading")
            yield Static("Status: stopped", id="status")
            yield Static("", id="detail")
            with Horizontal(classes="buttons"):
                yield Button("Start", variant="primary", id="start")
                yield Button("Stop", variant="error", id="stop")
                yield Button("Back", id="back")
            yield Log(id="serverlog", max_lines=1000)
        yield Footer()

    def on_mount(self) -> None:
        self.poll_status()
        self.set_interval(0.5, self.poll_status)
        if self.app.conf.sglomni.remote_url:
            self.probe_remote()
            self.set_interval(5.0, self.probe_remote)

    def server_options(self) -> BackendOptions:
        """Return the local server's options as the hub's settings resolve them."""
        return options_mod.server_options(self.app.conf, face=options_mod.HUB_FORM, use_remote=False)

    @work(thread=True, exclusive=True, group="remote-probe")
    def probe_remote(self) -> None:
        """Discover the remote server: GET /health, then the model GET /v1/models reports."""
        options = options_mod.server_options(self.app.conf, face=options_mod.HUB_FORM)
        if not options.api_urls:
            return
        line = manage.remote_status(options.api_urls[0]).line()
        ui(self.app, setattr, self, "remote_line", line)

    # -- status ----------------------------------------------------------------------------

    def poll_status(self) -> None:
        """Start a status poll unless one is still running."""
        if not self._polling:
            self._polling = True
            self.read_status()

    @work(thread=True, group="server-poll")
    def read_status(self) -> None:
        """Probe the managed server and read its new log lines, off the UI thread; then paint."""
        try:
            line, log_path = self.status_line()
            lines = self._read_log(log_path)
            ui(self.app, self._paint, line, log_path, lines)
        finally:
            self._polling = False

    def status_line(self) -> tuple[str, Path | None]:
        """Return ("Status: <state> — <label> on port N", the log to follow) for the managed server.

        It may probe /health (up to 2 s): call it from a worker.
        """
        managed = self.app.managed_server
        port = self.server_options().port
        if managed is not None and managed.state is not ServerState.STOPPED:
            state, label, log_path = managed.state.value, managed.label, managed.log_path
        else:
            known = manage.server_status(port)
            found = known[0] if known else None
            if found is None:
                return "Status: " + (self.message or "stopped"), None
            state, label, log_path = found["state"], found["label"], Path(found["log_path"])
        if self.message and state in ("stopped", "failed"):
            return f"Status: {self.message}", log_path
        return f"Status: {state} — {label} on port {port}", log_path

    def _paint(self, line: str, log_path: Path | None, lines: list[str]) -> None:
        if not self.is_mounted:
            return  # the screen was closed while the poll ran
        status = next(iter(self.query("#status").results(Static)), None)
        log = next(iter(self.query(Log).results(Log)), None)
        if status is None or log is None:
            # Mounted, but its widgets not composed yet or being removed (seen in a clean-clone CI run:
            # "No nodes match '#status'"): the next poll paints.
            return
        if log_path is not None and log_path != self._log_path:
            return  # the log changed under this poll: the next one reads the new log from its start
        status.update(Text(line))
        log.write_lines(lines)
        self.refresh_status()

    def refresh_status(self) -> None:
        """Repaint the notes under the status line (no I/O: safe on the UI thread)."""
        remote = self.app.conf.sglomni.remote_url
        notes = [NO_MODELS] if self.message == "no model downloaded" else []
        if remote:
            notes.append(self.remote_line or f"Remote server {display_url(remote)}: probing…")
            notes.append("Runs use the remote server (Settings); Start/Stop manage the local one.")
        self.query_one("#detail", Static).update(Text("\n".join(notes)))

    def _follow(self, path: Path) -> None:
        if path != self._log_path and self.is_mounted:
            self._log_path = path
            self._log_offset = 0
            self.query_one(Log).clear()

    def _read_log(self, path: Path | None) -> list[str]:
        """Return the lines the server wrote to its log since the last look (a worker calls this)."""
        if path is None:
            return []
        if path != self._log_path:
            ui(self.app, self._follow, path)
        try:
            with open(path, "rb") as fh:
                fh.seek(self._log_offset)
                chunk = fh.read(256_000)
        except OSError:
            return []
        end = chunk.rfind(b"\n") + 1
        self._log_offset += end
        return chunk[:end].decode(errors="replace").splitlines()

    # -- start / stop ----------------------------------------------------------------------

    def on_button_pressed(self, event: Button.Pressed) -> None:
        {"start": self.action_start, "stop": self.action_stop, "back": self.action_back}[str(event.button.id)]()

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_start(self) -> None:
        if self.busy:
            self.notify("The server is busy; wait or stop it.", severity="warning")
            return
        self.choose_model()

    @work(thread=True, exclusive=True, group="server-choose")
    def choose_model(self) -> None:
        """Scan the HF cache once (off the UI thread), then start the only model or ask which."""
        installed = manage.installed_models()
        ui(self.app, self._chose, [k for k in manage.model_keys() if k in installed])

    def _chose(self, downloaded: list[str]) -> None:
        if not self.is_mounted:
            return
        if not downloaded:
            self.message = "no model downloaded"
            self.query_one(Log).write_line(NO_MODELS)
            self.notify(NO_MODELS, severity="warning", timeout=8)
            self.refresh_status()
            self.poll_status()
            return
        if len(downloaded) == 1:
            self.start_model(downloaded[0])
            return
        rows = manage.picker_rows(downloaded)
        self.app.push_screen(PickModal("Which downloaded model should the server load?",
                                       list(zip(downloaded, rows))), self._picked)

    def _picked(self, key: str | None) -> None:
        if key:
            self.start_model(key)

    def start_model(self, key: str) -> None:
        """Boot `key` in a worker; the status line follows it."""
        self.busy = True
        self.message = ""
        self.boot_stopped = False
        self.app.begin_task("server", self._abort_boot)
        self.boot(key)

    def _abort_boot(self) -> None:
        """Stop a boot in progress (quitting the hub must not leave a half-started server)."""
        managed = self.app.managed_server
        if managed is not None and managed.state is ServerState.STARTING:
            try:
                manage.stop_server(self.server_options().port)
            except AudiobookError:
                pass

    @work(thread=True, exclusive=True, group="server")
    def boot(self, key: str) -> None:
        """Install missing companions, then start the server and wait until it is ready."""
        app = self.app
        try:
            managed = manage.prepare_server(key, self.server_options(), log=lambda line: ui(app, self._note, line))
            ui(app, setattr, app, "managed_server", managed)
            managed.start()
            ui(app, self._note, f"{managed.label} is ready at {display_url(managed.base_url)}")
        except AudiobookError as exc:
            tail = manage.log_tail(exc.log_path, 8) if getattr(exc, "log_path", None) else ""
            ui(app, self._failed, exc.one_line(), tail)
        except Exception as exc:  # a bug: show it rather than a frozen "starting"
            ui(app, self._failed, f"unexpected {type(exc).__name__}: {exc}", "")
        finally:
            ui(app, self._boot_done)

    def _note(self, line: str) -> None:
        self.query_one(Log).write_line(line)

    def _failed(self, message: str, tail: str) -> None:
        if self.boot_stopped:  # the user stopped the boot: its exit is not a failure
            self.message = ""
            self.query_one(Log).write_line("boot stopped")
            return
        self.message = f"failed — {message}"
        if tail:
            self.query_one(Log).write_line("log tail: " + tail)
        self.refresh_status()
        self.poll_status()

    def _boot_done(self) -> None:
        self.busy = False
        self.app.end_task("server")
        self.refresh_status()
        self.poll_status()

    def action_stop(self) -> None:
        self.message = ""
        managed = self.app.managed_server
        if self.busy and managed is not None and managed.state is ServerState.STARTING:
            self.boot_stopped = True
        self.stop_worker()

    @work(thread=True, exclusive=True, group="server-stop")
    def stop_worker(self) -> None:
        app = self.app
        try:
            managed = app.managed_server
            # A boot in progress is stopped through its pid file; the booting worker then
            # sees the process exit and finishes the ManagedServer's own cleanup.
            booting = managed is not None and managed.state is ServerState.STARTING
            manage.stop_server(self.server_options().port, None if booting else managed)
            ui(app, self._note, "server stopped")
        except AudiobookError as exc:
            ui(app, self._failed, exc.one_line(), "")
        finally:
            ui(app, self.poll_status)

"""Start/Stop Backend Servers: boot a downloaded model, watch its status and log, stop it."""
from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Footer, Header, Log, Static

from app.backends.sglomni import catalog, policy, server
from app.errors import AudiobookError
from app.backends.sglomni import manage
from app.hub.modals import PickModal
from app.hub.threads import ui
from app.urls import display_url

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
        self.refresh_status()
        self.set_interval(0.5, self.refresh_status)
        if self.app.conf.sglomni.remote_url:
            self.probe_remote()
            self.set_interval(5.0, self.probe_remote)

    @work(thread=True, exclusive=True, group="remote-probe")
    def probe_remote(self) -> None:
        """Discover the remote server: GET /health, then the model GET /v1/models reports."""
        url = manage.server_url(self.app.conf)
        answer = server.probe_json(url, "/health", timeout=2.0)
        if answer is None:
            line = f"Remote server {display_url(url)}: not answering"
        else:
            body = answer[1]
            state = body.get("status", "no status") if isinstance(body, dict) else "no JSON status"
            hosted = ", ".join(policy.hosted_models(url)) or "no model listed"
            line = f"Remote server {display_url(url)}: {state}, hosts {hosted}"
        ui(self.app, setattr, self, "remote_line", line)

    # -- status ----------------------------------------------------------------------------

    def status_line(self) -> str:
        """Return "Status: <state> — <label> on port N" for the managed server."""
        managed = self.app.managed_server
        port = self.app.conf.sglomni.port
        if managed is not None and managed.state is not server.ServerState.STOPPED:
            state, label = managed.state.value, managed.label
            self._follow(managed.log_path)
        else:
            known = manage.server_status(port)
            found = known[0] if known else None
            if found is None:
                return "Status: " + (self.message or "stopped")
            state, label = found["state"], found["label"]
            self._follow(Path(found["log_path"]))
        if self.message and state in ("stopped", "failed"):
            return f"Status: {self.message}"
        return f"Status: {state} — {label} on port {port}"

    def refresh_status(self) -> None:
        self.query_one("#status", Static).update(Text(self.status_line()))
        remote = self.app.conf.sglomni.remote_url
        notes = [NO_MODELS] if self.message == "no model downloaded" else []
        if remote:
            notes.append(self.remote_line or f"Remote server {remote}: probing…")
            notes.append("Runs use the remote server (Settings); Start/Stop manage the local one.")
        self.query_one("#detail", Static).update(Text("\n".join(notes)))
        self._read_log()

    def _follow(self, path: Path) -> None:
        if path != self._log_path:
            self._log_path = path
            self._log_offset = 0
            self.query_one(Log).clear()

    def _read_log(self) -> None:
        """Append what the server wrote to its log since the last look."""
        if self._log_path is None:
            return
        try:
            with open(self._log_path, "rb") as fh:
                fh.seek(self._log_offset)
                chunk = fh.read(256_000)
        except OSError:
            return
        end = chunk.rfind(b"\n") + 1
        if end:
            self._log_offset += end
            self.query_one(Log).write_lines(chunk[:end].decode(errors="replace").splitlines())

    # -- start / stop ----------------------------------------------------------------------

    def on_button_pressed(self, event: Button.Pressed) -> None:
        {"start": self.action_start, "stop": self.action_stop, "back": self.action_back}[str(event.button.id)]()

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_start(self) -> None:
        if self.busy:
            self.notify("The server is busy; wait or stop it.", severity="warning")
            return
        downloaded = [k for k in catalog.CATALOG if k in manage.installed_models()]
        if not downloaded:
            self.message = "no model downloaded"
            self.query_one(Log).write_line(NO_MODELS)
            self.notify(NO_MODELS, severity="warning", timeout=8)
            self.refresh_status()
            return
        if len(downloaded) == 1:
            self.start_model(downloaded[0])
            return
        specs = [catalog.get(k) for k in downloaded]
        rows = catalog.picker_rows(specs)
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
        if managed is not None and managed.state is server.ServerState.STARTING:
            try:
                manage.stop_server(self.app.conf.sglomni.port)
            except AudiobookError:
                pass

    @work(thread=True, exclusive=True, group="server")
    def boot(self, key: str) -> None:
        """Install missing companions, then start the server and wait until it is ready."""
        app = self.app
        try:
            managed = manage.prepare_server(key, app.conf, log=lambda line: ui(app, self._note, line))
            ui(app, setattr, app, "managed_server", managed)
            managed.start()
            ui(app, self._note, f"{managed.label} is ready at {display_url(managed.base_url)}")
        except AudiobookError as exc:
            tail = server.log_tail(exc.log_path, 8) if getattr(exc, "log_path", None) else ""
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

    def _boot_done(self) -> None:
        self.busy = False
        self.app.end_task("server")
        self.refresh_status()

    def action_stop(self) -> None:
        self.message = ""
        managed = self.app.managed_server
        if self.busy and managed is not None and managed.state is server.ServerState.STARTING:
            self.boot_stopped = True
        self.stop_worker()

    @work(thread=True, exclusive=True, group="server-stop")
    def stop_worker(self) -> None:
        app = self.app
        try:
            managed = app.managed_server
            # A boot in progress is stopped through its pid file; the booting worker then
            # sees the process exit and finishes the ManagedServer's own cleanup.
            booting = managed is not None and managed.state is server.ServerState.STARTING
            manage.stop_server(app.conf.sglomni.port, None if booting else managed)
            ui(app, self._note, "server stopped")
        except AudiobookError as exc:
            ui(app, self._failed, exc.one_line(), "")
        finally:
            ui(app, self.refresh_status)

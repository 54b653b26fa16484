"""The lifecycle of a managed `sgl-omni serve` process.

Start: detached in its own process group, output to a log file, a pid file in
paths.run_dir(). Ready: /health answers JSON status "healthy"; the process is
polled before every probe and the log watched for upstream's silent port move.
Stop: the whole group (procgroup.stop_group), until no member survives (the
stage child holding GPU memory is the usual survivor, guide section 4).
Which server a run uses (boot, adopt, refuse) is policy.py's concern; pid files are
pidfiles.py's, leftovers from earlier runs leftovers.py's, what a server at an address
is (health, models) discovery.py's.
"""
from __future__ import annotations

import enum
import logging
import os
import re
import socket
import threading
import time
from pathlib import Path
from typing import Any

from app.core import paths, proc
from app.backends.base import BackendOptions
from app.backends.sglomni import gpu, venv
from app.backends.sglomni.catalog import ModelSpec
from app.core.http import probe_health
from app.backends.sglomni.pidfiles import PidRecord, pid_file, write_pidfile
from app.backends.sglomni.procgroup import StopPath, StopTimeouts, process_start_ticks, stop_group
from app.core.errors import Cancelled, ConfigError, ServerStartError
from app.core.urls import url_host

log = logging.getLogger(__name__)

#: Upstream's launcher (serve/launcher.py find_available_port) logs these when it moves.
_PORT_IN_USE = re.compile(r"[Pp]ort (\d+) is already in use")
_PORT_MOVED = re.compile(r"Using port (\d+) instead")
#: How often readiness is probed; the process is polled before each probe.
POLL_INTERVAL = 0.2
_LOG_TAIL_LINES = 20
#: The managed port when options built by hand name none (app.options fills it from settings).
DEFAULT_PORT = 8100
#: The source app.options records for a value read from the settings file.
SETTINGS_SOURCE = "settings.toml"


class ServerState(enum.Enum):
    """Where a managed server is in its life."""

    STOPPED = "stopped"
    """No process: never started, or stopped and its whole group gone."""
    STARTING = "starting"
    """The process runs but /health has not answered "healthy" yet."""
    READY = "ready"
    """/health answered "healthy": requests may be sent."""
    STOPPING = "stopping"
    """A stop is signalling the process group and waiting for it to go."""
    FAILED = "failed"
    """The boot failed (crash, timeout, port moved); the process may still need a stop."""


_TRANSITIONS: dict[ServerState, frozenset[ServerState]] = {
    ServerState.STOPPED: frozenset({ServerState.STARTING}),
    ServerState.STARTING: frozenset({ServerState.READY, ServerState.FAILED, ServerState.STOPPING}),
    ServerState.READY: frozenset({ServerState.STOPPING, ServerState.FAILED}),
    ServerState.STOPPING: frozenset({ServerState.STOPPED, ServerState.FAILED}),
    ServerState.FAILED: frozenset({ServerState.STOPPING, ServerState.STOPPED, ServerState.STARTING}),
}


# --- argv, config, ports ------------------------------------------------------------------

def serve_argv(exe: Path | str, spec: ModelSpec, *, config: Path | None, port: int,
               host: str = "127.0.0.1", model_name: str | None = None) -> list[str]:
    """Return the `sgl-omni serve` argv; every flag exists in sglang-omni 0.1.9's cli/serve.py."""
    argv = [os.fspath(exe), "serve", "--model-path", spec.model_path]
    if config is not None:
        argv += ["--config", os.fspath(config)]
    # --model-name makes /v1/models name what we started (guide trap 6).
    argv += ["--port", str(port), "--host", host, "--model-name", model_name or spec.key]
    return argv


def sgl_omni_exe() -> Path:
    """Return the managed venv's `sgl-omni`."""
    return Path(venv.sgl_omni_exe())


def config_for(spec: ModelSpec, profile: str | None) -> tuple[Path | None, str]:
    """Return the config to launch `spec` with and its status label, e.g. 'zonos2 (bf16 fallback)'."""
    path, label = gpu.config_for(spec, profile=profile or None)
    return (Path(path) if path else None), label


def install_companions(spec: ModelSpec) -> None:
    """Install the model's missing companion packages before a boot."""
    venv.install_companions(spec, log=lambda line: log.info("%s", line))


def pick_profile(spec: ModelSpec, options: BackendOptions) -> str | None:
    """Return the server profile: one the user passed always, the settings' one only where the model has it.

    A profile in settings.toml is a standing preference for the models that have one;
    passed for this run it is a demand, and a model without it says so at boot.
    """
    if not options.profile:
        return None
    if options.source("profile") == SETTINGS_SOURCE and options.profile not in spec.profiles:
        return None
    return options.profile


def check_bind_host(host: str, source: str = "") -> str:
    """Return the managed server's bind host, or raise ConfigError for one sgl-omni cannot bind.

    sglang-omni 0.1.9 probes its port with an AF_INET socket (serve/launcher.py
    find_available_port), so an IPv6 address fails the boot under the strict-port
    setting this app uses; say so before anything starts. `source` says where the host
    came from ("settings.toml"), so the user knows what to change.
    """
    bare = host.strip().strip("[]")
    if ":" in bare:
        where = "the host setting sglomni.host" if source == SETTINGS_SOURCE else "--host"
        named = f"{host} (from {source})" if source else host
        raise ConfigError(f"The managed server cannot bind {named}: sglang-omni 0.1.9 binds IPv4 addresses only",
                          hint=f"Set {where} to 127.0.0.1 (this machine only) or 0.0.0.0 (every IPv4 interface)")
    return bare


def port_is_free(host: str, port: int) -> bool:
    """Return whether `port` can be bound on `host`, probing the way uvicorn binds."""
    host = host.strip("[]")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host if host not in ("", "localhost") else "127.0.0.1", port))
        except OSError:
            return False
    return True


def port_busy_error(port: int, *, moved_to: int | None = None, log_path: Path | None = None,
                    port_source: str = "") -> ServerStartError:
    """Return the error for a port someone else holds, naming the command that finds the holder."""
    find = f"ss -tlnp 'sport = :{port}'"
    named = f"Port {port} (from {port_source})" if port_source else f"Port {port}"
    if moved_to is not None:
        msg = (f"{named} is already in use; sgl-omni moved the server to port {moved_to} "
               f"where nothing looks for it, so the boot was aborted")
    else:
        msg = f"{named} is already in use by another process"
    return ServerStartError(msg, log_path=log_path,
                            hint=f"Find the holder with `{find}` and stop it, or choose another port "
                                 f"(Settings → SGLang-Omni port, or --port)")


def client_host(host: str) -> str:
    """Return the address a client uses to reach a server bound to `host`, as it goes into a URL."""
    return "127.0.0.1" if host in ("", "0.0.0.0", "localhost") else url_host("::1" if host.strip("[]") == "::" else host)


def log_tail(path: Path, lines: int = _LOG_TAIL_LINES) -> str:
    """Return the last `lines` non-empty lines of `path` joined with ' | '."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
    kept = [line.strip() for line in text.splitlines() if line.strip()]
    return " | ".join(kept[-lines:])


# --- the managed server -------------------------------------------------------------------

class ManagedServer:
    """One `sgl-omni serve` process this tool started and owns."""

    def __init__(self, spec: ModelSpec, *, port: int, host: str = "127.0.0.1",
                 start_timeout: float = 1200.0, profile: str | None = None,
                 stop_timeouts: StopTimeouts = StopTimeouts(), port_source: str = "",
                 abort: threading.Event | None = None):
        self.spec = spec
        #: Set from another thread (the hub's Cancel, a stop-now) to end a boot in progress.
        self.abort = abort or threading.Event()
        self.port = port
        self.host = check_bind_host(host)
        self.start_timeout = start_timeout
        self.profile = profile
        self.stop_timeouts = stop_timeouts
        #: Where the port came from ("settings.toml", "command line"), for the port-busy message.
        self.port_source = port_source
        self.config, self.label = config_for(spec, profile)
        self.log_path = paths.logs_dir() / f"sglomni-{spec.key}-{port}.log"
        self.state = ServerState.STOPPED
        self.last_stop: StopPath | None = None
        self._popen: Any = None
        self._pgid: int | None = None

    @property
    def base_url(self) -> str:
        """Return the URL clients use."""
        return f"http://{client_host(self.host)}:{self.port}"

    @property
    def pid(self) -> int | None:
        """Return the server's pid while it runs."""
        return self._popen.pid if self._popen is not None else None

    def _move(self, new: ServerState) -> None:
        if new not in _TRANSITIONS[self.state]:
            raise RuntimeError(f"A managed server cannot go from {self.state.value} to {new.value}.")
        self.state = new

    def argv(self) -> list[str]:
        """Return the command line this server is started with."""
        return serve_argv(sgl_omni_exe(), self.spec, config=self.config, port=self.port,
                          host=self.host, model_name=self.spec.key)

    def start(self) -> None:
        """Launch the server and return once it is healthy, or raise ServerStartError."""
        venv.require_usable()
        gpu.require_profile_tools(self.spec, self.profile, extra_path=venv.venv_dir() / "bin")
        if not port_is_free(self.host, self.port):
            raise port_busy_error(self.port, port_source=self.port_source)
        self._move(ServerState.STARTING)
        paths.ensure(self.log_path.parent)
        argv = self.argv()
        env = {"LD_LIBRARY_PATH": None,  # guide trap 1: a leaked cuDNN path SIGABRTs the first request
               "SGLANG_OMNI_STRICT_PORT": "1", "PYTHONUNBUFFERED": "1"}
        with open(self.log_path, "wb") as log_fh:
            log_fh.write(("$ " + " ".join(argv) + "\n").encode())
            log_fh.flush()
            self._popen = proc.spawn(argv, env=env, stdout=log_fh, new_session=True)
        self._pgid = self._popen.pid  # new session: the child leads its own group
        write_pidfile(PidRecord(pid=self._popen.pid, pgid=self._pgid, port=self.port, model=self.spec.key,
                                started_at=time.time(), log_path=str(self.log_path), host=self.host,
                                label=self.label, proc_start=process_start_ticks(self._popen.pid)))
        try:
            self._wait_ready()
        except BaseException:
            if self.state is ServerState.STARTING:
                self._move(ServerState.FAILED)
            self.stop()
            raise
        self._move(ServerState.READY)

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + self.start_timeout
        offset = 0
        while True:
            offset, moved = self._scan_log(offset)
            if moved is not None:
                raise port_busy_error(self.port, moved_to=moved, log_path=self.log_path,
                                      port_source=self.port_source)
            code = self._popen.poll()
            if code is not None:
                self._raise_exited(code)
            if probe_health(self.base_url).healthy:
                return
            if self.abort.is_set():
                raise Cancelled(f"Stopped while sgl-omni ({self.label}) was starting",
                                hint="Run the same command again to start it and resume")
            if time.monotonic() >= deadline:
                raise ServerStartError(
                    f"sgl-omni ({self.label}) did not become healthy within {self.start_timeout:g} s",
                    log_path=self.log_path,
                    hint="Pre-download the model or raise the start timeout (settings: sglomni.start_timeout)")
            self.abort.wait(POLL_INTERVAL)

    def _scan_log(self, offset: int) -> tuple[int, int | None]:
        """Read the log from `offset`; return the new offset and the port upstream moved to, if any."""
        try:
            with open(self.log_path, "rb") as fh:
                fh.seek(offset)
                chunk = fh.read()
        except OSError:
            return offset, None
        # Only whole lines: a half-written line is read again next time.
        end = chunk.rfind(b"\n") + 1
        text = chunk[:end].decode(errors="replace")
        moved = _PORT_MOVED.search(text)
        return offset + end, int(moved.group(1)) if moved else None

    def _raise_exited(self, code: int) -> None:
        tail = log_tail(self.log_path)
        if _PORT_IN_USE.search(tail):
            raise port_busy_error(self.port, log_path=self.log_path, port_source=self.port_source)
        raise ServerStartError(f"sgl-omni ({self.label}) exited during boot with code {code}: "
                               f"{tail[-600:] or 'no output'}", log_path=self.log_path)

    def stop(self) -> StopPath:
        """Stop the whole process group (tolerating a dead one) and remove the pid file."""
        if self.state is ServerState.STOPPED:
            return self.last_stop or StopPath.ALREADY_DEAD
        self._move(ServerState.STOPPING)
        try:
            path = stop_group(self._pgid, timeouts=self.stop_timeouts, popen=self._popen) \
                if self._pgid is not None else StopPath.ALREADY_DEAD
        except BaseException:
            self._move(ServerState.FAILED)
            raise
        if self._popen is not None:
            self._popen.poll()
        pid_file(self.port).unlink(missing_ok=True)
        self.last_stop = path
        self._move(ServerState.STOPPED)
        return path

    def status(self) -> dict[str, Any]:
        """Return state, model key, port, label and log path for the CLI and the hub."""
        return {"state": self.state.value, "model": self.spec.key, "port": self.port,
                "label": self.label, "log_path": str(self.log_path), "pid": self.pid,
                "url": self.base_url}


"""The hub's one door to the functions the CLI also calls.

The hub never does work the CLI cannot: every action here forwards to the
shared module that owns it (app.backends.sglomni.models / venv / server / gpu,
app.settings, app.convert). Where a shared function had not landed yet when
the hub was written, a clearly named fallback stands in and says so in its
docstring; the lead is told in the report so the fallback can be deleted.
"""
from __future__ import annotations

import threading
from pathlib import Path
from typing import Any, Callable

from app import paths
from app import settings as settings_mod
from app.backends.sglomni import catalog, server

Log = Callable[[str], None]


def installed_models() -> set[str]:
    """Return the catalog keys whose weights are fully in the HF cache (models.installed)."""
    from app.backends.sglomni import models
    return models.installed()


def remove_models(keys: list[str], *, stop_server: Callable[[str], Any], log: Log = print) -> list[str]:
    """Remove the cached weights of `keys`, stopping a managed server that hosts one of them first."""
    from app.backends.sglomni import models
    return models.remove(keys, stop_server=stop_server, progress=log)


def install_models(keys: list[str], *, progress: Log | None = None,
                   cancel_event: threading.Event | None = None) -> list[str]:
    """Install `keys` (companion recipe, then weights; resumable, cancelable) through models.install."""
    from app.backends.sglomni import models
    return models.install(keys, progress=progress, cancel_event=cancel_event)


def missing_system(keys: list[str]) -> list[str]:
    """Return "key: binary not found: remediation" for each system package a model needs and PATH lacks."""
    from app.backends.sglomni import models
    return [f"{key}: {line}" for key in keys for line in models.missing_system_packages(catalog.get(key))]


# --- venv and GPU -------------------------------------------------------------------------

def venv_provisioned() -> bool:
    """Return whether the managed sglang-omni venv is ready."""
    from app.backends.sglomni import venv
    return venv.is_provisioned()


def provision_venv(log: Log) -> Path:
    """Create the managed venv and install sglang-omni into it."""
    from app.backends.sglomni import venv
    return venv.provision(log=log)


def gpu_ok() -> bool:
    """Return whether nvidia-smi answers."""
    from app.backends.sglomni import gpu
    return gpu.nvidia_smi_ok()


# --- the managed server -------------------------------------------------------------------

def server_status(port: int) -> dict[str, Any] | None:
    """Return the managed server's status on `port` from its pid file, or None when none is known."""
    found = server.status(port)
    return found[0] if found else None


def prepare_server(key: str, conf: settings_mod.Settings, log: Log = print) -> server.ManagedServer:
    """Return a ManagedServer for `key` on the configured port, after stopping a leftover and installing companions.

    The caller calls .start() (in a worker): holding the object first lets the
    hub show its label ("zonos2 (bf16 fallback)") and log while it boots.
    """
    spec = catalog.get(key)
    sg = conf.sglomni
    server.find_leftover(sg.port)
    try:
        from app.backends.sglomni import venv
        venv.install_companions(spec, log=log)
    except ImportError:
        server.install_companions(spec)
    managed = server.ManagedServer(spec, port=sg.port, host=sg.host, start_timeout=float(sg.start_timeout),
                                   profile=sg.profile or None)
    log(f"Starting {managed.label} on port {sg.port}; log: {managed.log_path}")
    return managed


def stop_server(port: int, managed: server.ManagedServer | None = None) -> None:
    """Stop the managed server on `port` (the instance we hold, else the one in its pid file).

    A boot in progress is stopped through its pid file: the booting thread then
    sees the process exit and finishes its own cleanup.
    """
    if managed is not None and managed.state in (server.ServerState.READY, server.ServerState.FAILED):
        managed.stop()
    server.stop_from_pidfile(port)


def stop_server_hosting(key: str, port: int) -> None:
    """Stop the managed server on `port` when it hosts model `key` (before removing its weights)."""
    rec = server.read_pidfile(port)
    if rec is not None and rec.model == key:
        server.stop_from_pidfile(port)


# --- voices -------------------------------------------------------------------------------

def voice_clips() -> list[Path]:
    """Return the reference clips in voices/."""
    folder = paths.voices_dir()
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.suffix.lower() in (".wav", ".mp3", ".flac", ".ogg", ".m4a"))


def server_voices(conf: settings_mod.Settings) -> list[str]:
    """Return voice names the configured (remote or managed) server lists; [] when none answers."""
    from app.backends.sglomni import client
    from app.backends.sglomni.http import Endpoint, Timeouts

    url = conf.sglomni.remote_url or f"http://{server.client_host(conf.sglomni.host)}:{conf.sglomni.port}"
    if server.probe_json(url.rstrip("/"), "/health", timeout=1.0) is None:
        return []
    try:
        with Endpoint(url.rstrip("/"), timeouts=Timeouts()) as ep:
            data = client.list_voices(ep)
    except Exception:  # a server without the voices API simply contributes no names
        return []
    names: list[str] = []
    for item in list(data.get("voices") or []) + list(data.get("uploaded_voices") or []):
        name = item.get("name") if isinstance(item, dict) else item
        if name:
            names.append(str(name))
    return list(dict.fromkeys(names))

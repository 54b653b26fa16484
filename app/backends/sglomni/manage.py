"""Operations on the sglomni backend that both faces use: the CLI's
`backends sglomni ...` and the hub's Configure and Start/Stop screens.

Each function does one user-level thing by composing venv, models, gpu,
server and client; neither face adds work of its own.
"""
from __future__ import annotations

import threading
from pathlib import Path
from typing import Any, Callable

from app import paths
from app import settings as settings_mod
from app.backends.sglomni import catalog, gpu, models, server, venv
from app.urls import check_server_url

Log = Callable[[str], None]

#: Audio files accepted as reference clips in voices/.
CLIP_SUFFIXES = (".wav", ".mp3", ".flac", ".ogg", ".m4a")


# --- models ------------------------------------------------------------------------------

def installed_models() -> set[str]:
    """Return the catalog keys whose weights are fully in the HF cache."""
    return models.installed()


def install_models(keys: list[str], *, progress: Log | None = None,
                   cancel_event: threading.Event | None = None) -> list[str]:
    """Install `keys`: companion recipe, then weights (resumable, cancelable)."""
    return models.install(keys, progress=progress, cancel_event=cancel_event)


def stop_servers_hosting(key: str) -> list[server.StopPath]:
    """Stop every managed server (known from pid files) that hosts model `key`."""
    return server.stop_model(key)


def remove_models(keys: list[str], *, log: Log = print,
                  stop_server: Callable[[str], Any] = stop_servers_hosting) -> list[str]:
    """Stop a managed server hosting each model, then delete its cached revisions."""
    return models.remove(keys, stop_server=stop_server, progress=log)


def missing_system(keys: list[str]) -> list[str]:
    """Return "key: remediation" for each system package a model needs and PATH lacks."""
    return [f"{key}: {line}" for key in keys for line in models.missing_system_packages(catalog.get(key))]


# --- venv and GPU ------------------------------------------------------------------------

def venv_provisioned() -> bool:
    return venv.is_provisioned()


def provision_venv(log: Log = print) -> Path:
    """Create the managed venv and install the pinned sglang-omni into it."""
    return venv.provision(log=log)


def gpu_ok() -> bool:
    """Return whether nvidia-smi answers."""
    return gpu.nvidia_smi_ok()


# --- the managed server ------------------------------------------------------------------

def server_status(port: int | None = None) -> list[dict[str, Any]]:
    """Return the status of managed servers (on `port`, or all known from pid files)."""
    return server.status(port)


def prepare_server(key: str, conf: settings_mod.Settings, *, profile: str | None = None,
                   port: int | None = None, host: str | None = None, log: Log = print) -> server.ManagedServer:
    """Return a ManagedServer for `key`, after stopping a leftover and installing companions.

    The caller calls .start(): holding the object first lets a UI show its
    label ("zonos2 (bf16 fallback)") and log while it boots.
    """
    spec = catalog.get(key)
    sg = conf.sglomni
    port = port or sg.port
    venv.require_usable()
    server.find_leftover(port)
    venv.install_companions(spec, log=log)
    managed = server.ManagedServer(spec, port=port, host=host or sg.host, start_timeout=float(sg.start_timeout),
                                   profile=server.pick_profile(spec, profile, sg.profile))
    log(f"Starting {managed.label} on port {port}; log: {managed.log_path}")
    return managed


def stop_server(port: int | None = None, managed: server.ManagedServer | None = None) -> list[server.StopPath]:
    """Stop the managed server on `port` (or every one known from pid files)."""
    paths_taken = []
    if managed is not None and managed.state in (server.ServerState.READY, server.ServerState.FAILED,
                                                 server.ServerState.STARTING):
        try:
            paths_taken.append(managed.stop())
        except RuntimeError:  # already stopping or stopped: the pid file path below covers it
            pass
    paths_taken += server.stop_from_pidfile(port)
    return paths_taken


# --- voices ------------------------------------------------------------------------------

def voice_clips() -> list[Path]:
    """Return the reference clips in voices/."""
    folder = paths.voices_dir()
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.suffix.lower() in CLIP_SUFFIXES)


def server_url(conf: settings_mod.Settings, api_url: str | None = None) -> str:
    """Return the URL of the server to ask: --api-url, the remote URL setting, else the managed port."""
    if api_url or conf.sglomni.remote_url:
        return check_server_url(api_url or conf.sglomni.remote_url, what="--api-url" if api_url else "The remote URL setting")
    return f"http://{server.client_host(conf.sglomni.host)}:{conf.sglomni.port}"


def server_voices(url: str) -> list[str]:
    """Return the preset and uploaded voice names the server at `url` lists ([] when none answers)."""
    from app.backends.sglomni import client
    from app.backends.sglomni.http import Endpoint, Timeouts
    from app.errors import BackendError

    if server.probe_json(url, "/health", timeout=1.0) is None:
        return []
    try:
        with Endpoint(url, timeouts=Timeouts()) as ep:
            data = client.list_voices(ep)
    except BackendError:  # a server without the voices API contributes no names
        return []
    # sglang-omni answers {"voices": [...], "uploaded_voices": [...]}; other servers a bare list.
    items = data if isinstance(data, list) else (
        list(data.get("voices") or []) + list(data.get("uploaded_voices") or []) if isinstance(data, dict) else [])
    names: list[str] = []
    for item in items:
        name = item.get("name") if isinstance(item, dict) else item
        if name:
            names.append(str(name))
    return list(dict.fromkeys(names))

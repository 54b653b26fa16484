"""The one door into the sglomni backend for both faces: the CLI's
`backends sglomni ...` (app/cli/sglomni.py) and the hub's screens.

Each function does one user-level thing by composing catalog, venv, models, gpu,
server, discovery and client; neither face adds work of its own, and neither
imports another module of this package (tests/core/test_architecture.py).
Options come resolved (app.options): nothing here reads settings.
"""
from __future__ import annotations

import threading
from pathlib import Path
from typing import Any, Callable

from app.core import paths
from app.backends.base import BackendOptions
from app.backends.sglomni import catalog, discovery, gpu, leftovers, models, pidfiles, server, venv
from app.backends.sglomni.catalog import ModelSpec
from app.backends.sglomni.discovery import RemoteStatus
from app.backends.sglomni.server import ManagedServer, ServerState, StopPath

Log = Callable[[str], None]

#: Audio files accepted as reference clips in voices/.
CLIP_SUFFIXES = (".wav", ".mp3", ".flac", ".ogg", ".m4a")

__all__ = ["ManagedServer", "ModelSpec", "RemoteStatus", "ServerState", "StopPath"]


# --- the catalog -------------------------------------------------------------------------

def model_keys() -> list[str]:
    """Return every catalog key, in the catalog's order."""
    return list(catalog.CATALOG)


def model_spec(key: str) -> ModelSpec:
    """Return the catalog entry `key`, or raise ConfigError listing the valid keys."""
    return catalog.get(key)


def picker_rows(keys: list[str] | None = None) -> list[str]:
    """Return one aligned row per model (label, size, capabilities) for pickers."""
    return catalog.picker_rows([catalog.get(k) for k in keys] if keys is not None else None)


def catalog_rows() -> list[str]:
    """Return `backends sglomni list`'s rows (* marks installed models; scans the HF cache)."""
    return models.list_rows()


# --- models ------------------------------------------------------------------------------

def installed_models() -> set[str]:
    """Return the catalog keys whose weights are fully in the HF cache (a cache scan: call from a worker)."""
    return models.installed()


def install_models(keys: list[str], *, progress: Log | None = None,
                   cancel_event: threading.Event | None = None) -> list[str]:
    """Install `keys`: companion recipe, then weights (resumable, cancelable)."""
    return models.install(keys, progress=progress, cancel_event=cancel_event)


def stop_servers_hosting(key: str) -> list[StopPath]:
    """Stop every managed server (known from pid files) that hosts model `key`."""
    return pidfiles.stop_model(key)


def remove_models(keys: list[str], *, log: Log = print,
                  stop_server: Callable[[str], Any] = stop_servers_hosting) -> list[str]:
    """Stop a managed server hosting each model, then delete its cached revisions."""
    return models.remove(keys, stop_server=stop_server, progress=log)


def missing_system(keys: list[str]) -> list[str]:
    """Return "key: remediation" for each system package a model needs and PATH lacks."""
    return [f"{key}: {line}" for key in keys for line in models.missing_system_packages(catalog.get(key))]


def model_status_rows() -> list[str]:
    """Return one status row per catalog model (installed, size, what is missing)."""
    return models.status_rows()


# --- venv and GPU ------------------------------------------------------------------------

def venv_provisioned() -> bool:
    """Return whether the managed venv exists with the pinned sglang-omni."""
    return venv.is_provisioned()


def venv_dir() -> Path:
    """Return the managed venv's folder."""
    return venv.venv_dir()


def provision_venv(log: Log = print) -> Path:
    """Create the managed venv and install the pinned sglang-omni into it."""
    return venv.provision(log=log)


def gpu_ok() -> bool:
    """Return whether nvidia-smi answers."""
    return gpu.nvidia_smi_ok()


# --- servers -----------------------------------------------------------------------------

def server_status(port: int | None = None) -> list[dict[str, Any]]:
    """Return the status of managed servers (on `port`, or all known from pid files)."""
    return discovery.status(port)


def remote_status(url: str) -> RemoteStatus:
    """Return what the server at `url` (not started by this tool) answers: health and hosted models."""
    return discovery.remote_status(url)


def prepare_server(key: str, options: BackendOptions, *, log: Log = print) -> ManagedServer:
    """Return a ManagedServer for `key`, after stopping a leftover and installing companions.

    The caller calls .start(): holding the object first lets a UI show its
    label ("zonos2 (bf16 fallback)") and log while it boots.
    """
    spec = catalog.get(key)
    port = options.port or server.DEFAULT_PORT
    venv.require_usable()
    leftovers.find_leftover(port)
    venv.install_companions(spec, log=log)
    managed = ManagedServer(spec, port=port, host=options.host, start_timeout=options.start_timeout,
                            profile=server.pick_profile(spec, options), port_source=options.source("port"))
    log(f"Starting {managed.label} on port {port}; log: {managed.log_path}")
    return managed


def stop_server(port: int | None = None, managed: ManagedServer | None = None) -> list[StopPath]:
    """Stop the managed server on `port` (or every one known from pid files)."""
    paths_taken = []
    if managed is not None and managed.state in (ServerState.READY, ServerState.FAILED, ServerState.STARTING):
        try:
            paths_taken.append(managed.stop())
        except RuntimeError:  # already stopping or stopped: the pid file path below covers it
            pass
    paths_taken += pidfiles.stop_from_pidfile(port)
    return paths_taken


def log_tail(path: Path, lines: int = 20) -> str:
    """Return the last `lines` non-empty lines of a server log joined with ' | '."""
    return server.log_tail(path, lines)


# --- voices ------------------------------------------------------------------------------

def voice_clips() -> list[Path]:
    """Return the reference clips in voices/."""
    folder = paths.voices_dir()
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.suffix.lower() in CLIP_SUFFIXES)


def server_url(options: BackendOptions) -> str:
    """Return the URL of the server to ask: --api-url or the remote URL setting, else the managed port."""
    if options.api_urls:
        return options.api_urls[0]
    return f"http://{server.client_host(options.host)}:{options.port or server.DEFAULT_PORT}"


def server_voices(url: str) -> list[str]:
    """Return the preset and uploaded voice names the server at `url` lists ([] when none answers)."""
    from app.backends.sglomni import client
    from app.core.http import Endpoint, Timeouts, probe_health
    from app.core.errors import BackendError

    if not probe_health(url, timeout=1.0).answered:
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


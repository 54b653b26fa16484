"""The hub's one door to the functions the CLI also calls.

The hub never does work the CLI cannot: every action here forwards to the
shared module that owns it (app.backends.sglomni.models / venv / server / gpu,
app.settings, app.convert). Where a shared function had not landed yet when
the hub was written, a clearly named fallback stands in and says so in its
docstring; the lead is told in the report so the fallback can be deleted.
"""
from __future__ import annotations

import importlib
import os
import shutil
import threading
from pathlib import Path
from typing import Any, Callable

from app import paths
from app import settings as settings_mod
from app.backends.sglomni import catalog, server
from app.errors import ProvisionError

Log = Callable[[str], None]


def _models_module() -> Any | None:
    """Return app.backends.sglomni.models when it exists (written by another helper)."""
    try:
        return importlib.import_module("app.backends.sglomni.models")
    except ImportError:
        return None


# --- the Hugging Face cache ---------------------------------------------------------------

def hf_hub_cache() -> Path:
    """Return the Hugging Face hub cache folder, read from the environment at call time."""
    if os.environ.get("HF_HUB_CACHE"):
        return Path(os.environ["HF_HUB_CACHE"]).expanduser()
    if os.environ.get("HF_HOME"):
        return Path(os.environ["HF_HOME"]).expanduser() / "hub"
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "huggingface" / "hub"


def repo_cache_dir(repo: str) -> Path:
    """Return the cache folder huggingface_hub uses for model repo `repo`."""
    return hf_hub_cache() / ("models--" + repo.replace("/", "--"))


def _repo_present(repo: str) -> bool:
    snapshots = repo_cache_dir(repo) / "snapshots"
    return snapshots.is_dir() and any(p.is_dir() and any(p.iterdir()) for p in snapshots.iterdir())


def fallback_installed() -> set[str]:
    """FALLBACK for models.installed(): keys whose every repo has a non-empty snapshot in the cache."""
    return {key for key, spec in catalog.CATALOG.items() if all(_repo_present(r) for r in spec.all_repos)}


def installed_models() -> set[str]:
    """Return the catalog keys whose weights are on disk."""
    mod = _models_module()
    if mod is not None and hasattr(mod, "installed"):
        return set(mod.installed())
    return fallback_installed()


def fallback_remove(keys: list[str], stop_server: Callable[[str], Any] | None = None, log: Log = print) -> None:
    """FALLBACK for models.remove(): stop a server hosting the model, delete repos no kept model shares."""
    keys = list(keys)
    keep = installed_models() - set(keys)
    shared = {repo for k in keep for repo in catalog.get(k).all_repos}
    for key in keys:
        if stop_server is not None:
            stop_server(key)
        for repo in catalog.get(key).all_repos:
            if repo in shared:
                log(f"keeping {repo}: another installed model uses it")
                continue
            log(f"removing {repo_cache_dir(repo)}")
            shutil.rmtree(repo_cache_dir(repo), ignore_errors=True)


def remove_models(keys: list[str], *, stop_server: Callable[[str], Any], log: Log = print) -> None:
    """Remove the cached weights of `keys`, stopping a managed server that hosts one of them first."""
    mod = _models_module()
    if mod is not None and hasattr(mod, "remove"):
        try:
            mod.remove(keys, stop_server=stop_server)
        except TypeError:
            mod.remove(keys)
        return
    fallback_remove(keys, stop_server, log)


def install_models(keys: list[str], *, progress: Callable[..., Any] | None = None,
                   cancel_event: threading.Event | None = None) -> Any:
    """Install `keys` (companion recipe, then weights) through models.install."""
    mod = _models_module()
    if mod is None or not hasattr(mod, "install"):
        raise ProvisionError("Model installs are not available in this build (app.backends.sglomni.models is missing)",
                             hint="Use: python audiobook.py backends sglomni install KEY")
    return mod.install(keys, progress=progress, cancel_event=cancel_event)


def missing_system_packages(keys: list[str] | None = None) -> list[tuple[str, str, str]]:
    """Return (model key, binary, remediation) for each system package a model needs and PATH lacks."""
    mod = _models_module()
    if mod is not None and hasattr(mod, "missing_system_packages"):
        try:
            found = mod.missing_system_packages(keys) if keys is not None else mod.missing_system_packages()
            out = []
            for item in found:
                if isinstance(item, tuple) and len(item) == 3:
                    out.append(item)
            if out or not found:
                return out
        except TypeError:
            pass
    rows = []
    for key in keys if keys is not None else list(catalog.CATALOG):
        for pkg in catalog.get(key).system_packages:
            if shutil.which(pkg.binary) is None:
                rows.append((key, pkg.binary, pkg.remediation))
    return rows


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

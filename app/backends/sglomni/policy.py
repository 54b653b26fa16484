"""Which server a run uses: the seed's policy for managed, adopted and external servers."""
from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field
from pathlib import Path

from app.backends.base import BackendOptions
from app.backends.sglomni import catalog
from app.backends.sglomni.venv import require_usable
from app.backends.sglomni.catalog import ModelSpec
from app.backends.sglomni.discovery import hosted_models
from app.core.http import probe_health
from app.backends.sglomni.leftovers import find_leftover
from app.backends.sglomni.pidfiles import read_pidfile
from app.backends.sglomni.procgroup import StopPath
from app.backends.sglomni.server import (DEFAULT_PORT, ManagedServer, client_host, install_companions,
                                         pick_profile)
from app.core.errors import ConfigError, ServerUnavailable
from app.core.urls import display_url

log = logging.getLogger(__name__)


@dataclass
class ServerHandle:
    """The server a run talks to, and whether this run must stop it."""

    base_url: str
    started_by_us: bool
    label: str
    server: ManagedServer | None = None
    log_path: Path | None = None
    hosted: tuple[str, ...] = field(default_factory=tuple)

    @property
    def managed(self) -> bool:
        """Return whether this tool manages the server (local log available)."""
        return self.server is not None or self.log_path is not None

    def stop(self) -> StopPath | None:
        """Stop the server only if this run started it."""
        if self.started_by_us and self.server is not None:
            return self.server.stop()
        return None


def _norm(name: str) -> str:
    return name.strip().lower().replace("-", "_")


def model_matches(spec: ModelSpec, ids: tuple[str, ...]) -> bool:
    """Return whether a server reporting `ids` may host `spec` (its key, repo, or an id it is reported by)."""
    names = {_norm(spec.key)}
    for path in (spec.model_path, *spec.reported_ids):
        names |= {_norm(path), _norm(path.rsplit("/", 1)[-1])}
    return any(_norm(i) in names for i in ids)


def alike(ids: tuple[str, ...]) -> list[str]:
    """Return the catalog keys a server reporting `ids` may host (several: their weights cannot be told apart)."""
    return [spec.key for spec in catalog.CATALOG.values() if model_matches(spec, ids)]


def catalog_key_for(ids: tuple[str, ...]) -> str | None:
    """Return the catalog key a server reporting `ids` hosts, or None when unknown (the first of those alike)."""
    keys = alike(ids)
    if len(keys) > 1:
        log.warning("a server reporting %s may host any of %s: /v1/models cannot tell their weights apart; "
                    "assuming %s (pass --model to say which)", ", ".join(ids), ", ".join(keys), keys[0])
    return keys[0] if keys else None


def _cannot_tell(spec: ModelSpec, ids: tuple[str, ...], url: str) -> None:
    """Say that the server's weights cannot be told from other catalog entries reporting the same id."""
    others = [k for k in alike(ids) if k != spec.key]
    # Said as a warning when the server reports another model's id than the one asked for (the
    # voice-acting weights under the base id); for the base model itself, the usual case, quietly.
    own = {_norm(spec.key), _norm(spec.model_path), _norm(spec.model_path.rsplit("/", 1)[-1])}
    say = log.info if any(_norm(i) in own for i in ids) else log.warning
    if others:
        say("the server at %s reports %s, which %s and %s all report: their weights cannot be told "
                    "apart, so this run trusts --model %s", display_url(url), ", ".join(ids), spec.key,
                    ", ".join(others), spec.key)


def served_model(options: BackendOptions) -> str:
    """Return the catalog key of the model the --api-url server reports, for a run without --model."""
    url = (options.api_urls[0] if options.api_urls else "").rstrip("/")
    choose = "Pass --model KEY (list them with: python audiobook.py backends sglomni list)"
    if not url:
        raise ConfigError("No sglomni model chosen", hint=choose)
    ids = hosted_models(url)
    key = catalog_key_for(ids)
    if key is None:
        reported = f"reports {', '.join(ids)}, which is not in the catalog" if ids else "did not report its model"
        raise ConfigError(f"No sglomni model chosen and the server at {url} {reported}", hint=choose)
    log.info("the server at %s hosts %s: using it as the model", url, key)
    return key


def _external(spec: ModelSpec, url: str) -> ServerHandle:
    health = probe_health(url, timeout=3.0)
    if not health.answered:
        raise ServerUnavailable(f"Nothing answers at {display_url(url)}/health",
                                hint="Start the server or fix --api-url / Settings → SGLang-Omni remote URL")
    if not health.healthy:
        raise ServerUnavailable(f"The server at {display_url(url)} is not ready (status: {health.state})",
                                hint="Wait for it to finish booting, then re-run")
    ids = hosted_models(url)
    if model_matches(spec, ids):
        _cannot_tell(spec, ids, url)
    else:
        other = catalog_key_for(ids)
        if other is not None:
            raise ConfigError(f"The server at {display_url(url)} hosts '{other}', not '{spec.key}'",
                              hint=f"Run with --model {other}, or point --api-url at a server hosting {spec.key}")
        log.warning("the server at %s reports %s; assuming it serves %s", display_url(url), ", ".join(ids) or "no model", spec.key)
    return ServerHandle(base_url=url, started_by_us=False, label=spec.key, hosted=ids)


def ensure_server(spec: ModelSpec, options: BackendOptions, abort: threading.Event | None = None) -> ServerHandle:
    """Return the server a run uses, booting the managed one when the seed's policy says so.

    --api-url (or the remote URL setting, folded into api_urls by app.options): used as-is,
    refused if it hosts another catalog model.
    Otherwise the configured port: a healthy server hosting this model is used and left running;
    one this tool started with another model is restarted; a foreign one hosting another model
    refuses the run; nothing there boots the model (stopping a leftover of ours first).
    Setting `abort` (from another thread) ends a boot in progress: the server is stopped.
    """
    if options.api_urls:
        return _external(spec, options.api_urls[0].rstrip("/"))
    host, port = options.host, options.port or DEFAULT_PORT
    base = f"http://{client_host(host)}:{port}"
    if probe_health(base, timeout=3.0).healthy:
        ids = hosted_models(base)
        rec = read_pidfile(port)
        ours = rec is not None and rec.alive()
        # A server of ours knows which entry it loaded: entries that report one id are not the same weights.
        if model_matches(spec, ids) and not (ours and rec.model and rec.model != spec.key):
            log.info("using the running server at %s (left running)", base)
            return ServerHandle(base_url=base, started_by_us=False, label=(rec.label if ours else spec.key),
                                log_path=Path(rec.log_path) if ours else None, hosted=ids)
        if not ours:
            hosted = ", ".join(ids) or "an unknown model"
            raise ConfigError(
                f"The server at {base} (not started by this tool) hosts {hosted}, not '{spec.key}'",
                hint=f"Stop it, move the managed server to another port (--port or Settings → SGLang-Omni port), "
                     f"or use it as it is with --api-url {base} --model <its model>")
        log.info("restarting the managed server on port %d: it hosts %s, this run needs %s",
                 port, rec.model, spec.key)
    require_usable()
    find_leftover(port)
    install_companions(spec)
    server = ManagedServer(spec, port=port, host=host, start_timeout=options.start_timeout,
                           profile=pick_profile(spec, options), port_source=options.source("port"), abort=abort)
    server.start()
    return ServerHandle(base_url=server.base_url, started_by_us=True, label=server.label, server=server,
                        log_path=server.log_path, hosted=(spec.key,))

"""HTTP discovery: what a server at an address is (healthy? which model?), managed or remote.

Every answer comes from http.probe_health / probe_json, so "healthy" has one meaning.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.core.http import probe_health, probe_json
from app.backends.sglomni.pidfiles import records
from app.backends.sglomni.server import ServerState, client_host
from app.core.urls import display_url


def hosted_models(base_url: str) -> tuple[str, ...]:
    """Return the model ids (and roots) GET /v1/models reports at `base_url`."""
    answer = probe_json(base_url, "/v1/models", timeout=5.0)
    if answer is None or not isinstance(answer[1], dict):
        return ()
    ids = []
    for card in answer[1].get("data") or []:
        if isinstance(card, dict):
            ids += [str(card[k]) for k in ("id", "root") if card.get(k)]
    return tuple(dict.fromkeys(ids))


def status(port: int | None = None) -> list[dict[str, Any]]:
    """Return the status of managed servers known from pid files (on `port`, or all)."""
    out = []
    for rec in records(port):
        url = f"http://{client_host(rec.host)}:{rec.port}"
        if not rec.alive():
            state = ServerState.STOPPED
        else:
            state = ServerState.READY if probe_health(url).healthy else ServerState.STARTING
        out.append({"state": state.value, "model": rec.model, "port": rec.port, "label": rec.label or rec.model,
                    "log_path": rec.log_path, "pid": rec.pid, "url": url})
    return out


@dataclass(frozen=True)
class RemoteStatus:
    """What a server this tool did not start answered: its /health state and the models it lists."""

    url: str
    state: str
    hosted: tuple[str, ...] = ()

    def line(self) -> str:
        """Return one line for the CLI and the hub, e.g. 'Remote server http://gpu:8100: healthy, hosts x'."""
        where = f"Remote server {display_url(self.url)}"
        if self.state == "not answering":
            return f"{where}: not answering"
        return f"{where}: {self.state}, hosts {', '.join(self.hosted) or 'no model listed'}"


def remote_status(url: str) -> RemoteStatus:
    """Ask the server at `url` for /health, then the models /v1/models reports (only when it answered)."""
    health = probe_health(url)
    return RemoteStatus(url=url, state=health.state, hosted=hosted_models(url) if health.answered else ())

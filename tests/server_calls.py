"""Calls on a sgl-omni server that only tests make (the app never lists models or deletes a voice).

They go through the app's own HTTP door (app/core/http.py `Endpoint`), so the
tests exercise the same transport and error translation the product uses.
"""
from __future__ import annotations

from app.core.http import Endpoint
from app.core.errors import ServerError


def list_models(endpoint: Endpoint) -> list[str]:
    """Return the model ids GET /v1/models reports."""
    data = endpoint.get_json("/v1/models")
    return [str(card["id"]) for card in (data.get("data") or []) if isinstance(card, dict) and "id" in card]


def delete_voice(endpoint: Endpoint, name: str) -> bool:
    """Delete uploaded voice `name`; return False when the server does not have it."""
    try:
        endpoint.request("DELETE", f"/v1/audio/voices/{name}", control=True)
    except ServerError as exc:
        if exc.status == 404:
            return False
        raise
    return True


def servers_of(backend):
    """Return the endpoint pool a started sglomni backend spreads requests over (its private state:
    the pipeline never needs it, the tests assert on which servers took requests)."""
    return backend._client


__all__ = ["list_models", "delete_voice", "servers_of"]

"""The backend registry: names to factories, imported lazily.

A backend module may be heavy (onnxruntime for Piper, httpx for servers), so
the registry holds import paths, not classes.
"""
from __future__ import annotations

import importlib

from app.backends.base import Backend, BackendOptions, VoiceOptions
from app.core.errors import ConfigError

#: name -> "module:factory" where factory(options: BackendOptions) -> Backend
REGISTRY: dict[str, str] = {
    "piper": "app.backends.piper.backend:create",
    "sglomni": "app.backends.sglomni.backend:create",
}

#: name -> "module:function" that starts loading, in the background, what a run on that backend will
#: need before the backend is built (function(options: BackendOptions) -> None; never raises).
WARMERS: dict[str, str] = {
    "piper": "app.backends.piper.backend:warm",
}


def warm_backend(name: str, options: BackendOptions) -> None:
    """Start loading what a run on `name` needs (a local voice) while the book is read and planned.

    Best effort: anything wrong is left for create_backend() and start(), which say it in order.
    """
    target = WARMERS.get(name)
    if target is None:
        return
    module_name, _, function = target.partition(":")
    getattr(importlib.import_module(module_name), function)(options)


def create_backend(name: str, options: BackendOptions) -> Backend:
    """Return a backend instance for `name`, configured by `options`."""
    target = REGISTRY.get(name)
    if target is None:
        valid = ", ".join(sorted(REGISTRY))
        raise ConfigError(f"Unknown backend '{name}'. Valid backends: {valid}")
    module_name, _, factory = target.partition(":")
    module = importlib.import_module(module_name)
    return getattr(module, factory)(options)


__all__ = ["Backend", "BackendOptions", "VoiceOptions", "REGISTRY", "create_backend", "warm_backend"]

"""The backend registry: names to factories, imported lazily.

A backend module may be heavy (onnxruntime for Piper, httpx for servers), so
the registry holds import paths, not classes.
"""
from __future__ import annotations

import importlib
from typing import Literal

from app.backends.base import Backend, BackendOptions, VoiceOptions
from app.errors import ConfigError

BackendName = Literal["piper", "sglomni"]

#: name -> "module:factory" where factory(options: BackendOptions) -> Backend
REGISTRY: dict[str, str] = {
    "piper": "app.backends.piper.backend:create",
    "sglomni": "app.backends.sglomni.backend:create",
}


def create_backend(name: str, options: BackendOptions) -> Backend:
    """Return a backend instance for `name`, configured by `options`."""
    target = REGISTRY.get(name)
    if target is None:
        valid = ", ".join(sorted(REGISTRY))
        raise ConfigError(f"Unknown backend '{name}'. Valid backends: {valid}")
    module_name, _, factory = target.partition(":")
    module = importlib.import_module(module_name)
    return getattr(module, factory)(options)


__all__ = ["Backend", "BackendOptions", "VoiceOptions", "REGISTRY", "create_backend"]

"""The model catalog, as data: one frozen entry per installable model.

Everything the app knows about a model lives in its entry; code asks the entry
instead of branching on keys.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping

from app.errors import ConfigError


@dataclass(frozen=True)
class PipRecipe:
    """One `pip install` into the managed venv."""

    packages: tuple[str, ...]
    #: --no-deps, where upstream's pins would replace sglang-omni's stack.
    no_deps: bool = False


@dataclass(frozen=True)
class SystemPackage:
    """A binary the server needs on PATH, and how to get it."""

    binary: str
    remediation: str


@dataclass(frozen=True)
class ModelSpec:
    key: str
    #: Human name, e.g. "MOSS-TTS Local v1.5".
    label: str
    #: Upstream organisation, for grouping in the checkbox tree.
    org: str
    #: Hugging Face repo passed as `sgl-omni serve --model-path`.
    model_path: str
    #: Companion weights pre-downloaded with the model (audio tokenizer, codec).
    extra_repos: tuple[str, ...] = ()
    #: Subset of {"tts", "clone", "design"}.
    capabilities: frozenset[str] = frozenset({"tts"})
    #: Built-in or preset speaker names (--voice).
    preset_voices: tuple[str, ...] = ()
    reference_required: bool = False
    sample_rate: int = 24000
    channels: int = 1
    #: Vendored config in configs/ (None: upstream's default pipeline).
    config_file: str | None = None
    #: Config used below `min_compute_capability` (ZONOS2's bf16 fallback).
    fallback_config_file: str | None = None
    min_compute_capability: float | None = None
    #: Named alternative configs, e.g. {"throughput": "moss_tts_local_throughput.yaml"}.
    profiles: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    #: Fields added to every /v1/audio/speech request.
    request_extras: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    #: Hard cap on words per request (Higgs: 80), or None.
    max_chunk_words: int | None = None
    default_chunk_size: int = 40
    companion_packages: tuple[PipRecipe, ...] = ()
    system_packages: tuple[SystemPackage, ...] = ()
    vram_notes: str = ""

    @property
    def all_repos(self) -> tuple[str, ...]:
        return (self.model_path, *self.extra_repos)


# Entries are filled in below; see app/docs/backend-sglomni.md for the table.
CATALOG: Mapping[str, ModelSpec] = MappingProxyType({
    "moss_tts_local": ModelSpec(
        key="moss_tts_local",
        label="MOSS-TTS Local v1.5",
        org="OpenMOSS-Team",
        model_path="OpenMOSS-Team/MOSS-TTS-Local-Transformer-v1.5",
        extra_repos=("OpenMOSS-Team/MOSS-Audio-Tokenizer-v2",),
        capabilities=frozenset({"tts", "clone"}),
        sample_rate=48000,
        channels=2,
        config_file="moss_tts_local.yaml",
        profiles=MappingProxyType({"throughput": "moss_tts_local_throughput.yaml"}),
        default_chunk_size=40,
    ),
})


def get(key: str) -> ModelSpec:
    """Return the entry for `key` or raise ConfigError listing the valid keys."""
    try:
        return CATALOG[key]
    except KeyError:
        raise ConfigError(
            f"Unknown sglomni model '{key}'. Valid models: {', '.join(sorted(CATALOG))}",
            hint="List them with: python audiobook.py backends sglomni list",
        ) from None

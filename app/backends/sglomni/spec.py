"""The shape of a catalog entry: what the app needs to know about one model, as frozen data.

The entries themselves are in catalog.py; this module holds only their types.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping


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


#: How a model's request builder treats one /v1/audio/speech field.
TAKES, REQUIRED, IGNORED, REFUSED = "takes", "required", "ignored", "refused"


@dataclass(frozen=True)
class RequestFields:
    """Which /v1/audio/speech fields a model's sglang-omni 0.1.9 request builder takes.

    Read from the builder named in `source`; requests.py builds every request from
    this, so a field the builder refuses (ZONOS2's seed) is never sent.
    TAKES: read and used. REQUIRED: refused when absent. IGNORED: never read (not
    sent). REFUSED: the builder raises when present.
    """

    #: "sglang_omni/models/<family>/<file>.py <function>": where this entry was read.
    source: str
    seed: str = TAKES
    instructions: str = TAKES
    language: str = TAKES
    #: A preset speaker name in "voice" (uploaded voices are reference.py's concern).
    voice: str = IGNORED
    #: A reference clip (ref_audio or references[]).
    references: str = TAKES
    #: The reference's transcript is mandatory (Qwen3-TTS Base refuses a clip without it).
    ref_text_required: bool = False
    max_new_tokens: str = TAKES
    #: Fields added to every request, e.g. {"max_new_tokens": 3000}.
    extras: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True)
class ModelSpec:
    key: str
    #: Human name, e.g. "MOSS-TTS Local v1.5".
    label: str
    #: Upstream organisation, for grouping in the checkbox tree.
    org: str
    #: Hugging Face repo passed as `sgl-omni serve --model-path`.
    model_path: str
    #: Other ids a server hosting it reports in /v1/models (the LAION voice-acting weights run on the
    #: MOSS-TTS-Local pipeline, which reports the base model's id: the guide's trap 6).
    reported_ids: tuple[str, ...] = ()
    #: Companion weights pre-downloaded with the model (audio tokenizer, codec).
    extra_repos: tuple[str, ...] = ()
    #: Subset of {"tts", "clone", "design"}.
    capabilities: frozenset[str] = frozenset({"tts"})
    #: Built-in or preset speaker names (--voice).
    preset_voices: tuple[str, ...] = ()
    #: The gender of each preset ("F"/"M") where its model card says, for --cast auto.
    preset_genders: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    #: The preset a request without "voice" speaks in, where the model has one (kept from --cast auto's characters).
    default_preset: str | None = None
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
    #: Programs a profile's server needs on PATH, e.g. {"throughput": ("ninja", "nvcc")}.
    profile_tools: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: MappingProxyType({}))
    #: What its 0.1.9 request builder takes (requests.py builds each request from it).
    request: RequestFields = RequestFields(source="")
    #: Hard cap on words per request (Higgs: 80), or None.
    max_chunk_words: int | None = None
    default_chunk_size: int = 40
    companion_packages: tuple[PipRecipe, ...] = ()
    system_packages: tuple[SystemPackage, ...] = ()

    @property
    def all_repos(self) -> tuple[str, ...]:
        return (self.model_path, *self.extra_repos)

    @property
    def request_extras(self) -> Mapping[str, Any]:
        """Return the fields added to every request (the entry's `request.extras`)."""
        return self.request.extras

"""The model catalog, as data: one frozen entry per installable model.

Everything the app knows about a model lives in its entry; code asks the entry
instead of branching on keys.
"""
from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping

from app.backends.sglomni.spec import (  # noqa: F401  (re-exported: the catalog's types)
    IGNORED, REFUSED, REQUIRED, TAKES, ModelSpec, PipRecipe, RequestFields, SystemPackage,
)
from app.core.errors import ConfigError

CONFIGS_DIR = Path(__file__).resolve().parent / "configs"

#: Capability words in their fixed picker columns (tts col 1, clone col 2, design col 3).
CAPABILITY_COLUMNS: tuple[str, ...] = ("tts", "clone", "design")

_SOX = SystemPackage(
    binary="sox",
    remediation="install the sox binary (e.g. sudo apt install sox, sudo pacman -S sox, brew install sox)",
)
_FFMPEG = SystemPackage(
    binary="ffmpeg",
    remediation="put ffmpeg on the server's PATH (e.g. sudo apt install ffmpeg, sudo pacman -S ffmpeg)",
)
# The qwen-tts demo pins Transformers 4, which would replace sglang-omni's pinned 5.x
# stack; upstream shims the API differences, so every Qwen3 companion goes in --no-deps.
_QWEN3_COMPANIONS = (PipRecipe(("sox", "einops", "qwen-tts==0.1.1"), no_deps=True),)
# The Descript DAC codec, which the base sglang-omni package does not include.
_DAC_COMPANIONS = (PipRecipe(("descript-audiotools==0.7.2", "descript-audio-codec==1.0.0")),)

_QWEN3_SPEAKERS = ("Vivian", "Serena", "Uncle_Fu", "Dylan", "Eric", "Ryan", "Aiden", "Ono_Anna", "Sohee")
#: From the Qwen3-TTS CustomVoice model card's speaker table.
_QWEN3_GENDERS = MappingProxyType({"Vivian": "F", "Serena": "F", "Uncle_Fu": "M", "Dylan": "M", "Eric": "M",
                                   "Ryan": "M", "Aiden": "M", "Ono_Anna": "F", "Sohee": "F"})
# Qwen3-TTS VRAM: colocated engine + vocoder on GPU 0; the vendored config pins mem_fraction_static 0.70
# so CUDA graphs and the vocoder keep ~7 GB of headroom on a 24 GB card.

# --- what each family's 0.1.9 request builder takes (paths relative to the sglang_omni package) ---
_QWEN3_BUILDER = "models/qwen3_tts/request_builders.py build_qwen3_tts_state"
# CustomVoice: "Qwen3-TTS CustomVoice does not accept ref_audio" (and ref_text).
_QWEN3_CUSTOMVOICE_REQUEST = RequestFields(source=_QWEN3_BUILDER, voice=TAKES, references=REFUSED)
# Base: "Qwen3-TTS Base requires reference audio via ref_audio ..." (resolve_voice_clone_reference)
# and "... requires non-empty ref_text unless x_vector_only_mode is enabled" (HTTP 400).
_QWEN3_BASE_REQUEST = RequestFields(source=_QWEN3_BUILDER, references=REQUIRED, ref_text_required=True)
# VoiceDesign: "... does not accept ref_audio", "Qwen3-TTS VoiceDesign requires instructions".
_QWEN3_VOICEDESIGN_REQUEST = RequestFields(source=_QWEN3_BUILDER, instructions=REQUIRED, references=REFUSED)
# Higgs reads text, references, max_new_tokens and seed (from the sampling params) only.
_HIGGS_REQUEST = RequestFields(
    source="models/higgs_tts/stages.py create_preprocessing_executor._preprocess",
    instructions=IGNORED, language=IGNORED,
    # The thinker context is pinned at 4096 tokens: prompt + generation must fit,
    # so requests ask for 3000 frames (~40 s) and sub-requests stay under 80 words.
    extras=MappingProxyType({"max_new_tokens": 3000}),
)
_MOSS_TTS_REQUEST = RequestFields(source="models/moss_tts/request_builders.py build_moss_tts_state")
_MOSS_TTS_LOCAL_REQUEST = RequestFields(
    source="models/moss_tts_local/request_builders.py build_moss_tts_local_state")
# "Voxtral TTS does not support these /v1/audio/speech fields: ... Supported model-specific
# fields are voice and max_new_tokens." (validate_voxtral_speech_params; HTTP 500).
_VOXTRAL_REQUEST = RequestFields(
    source="models/voxtral_tts/pipeline/stages.py validate_voxtral_speech_params",
    seed=REFUSED, instructions=REFUSED, language=REFUSED, voice=TAKES, references=REFUSED,
)
_DOTS_REQUEST = RequestFields(source="models/dots_tts/stages.py preprocess_dots_tts_payload")
# Fish reads text, references, max_new_tokens and the sampling params (seed) only.
_FISH_REQUEST = RequestFields(
    source="models/fishaudio_s2_pro/stages.py create_preprocessing_executor._preprocess",
    instructions=IGNORED, language=IGNORED,
)
# "ZONOS2 does not support seed because sampling uses the shared device RNG" (HTTP 500).
_ZONOS2_REQUEST = RequestFields(
    source="models/zonos2/request_builders.py build_zonos2_state",
    seed=REFUSED, instructions=IGNORED,
    # The engine's 1024-frame default caps one request at ~12 s of speech.
    extras=MappingProxyType({"max_new_tokens": 12288}),
)


def _qwen3(key: str, label: str, size: str, kind: str, **kw: Any) -> ModelSpec:
    return ModelSpec(
        key=key,
        label=label,
        org="Qwen",
        model_path=f"Qwen/Qwen3-TTS-12Hz-{size}-{kind}",
        sample_rate=24000,
        config_file=f"{key}.yaml",
        companion_packages=_QWEN3_COMPANIONS,
        system_packages=(_SOX,),
        **kw,
    )


def _moss_tts_local(key: str, label: str, model_path: str) -> ModelSpec:
    return ModelSpec(
        key=key,
        label=label,
        org="OpenMOSS-Team" if model_path.startswith("OpenMOSS") else "LAION",
        model_path=model_path,
        reported_ids=() if model_path == _MOSS_TTS_LOCAL_BASE else (_MOSS_TTS_LOCAL_BASE,),
        extra_repos=("OpenMOSS-Team/MOSS-Audio-Tokenizer-v2",),
        capabilities=frozenset({"tts", "clone"}),
        sample_rate=48000,
        channels=2,
        config_file="moss_tts_local.yaml",
        profiles=MappingProxyType({"throughput": "moss_tts_local_throughput.yaml"}),
        # Capturing CUDA graphs past the stock batch sizes JIT-compiles kernels (guide, trap 7).
        profile_tools=MappingProxyType({"throughput": ("ninja", "nvcc")}),
        request=_MOSS_TTS_LOCAL_REQUEST,
        default_chunk_size=40,
    )


#: The id every MOSS-TTS-Local pipeline server reports in /v1/models, whatever weights it loaded.
_MOSS_TTS_LOCAL_BASE = "OpenMOSS-Team/MOSS-TTS-Local-Transformer-v1.5"

_ENTRIES = (
    _qwen3(
        "qwen3_tts_0_6b_customvoice", "Qwen3-TTS 0.6B CustomVoice", "0.6B", "CustomVoice",
        capabilities=frozenset({"tts"}), preset_voices=_QWEN3_SPEAKERS, preset_genders=_QWEN3_GENDERS,
        request=_QWEN3_CUSTOMVOICE_REQUEST,
    ),
    _qwen3(
        "qwen3_tts_0_6b_base", "Qwen3-TTS 0.6B Base", "0.6B", "Base",
        capabilities=frozenset({"clone"}), reference_required=True, request=_QWEN3_BASE_REQUEST,
    ),
    _qwen3(
        "qwen3_tts_1_7b_base", "Qwen3-TTS 1.7B Base", "1.7B", "Base",
        capabilities=frozenset({"clone"}), reference_required=True, request=_QWEN3_BASE_REQUEST,
    ),
    _qwen3(
        "qwen3_tts_1_7b_voicedesign", "Qwen3-TTS 1.7B VoiceDesign", "1.7B", "VoiceDesign",
        capabilities=frozenset({"design"}), request=_QWEN3_VOICEDESIGN_REQUEST,
    ),
    ModelSpec(
        key="higgs_audio_v3_tts",
        label="Higgs Audio v3 TTS",
        org="bosonai",
        model_path="bosonai/higgs-audio-v3-tts-4b",
        capabilities=frozenset({"tts", "clone"}),
        sample_rate=24000,
        config_file="higgs_audio_v3_tts.yaml",
        request=_HIGGS_REQUEST,
        max_chunk_words=80,
        default_chunk_size=80,
        # VRAM: upstream budgets 98% of the card across colocated stages; the vendored config caps the engine at
        # gpu_memory_fraction 0.80 for 24 GB cards
    ),
    ModelSpec(
        key="moss_tts",
        label="MOSS-TTS v1.5",
        org="OpenMOSS-Team",
        model_path="OpenMOSS-Team/MOSS-TTS",
        extra_repos=("OpenMOSS-Team/MOSS-Audio-Tokenizer",),
        capabilities=frozenset({"clone"}),
        reference_required=True,
        sample_rate=24000,
        config_file="moss_tts.yaml",
        request=_MOSS_TTS_REQUEST,
        # VRAM: ~17.1 GB of bf16 weights in 0.1.9's stock engine budget (0.72 of the card: ~1.4 GB of KV on 24
        # GiB); needs a 24 GB-class card
    ),
    # VRAM: upstream config budgets its colocated stages explicitly; 48 kHz stereo output
    _moss_tts_local("moss_tts_local", "MOSS-TTS Local v1.5", _MOSS_TTS_LOCAL_BASE),
    # LAION 4.55B merged weights on the MOSS-TTS Local pipeline; put the performance direction in
    # --instructions; /v1/models reports the base model id (cosmetic)
    _moss_tts_local("moss_tts_local_voice_acting", "MOSS-TTS Local 4.55B Voice Acting",
                    "laion/moss-tts-local-transformer-4.55b-voice-acting"),
    ModelSpec(
        key="voxtral_tts",
        label="Voxtral TTS 4B",
        org="mistralai",
        model_path="mistralai/Voxtral-4B-TTS-2603",
        capabilities=frozenset({"tts"}),
        # "default" is upstream's alias of cheerful_female (voxtral_tts/pipeline/stages.py
        # _preprocess); the checkpoint ships more under voice_embedding/, these are documented.
        preset_voices=("default", "cheerful_female", "casual_male"),
        # "default" is cheerful_female under another name: --cast auto leaves it out (no gender).
        preset_genders=MappingProxyType({"cheerful_female": "F", "casual_male": "M"}),
        default_preset="cheerful_female",
        sample_rate=24000,
        config_file="voxtral_tts.yaml",
        request=_VOXTRAL_REQUEST,
        # VRAM: colocated engine + vocoder; the vendored config pins mem_fraction_static 0.70
    ),
    ModelSpec(
        key="dots_tts_mf",
        label="dots.tts (MeanFlow)",
        org="dots-studio",
        model_path="dots-studio/dots.tts-mf",
        capabilities=frozenset({"clone"}),
        reference_required=True,
        sample_rate=48000,
        config_file="dots_tts_mf.yaml",
        request=_DOTS_REQUEST,
        # VRAM: mem_fraction_static 0.20 budgets only the backbone KV cache; the acoustic-tail pools (16 slots x
        # 500 patches) are allocated on top of it
    ),
    ModelSpec(
        key="fish_s2_pro",
        label="Fish Speech S2-Pro",
        org="fishaudio",
        model_path="fishaudio/s2-pro",
        capabilities=frozenset({"tts", "clone"}),
        sample_rate=44100,
        config_file="fish_s2_pro.yaml",
        request=_FISH_REQUEST,
        companion_packages=_DAC_COMPANIONS,
        system_packages=(_FFMPEG,),
        # VRAM: needs ~24 GB VRAM (known OOM on a single RTX 3090, upstream issue #359)
    ),
    ModelSpec(
        key="zonos2",
        label="ZONOS2",
        org="Zyphra",
        model_path="Zyphra/zonos2",
        capabilities=frozenset({"clone"}),
        reference_required=True,
        sample_rate=44100,
        # Upstream's FP8 pipeline needs no --config; below 8.9 the bf16 config replaces it.
        config_file=None,
        fallback_config_file="zonos2_bf16.yaml",
        min_compute_capability=8.9,
        request=_ZONOS2_REQUEST,
        companion_packages=_DAC_COMPANIONS,
        system_packages=(_FFMPEG,),
        # VRAM: FP8 MoE experts need compute capability 8.9+; the bf16 fallback takes ~11.5 GB of weights and
        # mem_fraction_static 0.70 (practical floor: a ~16 GB card)
    ),
)

CATALOG: Mapping[str, ModelSpec] = MappingProxyType({spec.key: spec for spec in _ENTRIES})


def config_path(name: str | None) -> Path | None:
    """Return the vendored config file `name` as a path, or None for upstream's default."""
    return None if name is None else CONFIGS_DIR / name


def capability_columns(spec: ModelSpec) -> str:
    """Render the capabilities as fixed columns so each word lines up across rows."""
    # Each column is as wide as its own word, so a full row reads "tts  clone  design".
    cells = [word if word in spec.capabilities else " " * len(word) for word in CAPABILITY_COLUMNS]
    return "  ".join(cells).rstrip()


def picker_rows(specs: Iterable[ModelSpec] | None = None) -> list[str]:
    """Return one line per entry: the label padded to the widest, then the capability columns."""
    entries = list(CATALOG.values() if specs is None else specs)
    if not entries:
        return []
    width = max(len(spec.label) for spec in entries)
    return [f"{spec.label.ljust(width)}  {capability_columns(spec)}".rstrip() for spec in entries]


def get(key: str) -> ModelSpec:
    """Return the entry for `key` or raise ConfigError listing the valid keys."""
    try:
        return CATALOG[key]
    except KeyError:
        raise ConfigError(
            f"Unknown sglomni model '{key}'. Valid models: {', '.join(sorted(CATALOG))}",
            hint="List them with: python audiobook.py backends sglomni list",
        ) from None


# --- listening models (issue 13): served beside a TTS model for verification, never narrating ---
# Kept out of CATALOG: they take no /v1/audio/speech request and are no narrator to pick.
_ASR_ENTRIES = (
    ModelSpec(
        key="whisper_large_v3_turbo",
        label="Whisper large-v3-turbo (listening)",
        org="openai",
        model_path="openai/whisper-large-v3-turbo",
        capabilities=frozenset({"asr"}),
        sample_rate=16000,
        config_file="whisper_large_v3_turbo.yaml",
        request=RequestFields(source="models/whisper_asr/request_builders.py (POST /v1/audio/transcriptions)"),
        # VRAM: 0.8B parameters (~1.6 GB bf16); the vendored config caps its engine at mem_fraction_static 0.10
        # and 16 running requests; the TTS model's own config must leave that share free
    ),
)

ASR_CATALOG: Mapping[str, ModelSpec] = MappingProxyType({spec.key: spec for spec in _ASR_ENTRIES})


def get_asr(key: str) -> ModelSpec:
    """Return the listening model `key` or raise ConfigError listing the valid keys."""
    try:
        return ASR_CATALOG[key]
    except KeyError:
        raise ConfigError(f"Unknown listening model '{key}'. Valid models: {', '.join(sorted(ASR_CATALOG))}",
                          hint="Or listen with any server's transcription route: --asr-url URL") from None

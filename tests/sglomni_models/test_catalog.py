"""The catalog and its vendored configs: complete, consistent, loadable by sglang-omni 0.1.9."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import venv
from pathlib import Path

import pytest
import yaml

from app.backends.sglomni import catalog
from app.core.errors import ConfigError

SGO_SRC = Path("/tmp/sgo/src")
EXPECTED_KEYS = {
    "qwen3_tts_0_6b_customvoice", "qwen3_tts_0_6b_base", "qwen3_tts_1_7b_base",
    "qwen3_tts_1_7b_voicedesign", "higgs_audio_v3_tts", "moss_tts", "moss_tts_local",
    "moss_tts_local_voice_acting", "voxtral_tts", "dots_tts_mf", "fish_s2_pro", "zonos2",
}


def _referenced_files():
    for spec in (*catalog.CATALOG.values(), *catalog.ASR_CATALOG.values()):
        for name in (spec.config_file, spec.fallback_config_file, *spec.profiles.values()):
            if name is not None:
                yield spec, name


def test_every_key_is_present_once():
    assert set(catalog.CATALOG) == EXPECTED_KEYS
    assert all(key == spec.key for key, spec in catalog.CATALOG.items())


def test_unknown_key_lists_the_valid_ones():
    with pytest.raises(ConfigError) as err:
        catalog.get("nope")
    assert "moss_tts_local" in err.value.message


@pytest.mark.parametrize("spec, name", list(_referenced_files()), ids=lambda v: getattr(v, "key", v))
def test_referenced_config_exists_and_names_the_model(spec, name):
    path = catalog.config_path(name)
    data = yaml.safe_load(path.read_text())
    assert isinstance(data, dict) and data["config_cls"].endswith("PipelineConfig")
    if spec.key != "moss_tts_local_voice_acting":  # shares the base config; --model-path wins
        assert data["model_path"] == spec.model_path
    first = path.read_text().splitlines()[0]
    assert first.startswith("# Why"), f"{name} must say why its budget is what it is"


def test_every_vendored_file_is_referenced():
    on_disk = {p.name for p in catalog.CONFIGS_DIR.glob("*.yaml")}
    assert on_disk == {name for _, name in _referenced_files()}


def test_budgets_match_the_seed():
    def stage(name, key):
        return yaml.safe_load(catalog.config_path(name).read_text())["stages"][key]

    for key in ("qwen3_tts_0_6b_customvoice", "qwen3_tts_0_6b_base", "qwen3_tts_1_7b_base", "qwen3_tts_1_7b_voicedesign"):
        assert stage(f"{key}.yaml", "tts_engine")["engine"]["mem_fraction_static"] == 0.70
    assert stage("voxtral_tts.yaml", "tts_generation")["engine"]["mem_fraction_static"] == 0.70
    # 0.1.9 budgets MOSS-TTS per stage (0.10 / 0.72 / 0.18): nothing overrides them.
    assert "stages" not in yaml.safe_load(catalog.config_path("moss_tts.yaml").read_text())
    # The listening model beside a TTS model (issue 13): a tenth of the card, 16 running requests.
    assert stage("whisper_large_v3_turbo.yaml", "asr")["engine"] == {"mem_fraction_static": 0.10,
                                                                    "max_running_requests": 16}
    higgs = stage("higgs_audio_v3_tts.yaml", "tts_engine")
    assert higgs["gpu_memory_fraction"] == 0.80 and higgs["factory"]["max_new_tokens"] >= 3000
    zonos = stage("zonos2_bf16.yaml", "tts_engine")["factory"]
    assert zonos == {"fp8": False, "mem_fraction_static": 0.70}
    thr = stage("moss_tts_local_throughput.yaml", "tts_engine")["engine"]
    assert thr == {
        "max_running_requests": 64, "cuda_graph_bs": [1, 2, 4, 8, 16, 24, 32, 48, 64],
        "cuda_graph_max_bs": 64,
    }, "the profile raises the batch; 0.1.9's stock engine budget (0.67) is above the guide's 0.55"
    assert stage("moss_tts_local_throughput.yaml", "vocoder")["factory"]["max_batch_size"] == 16


def test_request_extras_and_caps():
    higgs, zonos = catalog.get("higgs_audio_v3_tts"), catalog.get("zonos2")
    assert higgs.request_extras["max_new_tokens"] == 3000 and higgs.max_chunk_words == 80
    assert higgs.default_chunk_size <= higgs.max_chunk_words
    assert zonos.request_extras["max_new_tokens"] == 12288
    assert zonos.min_compute_capability == 8.9 and zonos.config_file is None
    mtl = catalog.get("moss_tts_local_voice_acting")
    assert mtl.model_path == "laion/moss-tts-local-transformer-4.55b-voice-acting"
    assert mtl.config_file == catalog.get("moss_tts_local").config_file
    assert (mtl.sample_rate, mtl.channels) == (48000, 2)


def test_companions_follow_the_seed():
    for key in ("qwen3_tts_0_6b_customvoice", "qwen3_tts_1_7b_voicedesign"):
        (recipe,) = catalog.get(key).companion_packages
        assert recipe.no_deps and "qwen-tts==0.1.1" in recipe.packages
        assert [s.binary for s in catalog.get(key).system_packages] == ["sox"]
    for key in ("fish_s2_pro", "zonos2"):
        (recipe,) = catalog.get(key).companion_packages
        assert set(recipe.packages) == {"descript-audiotools==0.7.2", "descript-audio-codec==1.0.0"}
        assert [s.binary for s in catalog.get(key).system_packages] == ["ffmpeg"]


def test_reference_required_means_clone_only():
    for spec in catalog.CATALOG.values():
        if spec.reference_required:
            assert spec.capabilities == {"clone"}, spec.key


def test_picker_rows_align_columns():
    rows = catalog.picker_rows()
    assert len(rows) == len(catalog.CATALOG)
    width = max(len(s.label) for s in catalog.CATALOG.values())
    for row, spec in zip(rows, catalog.CATALOG.values()):
        assert row.startswith(spec.label.ljust(width) + "  ")
        cols = row[width + 2:]
        for word, start in (("tts", 0), ("clone", 5), ("design", 12)):
            assert (cols[start:start + len(word)] == word) == (word in spec.capabilities), (spec.key, word)
    assert catalog.capability_columns(catalog.get("higgs_audio_v3_tts")) == "tts  clone"


@pytest.fixture(scope="session")
def config_venv(tmp_path_factory):
    """A throwaway venv with only what sglang-omni's config schema imports (no torch)."""
    global SGO_SRC
    from tests.support import sglang_omni_source
    found = sglang_omni_source()
    if found is None:
        pytest.skip("sglang-omni 0.1.9's source is not on this machine (bash tests/conformance/env.sh)")
    # The package alone, as an unpacked wheel would hold it: a venv's site-packages would
    # bring torch and sglang along, which this schema-only check must do without.
    SGO_SRC = tmp_path_factory.mktemp("sgo")
    shutil.copytree(found / "sglang_omni", SGO_SRC / "sglang_omni",
                    ignore=shutil.ignore_patterns("__pycache__"))
    root = tmp_path_factory.mktemp("cfgvenv")
    venv.EnvBuilder(with_pip=True).create(root)
    py = root / "bin" / "python"
    done = subprocess.run(
        [py, "-m", "pip", "install", "-q", "pydantic>=2", "pyyaml", "msgspec", "msgpack"],
        capture_output=True, text=True,
    )
    if done.returncode != 0:
        pytest.skip("cannot install pydantic into a scratch venv: " + done.stdout[-300:])
    return py


_VALIDATE = r"""
import json, logging, sys
logging.disable(logging.WARNING)
from sglang_omni.config.resolver import ConfigResolver
from sglang_omni.config.sources import sources_from_config_file
out = {}
for path in sys.argv[1:]:
    try:
        base, patches = sources_from_config_file(path)
        out[path] = "ok " + type(ConfigResolver(base).resolve(patches).config).__name__
    except Exception as exc:
        out[path] = "FAIL " + type(exc).__name__ + ": " + str(exc)
print(json.dumps(out))
"""
# Their packages import transformers/sglang at import time, so the registry skips them
# here; tests/conformance loads them in the real venv.
_NEEDS_FULL_STACK = {"HiggsTtsPipelineConfig", "Qwen3TTSPipelineConfig"}


@pytest.mark.slow
def test_configs_load_in_the_real_schema(config_venv, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("config_cls: MossTTSPipelineConfig\nmodel_path: x/y\nstages:\n  tts_engine:\n    gpu_memory_fractoin: 0.5\n")
    paths = [str(p) for p in sorted(catalog.CONFIGS_DIR.glob("*.yaml"))] + [str(bad)]
    done = subprocess.run(
        [config_venv, "-c", _VALIDATE, *paths], capture_output=True, text=True,
        env={**os.environ, "PYTHONPATH": str(SGO_SRC)},
    )
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout)
    assert results.pop(str(bad)).startswith("FAIL"), "the schema must refuse an unknown key"
    checked = 0
    for path, verdict in results.items():
        cls = yaml.safe_load(Path(path).read_text())["config_cls"]
        if cls in _NEEDS_FULL_STACK:
            continue
        assert verdict == f"ok {cls}", f"{Path(path).name}: {verdict}"
        checked += 1
    assert checked >= 7

"""The app's vendored configs and `sgl-omni serve` command line against the real 0.1.9 CLI and loader."""
from __future__ import annotations

import pytest

from app.backends.sglomni import catalog, server

from .conformance_harness import probe
from .conftest import stub_qwen3_metadata

#: Configs the real loader accepts but whose launch-time checks read the checkpoint's
#: config.json (Qwen3TTSPipelineConfig.load_engine_checkpoint_config); README lists them.
NEEDS_CHECKPOINT = {
    "qwen3_tts_0_6b_base.yaml", "qwen3_tts_0_6b_customvoice.yaml",
    "qwen3_tts_1_7b_base.yaml", "qwen3_tts_1_7b_voicedesign.yaml",
}

pytestmark = pytest.mark.conformance


def vendored_configs() -> list:
    return sorted(catalog.CONFIGS_DIR.glob("*.yaml"))


def referenced_configs() -> set[str]:
    names = set()
    for spec in (*catalog.CATALOG.values(), *catalog.ASR_CATALOG.values()):
        names.update(n for n in (spec.config_file, spec.fallback_config_file) if n)
        names.update(spec.profiles.values())
    return names


def test_every_catalog_config_is_vendored():
    present = {p.name for p in vendored_configs()}
    assert referenced_configs() <= present


def test_every_vendored_config_loads_in_the_real_loader(conf_python, tmp_path):
    files = vendored_configs()
    assert files, "no vendored configs found"
    reports = probe(conf_python, "configs", *map(str, files),
                    env={"HF_HOME": str(tmp_path / "hf"), "HF_HUB_OFFLINE": "1"})
    by_name = {r["file"].rsplit("/", 1)[-1]: r for r in reports}
    refused = {name: r["error"] for name, r in by_name.items() if not r["schema_ok"]}
    assert not refused, f"the real config loader refuses: {refused}"
    needs_weights = {name for name, r in by_name.items() if not r["launch_ok"]}
    # Only "the checkpoint is not here" may stop the launcher's derivations, and only where expected.
    assert all(by_name[n]["needs_checkpoint"] for n in needs_weights), \
        {n: by_name[n]["launch_error"] for n in needs_weights}
    assert needs_weights == NEEDS_CHECKPOINT


def test_qwen3_configs_launch_with_checkpoint_metadata(conf_python, tmp_path):
    """With the checkpoint's config.json present, the launcher derives what the catalog expects."""
    hf = tmp_path / "hf"
    stub_qwen3_metadata(hf)
    names = sorted(NEEDS_CHECKPOINT)
    reports = probe(conf_python, "configs", *[str(catalog.CONFIGS_DIR / n) for n in names],
                    env={"HF_HOME": str(hf), "HF_HUB_OFFLINE": "1"})
    for name, report in zip(names, reports):
        assert report["launch_ok"], (name, report.get("launch_error"))
        spec = next(s for s in catalog.CATALOG.values() if s.config_file == name)
        kwargs = report["create_app_kwargs"]
        if "clone" in spec.capabilities:
            # Base checkpoints take references and need uploaded voices for names.
            assert kwargs["supports_uploaded_voice_references"] is True
            assert kwargs["requires_uploaded_voice_for_named_voice"] is True
        if spec.preset_voices:
            for voice in spec.preset_voices:
                assert repr(voice) in kwargs["custom_voice_config"]


@pytest.fixture(scope="module")
def real_cli(conf_python):
    return probe(conf_python, "cli")


def test_serve_is_a_real_subcommand(real_cli):
    assert "serve" in real_cli["commands"]


LAUNCHES = [(key, None) for key in sorted(catalog.CATALOG)] + [
    (key, profile) for key in sorted(catalog.CATALOG) for profile in sorted(catalog.get(key).profiles)] + [
    (key, None) for key in sorted(catalog.ASR_CATALOG)]


@pytest.mark.parametrize(("key", "profile"), LAUNCHES)
def test_every_serve_flag_exists_in_the_real_cli(real_cli, key, profile):
    spec = catalog.ASR_CATALOG.get(key) or catalog.get(key)
    config, _label = server.config_for(spec, profile)
    argv = server.serve_argv("/venv/bin/sgl-omni", spec, config=config, port=8100,
                             host="127.0.0.1", model_name=spec.key)
    assert argv[1] == "serve"
    options = set(real_cli["options"])
    flags = set(real_cli["flags"])
    for i, token in enumerate(argv[2:], start=2):
        if not token.startswith("--"):
            continue
        assert token in options, f"{token} is not an option of sglang-omni 0.1.9's `sgl-omni serve`"
        if token not in flags:
            assert i + 1 < len(argv) and not argv[i + 1].startswith("--"), f"{token} needs a value"

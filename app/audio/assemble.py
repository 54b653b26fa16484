"""Stitch synthesized chunks into one chapter WAV, streaming to disk.

Each chunk is read whole (a chunk is seconds of audio), trimmed, converted
and appended; nothing of earlier chunks stays in memory, so peak memory is
one chunk however long the chapter grows. The PCM goes to a sink: a WAV file
written to a temp name beside its destination and renamed into place only by
finish(), or encoders fed as the chapter grows (app/audio/stream.py).
"""
from __future__ import annotations

import os
import struct
import tempfile
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from app.audio import master
from app.audio.placement import Placement
from app.audio.wav import FORMAT_FLOAT, WavInfo, read_info
from app.core.errors import BadAudio, OutputError

#: Seconds of silence after a chunk, by what ends there. Audiobook narrators
#: leave roughly a quarter second between sentences, a longer breath between
#: paragraphs and a clear gap before the next chapter; shorter sounds rushed,
#: longer sounds like a dropout. The chapter lead-out is also the gap a player
#: crosses when it skips chapters, so it stays under two seconds.
PAUSES: dict[str, float] = {
    "sentence": 0.25,
    "paragraph": 0.75,
    "chapter": 1.5,
}

#: Samples quieter than this (dBFS) at a chunk's ends count as silence.
SILENCE_DB = -50.0
#: Audio kept around the first and last sound so consonant onsets and breaths survive the trim.
KEEP_SECONDS = 0.02
#: Length of the fade applied at each trimmed edge, so a cut never clicks.
FADE_SECONDS = 0.003
#: Silence is written in blocks of this many seconds, so a long pause needs no big buffer.
_SILENCE_BLOCK_SECONDS = 1.0
#: A RIFF size field is 32 bits; a chapter beyond this cannot be one WAV.
_MAX_DATA_BYTES = 0xFFFFFFFF - 36
_HEADER_BYTES = 44
_OUT_WIDTH = 2  # 16-bit PCM
#: A stretch quieter than this (dBFS, in 10 ms windows) inside a chunk counts as a gap between words.
GAP_DB = -40.0
#: Gaps shorter than this are the stops inside words, not the breath between sentences.
MIN_GAP_SECONDS = 0.08
_GAP_WINDOW_SECONDS = 0.01


class PcmSink(Protocol):
    """Where a chapter's 16-bit PCM goes: a WAV file here, or encoders fed as it grows (stream.py)."""

    def start(self, sample_rate: int, channels: int) -> None: ...
    def write(self, pcm: bytes) -> None: ...
    def finish(self) -> Any: ...
    def abort(self) -> None: ...


class ChapterAssembler:
    """Append chunk WAVs with pauses into one 16-bit PCM chapter: a WAV file, or another `sink`."""

    def __init__(self, out_path: Path | None = None, *, sample_rate: int | None = None, channels: int | None = None,
                 loudness: float | None = None, sink: PcmSink | None = None):
        if channels not in (None, 1, 2):
            raise ValueError("channels must be 1 or 2")
        if (out_path is None) == (sink is None):
            raise ValueError("give either out_path or sink")
        #: The chapter's loudness target (LUFS); None leaves levels alone. Chunks go into the PCM leveled
        #: master.PCM_HEADROOM_DB under it: the chapter's mastering filter gives that back.
        self.loudness = loudness
        self.sample_rate = sample_rate
        self.channels = channels
        self._sink: PcmSink = sink if sink is not None else WavFile(Path(out_path))
        self._frames = 0
        self._started = False
        self._done = False

    @property
    def seconds(self) -> float:
        """Return the length of the chapter written so far."""
        return self._frames / self.sample_rate if self.sample_rate else 0.0

    def __enter__(self) -> ChapterAssembler:
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        # Leaving the block without finish() (an exception, or a caller bug)
        # must not leave a half-written temp file (or a running encoder) behind.
        if not self._done:
            self.abort()

    def append(self, chunk_wav: Path, pause_after: float) -> Placement:
        """Trim the chunk's silent ends, convert it, append it and a pause; return where it landed."""
        if self._done:
            raise RuntimeError("append() after finish() or abort()")
        info = read_info(chunk_wav)
        if self.sample_rate is None:
            self.sample_rate = info.sample_rate
        if self.channels is None:
            self.channels = min(info.channels, 2)
        samples = _read_float(Path(chunk_wav), info)
        samples, lead = _trim(samples, info.sample_rate)
        start = self.seconds
        gaps: tuple[tuple[float, float], ...] = ()
        if len(samples):
            samples = _to_channels(samples, self.channels)
            samples = _resample(samples, info.sample_rate, self.sample_rate)
            floor_db = GAP_DB
            if self.loudness is not None:
                samples = master.level(samples, self.sample_rate, self.loudness - master.PCM_HEADROOM_DB, pause_after)
                floor_db -= master.PCM_HEADROOM_DB  # the same gaps as in the mastered chapter
            gaps = tuple((start + a, start + b) for a, b in quiet_gaps(samples, self.sample_rate, floor_db))
            _fade_edges(samples, self.sample_rate)
            self._write(_to_int16(samples))
        del samples
        placed = Placement(start, self.seconds, lead / info.sample_rate, gaps)
        self._write_silence(pause_after)
        return placed

    def finish(self):
        """Complete the chapter and return what the sink returns (a WAV file: its path, moved into place)."""
        if self._done:
            raise RuntimeError("finish() after finish() or abort()")
        if self.sample_rate is None:
            self.abort()
            raise OutputError(f"No audio was appended to {self._sink_name()}")
        try:
            self._start()
            result = self._sink.finish()
        except BaseException:
            self.abort()
            raise
        self._done = True
        return result

    def abort(self) -> None:
        """Discard the chapter; the destination is left as it was."""
        self._done = True
        self._sink.abort()

    def _sink_name(self) -> str:
        out = getattr(self._sink, "out_path", None) or getattr(self._sink, "out", None)
        return out.name if out is not None else "the chapter"

    def _start(self) -> None:
        if not self._started:
            self._sink.start(self.sample_rate, self.channels)
            self._started = True

    def _write(self, pcm: np.ndarray) -> None:
        self._start()
        self._sink.write(pcm.tobytes())
        self._frames += pcm.shape[0]

    def _write_silence(self, seconds: float) -> None:
        total = int(round(max(0.0, seconds) * self.sample_rate))
        block = int(_SILENCE_BLOCK_SECONDS * self.sample_rate)
        while total > 0:
            n = min(block, total)
            self._write(np.zeros((n, self.channels), dtype="<i2"))
            total -= n


class WavFile:
    """A chapter WAV written under a temp name beside `out_path`, renamed into place by finish()."""

    def __init__(self, out_path: Path):
        self.out_path = out_path
        self._fh = None
        self._tmp: Path | None = None
        self._rate = self._channels = 0
        self._bytes = 0

    def start(self, sample_rate: int, channels: int) -> None:
        self._rate, self._channels = sample_rate, channels
        try:
            fd, name = tempfile.mkstemp(dir=self.out_path.parent, prefix=f".{self.out_path.stem}.", suffix=".wav.part")
        except OSError as exc:
            raise OutputError(f"Cannot write in {self.out_path.parent}: {exc.strerror or exc}", hint="Check the folder exists and is writable") from None
        self._tmp = Path(name)
        self._fh = os.fdopen(fd, "w+b")
        self._fh.write(_header(sample_rate, channels, 0))

    def write(self, pcm: bytes) -> None:
        if self._bytes + len(pcm) > _MAX_DATA_BYTES:
            raise OutputError(f"Chapter {self.out_path.name} exceeds the 4 GiB WAV limit", hint="Split the chapter or use a lower sample rate")
        try:
            self._fh.write(pcm)
        except OSError as exc:
            raise OutputError(f"Cannot write {self.out_path}: {exc.strerror or exc}", hint="Check free disk space") from None
        self._bytes += len(pcm)

    def finish(self) -> Path:
        """Complete the WAV header, move the chapter into place and return its path."""
        try:
            fh = self._fh
            fh.seek(0)
            fh.write(_header(self._rate, self._channels, self._bytes))
            fh.flush()
            os.fsync(fh.fileno())
            fh.close()
            self._fh = None
            # mkstemp creates 0600; give the chapter the usual umask-based mode.
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(self._tmp, 0o666 & ~umask)
            os.replace(self._tmp, self.out_path)
        except OSError as exc:
            self.abort()
            raise OutputError(f"Cannot write {self.out_path}: {exc.strerror or exc}", hint="Check free disk space") from None
        return self.out_path

    def abort(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None
        if self._tmp is not None:
            self._tmp.unlink(missing_ok=True)
            self._tmp = None


def _header(rate: int, channels: int, data_bytes: int) -> bytes:
    block = channels * _OUT_WIDTH
    return struct.pack(
        "<4sI4s4sIHHIIHH4sI",
        b"RIFF", 36 + data_bytes, b"WAVE", b"fmt ", 16, 1, channels, rate, rate * block, block, 8 * _OUT_WIDTH, b"data", data_bytes,
    )


def _read_float(path: Path, info: WavInfo) -> np.ndarray:
    """Return the chunk's samples as float32 in [-1, 1], shape (frames, channels)."""
    count = info.frames * info.channels
    with open(path, "rb") as fh:
        fh.seek(info.data_offset)
        raw = fh.read(count * info.sample_width)
    if len(raw) < count * info.sample_width:
        raise BadAudio(f"{path.name} is truncated")
    w = info.sample_width
    if info.format_tag == FORMAT_FLOAT:
        data = np.frombuffer(raw, dtype="<f4" if w == 4 else "<f8").astype(np.float32)
        np.clip(data, -1.0, 1.0, out=data)
    elif w == 1:
        data = (np.frombuffer(raw, dtype=np.uint8).astype(np.float32) - 128.0) / 128.0
    elif w == 2:
        data = np.frombuffer(raw, dtype="<i2").astype(np.float32) / 32768.0
    elif w == 3:
        b = np.frombuffer(raw, dtype=np.uint8).reshape(-1, 3).astype(np.int32)
        ints = (b[:, 0] | (b[:, 1] << 8) | (b[:, 2] << 16)) << 8 >> 8  # sign-extend 24 bits
        data = ints.astype(np.float32) / 8388608.0
    else:
        data = np.frombuffer(raw, dtype="<i4").astype(np.float32) / 2147483648.0
    return data.reshape(-1, info.channels)


def _trim(samples: np.ndarray, rate: int) -> tuple[np.ndarray, int]:
    """Cut silence before the first and after the last sound, keeping KEEP_SECONDS around them.

    Return the kept samples and how many frames were cut from the head.
    """
    threshold = 10.0 ** (SILENCE_DB / 20.0)
    loud = np.flatnonzero(np.abs(samples).max(axis=1) > threshold)
    if loud.size == 0:
        return samples[:0], 0
    keep = int(KEEP_SECONDS * rate)
    start = max(0, int(loud[0]) - keep)
    end = min(len(samples), int(loud[-1]) + 1 + keep)
    return samples[start:end], start


def quiet_gaps(samples: np.ndarray, rate: int, floor_db: float = GAP_DB) -> list[tuple[float, float]]:
    """Return (start, end) seconds of stretches under `floor_db` lasting at least MIN_GAP_SECONDS."""
    window = max(1, int(_GAP_WINDOW_SECONDS * rate))
    count = len(samples) // window
    if count < 3:
        return []
    frames = samples[: count * window].reshape(count, window, -1)
    rms = np.sqrt(np.mean(np.square(frames, dtype=np.float32), axis=(1, 2)))
    quiet = rms < 10.0 ** (floor_db / 20.0)
    # Run boundaries of the quiet mask; padded so runs touching either edge close.
    edges = np.flatnonzero(np.diff(np.concatenate(([0], quiet.astype(np.int8), [0]))))
    step = window / rate
    return [(a * step, b * step) for a, b in zip(edges[::2], edges[1::2])
            if a > 0 and b < count and (b - a) * step >= MIN_GAP_SECONDS]


def _to_channels(samples: np.ndarray, channels: int) -> np.ndarray:
    """Downmix by averaging or upmix by copying to `channels` channels."""
    have = samples.shape[1]
    if have == channels:
        return samples
    mono = samples.mean(axis=1, keepdims=True, dtype=np.float32) if have > 1 else samples
    return np.repeat(mono, channels, axis=1) if channels > 1 else mono


def _resample(samples: np.ndarray, src: int, dst: int) -> np.ndarray:
    """Resample by FFT (band-limited, no aliasing), one chunk at a time.

    A chunk is whole in memory anyway and its trimmed ends are near-silent,
    so the FFT's periodic assumption costs nothing audible; this is exact
    band-limited interpolation in numpy alone, without a subprocess per chunk.
    """
    if src == dst:
        return samples
    n = samples.shape[0]
    m = max(1, int(round(n * dst / src)))
    spectrum = np.fft.rfft(samples, axis=0)
    keep = min(spectrum.shape[0], m // 2 + 1)
    out = np.fft.irfft(spectrum[:keep], n=m, axis=0)
    out *= m / n
    return out.astype(np.float32)


def _fade_edges(samples: np.ndarray, rate: int) -> None:
    """Ramp the first and last few milliseconds in place so a cut never clicks."""
    n = min(int(FADE_SECONDS * rate), len(samples) // 2)
    if n < 2:
        return
    ramp = np.linspace(0.0, 1.0, n, dtype=np.float32)[:, None]
    samples[:n] *= ramp
    samples[-n:] *= ramp[::-1]


def _to_int16(samples: np.ndarray) -> np.ndarray:
    """Return 16-bit little-endian PCM, clipping overshoot from resampling."""
    scaled = np.clip(samples * 32767.0, -32768.0, 32767.0)
    return np.rint(scaled).astype("<i2")

"""Measure raw AAC (ADTS) files exactly by walking their frame headers; walk their frames for the M4B writer."""
from __future__ import annotations

import struct
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import accumulate
from operator import sub
from pathlib import Path

#: Sample rates by the ADTS sampling_frequency_index.
_RATES = (96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350)
#: Samples one AAC-LC raw data block decodes to.
_BLOCK_SAMPLES = 1024


def is_adts(path: Path) -> bool:
    """Return whether the file starts with an ADTS frame header."""
    with open(path, "rb") as fh:
        head = fh.read(2)
    return len(head) == 2 and head[0] == 0xFF and head[1] & 0xF6 == 0xF0


def adts_duration(path: Path) -> float:
    """Return the decoded length in seconds: blocks x 1024 samples / rate, priming included.

    This is exactly the span the file occupies when concatenated, unlike
    ffmpeg's bitrate estimate for ADTS.
    """
    return adts_measure(path)[0]


def adts_measure(path: Path) -> tuple[float, int]:
    """Return the decoded length in seconds and the number of frames (an MP4 sample each)."""
    samples = 0
    rate = 0
    frames = 0
    with open(path, "rb") as fh:
        while True:
            head = fh.read(7)
            if len(head) < 7 or head[0] != 0xFF or head[1] & 0xF6 != 0xF0:
                break
            rate = _RATES[(head[2] >> 2) & 0x0F]
            length = ((head[3] & 0x03) << 11) | (head[4] << 3) | (head[5] >> 5)
            if length < 7:
                break
            samples += ((head[6] & 0x03) + 1) * _BLOCK_SAMPLES
            frames += 1
            fh.seek(length - 7, 1)
    return (samples / rate if rate else 0.0), frames


#: Bytes read from a chapter file at a time: the walkers below hold one such block (plus a
#: partial frame), whatever the file's length.
READ_SIZE = 1 << 18
#: An ADTS header without (7) and with (9) its CRC.
_HEADER, _HEADER_CRC = 7, 9
#: A header's fields as four numbers: bytes 0-1, 2-3, 4-5 and 6.
_UNPACK = struct.Struct(">HHHB").unpack_from
#: The longest ADTS frame (a 13-bit length): the most a block carries over to the next.
_MAX_FRAME = 8191


class AdtsError(ValueError):
    """A chapter file is not a clean ADTS stream the M4B writer can copy."""


@dataclass(frozen=True)
class AdtsFormat:
    """What every frame of a stream must agree on: AAC profile, rate and channel layout."""

    #: ADTS profile (0 Main, 1 LC, 2 SSR, 3 LTP); the MPEG-4 audio object type is one more.
    profile: int
    #: sampling_frequency_index into _RATES.
    rate_index: int
    #: channel_configuration (1-6 that many channels, 7 eight; 0 would need a PCE).
    channel_config: int

    @property
    def rate(self) -> int:
        return _RATES[self.rate_index]

    @property
    def channels(self) -> int:
        return 8 if self.channel_config == 7 else self.channel_config

    def audio_specific_config(self) -> bytes:
        """Return the 2-byte AudioSpecificConfig an MP4 `esds` carries for this stream."""
        bits = (self.profile + 1) << 11 | self.rate_index << 7 | self.channel_config << 3
        return bits.to_bytes(2, "big")

    def describe(self) -> str:
        profile = ("AAC Main", "AAC-LC", "AAC SSR", "AAC LTP")[self.profile]
        return f"{profile}, {self.rate} Hz, {self.channels} channel{'s' if self.channels > 1 else ''}"


@dataclass(frozen=True)
class AdtsScan:
    """One pass over a stream's frame headers: what an MP4 index needs to be laid out."""

    format: AdtsFormat
    #: Frames, each one MP4 sample of 1024 samples.
    frames: int
    #: Bytes of raw AAC (headers stripped).
    payload_bytes: int
    #: Most bits a second over any run of frames lasting about one second (esds maxBitrate).
    peak_bitrate: int


def frame_sizes(path: Path) -> Iterator[list[int]]:
    """Yield the raw AAC size of each frame (ADTS header stripped), a block of frames at a time."""
    for _, spans in _frames(path):
        yield [end - start for start, end in spans]


def frame_payloads(path: Path) -> Iterator[bytes]:
    """Yield the raw AAC frames (headers stripped), joined a block at a time."""
    for block, spans in _frames(path):
        view = memoryview(block)  # slices of a view copy nothing until the join
        yield b"".join([view[start:end] for start, end in spans])


def scan(path: Path) -> AdtsScan:
    """Walk every frame header once; raise AdtsError unless the stream can be copied into an MP4."""
    first = _first_format(path)
    frames = payload = peak = 0
    window = max(1, -(-first.rate // _BLOCK_SAMPLES))  # frames in about a second
    tail: list[int] = []  # the last frames of the previous block, to slide the window across blocks
    for sizes in frame_sizes(path):
        frames += len(sizes)
        payload += sum(sizes)
        run = tail + sizes
        totals = list(accumulate(run, initial=0))
        span = min(window, len(run))
        peak = max(peak, max(map(sub, totals[span:], totals[:-span])))
        tail = run[-window:]
    if frames == 0:
        raise AdtsError("it holds no AAC frame")
    return AdtsScan(first, frames, payload, peak * 8 * first.rate // (min(window, frames) * _BLOCK_SAMPLES))


def stream_format(path: Path) -> AdtsFormat | None:
    """Return the format of the stream's first frame, or None if it has no readable first frame."""
    try:
        return _first_format(path)
    except (AdtsError, OSError):
        return None


def _first_format(path: Path) -> AdtsFormat:
    with open(path, "rb") as fh:
        head = fh.read(_HEADER)
    if len(head) < _HEADER or head[0] != 0xFF or head[1] & 0xF6 != 0xF0:
        raise AdtsError("it does not start with an ADTS frame header")
    fmt = AdtsFormat((head[2] >> 6) & 0x03, (head[2] >> 2) & 0x0F, ((head[2] & 0x01) << 2) | (head[3] >> 6))
    if fmt.rate_index >= len(_RATES):
        raise AdtsError(f"its first frame names no sample rate (index {fmt.rate_index})")
    if fmt.channel_config == 0:
        raise AdtsError("its channel layout is in the stream (configuration 0), which the M4B writer does not copy")
    return fmt


def _frames(path: Path) -> Iterator[tuple[bytearray, list[tuple[int, int]]]]:
    """Yield a block of the file and the (start, end) of each whole frame's raw AAC within it.

    The block is one buffer, refilled for the next: use it before asking for more.
    Every header is checked against the first: same profile, rate and channels
    (the MP4 has one sample description), one raw data block per frame (one MP4
    sample each; our encoders never write more), CRC-protected headers stripped
    with their CRC. A frame cut by the block's end moves to the front of the next.
    """
    fmt = _first_format(path)
    # Bytes 2 and 3 of every header must repeat the first's profile, rate and channels.
    want2, want3 = _pack_format(fmt)
    want = want2 << 8 | want3
    block = bytearray(READ_SIZE + _MAX_FRAME)
    view = memoryview(block)
    consumed = have = 0  # file offset of the block's first byte; bytes of a cut frame at its front
    with open(path, "rb") as fh:
        while True:
            end = have + fh.readinto(view[have:have + READ_SIZE])
            spans: list[tuple[int, int]] = []
            pos = 0
            while pos + _HEADER <= end:
                # One unpack per frame: sync+protection, format+length high bits, length low bits, blocks.
                h0, h1, h2, b6 = _UNPACK(block, pos)
                length = (h1 & 0x03) << 11 | h2 >> 5
                if h0 & 0xFFF6 != 0xFFF0 or h1 & 0xFDC0 != want or b6 & 0x03 or length <= _HEADER_CRC:
                    _check_header(block, pos, consumed, fmt)  # says what is wrong, or passes a short frame
                if pos + length > end:
                    break
                spans.append((pos + (_HEADER if h0 & 0x01 else _HEADER_CRC), pos + length))
                pos += length
            if end == have:  # nothing more to read
                if pos < end:
                    raise AdtsError(f"it ends in the middle of a frame (at byte {consumed + pos})")
                return
            if spans:
                yield block, spans
            have = end - pos
            block[:have] = bytes(view[pos:end])  # a copy: the two ranges may overlap
            consumed += pos


def _check_header(block: bytearray, pos: int, consumed: int, fmt: AdtsFormat) -> None:
    """Raise AdtsError saying what is wrong with the header at `pos`; return if nothing is."""
    want2, want3 = _pack_format(fmt)
    length = ((block[pos + 3] & 0x03) << 11) | (block[pos + 4] << 3) | (block[pos + 5] >> 5)
    if block[pos] != 0xFF or block[pos + 1] & 0xF6 != 0xF0:
        raise AdtsError(f"no ADTS frame header at byte {consumed + pos}")
    if length <= (_HEADER if block[pos + 1] & 0x01 else _HEADER_CRC):
        raise AdtsError(f"an ADTS frame at byte {consumed + pos} says it is {length} bytes long")
    if block[pos + 2] & 0xFD != want2 or block[pos + 3] & 0xC0 != want3:
        raise AdtsError(f"the frame at byte {consumed + pos} changes the audio format "
                        f"(the file starts as {fmt.describe()})")
    if block[pos + 6] & 0x03:
        raise AdtsError(f"the frame at byte {consumed + pos} packs several AAC blocks (one MP4 sample holds one)")


def _pack_format(fmt: AdtsFormat) -> tuple[int, int]:
    """Return header bytes 2 and 3 masked to the format's bits (private bit and the rest cleared)."""
    return (fmt.profile << 6 | fmt.rate_index << 2 | fmt.channel_config >> 2), (fmt.channel_config & 0x03) << 6

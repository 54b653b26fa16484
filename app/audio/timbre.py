"""A voice's timbre moved: its pitch and its formants shifted apart, its length kept (ffmpeg).

One recorded voice becomes several a listener tells apart: a lower pitch with a larger vocal tract
(formants down) sounds like a bigger speaker, a higher pitch with formants up like a smaller one.
ffmpeg has no filter that moves the formants alone, so two steps do it:

1. `asetrate` + `aresample` play the audio faster by the formant ratio: pitch, formants and tempo
   all move by it (the vocal tract is scaled);
2. `rubberband` gives the tempo back (tempo = 1/formant) and moves the pitch the rest of the way
   (pitch = pitch ratio / formant ratio) while keeping the formants where step 1 put them.

Rubberband's "quality" pitch mode: with its default ("speed"), a voice moved up 9 semitones was
misheard by faster-whisper (half the words of a sentence); with it, not. The length is the input's
(to the sample, nearly always; once, on a loaded machine, 92 ms short at the end), so a chunk's
sentence timings stay true. A tilt in dB (`treble`, a shelf above 3 kHz) brightens or darkens the
result. The rubberband filter is in the ffmpeg that imageio-ffmpeg ships; has_rubberband() says
whether the one given has it.
"""
from __future__ import annotations

import functools
import subprocess
from dataclasses import dataclass
from pathlib import Path

from app.audio.ffmpeg import run_ffmpeg
from app.core import proc


@dataclass(frozen=True)
class Timbre:
    """A shift of a voice: pitch in semitones, formants as a ratio, and a spectral tilt."""

    semitones: float = 0.0
    #: Formant (vocal tract) ratio: above 1 a smaller speaker, below 1 a larger one.
    formant: float = 1.0
    #: Gain of a high shelf at 3 kHz, dB: above 0 brighter, below 0 darker.
    tilt_db: float = 0.0

    @property
    def pitch(self) -> float:
        """Return the pitch ratio (2 ** (semitones / 12))."""
        return 2.0 ** (self.semitones / 12.0)

    def filters(self, sample_rate: int) -> str:
        """Return the ffmpeg filter chain that applies this shift to audio at `sample_rate` Hz."""
        chain = []
        if self.formant != 1.0:
            chain += [f"asetrate={sample_rate * self.formant:.3f}", f"aresample={sample_rate}"]
        pitch = self.pitch / self.formant
        if self.formant != 1.0 or pitch != 1.0:
            chain.append(f"rubberband=tempo={1.0 / self.formant:.6f}:pitch={pitch:.6f}:formant=preserved"
                         ":pitchq=quality")
        if self.tilt_db:
            chain.append(f"treble=g={self.tilt_db:g}:f=3000")
        return ",".join(chain) or "anull"


def apply(timbre: Timbre, source: Path, out_path: Path, sample_rate: int, exe: str) -> None:
    """Write `source` (a WAV) with `timbre` applied to `out_path`, 16-bit mono at `sample_rate`."""
    run_ffmpeg([exe, "-v", "error", "-i", str(source), "-af", timbre.filters(sample_rate),
                "-ar", str(sample_rate), "-ac", "1", "-c:a", "pcm_s16le", "-map_metadata", "-1",
                "-fflags", "+bitexact", "-flags:a", "+bitexact", str(out_path)])


@functools.lru_cache(maxsize=4)
def has_rubberband(exe: str) -> bool:
    """Return whether the ffmpeg at `exe` has the rubberband filter (asked once per executable)."""
    try:
        result = proc.run([exe, "-hide_banner", "-nostdin", "-h", "filter=rubberband"], timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return result.returncode == 0 and b"pitch" in (result.stdout or b"")

"""Encode a chapter while it is being stitched: its PCM goes into ffmpeg's stdin as chunks arrive.

Encoding a chapter only once it is complete leaves a backlog after the last
chunk whenever the server outruns one encoder (issue 16, P3). Here the
ChapterAssembler (assemble.py) writes its 16-bit PCM straight into one ffmpeg
per output instead of a WAV file, so when the last chunk of a chapter is
appended, only what is still in the pipe is left to encode.

The arguments are export.encode_args(), the same as a file encode's, so a
streamed chapter is the same chapter. Mastering needs nothing of the finished
chapter either: each chunk is leveled before it is appended, and the encode's
limiter and meter (app/audio/master.py) work on a stream with 5 ms of look-ahead.

An encoder writes to a temp name beside its target (renamed into place only by
finish()) and its printed text to a log file beside that; abort() kills it and
removes both, so a stopped run never leaves a partial chapter where a good
one would be read.
"""
from __future__ import annotations

import contextlib
import os
import subprocess
from pathlib import Path

from app.core import proc
from app.audio.export import BookMeta, cover_file, encode_args, temp_beside
from app.audio.ffmpeg import BASE_FLAGS, new_log_file
from app.core.errors import OutputError

#: Longest wait for an encoder to drain its pipe after its input is closed (it has at most
#: a pipe's worth of audio left; minutes mean a hung ffmpeg).
FINISH_TIMEOUT_SECONDS = 600.0
#: Most of an encoder's log read back (the meter's summary and the last error are at the end).
_LOG_TAIL_BYTES = 64 * 1024


class StreamEncoder:
    """One ffmpeg encoding raw 16-bit PCM from its stdin into one chapter file (AAC/ADTS or MP3)."""

    def __init__(self, out: Path, *, fmt: str, meta: BookMeta, title: str, track: int, total: int, ffmpeg: str,
                 audio_filter: str | None = None):
        self.out = Path(out)
        self._settings = dict(fmt=fmt, meta=meta, title=title, track=track, total=total, audio_filter=audio_filter)
        self._ffmpeg = ffmpeg
        self._files = contextlib.ExitStack()
        self._proc: subprocess.Popen[bytes] | None = None
        self._tmp: Path | None = None
        self._log: Path | None = None

    def start(self, sample_rate: int, channels: int) -> None:
        """Start ffmpeg for PCM of this rate and channel count."""
        s = self._settings
        try:
            self._tmp = self._files.enter_context(temp_beside(self.out))
            cover = self._files.enter_context(cover_file(s["meta"].cover if s["fmt"] == "mp3" else None,
                                                         self.out.parent, self._ffmpeg))
            self._log = self._tmp.with_name(self._tmp.name + ".log")
            log = self._files.enter_context(open(self._log, "wb"))
            self._files.callback(self._log.unlink, missing_ok=True)
            argv = [self._ffmpeg, *BASE_FLAGS, "-f", "s16le", "-ar", str(sample_rate), "-ac", str(channels),
                    "-i", "pipe:0",
                    *encode_args(s["fmt"], self.out, channels=channels, meta=s["meta"], title=s["title"],
                                 track=s["track"], total=s["total"], cover=cover, audio_filter=s["audio_filter"]),
                    str(self._tmp)]
            log.write(("$ " + " ".join(argv) + "\n").encode())
            log.flush()
            # Normal priority: a niced encoder starves on a busy machine and the book waits for it at the end
            # (measured 0.1x realtime at nice 10 under load 30); the pipe alone paces it.
            self._proc = proc.spawn(argv, stdin=subprocess.PIPE, stdout=log)
        except OSError as exc:
            self._files.close()
            raise OutputError(f"Cannot start the encoder for {self.out.name}: {exc.strerror or exc}",
                              hint="Check free disk space and that the work folder is writable") from None
        except BaseException:
            self._files.close()
            raise

    def write(self, pcm: bytes) -> None:
        """Send PCM to the encoder (blocks while its pipe is full)."""
        try:
            self._proc.stdin.write(pcm)
        except (BrokenPipeError, ValueError):  # ffmpeg exited early: its log says why
            self._proc.wait()
            raise self._failure() from None

    def finish(self) -> str:
        """Close the input, wait for the encode, move it into place; return what ffmpeg printed."""
        try:
            self._proc.stdin.close()
        except BrokenPipeError:
            pass
        try:
            code = self._proc.wait(timeout=FINISH_TIMEOUT_SECONDS)
        except subprocess.TimeoutExpired:
            self.abort()
            raise OutputError(f"The encoder of {self.out.name} did not finish",
                              hint="Re-run to resume; the finished chapters are kept") from None
        if code != 0:
            raise self._failure()
        printed = self._log_tail()
        try:
            os.replace(self._tmp, self.out)
        except OSError as exc:
            self.abort()
            raise OutputError(f"Cannot write {self.out}: {exc.strerror or exc}", hint="Check free disk space") from None
        self._files.close()
        return printed

    def abort(self) -> None:
        """Stop the encoder and remove its temp output and log; the target is left as it was."""
        if self._proc is not None and self._proc.poll() is None:
            self._proc.kill()
        if self._proc is not None:
            with contextlib.suppress(OSError):
                self._proc.stdin.close()
            self._proc.wait()
        self._files.close()

    def _log_tail(self) -> str:
        with open(self._log, "rb") as fh:
            fh.seek(max(0, os.fstat(fh.fileno()).st_size - _LOG_TAIL_BYTES))
            return fh.read().decode("utf-8", "replace")

    def _failure(self) -> OutputError:
        """Return the one-line error for a failed encode, its whole output kept in the logs folder."""
        text = self._log_tail()
        kept = new_log_file("encode")
        with contextlib.suppress(OSError):
            kept.write_text(text, encoding="utf-8")
        last = [ln.strip() for ln in text.splitlines() if ln.strip()]
        self.abort()
        return OutputError(f"ffmpeg failed encoding {self.out.name} (exit code {self._proc.returncode}): "
                           f"{last[-1][:200] if last else 'no output'}", log_path=kept,
                           hint="Check free disk space and that the output folder is writable")


class FanOut:
    """Send the same PCM to several encoders (AAC for the M4B and MP3 from one stitch)."""

    def __init__(self, encoders: list[StreamEncoder]):
        self.encoders = encoders

    def start(self, sample_rate: int, channels: int) -> None:
        started = []
        try:
            for enc in self.encoders:
                enc.start(sample_rate, channels)
                started.append(enc)
        except BaseException:
            for enc in started:
                enc.abort()
            raise

    def write(self, pcm: bytes) -> None:
        for enc in self.encoders:
            enc.write(pcm)

    def finish(self) -> dict[Path, str]:
        """Finish every encoder; return what each printed, by target."""
        printed: dict[Path, str] = {}
        try:
            for enc in self.encoders:
                printed[enc.out] = enc.finish()
        except BaseException:
            self.abort()
            raise
        return printed

    def abort(self) -> None:
        for enc in self.encoders:
            enc.abort()

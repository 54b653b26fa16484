"""Write a run's outputs from its encoded chapters: the M4B (skipped when unchanged), the MP3
folder, and the read-along EPUB and captions."""
from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

from app.core import paths, failpoints
from app.audio.booktags import id3_extras
from app.audio.id3 import ID3Error
from app.audio.export import ChapterAudio, mux_m4b
from app.core.errors import Cancelled, OutputError
from app.output.formats import READ_ALONG
from app.core.files import write_bytes_atomic
from app.pipeline import events as ev
from app.pipeline.chapter_files import ChapterRecord
from app.pipeline.context import RunContext
from app.pipeline.plan import safe_filename
from app.pipeline.stopping import STOPPED


class OutputWriter:
    """Write every requested output of one run; the first format's path is the run's answer."""

    def __init__(self, ctx: RunContext, outputs: dict[str, Path]):
        self.ctx = ctx
        self.outputs = outputs

    def write(self, records: dict[int, ChapterRecord]) -> Path:
        """Write every requested output and return the first format's."""
        if "m4b" in self.outputs:
            self._write_m4b([ChapterAudio(r.title, r.files["m4b"]) for r in records.values()], self.outputs["m4b"])
        if "mp3" in self.outputs:
            self._write_mp3([ChapterAudio(r.title, r.files["mp3"]) for r in records.values()], self.outputs["mp3"])
        if READ_ALONG & set(self.outputs):
            # The audio is written; a stop asked for meanwhile (the hub's Cancel) ends the run before the text.
            failpoints.pause_at("read-along", self.ctx.cancel)
            if self.ctx.cancel.is_set():
                raise Cancelled(STOPPED)
            self._write_read_along(records)
        if self.ctx.plan.library is not None and "m4b" in self.outputs:
            self._write_library_sidecars(self.outputs["m4b"].parent)
        return self.outputs[self.ctx.plan.formats[0]]

    def _write_library_sidecars(self, folder: Path) -> None:
        """Write the cover, desc.txt, reader.txt and metadata.opf an audiobook server reads beside the M4B."""
        from app.output.library import book_key, write_sidecars

        try:
            write_sidecars(folder, self.ctx.meta, book_key(self.ctx.plan.book), ffmpeg=self.ctx.ffmpeg)
        except OSError as exc:
            raise OutputError(f"Cannot write the library files in {folder} ({exc.strerror or exc})",
                              hint="Check the --library folder is writable and has free space") from None
        self.ctx.emit(ev.Message(f"Filed in the library: {folder}"))

    def _write_read_along(self, records: dict[int, ChapterRecord]) -> None:
        # Imported here: an M4B-only run (and every cached re-run of one) needs no EPUB or XML stack.
        from app.output.readalong import ChapterRender, write_read_along

        plan = self.ctx.plan
        by_index = {pc.chapter.index: pc for pc in plan.chapters}
        written = {c.index: c.paragraphs for c in (plan.source_book or plan.book).chapters}
        renders = [ChapterRender(i, r.title, [(pc.chunk, pc.key) for pc in by_index[i].chunks], r.placements,
                                 r.sample_rate, r.files["m4b"], written.get(i))
                   for i, r in records.items() if "m4b" in r.files]
        for path in write_read_along(plan.book, renders, self.outputs, ffmpeg=self.ctx.ffmpeg,
                                     marks_for=self._marks, narrator=self.ctx.meta.narrator):
            self.ctx.emit(ev.Message(f"Wrote {path}"))

    def _marks(self, key: str):
        from app.output.timing import ChunkMarks

        starts, words = self.ctx.cache.marks(key)
        return ChunkMarks(starts, words)

    def _write_m4b(self, chapters: list[ChapterAudio], out: Path) -> None:
        stamp = OutputStamp(self.ctx.work_dir, out)
        wanted = stamp.describe(chapters, self.ctx.meta)
        if not self.ctx.no_cache and stamp.read() == wanted:
            self.ctx.emit(ev.Message(f"{out} is up to date."))
            return
        mux_m4b(chapters, out, meta=self.ctx.meta, ffmpeg=self.ctx.ffmpeg, cancel=self.ctx.cancel)
        stamp.write(wanted)

    def _write_mp3(self, chapters: list[ChapterAudio], out: Path) -> None:
        paths.ensure(out)
        # Files are numbered by the book's chapter numbers, so a partial run's "03 - ..." is chapter 3.
        numbers = [pc.chapter.index for pc in self.ctx.plan.chapters]
        width = max(2, len(str(max(numbers))))
        for n, ch in zip(numbers, chapters):
            final = out / f"{n:0{width}d} - {safe_filename(ch.title, 'chapter')}.mp3"
            tmp = final.with_name(f".{final.name}.tmp")
            try:
                shutil.copyfile(ch.path, tmp)
                id3_extras(tmp, self.ctx.meta.fields())
                os.replace(tmp, final)
            except OSError as exc:
                raise OutputError(f"Cannot write {final} ({exc.strerror})") from None
            except ID3Error as exc:
                raise OutputError(f"Cannot tag {final}: {exc}",
                                  hint="Delete the work folder's MP3 chapters and run again") from None
            finally:
                tmp.unlink(missing_ok=True)


class OutputStamp:
    """"Is the output already this?": the exact chapter files and metadata an M4B was muxed from.

    Stored with the M4B's size and mtime, so a cached re-run skips the mux but any edit (or a
    replaced output file) muxes again.
    """

    def __init__(self, work_dir: Path, out: Path):
        self.out = out
        self.path = work_dir / f"output-{hashlib.sha256(str(out.resolve()).encode()).hexdigest()[:12]}.json"

    @staticmethod
    def describe(chapters: list[ChapterAudio], meta) -> dict:
        cover = meta.cover
        return {"chapters": [[c.title, c.path.name] for c in chapters], "title": meta.title,
                "author": meta.author, "tags": meta.fields(),
                "cover": hashlib.sha256(cover.data).hexdigest() if cover else None}

    def read(self) -> dict | None:
        try:
            data = json.loads(self.path.read_text())
            st = self.out.stat()
        except (OSError, ValueError):
            return None
        if not isinstance(data, dict):  # a stamp of the wrong JSON type is no stamp
            return None
        if data.get("size") != st.st_size or data.get("mtime_ns") != st.st_mtime_ns:
            return None
        return data.get("stamp")

    def write(self, stamp: dict) -> None:
        st = self.out.stat()
        write_bytes_atomic(self.path, json.dumps(
            {"stamp": stamp, "size": st.st_size, "mtime_ns": st.st_mtime_ns}).encode())


__all__ = ["OutputWriter", "OutputStamp"]

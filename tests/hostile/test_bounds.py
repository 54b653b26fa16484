"""The pieces under the hostile suite, in process: the bounded inflater, the redaction, the drain estimate."""
from __future__ import annotations

import zipfile
import zlib

import pytest

from app.book.zipstream import stream_member
from app.core.errors import CorruptBook, ProtectedBook
from app.pipeline.scheduler import LATE_SECONDS, drain_left
from app.core.redact import redact
from tests.hostile.zips import BZIP2, DEFLATE, LZMA, STORED, Member, _compress, write_zip

TEXT = b"The river ran past the old mill. " * 5000


@pytest.mark.parametrize("method", [STORED, DEFLATE, BZIP2, LZMA], ids=["stored", "deflate", "bzip2", "lzma"])
def test_every_method_inflates_to_what_zipfile_reads_and_stops_at_the_cap(tmp_path, method):
    path = write_zip(tmp_path / "a.zip", [Member("a.txt", TEXT, method), Member("empty", b"", method)])
    with zipfile.ZipFile(path) as zf:  # an independent reader of the same bytes
        for info in zf.infolist():
            assert stream_member(path, info, len(TEXT) + 1) == zf.read(info)
        assert stream_member(path, zf.getinfo("a.txt"), 1000) == TEXT[:1000]


@pytest.mark.parametrize("method", [BZIP2, LZMA], ids=["bzip2", "lzma"])
def test_a_bomb_is_caught_one_byte_past_its_declared_size_and_an_honest_one_at_the_cap(tmp_path, method):
    zeros = b"\0" * (8 * 1024 * 1024)
    bomb = Member("zeros", method=method, raw=_compress(zeros, method), crc=zlib.crc32(zeros), size=len(zeros),
                  claim=2_000)
    path = write_zip(tmp_path / "bomb.zip", [bomb])
    with zipfile.ZipFile(path) as zf:
        info = zf.getinfo("zeros")
        assert info.file_size == 2_000 and info.compress_size < 10_000  # it lies
        with pytest.raises(zipfile.BadZipFile, match="more than the 2,000 bytes it declares"):
            stream_member(path, info, 1024 * 1024 + 1)
        honest = Member("zeros", method=method, raw=bomb.raw, crc=bomb.crc, size=bomb.size)
    path = write_zip(tmp_path / "honest.zip", [honest])
    with zipfile.ZipFile(path) as zf:  # declared truthfully: inflated up to the cap, then stopped
        assert len(stream_member(path, zf.getinfo("zeros"), 1024 * 1024 + 1)) == 1024 * 1024 + 1


def test_a_damaged_member_is_a_bad_zip_not_a_crash(tmp_path):
    path = write_zip(tmp_path / "a.zip", [Member("a.txt", TEXT, BZIP2)])
    raw = bytearray(path.read_bytes())
    raw[60:80] = b"\xff" * 20
    path.write_bytes(bytes(raw))
    with zipfile.ZipFile(path) as zf, pytest.raises(zipfile.BadZipFile):
        stream_member(path, zf.getinfo("a.txt"), len(TEXT) + 1)


@pytest.mark.parametrize("flags, method, error, words", [
    (0x1, DEFLATE, ProtectedBook, "ZipCrypto"), (0, 6, CorruptBook, "implode"), (0, 9, CorruptBook, "deflate64")])
def test_encrypted_and_unboundable_members_are_refused_by_name(tmp_path, flags, method, error, words):
    path = write_zip(tmp_path / "a.zip", [Member("a.txt", TEXT, method, flags=flags)])
    with zipfile.ZipFile(path) as zf, pytest.raises(error, match=words):
        stream_member(path, zf.getinfo("a.txt"), 100)


def test_redaction_masks_secrets_but_not_the_words_around_them():
    assert redact("File 'x' is encrypted, password required for extraction") == \
        "File 'x' is encrypted, password required for extraction"
    assert redact("encrypted (ZipCrypto password protection).") == "encrypted (ZipCrypto password protection)."
    assert "hunter2" not in redact("password hunter2")
    assert "s3cr3t" not in redact("password=s3cr3t")
    assert "eyJhbGciOi" not in redact("Authorization: Bearer eyJhbGciOiJIUzI1NiJ9")


def test_the_drain_estimate_is_what_is_left_and_a_late_request_still_gets_time():
    assert drain_left(10.0, 4.0) == pytest.approx(6.0)
    assert drain_left(10.0, 12.0) == pytest.approx(2.5)  # late: a quarter of its expected time again
    assert drain_left(1.0, 5.0) == LATE_SECONDS

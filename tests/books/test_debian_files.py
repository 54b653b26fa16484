"""The Debian package cache names the package that ships each file, and checks what it hands out.

A metapackage's test once passed only where another package's files were left in a shared cache
(issue 36): each package is now unpacked alone and every file is checked against its own md5sums.
"""
from __future__ import annotations

import pytest

from tests.books import corpus


@pytest.fixture
def own_cache(tmp_path, monkeypatch):
    """A cache of this test's own, so a corrupted copy never reaches the other tests."""
    monkeypatch.setattr(corpus, "CACHE", tmp_path / "cache")
    monkeypatch.setattr(corpus, "_CHECKED", set())
    return tmp_path / "cache"


def test_a_file_asked_of_a_package_that_does_not_ship_it_fails_naming_the_package(own_cache):
    with pytest.raises(pytest.fail.Exception) as failed:
        corpus.debian_file("hostname", "usr/share/doc/hostname/README.txt")
    line = str(failed.value)
    assert "\n" not in line
    assert "Debian package hostname does not ship usr/share/doc/hostname/README.txt" in line


def test_a_shipped_file_is_found_only_under_its_own_package(own_cache):
    path = corpus.debian_file("hostname", "usr/share/doc/hostname/copyright")
    assert path.read_bytes().startswith(b"Format:") or b"hostname" in path.read_bytes()
    assert path.is_relative_to(corpus.package_root("hostname"))
    # Another package asked for the same path finds nothing of hostname's.
    with pytest.raises(pytest.fail.Exception, match="does not ship"):
        corpus.debian_file("debian-faq", "usr/share/doc/hostname/copyright")


def test_a_cached_copy_that_is_not_what_the_package_ships_fails_with_one_line(own_cache):
    path = corpus.debian_file("hostname", "usr/share/doc/hostname/copyright")
    path.write_text("edited by hand\n")
    corpus._CHECKED.clear()  # a new test session
    with pytest.raises(pytest.fail.Exception, match=r"is not the file hostname ships \(md5 differs\)"):
        corpus.debian_file("hostname", "usr/share/doc/hostname/copyright")

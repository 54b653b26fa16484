"""Hostile or odd servers and URLs (issue 17): secrets never printed, one line per fault.

Servers are real processes speaking HTTP on 127.0.0.1: the sgl-omni double,
and tests/faults/hostile_double.py for answers a proxy or a foreign server gives.
"""
from __future__ import annotations

import logging
import socket
import sys
from pathlib import Path

import pytest

import tests.faults.conftest as faults
from app.backends.sglomni.server import client_host, port_is_free
from app.core.errors import ConfigError
from app.core.redact import RedactingFilter, redact
from app.core.urls import check_server_url, display_url
from tests.faults.books import book as river_book
from tests.faults.conftest import error_line, sglomni_args
from tests.sglomni.conftest import free_port

HOSTILE = Path(faults.__file__).resolve().parent / "hostile_double.py"
SECRET = "s3cr3tPa55"


# -- the one URL formatter -------------------------------------------------------------------------

@pytest.mark.parametrize("url,shown", [
    (f"http://user:{SECRET}@tts.example.org:8100/v1?api_key={SECRET}#x", "http://tts.example.org:8100/v1"),
    (f"https://{SECRET}@tts.example.org", "https://tts.example.org"),
    ("http://[::1]:8100", "http://[::1]:8100"),
    (f"http://user:{SECRET}@[::1", "http://[::1"),
    (f"http://user:{SECRET}@host:notaport/x", "http://host:notaport/x"),
    ("not a url at all", "not a url at all"),
])
def test_display_url_drops_credentials_and_never_raises(url, shown):
    assert display_url(url) == shown
    assert SECRET not in display_url(url)


@pytest.mark.parametrize("url,needle", [
    ("http://[::1", "is not a valid URL"),
    ("file:///etc/passwd", "'file://'"),
    ("ftp://files.example.org/tts", "'ftp://'"),
    ("127.0.0.1:8100", "http:// or https://"),
    ("http://", "names no host"),
])
def test_urls_the_app_cannot_talk_to_are_refused_as_such(url, needle):
    with pytest.raises(ConfigError) as info:
        check_server_url(url)
    assert needle in info.value.one_line()


def test_log_records_and_messages_are_redacted():
    record = logging.LogRecord("app.x", logging.WARNING, __file__, 1, "server %s said %s",
                               (f"http://u:{SECRET}@h:1", f"token={SECRET}"), None)
    RedactingFilter().filter(record)
    assert SECRET not in record.getMessage() and "h:1" in record.getMessage()
    assert redact(f"see http://{SECRET}@host/x and Authorization: Bearer {SECRET}").count(SECRET) == 0


def test_ipv6_hosts_are_bracketed_in_urls_and_probed_as_ipv6():
    assert client_host("::") == "[::1]" and client_host("[::1]") == "[::1]" and client_host("0.0.0.0") == "127.0.0.1"
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as s:
            s.bind(("::1", 0))
    except OSError:
        pytest.skip("no IPv6 loopback here")
    port = free_port()
    assert port_is_free("::", port) and port_is_free("[::1]", port)


def _use_hostile_double(external, monkeypatch) -> None:
    """Make the `external` fixture start hostile_double.py (its module may be imported under two names)."""
    monkeypatch.setattr(sys.modules[type(external).__module__], "DOUBLE", HOSTILE)


# -- CLI runs --------------------------------------------------------------------------------------

@pytest.mark.parametrize("host", ["::", "[::]", "::1"])
def test_an_ipv6_bind_host_for_the_managed_server_is_refused_with_the_reason(tmp_path, run_cli, host):
    """sglang-omni 0.1.9 probes its port with an AF_INET socket: an IPv6 host fails its boot."""
    book = river_book(tmp_path, 1, 1)
    result = run_cli(*sglomni_args(book, tmp_path / "o.m4b", "--host", host))
    assert result.returncode == 2, result.stderr
    assert "binds IPv4 addresses only" in error_line(result.stderr)


@pytest.mark.parametrize("url,needle", [
    ("http://[::1", "not a valid URL"),
    ("file:///etc/passwd", "'file://'"),
    ("ftp://127.0.0.1/", "'ftp://'"),
])
def test_bad_api_urls_end_the_cli_with_exit_2(tmp_path, run_cli, url, needle):
    book = river_book(tmp_path, 1, 1)
    result = run_cli(*sglomni_args(book, tmp_path / "o.m4b", "--api-url", url))
    assert result.returncode == 2, result.stderr
    assert needle in error_line(result.stderr)


def test_a_password_in_api_url_is_never_printed_when_nothing_answers(tmp_path, run_cli):
    book = river_book(tmp_path, 1, 1)
    url = f"http://narrator:{SECRET}@127.0.0.1:{free_port()}"
    result = run_cli(*sglomni_args(book, tmp_path / "o.m4b", "--api-url", url))
    assert result.returncode == 4, result.stderr
    assert "Nothing answers at http://127.0.0.1:" in error_line(result.stderr)
    assert SECRET not in result.stderr + result.stdout
    listed = run_cli("--list-voices", "--api-url", url)
    assert SECRET not in listed.stderr + listed.stdout


def test_a_password_is_not_printed_when_the_server_hosts_another_model(tmp_path, run_cli, external):
    url = external.start("qwen3_tts_0_6b_base").replace("http://", f"http://narrator:{SECRET}@")
    book = river_book(tmp_path, 1, 1)
    result = run_cli(*sglomni_args(book, tmp_path / "o.m4b", "--api-url", url))
    assert result.returncode == 2, result.stderr
    assert "hosts 'qwen3_tts_0_6b_base'" in error_line(result.stderr)
    assert SECRET not in result.stderr + result.stdout


def test_a_json_list_of_voices_is_read_as_names(tmp_path, run_cli, external, monkeypatch):
    _use_hostile_double(external, monkeypatch)
    url = external.start(env={"HOSTILE_VOICES_LIST": "1"})
    result = run_cli("--list-voices", "--api-url", url.replace("http://", f"http://u:{SECRET}@"))
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["alloy", "narrator", "echo"]
    assert SECRET not in result.stderr + result.stdout


def test_a_redirect_is_reported_as_a_redirect(tmp_path, run_cli, external, monkeypatch):
    """It was "not a WAV file" naming a deleted temp path."""
    _use_hostile_double(external, monkeypatch)
    url = external.start(env={"HOSTILE_REDIRECT": "1"})
    book = river_book(tmp_path, 1, 1)
    result = run_cli(*sglomni_args(book, tmp_path / "o.m4b", "--api-url", url))
    assert result.returncode == 4, result.stderr
    line = error_line(result.stderr)
    assert "answered with a redirect (HTTP 302)" in line
    assert ".tmp.wav" not in line and "not a WAV" not in line
    assert not (tmp_path / "o.m4b").exists()


def test_a_reference_clip_over_30_seconds_is_refused_before_any_request(tmp_path, run_cli, external,
                                                                        requests_log_path):
    from tests.audio.signals import tone, write_wav

    clip = write_wav(tmp_path / "long.wav", tone(45.0, 16000, 220) * 0.3, 16000)
    url = external.start()
    book = river_book(tmp_path, 1, 1)
    result = run_cli(*sglomni_args(book, tmp_path / "o.m4b", "--api-url", url, "--clone", clip,
                                   "--transcription", "a long clip"))
    assert result.returncode == 2, result.stderr
    assert "is 45 s long; voice cloning uses at most 30 s" in error_line(result.stderr)
    assert not [r for r in requests_log_path() if r.get("path") == "/v1/audio/speech"]

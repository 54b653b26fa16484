"""One answer to "is it healthy": http.is_healthy parses /health for every caller."""
from __future__ import annotations

import pytest

from app.core.http import Health, is_healthy, probe_health

from .conftest import free_port


@pytest.mark.parametrize("body, healthy", [
    ({"status": "healthy", "stages": ["tts_engine"]}, True),
    ({"status": "unhealthy"}, False),  # "healthy" is inside "unhealthy": never a substring test
    ({"status": "starting"}, False),
    ({"stages": []}, False),
    ("healthy", False),
    (None, False),
    ([{"status": "healthy"}], False),
])
def test_only_a_json_status_of_healthy_is_healthy(body, healthy):
    assert is_healthy(body) is healthy


def test_the_state_word_for_messages():
    assert Health(answered=False).state == "not answering"
    assert Health(answered=True, body={"status": "starting"}).state == "starting"
    assert Health(answered=True, body="<html>").state == "no JSON status"


def test_a_real_server_answers_and_a_closed_port_does_not(external_double):
    url = external_double("moss_tts_local")
    assert probe_health(url).healthy
    closed = probe_health(f"http://127.0.0.1:{free_port()}", timeout=1.0)
    assert not closed.answered and not closed.healthy

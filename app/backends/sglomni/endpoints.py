"""Several sgl-omni servers as one: requests spread by measured speed, dead servers skipped.

Each chunk goes to the live server with the lowest expected wait, Finagle's "peak EWMA"
rule: (requests in flight + 1) x recent seconds of wall time per second of audio, divided
by the workers behind it (an sgl-omni router counts as its workers). A faster server
answers sooner, so it ends up holding proportionally more requests; one that queues gets
fewer. A server that stops answering /health is taken out and its chunks are sent again
elsewhere; it is probed back in with backoff. Which server rendered a chunk never enters
a cache key.
"""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.backends.sglomni import client, reference
from app.core.http import Endpoint, probe_health, safe_url
from app.backends.sglomni.reference import Reference
from app.core.errors import AudiobookError, BackendError, ServerError, ServerUnavailable

log = logging.getLogger(__name__)

#: EWMA weight of the newest latency sample.
ALPHA = 0.2
#: Transport failures in a row that take a server out even while /health still answers.
MAX_STRIKES = 3
#: Seconds before the first probe of a dead server, and the cap of its doubling.
PROBE_FIRST, PROBE_CAP = 2.0, 60.0
#: Factor on a server's cost when it fails a chunk another server then takes.
FAILURE_PENALTY = 2.0
#: Connections an endpoint keeps beyond the run's in-flight ceiling, for control calls (/health, voices).
CONTROL_CONNECTIONS = 4


@dataclass
class Member:
    """One server of the pool and what the pool measured of it."""

    url: str
    endpoint: Endpoint
    speech: client.SpeechClient
    reference: Reference | None = None
    workers: int = 1
    in_flight: int = 0
    #: EWMA of wall seconds per audio second; None until the first answer.
    cost: float | None = None
    alive: bool = True
    strikes: int = 0
    next_probe: float = 0.0
    probe_delay: float = PROBE_FIRST
    probing: bool = False
    served: int = 0
    moved_away: int = 0


#: Build the request client for one server: (endpoint, reference or None) -> SpeechClient.
SpeechFactory = Callable[[Endpoint, "Reference | None"], client.SpeechClient]
#: Re-check a server before it rejoins (health, hosted model); raises an AudiobookError if unfit.
Checker = Callable[[str], Any]
#: Prepare the clip reference for a server: (endpoint, /health body) -> Reference or None.
Preparer = Callable[[Endpoint, Any], "Reference | None"]
#: The per-request clip for a server whose uploaded voice went missing: base_url -> Reference.
Fallback = Callable[[str], "Reference | None"]
#: Open one server's HTTP client: (base_url, log_path, connections) -> Endpoint.
EndpointFactory = Callable[[str, "Path | None", int], Endpoint]
#: The run's in-flight ceiling for a pool of this many GPUs-worth of servers.
Ceiling = Callable[[int], int]


class EndpointPool:
    """Sends each synthesize() to one of several servers; thread-safe."""

    def __init__(self, members: Sequence[Member], *, make_speech: SpeechFactory,
                 check: Checker | None = None, prepare: Preparer | None = None,
                 fallback: Fallback | None = None, clock: Callable[[], float] = time.monotonic,
                 make_endpoint: EndpointFactory | None = None, ceiling: Ceiling | None = None):
        if not members:
            raise ValueError("an endpoint pool needs at least one server")
        self.members = list(members)
        self._make_speech = make_speech
        self._check = check
        self._prepare = prepare
        self._fallback = fallback
        self._clock = clock
        self._make_endpoint = make_endpoint
        self._ceiling = ceiling
        self._lock = threading.Lock()

    # -- building ----------------------------------------------------------------------------
    @classmethod
    def open(cls, servers: Sequence[tuple[str, Path | None]], *, make_endpoint: EndpointFactory,
             make_speech: SpeechFactory, ceiling: Ceiling, prepare: Preparer | None = None,
             check: Checker | None = None, fallback: Fallback | None = None,
             down: Collection[str] = ()) -> "EndpointPool":
        """Connect to every (base_url, log_path) server and prepare its clip reference.

        /health comes first: it says how many workers sit behind each server (a router),
        which sets the run's in-flight ceiling, and every HTTP client is sized to that
        ceiling. A smaller pool would queue requests inside httpx, where the in-flight
        controller would read the wait as server latency. Servers in `down` start out of
        rotation and join when a /health probe finds them ready.
        """
        health = {url: probe_health(url).body for url, _ in servers if url not in down}
        workers = {url: max(1, reference.behind_router(body)) for url, body in health.items()}
        connections = connections_for(ceiling(sum(workers.get(url, 1) for url, _ in servers)))
        members: list[Member] = []
        opened: list[Endpoint] = []
        try:
            for url, log_path in servers:
                endpoint = make_endpoint(url, log_path, connections)
                opened.append(endpoint)
                if url in down:
                    members.append(Member(url=url, endpoint=endpoint, speech=make_speech(endpoint, None),
                                          alive=False))
                    continue
                ref = prepare(endpoint, health[url]) if prepare else None
                members.append(Member(url=url, endpoint=endpoint, speech=make_speech(endpoint, ref),
                                      reference=ref, workers=workers[url]))
        except BaseException:
            for endpoint in opened:
                endpoint.close()
            raise
        return cls(members, make_speech=make_speech, check=check, prepare=prepare, fallback=fallback,
                   make_endpoint=make_endpoint, ceiling=ceiling)

    def close(self) -> None:
        """Close every server's connections and log what each served."""
        if len(self.members) > 1:
            log.info("servers: %s", "; ".join(
                f"{safe_url(m.url)} {m.served} chunks{'' if m.alive else ' (out)'}" for m in self.members))
        for m in self.members:
            m.endpoint.close()

    def abort(self) -> None:
        """Cut every request in flight on every server (the user stopped the run now)."""
        for m in self.members:
            m.endpoint.abort()

    # -- what the backend asks ---------------------------------------------------------------
    @property
    def workers(self) -> int:
        """Return the number of GPUs-worth of servers (router workers counted)."""
        return sum(m.workers for m in self.members)

    @property
    def references(self) -> list[str]:
        """Return how each server gets the clip ("uploaded", "inline", "path", or "" without one)."""
        return [m.reference.how if m.reference else "" for m in self.members]

    def stats(self) -> list[dict[str, Any]]:
        """Return each server's url, liveness, requests in flight, chunks served and cost."""
        with self._lock:
            return [{"url": m.url, "alive": m.alive, "in_flight": m.in_flight, "served": m.served,
                     "cost": m.cost, "workers": m.workers, "moved_away": m.moved_away,
                     "reference": m.reference.how if m.reference else None} for m in self.members]

    def synthesize(self, text: str, seed: int, out_path: Path, voice=None) -> client.WavInfo:
        """Write `text` as WAV to `out_path` on the best live server, moving to another on failure.

        `voice` (VoiceOptions) replaces the run's voice for this request (a cast's role).
        """
        tried: set[int] = set()
        voice_retry: set[int] = set()
        last: BackendError | None = None
        while True:
            member = self._acquire(tried)
            if member is None:
                raise last or ServerUnavailable("No SGLang-Omni server is in rotation",
                                                hint="Check the servers given with --api-url, then re-run")
            started = self._clock()
            try:
                info = member.speech.synthesize(text, seed, out_path, voice=voice)
            except ServerUnavailable as exc:
                self._release(member)
                last = exc
                if not self._failover(member, exc):
                    raise
                tried.add(id(member))
                continue
            except BackendError as exc:
                self._release(member)
                if isinstance(exc, ServerError) and self._voice_missing(member, exc) \
                        and id(member) not in voice_retry:
                    voice_retry.add(id(member))
                    continue
                if not _worth_another_server(exc) or not self._others_alive(member, tried):
                    raise
                last = exc
                self._penalise(member)
                tried.add(id(member))
                continue
            except BaseException:
                self._release(member)
                raise
            self._release(member, self._clock() - started, info.seconds)
            return info

    # -- choosing ----------------------------------------------------------------------------
    def _acquire(self, tried: set[int]) -> Member | None:
        self._probe_due()
        with self._lock:
            live = [m for m in self.members if m.alive and id(m) not in tried]
            if not live:
                return None
            known = [m.cost for m in self.members if m.cost is not None]
            default = sum(known) / len(known) if known else 1.0
            best = min(live, key=lambda m: (m.cost if m.cost is not None else default)
                       * (m.in_flight + 1) / m.workers)
            best.in_flight += 1
            return best

    def _release(self, member: Member, latency: float | None = None, audio_seconds: float = 0.0) -> None:
        with self._lock:
            member.in_flight -= 1
            if latency is None:
                return
            member.served += 1
            member.strikes = 0
            sample = latency / max(audio_seconds, 0.1)
            member.cost = sample if member.cost is None else (1 - ALPHA) * member.cost + ALPHA * sample

    def _others_alive(self, member: Member, tried: set[int]) -> bool:
        with self._lock:
            return any(m.alive and m is not member and id(m) not in tried for m in self.members)

    def _penalise(self, member: Member) -> None:
        with self._lock:
            member.moved_away += 1
            if member.cost is not None:
                member.cost *= FAILURE_PENALTY

    # -- failures ----------------------------------------------------------------------------
    def _failover(self, member: Member, exc: ServerUnavailable) -> bool:
        """Return whether the chunk may go to another server after `member` became unreachable."""
        if len(self.members) == 1:
            return False
        healthy = probe_health(member.url).healthy
        with self._lock:
            member.moved_away += 1
            member.strikes += 1
            if member.alive and (not healthy or member.strikes >= MAX_STRIKES):
                # Keep the last server in rotation: with none left the run must fail loudly.
                if any(m.alive for m in self.members if m is not member):
                    member.alive = False
                    member.next_probe = self._clock() + member.probe_delay
                    log.warning("%s stopped answering (%s); its chunks go to the other servers",
                                safe_url(member.url), exc.message)
            return any(m.alive for m in self.members if m is not member)

    def _voice_missing(self, member: Member, exc: ServerError) -> bool:
        """Return whether `member` lost our uploaded voice; if so switch it to the inline clip."""
        ref = member.reference
        if ref is None or ref.how != "uploaded" or exc.status not in (400, 404, 422):
            return False
        if self._fallback is None or "voice" not in exc.message.lower():
            return False
        fallback = self._fallback(member.url)
        if fallback is None:
            return False
        log.warning("%s no longer knows voice %s (%s): sending the clip inline", safe_url(member.url),
                    ref.voice, exc.message)
        with self._lock:
            member.reference = fallback
            member.speech = self._make_speech(member.endpoint, fallback)
        return True

    # -- probing back in ---------------------------------------------------------------------
    def _resize(self, member: Member, workers: int) -> None:
        """Give a server coming back a client sized for the ceiling its workers now make (a grown router).

        Servers in rotation keep the client they have (requests are in flight on it): they were
        sized to the ceiling at the start, so only a router that grew while out raises the bar.
        """
        if self._make_endpoint is None or self._ceiling is None:
            return
        with self._lock:
            total = sum(m.workers for m in self.members if m is not member) + workers
        needed = connections_for(self._ceiling(total))
        if needed > member.endpoint.max_connections:
            old, member.endpoint = member.endpoint, self._make_endpoint(member.url, member.endpoint.log_path, needed)
            old.close()  # out of rotation: nothing is in flight on it

    def _probe_due(self) -> None:
        now = self._clock()
        with self._lock:
            due = [m for m in self.members if not m.alive and not m.probing and m.next_probe <= now]
            for m in due:
                m.probing = True
        for m in due:
            threading.Thread(target=self._probe, args=(m,), name="sglomni-probe", daemon=True).start()

    def _probe(self, member: Member) -> None:
        try:
            if self._check is not None:
                self._check(member.url)
            answer = probe_health(member.url)
            if not answer.healthy:
                raise ServerUnavailable(f"{safe_url(member.url)} is not healthy yet")
            health = answer.body
            self._resize(member, max(1, reference.behind_router(health)))
            ref = self._prepare(member.endpoint, health) if self._prepare else member.reference
            speech = self._make_speech(member.endpoint, ref)
        except (AudiobookError, OSError) as exc:
            with self._lock:
                member.probing = False
                member.probe_delay = min(PROBE_CAP, member.probe_delay * 2)
                member.next_probe = self._clock() + member.probe_delay
            log.debug("%s is still out: %s", safe_url(member.url), exc)
            return
        with self._lock:
            member.reference, member.speech = ref, speech
            member.workers = max(1, reference.behind_router(health))
            member.alive, member.probing, member.strikes = True, False, 0
            member.cost, member.probe_delay = None, PROBE_FIRST
        log.warning("%s answers again; it is back in rotation", safe_url(member.url))


def _worth_another_server(exc: BackendError) -> bool:
    """Return whether a chunk that failed with `exc` might succeed on another server.

    The HTTP module's classification decides: busy and transient answers may, refusals not.
    """
    return exc.transient


def connections_for(ceiling: int) -> int:
    """Return the connections an endpoint needs: the run's whole in-flight ceiling plus control calls.

    Any one server may hold every request in flight (the others slow or out), so each
    endpoint is sized to the ceiling, never to its share.
    """
    return ceiling + CONTROL_CONNECTIONS


__all__ = ["EndpointPool", "Member", "ALPHA", "MAX_STRIKES", "PROBE_FIRST", "PROBE_CAP"]

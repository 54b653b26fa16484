"""Estimate how many requests a server runs at once from the first requests of a run.

sglang-omni 0.1.9's TTS engine is SGLang's scheduler: at most `max_running_requests`
decode together and the rest wait in a first-come-first-served queue (the stock
MOSS-TTS-Local config runs 16, the guide's tuned one 64; a router in front of W
workers runs W times that). A request that started at once takes its own service
time, which is proportional to the audio it makes (one codec frame per decode
step); a queued one takes that plus its wait. So, at the start of a run:

- each answer's wall seconds per audio second (`latency / audio`) is close to the
  lowest seen for the requests that ran at once, and clearly above it for the
  ones that waited;
- admission is in send order, so the requests that waited are the ones sent
  after the first `running` of them: the send position of the first requests
  that waited is the server's running capacity.

Chunk lengths vary (a two-second line, a twenty-second paragraph), which is why
time is divided by each answer's own audio, and why one long chunk that waited
briefly may pass for one that did not. The edge is therefore voted: the send
position that the fewest answers contradict (one slow answer among prompt ones
sent after it does not make an edge). Nothing here knows the server's speed in
advance: the first answers, which cannot have waited behind the run's own
requests, are the yardstick.
"""
from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class SizingConfig:
    """Thresholds of the estimate; the defaults suit TTS servers with mixed chunk lengths."""

    #: Seconds per audio second this many times the reference (`first_answers`) counts as having
    #: waited: above the spread of requests that ran at once (+-30% in the server model's test),
    #: below what one wave's wait adds to all but the longest chunks.
    waited: float = 1.4
    #: ... or this much over it when the first answers agree closely (a steady server).
    least_wait: float = 0.1
    #: The server runs all it was sent at once when this many prompt answers came from the last
    #: part of the burst (send positions past `late_share` of it): first come, first served, a
    #: prompt answer at position P means the server runs more than P. One wave of equal chunks
    #: from a server running half the burst answers only the first half, however many they are.
    late_answers: int = 2
    late_share: float = 0.75
    #: The reference seconds per audio second of a request that ran at once: the median of the
    #: first answers (the first to come back never waited behind another of the run's requests).
    first_answers: int = 8
    #: Largest share of the answers an edge may contradict: slow and quick answers mixed at every
    #: position (two unequal GPUs behind a router, another tenant) are not a queue's edge.
    contradictions: float = 0.2
    #: Answers, in bursts sent at once, after which an estimate that has not shown is given up
    #: (its record of send positions stays bounded; the probes take over from where it is).
    give_up: int = 3


class RunningEstimate:
    """Watch a run's requests in send order; say how many the server runs at once, once it shows."""

    def __init__(self, config: SizingConfig = SizingConfig()):
        self.cfg = config
        #: Requests sent before the first answer came (the burst to an idle server).
        self.sent_at_once = 0
        self._position: dict[float, int] = {}  # send ticket -> send position
        self._answers: list[tuple[int, float, float]] = []  # (send position, latency, audio seconds)
        self._answered = False

    def sent(self, ticket: float) -> None:
        """Record a request sent, in send order, under the ticket its answer will carry."""
        if ticket in self._position:
            return
        self._position[ticket] = len(self._position)  # tickets are unique (AdaptiveLimit.on_sent)
        if not self._answered:
            self.sent_at_once += 1

    def answered(self, ticket: float, latency: float, audio_seconds: float) -> None:
        """Record an answer: wall seconds since it was sent and the audio seconds it carries."""
        self._answered = True
        position = self._position.get(ticket)
        if position is None or audio_seconds <= 0:
            return
        self._answers.append((position, max(latency, 1e-6), audio_seconds))

    def exhausted(self) -> bool:
        """Return whether the answers have had their chance to show the server's capacity."""
        return len(self._answers) >= self.cfg.give_up * max(1, self.sent_at_once)

    def running(self) -> int | None:
        """Return the estimated requests run at once, or None while the answers cannot tell yet.

        The answer is the send position of the queue's edge, or, when prompt answers came
        from the end of the burst and none waited, `sent_at_once` or more: the server runs at
        least all it was sent, possibly more. The first answers are the yardstick, so there
        is no verdict before `first_answers` of them (or the whole burst, if smaller).
        """
        if len(self._answers) < min(self.cfg.first_answers, self.sent_at_once):
            return None
        first = [(t, a) for _, t, a in self._answers[: self.cfg.first_answers]]
        fixed, per_second = _prompt_cost(first)
        # How far apart requests that ran at once already are (the server's own jitter): a wait must
        # stand out of that; on a steady server a brief one does.
        spread = [(t - fixed) / (per_second * a) for t, a in first]
        waited = min(self.cfg.waited, 1 + max(self.cfg.least_wait, 1.5 * (max(spread) - min(spread))))
        answers = sorted((p, t > fixed + waited * per_second * a) for p, t, a in self._answers)
        edge, errors = _fifo_edge(answers)
        if errors > self.cfg.contradictions * len(answers):
            return None
        if edge is not None:
            # Answers come back in the order they finish, not the order sent: a short chunk that waited
            # can answer before longer ones sent ahead of it, which may have waited too (the CLI saw an
            # edge at 22 from one such answer while 18-21 were still running). All the requests sent
            # before the edge but a few (a fifth: the longest chunks of the first wave) must have
            # answered for it to be the edge.
            answered = {p for p, _, _ in self._answers}
            if sum(1 for p in range(edge) if p not in answered) > edge // 5:
                return None
            return max(1, edge)
        late = math.floor(self.sent_at_once * self.cfg.late_share)
        prompt_late = sum(1 for p, waited in answers if late <= p < self.sent_at_once and not waited)
        if edge is None and prompt_late >= min(self.cfg.late_answers, self.sent_at_once - late):
            return max(self.sent_at_once, answers[-1][0] + 1)
        return None


def _prompt_cost(first: list[tuple[float, float]]) -> tuple[float, float]:
    """Return (fixed seconds, seconds per audio second) of a request that ran at once.

    `first` are the first answers' (latency, audio seconds): none of them waited. Real
    answers carry a fixed cost besides the synthesis (HTTP, the WAV, the client's threads),
    and the first answers are the run's shortest chunks, on which that cost weighs most;
    dividing by the audio alone set the bar too high, so requests that waited briefly passed
    for prompt ones (the CLI sized a stock 16-running server at 22). So the line through the
    first answers is fitted robustly (Theil-Sen: the median slope of every pair, then the
    median intercept), and only its slope is scaled by `waited`. Chunks all of one length
    give no slope: then everything is per audio second, as before.
    """
    slopes = sorted((t2 - t1) / (a2 - a1) for i, (t1, a1) in enumerate(first) for t2, a2 in first[i + 1:]
                    if abs(a2 - a1) > 0.05 * max(a1, a2))
    ratios = sorted(t / a for t, a in first)
    if slopes and slopes[len(slopes) // 2] > 0:
        per_second = slopes[len(slopes) // 2]
        fixed = sorted(t - per_second * a for t, a in first)[len(first) // 2]
        # The intercept is a fixed cost: never negative, never more than the quickest answer.
        fixed = min(max(0.0, fixed), min(t for t, _ in first))
        if fixed > 0:
            return fixed, per_second
    return 0.0, ratios[len(ratios) // 2]


def _fifo_edge(answers: list[tuple[int, bool]]) -> tuple[int | None, int]:
    """Return the send position from which requests waited and how many answers contradict it.

    `answers` are (send position, waited) sorted by position. With first-come-first-served
    admission every request from some position on waits and none before it does; the edge is
    the position that contradicts the fewest answers (a slow outlier or a long chunk that
    waited briefly is outvoted), the later one on a tie. None: no edge beats "nobody waited".
    """
    total_waited = sum(1 for _, waited in answers if waited)
    best, best_errors = None, total_waited  # no edge: every waited answer is an error
    prompt_after, waited_before = len(answers) - total_waited, 0
    for position, waited in answers:
        if waited:
            # An edge here: prompt answers from here on and waited ones before it contradict it.
            errors = prompt_after + waited_before
            if errors < best_errors or (errors == best_errors and best is not None):
                best, best_errors = position, errors
            waited_before += 1
        else:
            prompt_after -= 1
    return best, best_errors


__all__ = ["SizingConfig", "RunningEstimate"]

"""The adaptive in-flight controller against a deterministic model of a batching TTS server."""
from __future__ import annotations

import pytest

from app.pipeline.adaptive import AdaptiveLimit, FixedLimit, limit_for
from benchmarks.loadgen_model import ModelParams, steady_rtf
from app.pipeline.sizing import RunningEstimate
from benchmarks.sim_adaptive import GOAL, ROBUSTNESS, STOCK, book_chunks, run, simulate


def adaptive(max_limit: int):
    return lambda clock: AdaptiveLimit(max_limit, clock=clock)


BOOK = book_chunks(4000)  # ~10.4 hours of audio


def test_model_reproduces_the_guide_curve():
    rtf = {n: steady_rtf(n) for n in (1, 64, 96, 128)}
    assert 0.7 < rtf[1] < 1.3
    assert rtf[96] > rtf[64] and rtf[96] > rtf[128]
    assert 33 < rtf[96] < 38 and 27 < rtf[128] < 32


def test_adaptive_converges_near_the_knee_and_matches_the_hand_tuned_pool():
    fixed = simulate(FixedLimit(96), BOOK)
    serial_rtf = simulate(FixedLimit(1), BOOK[:150]).rtf
    result = simulate(None, BOOK, make_limit=adaptive(256))
    assert result.rtf >= 0.96 * fixed.rtf
    assert result.rtf >= 20 * serial_rtf
    settled = result.mean_limit(after=result.wall / 3)
    assert 64 <= settled <= 120, settled


def test_adaptive_respects_the_hard_maximum():
    result = simulate(None, BOOK[:1500], make_limit=adaptive(40))
    assert max(lim for _, lim in result.limits) <= 40
    assert result.mean_limit(after=result.wall / 3) >= 36  # below the knee: climbs to the cap


def test_backs_off_on_queue_full_and_settles_below_capacity():
    # 64 running + 8 queued: the 73rd request in the server is refused with 503.
    params = ModelParams(max_queued=8)
    result = simulate(None, BOOK[:1500], params, make_limit=adaptive(256))
    late = [lim for t, lim in result.limits if t > result.wall / 2]
    assert result.errors > 0
    assert max(late) <= 80
    # The cuts are bounded: it does not collapse to a trickle either.
    assert sum(late) / len(late) >= 40
    fixed = simulate(FixedLimit(96), BOOK[:300], params)
    assert fixed.errors > result.errors


def test_one_cut_per_round_trip_for_a_burst_of_errors():
    now = [0.0]
    limit = AdaptiveLimit(256, clock=lambda: now[0])
    for _ in range(32):
        limit.on_sent(limit.limit)
    now[0] = 10.0
    limit.on_done(10.0, 9.0, 32)
    for _ in range(20):
        limit.on_error()
    assert limit.limit == 22  # 32 * 0.7, once


def test_latency_balloon_backs_off():
    """Latency per audio second doubling at the best level (another tenant) makes the client back off."""
    now = [0.0]
    limit = AdaptiveLimit(64, clock=lambda: now[0])

    def epoch(latency: float) -> None:
        sent = []
        for _ in range(limit.limit):
            limit.on_sent(limit.limit)
            sent.append(now[0])
        now[0] += latency
        for t in sent:
            limit.on_done(now[0] - t, 9.0, limit.limit)

    epoch(10.0)  # 32: slow start
    epoch(10.0)  # 64 = the cap: settles there, then probes one step below
    epoch(10.0)
    before = limit.limit
    assert before >= 56
    epoch(40.0)  # 4x slower per audio second
    assert limit.limit == int(before * 0.7)


def test_fixed_limit_never_moves():
    limit = FixedLimit(96)
    limit.on_sent(96)
    limit.on_done(100.0, 1.0, 96)
    limit.on_error(50)
    assert limit.limit == 96


class _Backend:
    def __init__(self, concurrency, adaptive):
        self.concurrency, self.adaptive = concurrency, adaptive


def test_limit_for_picks_adaptive_only_when_the_backend_allows():
    assert isinstance(limit_for(_Backend(96, True)), AdaptiveLimit)
    assert limit_for(_Backend(96, True)).max_limit == 96
    pinned = limit_for(_Backend(12, False))
    assert isinstance(pinned, FixedLimit) and pinned.limit == 12
    assert isinstance(limit_for(_Backend(2, False)), FixedLimit)


def test_cohorts_finish_when_latency_is_measured_on_another_clock():
    """The loop times requests itself; the limiter must match completions by its own send ticket.

    Rebuilding the send time as now - latency (the first version) dropped the last request of
    a cohort whenever the two clocks disagreed by a hair, so a real run never left 32.
    """
    from app.pipeline.adaptive import AdaptiveConfig, AdaptiveLimit

    ticks = iter(range(10**9))
    lim = AdaptiveLimit(256, AdaptiveConfig(), clock=lambda: next(ticks) * 0.001)
    start_limit = lim.limit
    for _round in range(4):
        tickets = [lim.on_sent(n + 1) for n in range(lim.limit)]
        for ticket in tickets:
            # 0.5 s by the loop's own clock; the limiter's clock says something slightly different.
            lim.on_done(0.5, 9.0, len(tickets), sent_at=ticket)
    assert lim.history, "no cohort ever finished"
    assert lim.limit > start_limit


def test_an_unpinned_backend_sends_two_thirds_of_its_ceiling_first():
    """64 of 96 fills the guide's tuned server at once and queues only 48 on a stock one."""
    assert AdaptiveLimit(96).limit == 32, "the controller alone keeps its slow-start default"
    assert limit_for(_Backend(96, True)).limit == 64
    assert limit_for(_Backend(192, True)).limit == 128  # two workers behind a router
    assert limit_for(_Backend(96, True)).running is None  # nothing shown yet


def _ratio(case) -> float:
    result = run(case)
    return result["adaptive"].rtf / result["fixed"][result["best"]]


@pytest.mark.parametrize("case", GOAL, ids=lambda c: f"{c.name}-{c.chunks}")
def test_with_no_flag_each_book_gets_097_of_the_best_fixed_pool(case):
    """Issue 16 P1: calibrated and stock 16/16 profiles, 20 to 1500 chunks (benchmarks/README.md)."""
    ratio = _ratio(case)
    assert ratio >= 0.97, ratio
    if case.params.max_running == 64:
        assert ratio >= 0.995, "nothing lost on the calibrated model (it was 1.00x of fixed 96 before)"


@pytest.mark.parametrize("case", [c for c in ROBUSTNESS if c.params.graph_bs >= c.params.max_running],
                         ids=lambda c: f"{c.name}-{c.chunks}-{c.book}")
def test_sizing_behaves_on_varied_answers_other_batches_and_a_router(case):
    assert _ratio(case) >= 0.97


def test_a_server_running_more_than_its_graphs_is_sized_by_what_it_runs_not_by_its_best_batch():
    """The guide's "+MRR only" mistake (64 running, graphs to 16): the best pool is 16, sizing sees 64
    running without a wait and goes to the ceiling; documented in app/docs/backend-sglomni.md."""
    case = next(c for c in ROBUSTNESS if c.params.graph_bs < c.params.max_running)
    result = run(case)
    assert result["running"] >= 64
    assert result["adaptive"].limits[-1][1] >= 84


def test_sizing_ends_at_headroom_times_the_running_and_probes_stay_above_it():
    result = simulate(None, book_chunks(420), STOCK, make_limit=lambda clock: AdaptiveLimit(96, clock=clock, sizing=True))
    late = [lim for _, lim in result.limits[100:]]
    assert 20 <= min(late) and max(late) <= 48, sorted(set(late))


def test_busy_answers_during_sizing_cut_the_limit_at_once():
    """Backpressure wins over the estimate: a 503 while sizing cuts 64 to 44 and sizing stops."""
    now = [0.0]
    limit = AdaptiveLimit(96, clock=lambda: now[0], sizing=True)
    tickets = [limit.on_sent(n + 1) for n in range(limit.limit)]
    now[0] = 5.0
    limit.on_error()
    assert limit.limit == 44
    for t in tickets:  # answers that would have shown a stock server no longer move it
        limit.on_done(now[0] - t, 1.0, 64, sent_at=t)
    assert limit.running is None and limit.limit == 44


def test_queue_full_from_the_start_backs_off_below_what_the_server_admits():
    params = ModelParams(max_running=16, graph_bs=16, max_queued=8)  # the 25th request in the server gets 503
    result = simulate(None, book_chunks(420), params, make_limit=lambda clock: AdaptiveLimit(96, clock=clock, sizing=True))
    late = [lim for t, lim in result.limits if t > result.wall / 2]
    assert result.errors > 0
    assert max(late) <= 30
    assert simulate(FixedLimit(64), book_chunks(420), params).errors > result.errors


def test_a_burst_within_one_clock_tick_keeps_its_send_order():
    limit = AdaptiveLimit(96, clock=lambda: 7.0, sizing=True)
    tickets = [limit.on_sent(n + 1) for n in range(64)]
    assert tickets == sorted(set(tickets)) and tickets[0] == 7.0


def _waves(estimate: RunningEstimate, running: int, sent: int, lengths, *, slow: dict[int, float] | None = None):
    """Feed `estimate` a burst of `sent` requests to a FIFO server running `running` at once.

    Yield its verdict after each answer; `slow` makes a send position's service that many times longer.
    """
    slow = slow or {}
    for position in range(sent):
        estimate.sent(float(position))
    free = [0.0] * running
    answers = []
    for position in range(sent):
        start = min(free)
        service = 1.2 * lengths[position] * slow.get(position, 1.0)
        free[free.index(start)] = start + service
        answers.append((start + service, position, lengths[position]))
    for done, position, audio in sorted(answers):
        estimate.answered(float(position), done, audio)
        yield estimate.running()


@pytest.mark.parametrize("running", [8, 16, 40])
def test_the_first_requests_that_waited_show_what_the_server_runs(running):
    lengths = book_chunks(64, seed=running)
    verdicts = list(_waves(RunningEstimate(), running, 64, lengths))
    decided = [v for v in verdicts if v is not None]
    assert decided, "never decided"
    assert running <= decided[0] <= 1.3 * running, decided[0]
    assert verdicts.index(decided[0]) < 48, "decided only at the end of the burst"


def test_a_server_running_all_it_was_sent_is_seen_from_prompt_answers_at_the_burst_s_end():
    lengths = book_chunks(64)
    verdicts = list(_waves(RunningEstimate(), 64, 64, lengths))
    order = sorted(range(64), key=lambda p: lengths[p])  # all start at once: shortest first
    second_late = [i for i, p in enumerate(order) if p >= 48][1]
    assert verdicts[:second_late] == [None] * second_late
    assert verdicts[second_late] >= 64


def test_one_wave_of_equal_chunks_from_a_server_running_half_is_not_taken_for_all():
    """Equal chunks: the 32 that ran answer together, then nothing until the second wave."""
    verdicts = list(_waves(RunningEstimate(), 32, 64, [10.0] * 64))
    assert verdicts[:32] == [None] * 32
    assert 32 <= [v for v in verdicts if v is not None][0] <= 40


def test_one_slow_answer_among_prompt_ones_does_not_make_an_edge():
    """The edge is voted: a request slowed by something else, with prompt ones sent after it, is outvoted."""
    lengths = [10.0] * 64
    lengths[5] = 2.0  # short, and twice as slow as it should be: the first answer, flagged as waited
    verdicts = list(_waves(RunningEstimate(), 64, 64, lengths, slow={5: 2.0}))
    assert [v for v in verdicts if v is not None][0] >= 64


def test_sizing_that_never_shows_gives_way_to_the_probes():
    """One answer in three slow at every send position (an unequal GPU behind a router): no
    queue's edge, no verdict (not "the server runs one"); after three bursts' worth of answers the
    probes take over from where the limit is and the record of send positions is dropped."""
    now = [0.0]
    limit = AdaptiveLimit(96, clock=lambda: now[0], sizing=True)
    tickets = [limit.on_sent(n + 1) for n in range(64)]
    for answered in range(3 * 64):
        now[0] += 1.0
        slow = 1.0 if answered % 3 else 3.0
        limit.on_done(slow * 9.0, 9.0, 64, sent_at=tickets[answered])
        tickets.append(limit.on_sent(64))
        assert (limit._sizing is None) == (answered == 3 * 64 - 1), answered
    assert limit.running is None
    assert limit.limit == 64

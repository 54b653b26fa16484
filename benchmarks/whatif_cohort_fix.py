"""What-if (diagnostic, not the product): the CLI with AdaptiveLimit.on_done accepting cohort members within 5 ms.

With a real clock the last request of each cohort is judged outside it (its send time is rebuilt
as now - latency, microseconds later than on_sent recorded), so the epoch never ends and the
limit stays at its start (32). Used by `bench_throughput --entry benchmarks/whatif_cohort_fix.py`.
"""
import sys
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[1]))
from app.pipeline import adaptive as A

TOL = 5e-3

def on_done(self, latency, audio_seconds, in_flight):
    now = self._clock()
    with self._lock:
        self._outstanding = max(0, self._outstanding - 1)
        sent_at = now - latency
        if sent_at < self._epoch_start - TOL:
            self._old = max(0, self._old - 1)
            return
        if not self._sent or not self._cohort_from - TOL <= sent_at <= self._cohort_to + TOL:
            return
        self._n += 1
        self._done_in_flight += max(1, in_flight)
        self._audio += max(audio_seconds, 0.0)
        self._latency += max(latency, 1e-6)
        if self._cohort_full() and self._n >= self._sent and self._audio > 0:
            self._finish_epoch(now)

A.AdaptiveLimit.on_done = on_done
from app.cli import main
sys.exit(main())

"""A conversation's speakers decided together: the best assignment of a whole run, not turn by turn.

The ranker (ranker.py) scores each turn's candidates on its own; its features see the speakers the rules
and its earlier choices put around the turn, so one wrong turn pulls the next along (a run's parity flips).
Here each conversation is decoded at once (Viterbi over a second-order chain): a path's score is the sum of
its turns' log-probabilities from the ranker, plus SAME for a speaker who follows themself in a new
paragraph (people take turns) and ALTERNATE for one who speaks again after someone else (the two-party
exchange). Turns a tag settles keep their speaker. Both weights were chosen on PDNC's tuning half with the
ranker refitted leaving novels out (4 folds; 77.6 % of turns chosen one by one, 78.0 % decoded together),
then checked on LitBank's development half, which nothing here was fitted on (71.0 -> 72.0 % end to end).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

#: Added when a turn's speaker is the previous turn's (a log-probability; a paragraph continuing the
#: same speech, "continues", is exempt).
SAME = -0.5
#: Added when a turn's speaker is the one two turns back and not the one right before (A B A).
ALTERNATE = 0.25


def decode(emissions: list["np.ndarray"], people: list[list[int]], fixed: list[int | None],
           continues: list[bool], same: float = SAME, alternate: float = ALTERNATE) -> list[int]:
    """Return the index of each turn's chosen candidate.

    emissions: each turn's candidates' log-probabilities; people: their ids (the same person has the same
    id in every turn); fixed: the index a tag settles, or None; continues: the turn goes on with the
    previous paragraph's speech.
    """
    import numpy as np  # the ranker's dependency, loaded already

    n = len(emissions)
    if n == 0:
        return []
    scores = []
    for e, f in zip(emissions, fixed):
        e = np.asarray(e, dtype=np.float64)
        if f is not None:
            e = np.full(len(e), -1e9)
            e[f] = 0.0
        scores.append(e)
    # dp[i, j]: the best path ending with candidate i at turn t and candidate j at turn t - 1.
    dp = scores[0][:, None]
    before: list = [None]  # the ids of turn t - 2's candidates (none before the first turn)
    back = []
    for t in range(1, n):
        cur, last = people[t], people[t - 1]
        same1 = np.array([[c == p for p in last] for c in cur], dtype=np.float64)
        same2 = np.array([[c == p for p in before] for c in cur], dtype=np.float64)
        total = dp[None, :, :] + alternate * same2[:, None, :] * (1.0 - same1[:, :, None])
        back.append(total.argmax(axis=2))
        dp = total.max(axis=2) + (0.0 if continues[t] else same) * same1 + scores[t][:, None]
        before = last
    i, j = np.unravel_index(int(np.argmax(dp)), dp.shape)
    path = [int(i), int(j)] if n > 1 else [int(i)]
    for t in range(n - 1, 1, -1):
        path.append(int(back[t - 1][path[-2], path[-1]]))
    return path[::-1][-n:]

"""A learned ranker over the candidate speakers of a conversation's turn: the rules' answers are its features.

After the rules have filled every turn (attribution.py, turns.py), each turn's candidates are the people
about: the rules' choice, its own tags' people, the speakers of the turns around it, those addressed, the
person the narration is about, those named lately; then, wider, anyone speaking in the conversation, the
people the narration around the turn names, those named further back and the speakers of the conversations
around. Each candidate gets a feature row (below) and a small model scores it (a linear term and one hidden
layer); the best replaces the rules' choice for the turn's quotes that no explicit tag settles.

The weights are app/cast/data/ranker.json, trained on PDNC's tuning half by scripts/train_cast_ranker.py
(which reproduces the file from the corpus). numpy at run time (already the audio's dependency), no download.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

from app.cast.person import Person
from app.cast.turns import Said, Turn

#: The feature names, in the order of a row (the model file lists them too, and must agree).
FEATURES = (
    "rule", "rule_explicit", "rule_anaphoric", "rule_turn", "rule_vocative", "rule_guess", "rule_conf",
    "own_explicit", "own_anaphoric", "prev1", "prev2", "next1", "next2", "prev_addressed", "addressed_here",
    "named_here", "beat", "local", "recency", "in_history", "gender_match", "gender_mismatch", "narrator",
    "mentions", "share", "continues_prev", "personal", "role", "first_turn", "prev1_is_prev2",
    "addressed_next", "named_prev", "anchor_even", "anchor_odd", "party",
    "prev_address_match", "prev_address_mismatch", "next_address_match", "next_address_mismatch",
    "run_pair", "run_parity", "run_nearest",
    "conv_speaker", "near_local", "far", "scene", "possessor", "own_description",
)
_INDEX = {name: i for i, name in enumerate(FEATURES)}
#: Candidates per turn, at most (the nearest sources first).
MAX_CANDIDATES = 16


@dataclass
class Candidates:
    """One turn's candidate speakers and their feature rows."""

    turn: Turn
    people: list[Person]
    rows: list[list[float]]


class Ranker:
    """A conditional logit over FEATURES: score(row) = b + w . row + out . tanh(row W + c).

    The linear part alone is the first model; the hidden layer (a few tanh units) lets features combine (a
    parity vote counts for more when the gender agrees too), which a sum of weights cannot. In a leave-one-
    novel-out check on the tuning half it was right more often than the linear model on every novel.
    """

    def __init__(self, weights: list[float], bias: float, hidden: dict | None = None):
        # numpy is imported where the ranker is built, not with the module: app.cast is imported by
        # every run's planning, and a run without a cast (a cached Piper re-run) never loads numpy.
        import numpy as np

        if len(weights) != len(FEATURES):
            raise ValueError(f"the ranker has {len(weights)} weights for {len(FEATURES)} features")
        self.weights = np.asarray(weights, dtype=np.float64)
        self.bias = bias
        self.hidden = None
        if hidden is not None:
            W = np.asarray(hidden["weights"], dtype=np.float64)
            if W.shape[0] != len(FEATURES) or len(hidden["bias"]) != W.shape[1] or len(hidden["out"]) != W.shape[1]:
                raise ValueError(f"the ranker's hidden layer is {W.shape} for {len(FEATURES)} features")
            self.hidden = (W, np.asarray(hidden["bias"], dtype=np.float64), np.asarray(hidden["out"], dtype=np.float64))

    @classmethod
    def shipped(cls) -> "Ranker | None":
        """Return the model shipped in app/cast/data/ranker.json, or None when there is none."""
        path = resources.files("app.cast") / "data" / "ranker.json"
        if not path.is_file():
            return None
        data = json.loads(path.read_text(encoding="utf-8"))
        if tuple(data["features"]) != FEATURES:
            return None  # a model for other features: the rules alone
        return cls([float(w) for w in data["weights"]], float(data["bias"]), data.get("hidden"))

    def scores(self, rows: list[list[float]]) -> np.ndarray:
        """Return each candidate's score (a logit: the model is a softmax over one turn's candidates)."""
        import numpy as np  # loaded already: __init__ imported it

        X = np.asarray(rows, dtype=np.float64).reshape(len(rows), len(FEATURES))
        z = self.bias + X @ self.weights
        if self.hidden is not None:
            W, c, out = self.hidden
            z = z + np.tanh(X @ W + c) @ out
        return z

    def score(self, row: list[float]) -> float:
        """Return one candidate's score."""
        return float(self.scores([row])[0])

    def choose(self, rows: list[list[float]]) -> tuple[int, float]:
        """Return the best candidate's index and its probability among the turn's candidates."""
        import numpy as np  # loaded already: __init__ imported it

        z = self.scores(rows)
        best = int(np.argmax(z))
        exps = np.exp(np.maximum(-30.0, z - z[best]))
        return best, float(1.0 / exps.sum())


def candidates(conv: list[Turn], p: int, own: list[Said | None], narrator: Person, first_person: bool,
               mentions: dict[int, int], share: dict[int, float], personal, scene: tuple = ()) -> Candidates:
    """Return turn p's candidate speakers with their feature rows."""
    turn = conv[p]
    said = lambda k: conv[k].said.person if 0 <= k < len(conv) and conv[k].said else None  # noqa: E731
    people: list[Person] = []

    def add(person: Person | None) -> None:
        if person is not None and person not in people and len(people) < MAX_CANDIDATES:
            people.append(person)

    add(turn.said.person if turn.said else None)
    for s in own:
        add(s.person if s else None)
    for k in (p - 1, p - 2, p + 1, p + 2):
        add(said(k))
    for person in (conv[p - 1].addressed if p else []):
        add(person)
    for person in (conv[p + 1].addressed if p + 1 < len(conv) else []):
        add(person)
    add(turn.beat)
    for person in reversed(turn.local):
        add(person)
    for person in turn.history:
        add(person)
    if first_person:
        add(narrator)
    # Wider: whoever speaks anywhere in the conversation (nearest first), the people the narration around
    # the turn names, those named further back, and the speakers of the conversations around this one.
    # The right speaker is often one of these when the nearer sources all miss.
    talkers = [conv[k].said.person for k in sorted(range(len(conv)), key=lambda k: abs(k - p))
               if k != p and conv[k].said is not None and conv[k].said.person is not None]
    around = [person for k in (p + 1, p - 1) if 0 <= k < len(conv) for person in conv[k].local]
    for person in talkers + around + turn.far + list(scene):
        add(person)
    rule = turn.said
    history = turn.history
    # The speakers a tag of their own settles near this turn, by distance: alternation keeps the parity.
    anchors: dict[int, set[int]] = {}
    for k in range(max(0, p - 4), min(len(conv), p + 5)):
        s = conv[k].said
        if k != p and s is not None and s.person is not None and s.method in ("explicit", "anaphoric"):
            anchors.setdefault(abs(k - p) % 2, set()).add(id(s.person))
    party = {id(said(k)) for k in range(p - 3, p + 4) if k != p and said(k) is not None}
    pair, parity, nearest = run_votes(conv, p)
    rows = []
    for person in people:
        row = [0.0] * len(FEATURES)

        def put(name: str, value: float = 1.0) -> None:
            row[_INDEX[name]] = value
        if rule is not None and rule.person is person:
            put("rule")
            put({"explicit": "rule_explicit", "anaphoric": "rule_anaphoric", "turn-taking": "rule_turn",
                 "vocative": "rule_vocative"}.get(rule.method, "rule_guess"))
            put("rule_conf", rule.confidence)
        for s in own:
            if s is not None and s.person is person:
                put("own_explicit" if s.method == "explicit" else "own_anaphoric")
                if s.described:
                    put("own_description")
        for name, k in (("prev1", p - 1), ("prev2", p - 2), ("next1", p + 1), ("next2", p + 2)):
            if said(k) is person:
                put(name)
        if p and person in conv[p - 1].addressed:
            put("prev_addressed")
        if person in turn.addressed:
            put("addressed_here")
        if person in turn.named:
            put("named_here")
        if turn.beat is person:
            put("beat")
        if person in turn.local:
            put("local")
        if person in history:
            put("in_history")
            put("recency", 1.0 / (1 + history.index(person)))
        if turn.gender and person.gender:
            put("gender_match" if person.gender == turn.gender else "gender_mismatch")
        elif turn.gender and person is narrator:
            put("gender_mismatch")  # "he said" is never the "I" telling the book (who says "said I")
        if person is narrator:
            put("narrator")
        put("mentions", math.log1p(mentions.get(id(person), 0)) / 5)
        put("share", share.get(id(person), 0.0))
        if turn.continues and said(p - 1) is person:
            put("continues_prev")
        # The narrator is a person: the tuning half has no book told by an "I" to teach the ranker more.
        if person is narrator or personal(person):
            put("personal")
        if not person.first and not person.last and person is not narrator:
            put("role")
        if p == 0:
            put("first_turn")
        if said(p - 1) is not None and said(p - 1) is said(p - 2):
            put("prev1_is_prev2")
        # A reply speaks to the one who spoke before ("Yes, Mrs. Dunmore, ..." answers Mrs. Dunmore).
        if p + 1 < len(conv) and person in conv[p + 1].addressed:
            put("addressed_next")
        if p and person in conv[p - 1].named and person not in conv[p - 1].addressed:
            put("named_prev")
        if id(person) in anchors.get(0, ()):
            put("anchor_even")
        if id(person) in anchors.get(1, ()):
            put("anchor_odd")
        if id(person) in party:
            put("party")
        # "Yes, sir." before or after: the one spoken to is a man, and most often speaks next or spoke last.
        for name, k in (("prev_address", p - 1), ("next_address", p + 1)):
            shown = conv[k].address_gender if 0 <= k < len(conv) else None
            if shown and person.gender:
                put(name + ("_match" if person.gender == shown else "_mismatch"))
        if id(person) in pair:
            put("run_pair")
        put("run_parity", parity.get(id(person), 0.0))
        if nearest is person:
            put("run_nearest")
        if person in talkers:
            put("conv_speaker")
        if person in around:
            put("near_local")
        if person in turn.far:
            put("far")
        if person in scene:
            put("scene")
        if person in turn.possessors:
            put("possessor")
        rows.append(row)
    return Candidates(turn, people, rows)


#: How many turns either side the run's tagged turns are counted in.
RUN_REACH = 12


def run_votes(conv: list[Turn], p: int) -> tuple[set[int], dict[int, float], Person | None]:
    """Return the run's pair of talkers around turn p, their share of the parity votes, and the one the
    nearest tagged turn's parity names.

    The pair are the two people most tagged (explicit or pronoun tags) within RUN_REACH turns. A tagged
    turn d turns away votes, by 1/d, for its speaker when d is even and for the pair's other one when odd:
    people take turns, so every tag of the run says who speaks here, the nearer the surer.
    """
    anchors = []
    for k in range(max(0, p - RUN_REACH), min(len(conv), p + RUN_REACH + 1)):
        s = conv[k].said
        if k != p and s is not None and s.person is not None and s.method in ("explicit", "anaphoric"):
            anchors.append((abs(k - p), s.person))
    count: dict[int, int] = {}
    for _, person in anchors:
        count[id(person)] = count.get(id(person), 0) + 1
    top = sorted(count, key=lambda k: -count[k])[:2]
    by_id = {id(person): person for _, person in anchors}
    votes: dict[int, float] = {}
    nearest: Person | None = None
    for d, person in sorted(anchors, key=lambda a: a[0]):
        if d % 2 == 0:
            voted = person
        elif len(top) == 2 and id(person) in top:
            voted = by_id[top[1] if top[0] == id(person) else top[0]]
        else:
            continue
        if nearest is None:
            nearest = voted
        votes[id(voted)] = votes.get(id(voted), 0.0) + 1.0 / d
    total = sum(votes.values()) or 1.0
    return set(top), {k: v / total for k, v in votes.items()}, nearest


def rank_turns(attributor, conversations: list[list[Turn]], ranker: Ranker | None, log: list | None,
               narrator: Person) -> None:
    """Score every turn's candidates, then set each turn's speaker to the best, in book order: a turn's
    features see the ranker's choice for the turns before it and the rules' fill after it. Training logs
    a run without a ranker, so its features are on the rules' fill alone."""
    mentions: dict[int, int] = {id(p): p.count for p in attributor.roster.people}
    lines: dict[int, int] = {}
    for turn in attributor.turns:
        if turn.said is not None and turn.said.person is not None:
            lines[id(turn.said.person)] = lines.get(id(turn.said.person), 0) + 1
    most = max(lines.values(), default=1)
    share = {k: v / most for k, v in lines.items()}

    # The speakers of the conversations just before and after each one (the scene it is part of).
    scenes: list[tuple] = []
    for n in range(len(conversations)):
        people: list[Person] = []
        for k in (n - 1, n + 1, n - 2):
            for turn in (conversations[k] if 0 <= k < len(conversations) else []):
                if turn.said is not None and turn.said.person is not None and turn.said.person not in people:
                    people.append(turn.said.person)
        scenes.append(tuple(people))
    scene_of = {id(conv): scenes[n] for n, conv in enumerate(conversations)}

    def turn_candidates(conv: list[Turn], p: int) -> Candidates:
        own = [attributor.results[i] for i in conv[p].quotes]
        return candidates(conv, p, own, narrator, attributor.first_person, mentions, share, attributor._personal,
                          scene_of[id(conv)])

    if ranker is None:
        if log is not None:
            log.extend(turn_candidates(conv, p) for conv in conversations for p in range(len(conv)))
        return
    # In book order, each turn sees the ranker's choice for the turns before it (the rules' for those after).
    for conv in conversations:
        for p in range(len(conv)):
            c = turn_candidates(conv, p)
            if log is not None:
                log.append(c)
            if not c.people:
                continue
            best, probability = ranker.choose(c.rows)
            rule = c.turn.said
            if rule is not None and (rule.person is c.people[best] or rule.settled):
                continue
            # The ranker decides what no explicit tag settles: about two in three right on PDNC, so its
            # confidence stays under the bar the optional language model is asked above (0.8).
            c.turn.said = Said(c.people[best], "ranked", round(min(0.7, probability * 0.7), 2))

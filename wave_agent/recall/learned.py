"""The learned ranker: a logistic regression over what each candidate already has, in place of
hand-set fusion weights (``RecallConfig.ranker = "learned"``).

``features`` turns one search's candidates (after ``ranking.rank`` and ``ranking.weigh``) into
a matrix, one row per record still in the running: each voice's reciprocal rank, the
calibrated cosine of the record alone and in its context window (and its distance from the
best candidate's), the full-text score and how much of the question the record covers, the
speaker and self checks, the record's age, decay, type and length, the episode lift, the
question's preset, and the hand-set fusion's own score. ``LearnedRanker`` reads the weights
``scripts/train_ranker.py`` wrote (``ranker.json`` beside this module: plain JSON, the
feature names, their means and scales, the coefficients) and orders the records by the
model's log-odds that each answers, spaced by the fusion's scores and decayed
(``after_model``); MMR then picks the final ``k`` from those, as before.

Trained on the tuning parts of memory-ru, memory-pl (and memory-ru-2, memory-pl-2,
memory-ru-3, memory-pl-3), LoCoMo and LongMemEval, picked out of fold on those tuning parts,
each memory set left out in turn (docs/benchmarks.md, "A learned ranker"). A feature the file does not name
counts zero; a file that names a feature this code does not compute is refused at load, so a
model and the code that feeds it cannot drift apart silently.
"""

from __future__ import annotations

import functools
import json
import math
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

from graph.models import FactType
from graph.stemming import language_of
from wave_agent.policy.calibration import Calibration
from wave_agent.recall import decay
from wave_agent.recall.candidates import Candidates
from wave_agent.recall.config import RecallConfig
from wave_agent.recall.presets import PRESETS

MODEL_PATH = Path(__file__).with_name("ranker.json")
RANKED_VOICES = ("lexical", "semantic", "temporal", "graph", "dated", "context_lexical",
                 "context_semantic", "rest", "asked")

FEATURES: tuple[str, ...] = (
    *(f"rr_{v}" for v in RANKED_VOICES),
    "cosine", "cosine_gap", "context_cosine", "context_gap",
    "lexical_score", "coverage", "context_coverage",
    "fused", "hand_final",
    "speaker", "someone_else", "about_self",
    "log_age_days", "decay", "episode", "log_words", "piece",
    *(f"type_{t.value}" for t in FactType),
    *(f"preset_{p}" for p in PRESETS),
    "has_period", "has_relatives",
    "assistant", "session_share", "near_repeats",
    "asked_p", "asked_past",
)
# Computed from a search's rows (``derive``), not kept in the feature files: where a record
# stands among this question's candidates, which a record's own scores do not say (a cosine
# of 0.30 is first for one question and tenth for another).
DERIVED: tuple[str, ...] = ("cosine_rr", "context_rr", "cosine_z", "context_z",
                            "cosine_margin", "pool_words", "pool_size", "hand_own")
# Of DERIVED, what the whole search's candidates are like, the same on every row: short
# stated facts or long chat turns, few candidates or many. They let a model learn when a
# record's cosine lead should stand (short facts) and when the other voices should move it
# (chat), without being told which data set a question came from.
POOL: tuple[str, ...] = ("pool_words", "pool_size")
# ``hand_own``: the fusion's final score without its someone-else factor (``others_factor``
# times a record about someone else when the question is about the person). That check
# misfires in Polish, which drops the pronoun ("Przeszłam do Play": no "ja", and "Play" reads
# as a name), so in ``hand_final`` a Polish answer came in already pushed down, whatever its
# weight after the model; the check's weight is fitted per language after the model instead
# (``LearnedRanker.someone_else_by_language``).
OTHERS_FACTOR = RecallConfig().others_factor
ALL: tuple[str, ...] = FEATURES + DERIVED
SESSION_POOL = 10     # the candidates nearest the question whose sessions count
REPEAT_COSINE = 0.95  # two records this close (raw e5 cosine) say the same thing


def features(c: Candidates, now: datetime, cal: Calibration,
             coverage: dict[str, dict[str, float]] | None = None,
             wanted: tuple[str, ...] | None = None) -> tuple[list[str], np.ndarray]:
    """The candidates still in the running (``c.final``) and their feature rows (FEATURES).
    ``wanted``: the features a model reads (None: all, for the feature files); the costly
    ones it does not read stay 0 (``near_repeats``, an n x n product of the candidates'
    vectors, took 12 ms for 200 candidates at load 6)."""
    from wave_agent.recall.ranking import word_count

    ids = list(c.final)
    if not ids:
        return ids, np.zeros((0, len(FEATURES)), dtype=np.float32)
    q = c.question
    qv = c.query_vector
    index = {name: n for n, name in enumerate(FEATURES)}
    x = np.zeros((len(ids), len(FEATURES)), dtype=np.float32)
    cos = np.full(len(ids), np.nan, dtype=np.float32)
    ctx = np.full(len(ids), np.nan, dtype=np.float32)
    lexical = c.lexical_scores
    top_lexical = max(lexical.values(), default=0.0) or 1.0
    top_fused = max((c.scores.get(i, 0.0) for i in ids), default=0.0) or 1.0
    top_final = max(c.final.values(), default=0.0) or 1.0
    cover = coverage or {}
    for row, fid in enumerate(ids):
        fact = c.facts[fid]
        ranks = c.ranks.get(fid, {})
        for voice in RANKED_VOICES:
            rank = ranks.get(voice)
            if rank:
                x[row, index[f"rr_{voice}"]] = 1.0 / rank
        if fid in c.in_context:
            ctx[row] = c.in_context[fid]
        x[row, index["lexical_score"]] = lexical.get(fid, 0.0) / top_lexical
        x[row, index["coverage"]] = cover.get("lexical", {}).get(fid, 0.0)
        x[row, index["context_coverage"]] = cover.get("context_lexical", {}).get(fid, 0.0)
        x[row, index["fused"]] = math.log(max(c.scores.get(fid, 0.0) / top_fused, 1e-4))
        x[row, index["hand_final"]] = math.log(max(c.final[fid] / top_final, 1e-4))
        signals = c.signals.get(fid, {})
        for name in ("speaker", "someone_else", "about_self", "decay", "episode"):
            x[row, index[name]] = signals.get(name, 1.0 if name in ("decay", "episode") else 0.0)
        x[row, index["log_age_days"]] = math.log1p(max(decay.age_days(fact, now), 0.0))
        x[row, index["log_words"]] = math.log1p(word_count(fact.text))
        x[row, index["piece"]] = float(fact.part > 0)
        x[row, index[f"type_{fact.type.value}"]] = 1.0
        x[row, index["assistant"]] = float(fact.speaker == "assistant")
    held = [row for row, fid in enumerate(ids) if fid in c.vectors]
    if held:
        vectors = np.stack([c.vectors[ids[row]] for row in held])
        if qv is not None:
            scale, shift = c.cosine_map
            cos[held] = scale * (vectors @ qv) + shift
        # the same thing said again elsewhere (another session, another day): how often
        if wanted is None or "near_repeats" in wanted:
            close = (vectors @ vectors.T >= REPEAT_COSINE).sum(axis=1) - 1
            x[held, index["near_repeats"]] = np.log1p(np.maximum(close, 0))
    if wanted is None or "session_share" in wanted:
        _session_share(x, index["session_share"], ids, c, cos)
    cos, ctx = cal.rescale_array(cos), cal.rescale_array(ctx)
    for column, values in (("cosine", cos), ("context_cosine", ctx)):
        known = ~np.isnan(values)
        floor = float(values[known].min()) if known.any() else 0.0
        best = float(values[known].max()) if known.any() else 0.0
        filled = np.where(known, values, floor)  # no vector: as far as the farthest
        x[:, index[column]] = filled
        x[:, index["cosine_gap" if column == "cosine" else "context_gap"]] = filled - best
    x[:, index[f"preset_{q.preset.name}"]] = 1.0 if q.preset.name in PRESETS else 0.0
    x[:, index["has_period"]] = float(q.period is not None)
    x[:, index["has_relatives"]] = float(bool(q.relatives))
    if c.asked is not None:  # the attribute step's verdict; its order is ``rr_asked``
        x[:, index["asked_p"]] = c.asked.p
        x[:, index["asked_past"]] = float(c.asked.past)
    return ids, x


def _session_share(x: np.ndarray, column: int, ids: list[str], c: Candidates,
                   cos: np.ndarray) -> None:
    """Each record's share of the ``SESSION_POOL`` candidates nearest the question (itself
    left out) said in its own exchange: evidence clusters in the session that holds it."""
    known = ~np.isnan(cos)
    if not known.any():
        return
    order = [i for i in np.argsort(-np.where(known, cos, -np.inf), kind="stable")
             if known[i]][:SESSION_POOL]
    session = [c.facts[fid].exchange_ids[0] if c.facts[fid].exchange_ids else None
               for fid in ids]
    pool = [session[i] for i in order]
    for row, own in enumerate(session):
        if own is None:
            continue
        shared = sum(1 for n, s in zip(order, pool, strict=True) if s == own and n != row)
        x[row, column] = shared / SESSION_POOL


def _reciprocal_rank(v: np.ndarray) -> np.ndarray:
    rank = np.empty(len(v), dtype=np.float64)
    rank[np.argsort(-v, kind="stable")] = np.arange(1, len(v) + 1)
    return 1.0 / rank


def derive(x: np.ndarray, others_factor: float = OTHERS_FACTOR) -> np.ndarray:
    """``x`` (one search's rows, FEATURES) with the DERIVED columns after it: each record's
    reciprocal rank by cosine and by context cosine, both cosines' z-scores within the
    search, the cosine's margin (the best record's over the second, the others' distance
    from the best), what the candidates are like (``POOL``: their median length in words,
    log; how many there are, log), and ``hand_own``: ``hand_final`` with the someone-else
    factor (``others_factor``) taken back out, again relative to the best."""
    if not len(x):
        return np.zeros((0, len(ALL)), dtype=np.float32)
    cos = x[:, FEATURES.index("cosine")].astype(np.float64)
    ctx = x[:, FEATURES.index("context_cosine")].astype(np.float64)
    columns = [_reciprocal_rank(cos), _reciprocal_rank(ctx)]
    for v in (cos, ctx):
        spread = v.std()
        columns.append((v - v.mean()) / (spread if spread > 1e-6 else 1.0))
    ranked = np.sort(cos)[::-1]
    second = ranked[1] if len(ranked) > 1 else ranked[0]
    columns.append(np.where(cos >= ranked[0], cos - second, cos - ranked[0]))
    columns.append(np.full(len(x), float(np.median(x[:, FEATURES.index("log_words")]))))
    columns.append(np.full(len(x), math.log1p(len(x))))
    own = (x[:, FEATURES.index("hand_final")].astype(np.float64)
           - math.log(others_factor) * (x[:, FEATURES.index("someone_else")] > 0))
    columns.append(np.maximum(own - own.max(), math.log(1e-4)))
    return np.hstack([x, np.stack(columns, axis=1)]).astype(np.float32)


def exported_trees(model: Any) -> list[dict[str, Any]]:
    """A fitted scikit-learn ``HistGradientBoostingClassifier``'s trees as the JSON ``Tree``
    reads (``scripts/train_ranker.py``, ``scripts/train_context_stage.py``): per node its
    feature (-1 at a leaf), threshold, children and value."""
    trees = []
    for (predictor,) in model._predictors:
        nodes = predictor.nodes
        trees.append({
            "feature": [int(f) if not leaf else -1
                        for f, leaf in zip(nodes["feature_idx"], nodes["is_leaf"], strict=True)],
            "threshold": [float(t) for t in nodes["num_threshold"]],
            "left": [int(v) for v in nodes["left"]], "right": [int(v) for v in nodes["right"]],
            "value": [round(float(v), 6) for v in nodes["value"]]})
    return trees


@dataclass(frozen=True, slots=True)
class Tree:
    """One regression tree: per node its feature (column of the model's features), threshold,
    children and, at a leaf (``feature < 0``), its value; node 0 is the root."""

    feature: np.ndarray
    threshold: np.ndarray
    left: np.ndarray
    right: np.ndarray
    value: np.ndarray

    def predict(self, z: np.ndarray) -> np.ndarray:
        node = np.zeros(len(z), dtype=np.int64)
        rows = np.arange(len(z))
        while True:
            inner = self.feature[node] >= 0
            if not inner.any():
                return self.value[node]
            f = np.where(inner, self.feature[node], 0)
            go_left = z[rows, f] <= self.threshold[node]
            node = np.where(inner, np.where(go_left, self.left[node], self.right[node]), node)


@dataclass(frozen=True, slots=True)
class LearnedRanker:
    """A logistic regression over standardised features, or gradient-boosted trees over the
    raw ones (see the module docstring); ``score`` is monotone in the model's log-odds."""

    names: tuple[str, ...]
    mean: np.ndarray
    scale: np.ndarray
    coef: np.ndarray
    intercept: float
    trees: tuple[Tree, ...] = ()
    forest: Forest | None = None  # the trees side by side (``Forest``), what ``score`` uses
    # Added to the log-odds of a record about someone else when the question is about the
    # person (``after_model``); fitted by ``scripts/train_ranker.py`` on the tuning parts,
    # each set weighing the same. None: ``others_factor`` on the fusion's scale instead.
    someone_else: float | None = None
    # The same weight fitted on one question language's tuning questions alone (a language
    # with none keeps ``someone_else``): the check is sound in Russian (fitted about -2) and
    # says nothing in Polish, where it flagged the answer of 10 of 16 questions about the
    # person (fitted 0); docs/benchmarks.md, "Round seven".
    someone_else_by_language: dict[str, float] | None = None
    # Added to the log-odds times ``rr_asked`` (1 for the first record the attribute step
    # holds for the asked value, 1/2 for the second...), in place of the step putting those
    # records first; fitted like ``someone_else`` (``scripts/train_ranker.py``,
    # ``fit_asked``). None: the model does not weigh the step, which then overrides it.
    asked: float | None = None
    # How much of the model's own confidence the final order keeps: its log-odds times this
    # are added to the log of the fused-spaced, decayed score (``after_model``), so two
    # records whose fused scores tie are no longer ordered by decay's noise (0.97 against
    # 0.98) when the model is sure which answers. Fitted listwise on the tuning questions
    # (``scripts/train_ranker.py``, ``fit_confidence``); None: the spacing alone, as before.
    confidence: float | None = None
    # Added to the log-odds times ``stated`` (``recall.stated``: how much the record sets the
    # attribute a question about the person asks for, by the writer's statement head against
    # the attribute head's reading of the question). Fitted listwise on the tuning months'
    # questions (``scripts/fit_stated.py``); None: not weighed.
    stated: float | None = None

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LearnedRanker:
        names = tuple(str(n) for n in data["features"])
        unknown = [n for n in names if n not in ALL]
        if unknown:
            raise ValueError(f"the ranker uses features this code does not compute: {unknown}")
        trees = tuple(Tree(np.asarray(t["feature"], dtype=np.int64),
                           np.asarray(t["threshold"], dtype=np.float64),
                           np.asarray(t["left"], dtype=np.int64),
                           np.asarray(t["right"], dtype=np.int64),
                           np.asarray(t["value"], dtype=np.float64))
                      for t in data.get("trees", ()))
        width = len(names)
        return cls(names, np.asarray(data.get("mean", [0.0] * width), dtype=np.float32),
                   np.asarray(data.get("scale", [1.0] * width), dtype=np.float32),
                   np.asarray(data.get("coef", [0.0] * width), dtype=np.float32),
                   float(data["intercept"]), trees, Forest.of(trees) if trees else None,
                   float(data["someone_else"]) if "someone_else" in data else None,
                   {str(k): float(v) for k, v in data["someone_else_by_language"].items()}
                   if data.get("someone_else_by_language") else None,
                   float(data["asked"]) if data.get("asked") is not None else None,
                   float(data["confidence"]) if data.get("confidence") is not None else None,
                   float(data["stated"]) if data.get("stated") is not None else None)

    def weight_for(self, language: str) -> float | None:
        """The someone-else weight for a question in ``language`` (``graph.stemming``)."""
        by_language = self.someone_else_by_language or {}
        return by_language.get(language, self.someone_else)

    @property
    def weighs_asked(self) -> bool:
        """Whether the model orders the attribute step's records itself (its trees read
        ``rr_asked``, or a weight for it was fitted): then the step does not override it."""
        return self.asked is not None or "rr_asked" in self.names

    def columns(self) -> list[int]:
        return [ALL.index(n) for n in self.names]

    def score(self, x: np.ndarray, others_factor: float = OTHERS_FACTOR) -> np.ndarray:
        """The probability that each row's record answers the question (``x``: one search's
        rows, FEATURES; the DERIVED columns are computed here when the model uses them,
        ``others_factor`` the one ``hand_final`` was computed with)."""
        if not len(x):
            return np.zeros(0, dtype=np.float32)
        if x.shape[1] == len(FEATURES) and any(n in DERIVED for n in self.names):
            x = derive(x, others_factor)
        raw = x[:, self.columns()]
        logit = ((raw - self.mean) / self.scale) @ self.coef + self.intercept
        if self.forest is not None:
            logit = logit + self.forest.predict(raw)
        return np.asarray(1.0 / (1.0 + np.exp(-logit)), dtype=np.float32)


@dataclass(frozen=True, slots=True)
class Forest:
    """Every tree's nodes side by side (padded with leaves of value 0), so all the trees
    descend together: a few array steps per level instead of a Python loop per tree (100
    trees one by one cost 20-70 ms a search on a busy machine)."""

    feature: np.ndarray    # (trees, nodes)
    threshold: np.ndarray
    left: np.ndarray
    right: np.ndarray
    value: np.ndarray

    @classmethod
    def of(cls, trees: tuple[Tree, ...]) -> Forest:
        width = max(len(t.feature) for t in trees)

        def stack(name: str, fill: float, dtype: type) -> np.ndarray:
            out: np.ndarray = np.full((len(trees), width), fill, dtype=dtype)
            for n, tree in enumerate(trees):
                values = getattr(tree, name)
                out[n, :len(values)] = values
            return out

        return cls(stack("feature", -1, np.int64), stack("threshold", 0.0, np.float64),
                   stack("left", 0, np.int64), stack("right", 0, np.int64),
                   stack("value", 0.0, np.float64))

    def predict(self, z: np.ndarray) -> np.ndarray:
        """The sum of every tree's leaf value, per row of ``z``."""
        trees = np.arange(self.feature.shape[0])[None, :]
        rows = np.arange(len(z))[:, None]
        node = np.zeros((len(z), self.feature.shape[0]), dtype=np.int64)
        while True:
            feature = self.feature[trees, node]
            inner = feature >= 0
            if not inner.any():
                return self.value[trees, node].sum(axis=1)  # type: ignore[no-any-return]
            go_left = z[rows, np.where(inner, feature, 0)] <= self.threshold[trees, node]
            node = np.where(inner, np.where(go_left, self.left[trees, node],
                                            self.right[trees, node]), node)


@functools.lru_cache(maxsize=4)
def load(path: Path = MODEL_PATH) -> LearnedRanker:
    """The shipped model (read once per process)."""
    return LearnedRanker.from_json(json.loads(path.read_text(encoding="utf-8")))


def after_model(p: np.ndarray, fused: np.ndarray, decay_: np.ndarray, someone_else: np.ndarray,
                weight: float | None, others_factor: float,
                asked: np.ndarray | None = None, asked_weight: float | None = None,
                confidence: float | None = None, stated: np.ndarray | None = None,
                stated_weight: float | None = None) -> np.ndarray:
    """The final scores. The model decides the order: its log-odds plus ``weight`` for a
    record about someone else when the question is about the person ("на что у меня
    аллергия?" put a relative's allergy first; the trees never split on the check, which
    few dev questions exercise, so the weight is fitted apart with the memory sets weighing
    as much as LoCoMo). The hand-set fusion's own scores space that order (the candidate
    the model puts n-th gets the n-th best fused score, ``fused`` being their logs), and the
    record's decay multiplies that, the scale it was set on (a state said two months ago is
    no longer how the person is): the dev sets hold no state record, so decay cannot be
    learned from them, and on the model's own scale, two to five times as spread, a current
    state the model found 27 times less likely than a two-month-old one stayed below it
    at x 0.25. ``weight`` None: ``others_factor`` multiplies with decay instead.
    ``asked_weight`` times ``asked`` (``rr_asked``) is added to the log-odds: the attribute
    step's records weighed, not put first. ``confidence`` times the log-odds (relative to
    the best's) is added to the log of that to order the records once more, and the same
    values are handed out in that order (MMR's relevance scale unchanged): the model's
    certainty keeps a say where the fused scores of its first few nearly tie, so decay's
    noise (0.97 against 0.98 on the dev sets) no longer reorders what the model is sure of,
    while a stale state's 0.25 still counts (docs/benchmarks.md, "Round eleven").
    ``stated_weight`` times ``stated`` (``recall.stated``) is added to the log-odds too: the
    record that sets the asked attribute of the person above another slot's or another
    person's (docs/benchmarks.md, "Round thirty-six (2026-12-07, h/rank36)")."""
    q = np.clip(np.asarray(p, dtype=np.float64), 1e-9, 1 - 1e-9)
    logit = np.log(q / (1 - q))
    if asked is not None and asked_weight:
        logit = logit + asked_weight * np.asarray(asked, dtype=np.float64)
    if stated is not None and stated_weight:
        logit = logit + stated_weight * np.asarray(stated, dtype=np.float64)
    factor = np.asarray(decay_, dtype=np.float64)
    if weight is None:
        factor = factor * np.where(someone_else > 0, others_factor, 1.0)
    else:
        logit = logit + weight * (someone_else > 0)
    order = np.argsort(-logit, kind="stable")
    ladder = np.sort(np.exp(np.asarray(fused, dtype=np.float64)))[::-1]
    # equal fused scores must not undo the model's order: each step at least a hair lower
    ladder = np.minimum.accumulate(ladder * (1.0 - 1e-6) ** np.arange(len(ladder)))
    spaced = np.empty(len(order), dtype=np.float64)
    spaced[order] = ladder
    final = spaced * factor
    if confidence and len(logit):
        # the order with the model's certainty weighed in; the values MMR reads stay the
        # spaced, decayed ones (its relevance scale), handed out in that order
        weighed = final * np.exp(confidence * (logit - logit.max()))
        final[np.argsort(-weighed, kind="stable")] = np.sort(final)[::-1]
    return final


def with_cosine(p: np.ndarray, cosine: np.ndarray, assistant: np.ndarray,
                weight: float) -> np.ndarray:
    """The model's probabilities with the records' e5 cosine weighed in over an assistant's
    chat history: ``weight`` times the share of the candidates said by an assistant times
    each record's cosine z-score within the search, added to the log-odds.

    The trees learned from short notes and from LoCoMo's short turns between two people;
    over a person's history with an AI assistant (long self-contained turns, the replies
    stored in pieces) they move the evidence below e5's own order, while over LoCoMo e5's
    order costs rank 1 and ten (docs/benchmarks.md, "Round thirty (2026-12-06,
    h/recall26)"). Notes and a chat between people hold no assistant's record: a share of
    0 leaves the model's order as it is, by construction."""
    share = float(np.mean(assistant)) if len(assistant) else 0.0
    if weight <= 0.0 or share <= 0.0:
        return p
    cos = np.asarray(cosine, dtype=np.float64)
    spread = cos.std()
    z = (cos - cos.mean()) / (spread if spread > 1e-6 else 1.0)
    q = np.clip(np.asarray(p, dtype=np.float64), 1e-9, 1 - 1e-9)
    return np.asarray(1.0 / (1.0 + np.exp(-(np.log(q / (1 - q)) + weight * share * z))),
                      dtype=np.float32)


def _stated(c: Candidates, ids: list[str], weight: float | None
            ) -> tuple[np.ndarray | None, float | None]:
    if not weight or c.asked_share is None:
        return None, None
    return stated_of(c, ids), weight


def stated_of(c: Candidates, ids: list[str]) -> np.ndarray:
    """Each candidate's ``recall.stated`` (0 for every row of a question not about the
    person, or a record whose stored vector was not read)."""
    from wave_agent.recall import stated

    if c.asked_share is None or not ids:
        return np.zeros(len(ids), dtype=np.float64)
    vectors = np.full((len(ids), stated.DIM), np.nan, dtype=np.float32)
    for row, fid in enumerate(ids):
        v = c.vectors.get(fid)
        if v is not None and np.shape(v) == (stated.DIM,):
            vectors[row] = v
    return stated.stated(c.asked_share, vectors)


def rerank(c: Candidates, ranker: LearnedRanker, x: np.ndarray, ids: list[str],
           others_factor: float = 1.0, assistant_cosine: float = 0.0,
           stated_weight: float | None = None) -> np.ndarray:
    """Each candidate's score in ``c.final`` becomes the model's (``after_model``), the
    someone-else weight the question's language's; over an assistant's chat history the
    records' e5 cosine weighed in by ``assistant_cosine`` (``with_cosine``); the record that
    states the asked attribute of the person weighed by ``stated_weight`` (None: the
    model's ``stated``). Returns the model's probabilities (``ids``' order)."""
    p = with_cosine(ranker.score(x, others_factor), x[:, FEATURES.index("cosine")],
                    x[:, FEATURES.index("assistant")], assistant_cosine)
    scores = after_model(p, x[:, FEATURES.index("fused")],
                         x[:, FEATURES.index("decay")], x[:, FEATURES.index("someone_else")],
                         ranker.weight_for(language_of(c.question.text)), others_factor,
                         x[:, FEATURES.index("rr_asked")], ranker.asked, ranker.confidence,
                         *_stated(c, ids, ranker.stated if stated_weight is None
                                  else stated_weight))
    for fid, s in zip(ids, scores, strict=True):
        c.final[fid] = float(s)
    return p

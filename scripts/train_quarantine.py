"""Train the quarantine's meaning layer (wave_agent/policy/quarantine/meaning*.npz).

    PYTHONPATH=. .venv/bin/python scripts/train_quarantine.py [--kind mlp|auto|lr|...] [--cv-only]
        [--a-policy keep|drop-wishes|drop-unclear] [--only both|a|b] [--windows|--no-windows]

Features: the e5 passage embedding of each text (as the writer computes it) and the structural
cues of layers 1-3 (``meaning.features``). Three models, the same recipe each:

- ``meaning_a.npz``: the first set's tuning part (bench/data/quarantine/tuning.json);
- ``meaning_b.npz``: the second set's tuning part (bench/data/quarantine/second, split by id hash);
- ``meaning.npz``: both tuning parts and all of sets C-L (bench/data/quarantine/third ...
  fifty-sixth, one author each; what the writer uses), with the window model (``windows``) unless
  ``--no-windows``, and who is addressed (``windows.context``: where the best window sits, its
  share of the text, the frame's scores, the best window's cues, person and mood in it and in
  the frame); ``--variants`` compares the window block with and without each group of those
  (``columns``) on the held-out-author CV and ships the best.

Each also gets ordinary text of the writer's own kinds (``bench.quarantine_extracted``): the
turns of the first two LoCoMo conversations, the offline extractor's facts of those turns and
of the tuning part's notes, each as said and moved to the third person as the extraction
writes them ("The user feels exhausted"), and the turns joined into long forwarded texts (the
other five conversations are left for ``wave bench quarantine`` to measure), and pieces of
LongMemEval's everyday chat turns from the tune questions' histories only
(``bench.quarantine_chat``; ``--chat-turns``, ``--chat-weight``; the kept-aside questions'
histories are the bench's check).

``meaning.npz`` is chosen on text its authors never saw: the folds are the authors (set A,
set B's Russian writer, set B's English and Polish writer, the writers of C-I), each
scored by a model fitted on the others; the script prints, per held-out author, the catch at
that author's own 3% false-positive quantile and, per language, caught / flagged at the
shipped thresholds (the honest predictor for a blind set). The window model is fitted inside
each fold too, and the network's window inputs for the fitted rows come from window models
that never saw those rows' author (stacking), so it learns how far a window score holds on a
new hand. The writer's ordinary text goes into the same folds (the extracted
statements of an author's notes with that author, the LoCoMo-made texts split by a hash of the
text), so every text gets a score from a model that never saw its author. ``--kind auto``
picks the learner with the best mean held-out catch at 3% false positives; the threshold is
the lowest at which those held-out scores flag at most FP_NOTES of the notes of the blind
brief's authors (C on; A and B wrote to other briefs), FP_NOTES of the statements extracted
from notes, FP_CHAT of the LoCoMo-made ordinary texts and FP_LME of the LongMemEval pieces,
each language alone (``--per-language``: one threshold for each of ru, pl, en as
``date_clauses.language`` reads the text, which the writer does too), and a second, lower threshold for texts the phrase list or the rules
already flag is the lowest that keeps both limits. ``meaning_a`` and ``meaning_b`` (one set
each, too few authors to hold one out) keep the 5-fold out-of-fold threshold and no windows.

The script also prints the thresholds as a new author meets them: for each author of the
blind brief, chosen on the other authors' held-out scores only (``without_each_author``);
``--fp-notes`` lowers the notes' limit for a margin, ``--thresholds-only`` re-picks the
thresholds on a run's saved scores. ``--cleaned`` adds the authors' pastes with their one order
cut out as notes (``bench.quarantine_cleaned``). ``--months`` (not yet the default: its run held out English at 89.9% caught; docs/benchmarks.md,
"Round fifteen (2026-12-05, h/quar15): the quarantine holding a person's own words in the months") adds a person's own chat lines from issue 30's tuning
months (``bench.quarantine_chat.month_lines``: statements, small talk and questions, whole and as
the offline extractor keeps them; never the months' pasted instructions) as ordinary text, each
month in one author's fold, so no month's lines are in the model that scores them; they have a
limit of their own (FP_MONTH), and the figures print how many of them the held-out scores hold.

``--months-bank wrong`` (the default; ``all``, ``none``) adds the tuning months' own lines to the shipped bank as notes
(only those the authored bank votes an order, with ``wrong``)
(``quarantine_chat.month_exemplars``), after the network is fitted, as round twenty-eight shipped
it: held out by month and on the authors the network never saw, it keeps a person's dictated new
number (docs/benchmarks.md, "Round twenty-eight"); the months' lines are not in the training votes.

``--exemplars`` (the default) gives the network two more inputs, the vote of a text's nearest
authored texts and the margin between the closest order and the closest note (``meaning.near``),
and ships the authored texts' vectors as the bank. Every text's vote in training reads only other
authors' exemplars (``left_out_votes``), so the network learns how far a vote holds on a new hand,
as it does for the window scores.

``--bank-only AUTHORS`` grows the shipped bank without refitting anything: the authored texts of
``AUTHORS`` (``AUTHORED``'s keys, ``x..aw`` a range of them, commas between) are added to
``meaning.npz``'s bank as the recipe adds authored texts (each text's e5 unit vector, label 1 for
an instruction), after the rows already there (the authored sets the network was fitted on and the
months' lines, kept as shipped); a text whose vector the bank already holds is not added twice.
The network, the window model and the thresholds stay byte for byte. Round thirty-eight measured
``x..aw`` this way (``scripts/quarantine_bank_grow.py``, AX-BB kept out): all languages 96.7 -> 97.2%
caught at the same notes flagged, but English 175 -> 174 of 183 and 2 -> 3 of 181 notes, so the
shipped bank was left as it was (docs/benchmarks.md, "Round thirty-eight (2026-12-07, h/quar38)").

``--a-policy``: set A calls some of a person's own style wishes instructions, where sets B-D
call them notes (bench/data/quarantine/a_policy_disagree.json lists them; A is not
relabelled): ``drop-wishes`` trains without the clear ones, ``drop-unclear`` without those
and the unclear ones too. Kept-aside parts (set A's, set B's, bench/data/quarantine/blind)
are never read here.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from scipy import sparse
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import StratifiedKFold
from sklearn.neural_network import MLPClassifier

from wave_agent.bench.locomo_data import load_conversations
from wave_agent.bench.quarantine import AUTHORED, DEV_SET, authored_parts, first_parts, second_parts
from wave_agent.bench.quarantine_chat import LONGMEMEVAL, chat_turns, month_exemplars, month_lines
from wave_agent.bench.quarantine_cleaned import cleaned
from wave_agent.bench.quarantine_extracted import extracted, forwarded
from wave_agent.bench.quarantine_vectors import VectorCache
from wave_agent.policy.date_clauses import language
from wave_agent.policy.quarantine import classifier, floor, meaning, phrases, rules, windows
from wave_agent.policy.quarantine.normalise import normalise

FP_NOTES = 0.03
FP_CHAT = 0.002
FP_LME = 0.005  # LongMemEval's everyday chat turns (the tune questions' histories)
FP_MONTH = 0.005  # the tuning months' own lines (``month_lines``): a person's words to their own agent
# the shared data folder beside the project (../shared/data/locomo from the repo root)
LOCOMO = Path(__file__).resolve().parents[2] / "shared" / "data" / "locomo"
TRAIN_CONVERSATIONS = 2


def featurise(texts: list[str], cache: VectorCache) -> np.ndarray:
    vectors = cache.vectors(texts)
    rows = []
    for text, vector in zip(texts, vectors, strict=True):
        seen = normalise(text)
        hit, _ = rules.analyse(seen.text)
        rows.append(meaning.features(vector, seen, phrases.detect(seen.text) is not None, hit is not None))
    return np.stack(rows)


WIDTH = windows.COUNT + windows.CONTEXT  # the window block: scores, then who is addressed
BASE = meaning.DIM + 3 + len(meaning.CUES)  # the vector and the structural cues
# column groups of the window block (offsets in it), for --variants: the scores, the frame
# (position, share, the frame's scores, the gap), the best window's cues, person and mood
GROUPS = {"windows": range(0, windows.COUNT), "frame": range(windows.COUNT, windows.COUNT + 5),
          "cues": range(windows.COUNT + 5, windows.COUNT + 5 + len(windows.CUE_NAMES)),
          "person": range(windows.COUNT + 5 + len(windows.CUE_NAMES), WIDTH)}


def columns(variant: str) -> np.ndarray:
    """The input columns of a variant: ``base`` (vector, cues, window scores), ``all`` (and the
    whole context), ``-name`` (all but one group), ``+name`` (base and one group)."""
    keep = {"base": {"windows"}, "all": set(GROUPS)}.get(variant)
    if keep is None:
        keep = set(GROUPS) - {variant[1:]} if variant.startswith("-") else {"windows", variant[1:]}
    picked = [c for g in GROUPS if g in keep for c in GROUPS[g]]
    return np.concatenate([np.arange(BASE), BASE + np.asarray(picked, dtype=int)])


class Windows:
    """Every text's windows (``windows.windows`` of its normalised form) as hashed n-grams,
    and the window model fitted multiple-instance style on some of the texts."""

    def __init__(self, texts: list[str]) -> None:
        rows, cols, vals, owner = [], [], [], []
        self.parts: list[list[str]] = []
        self.lengths: list[int] = []
        marked = []
        n = 0
        for i, text in enumerate(texts):
            seen = normalise(text).text
            parts = windows.windows(seen)
            self.parts.append(parts)
            self.lengths.append(len(seen))
            for part in parts:
                index, values = classifier._buckets(part)
                rows += [n] * len(index)
                cols += index.tolist()
                vals += values.tolist()
                owner.append(i)
                marked.append(windows.marks(part))
                n += 1
        self.x = sparse.csr_matrix((vals, (rows, cols)), shape=(n, classifier.BUCKETS), dtype=np.float32)
        self.owner = np.asarray(owner)
        self.marked = np.stack(marked)
        self.start = np.concatenate([[0], np.cumsum([len(p) for p in self.parts])])
        self.texts = len(texts)
        self._left_out: np.ndarray | None = None

    def fit(self, rows: np.ndarray, labels: np.ndarray, rounds: int = 2) -> tuple[np.ndarray, float]:
        """The window model on the texts ``rows`` (a mask over all texts; ``labels`` 1 for an
        instruction): a note's windows are ordinary; an instruction's windows all count at
        first (weighted by 1 / their number), then only its best window, re-chosen each round."""
        picked = rows[self.owner]
        x, owner = self.x[picked], self.owner[picked]
        y = labels[owner]
        sizes = np.bincount(owner, minlength=self.texts)
        weight = np.where(y == 1, 1.0 / sizes[owner], 1.0)
        model = None
        for _ in range(rounds + 1):
            positives, negatives = weight[y == 1].sum(), weight[y == 0].sum()
            balanced = np.where(y == 1, weight * negatives / max(positives, 1e-9), weight)
            model = LogisticRegression(C=4, solver="liblinear", max_iter=2000)
            model.fit(x[balanced > 0], y[balanced > 0], sample_weight=balanced[balanced > 0])
            p = model.decision_function(x)
            best = np.full(self.texts, -np.inf)
            np.maximum.at(best, owner, p)
            weight = np.where(y == 1, (p >= best[owner]).astype(float), 1.0)
        assert model is not None
        return model.coef_.ravel().astype(np.float32), float(model.intercept_[0])

    def features(self, model: tuple[np.ndarray, float], rows: np.ndarray) -> np.ndarray:
        """``windows.summary`` of each text in ``rows`` (a mask) under ``model``."""
        w, b = model
        picked = rows[self.owner]
        p = 1.0 / (1.0 + np.exp(-(self.x[picked] @ w + b)))
        owner = self.owner[picked]
        out = np.zeros((self.texts, WIDTH), dtype=np.float32)
        starts = np.searchsorted(owner, np.flatnonzero(rows))
        for i, at in zip(np.flatnonzero(rows), starts, strict=True):
            mine = p[at:at + len(self.parts[i])]
            marked = self.marked[self.start[i]:self.start[i + 1]]
            out[i, :windows.COUNT] = windows.summary(mine)
            out[i, windows.COUNT:] = windows.context(self.parts[i], mine, self.lengths[i], marked)
        return out[rows]

    def left_out(self, labels: np.ndarray, groups: np.ndarray) -> np.ndarray:
        """Every text's window features from the window model fitted on all authors but its own
        (one fit an author, cached): ``--quick-stack`` uses these for a fold's fitted rows too,
        whose window model then saw the held-out author's texts (never its labels' rows as
        held-out inputs: those come from the model fitted without it)."""
        if self._left_out is None:
            out = np.zeros((self.texts, WIDTH), dtype=np.float32)
            for g in sorted(set(groups)):
                mine = groups == g
                out[mine] = self.features(self.fit(~mine, labels), mine)
            self._left_out = out
        return self._left_out

    def stacked(self, rows: np.ndarray, labels: np.ndarray, groups: np.ndarray) -> np.ndarray:
        """Window features of ``rows`` each from a window model that never saw that text's
        author (fitted on the other authors among ``rows``), so the network learns how far
        to trust a window score on text its authors never saw."""
        out = np.zeros((self.texts, WIDTH), dtype=np.float32)
        for g in sorted(set(groups[rows])):
            held = rows & (groups == g)
            out[held] = self.features(self.fit(rows & (groups != g), labels), held)
        return out[rows]


def left_out_votes(vectors: np.ndarray, labels: np.ndarray, groups: np.ndarray, bank: np.ndarray) -> np.ndarray:
    """Every text's ``meaning.near`` among the exemplars ``bank`` (a mask over the texts) of the
    other authors: a held-out author's vote reads no text of its own author, as a new one's would."""
    unit = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-9)
    out = np.zeros((len(labels), 2), dtype=np.float32)
    for g in sorted(set(groups)):
        mine, theirs = groups == g, bank & (groups != g)
        for start in range(0, int(mine.sum()), 2048):
            rows = np.flatnonzero(mine)[start:start + 2048]
            out[rows] = meaning.near(unit[rows] @ unit[theirs].T, labels[theirs].astype(np.float32))
    return out


SAME = 0.9999  # a bank row this close to a text's unit vector is that text (the bank is int8)


def named_authors(spec: str) -> list[str]:
    """``AUTHORED``'s keys named by ``spec``: commas between, ``x..aw`` every key from x to aw in
    ``AUTHORED``'s order (the order the sets were written)."""
    keys = list(AUTHORED)
    out: list[str] = []
    for part in filter(None, (p.strip() for p in spec.split(","))):
        first, _, last = part.partition("..")
        for key in (first, last or first):
            if key not in AUTHORED:
                raise SystemExit(f"no authored set {key!r} (AUTHORED: {', '.join(keys)})")
        out += [k for k in keys[keys.index(first):keys.index(last or first) + 1] if k not in out]
    return out


def grown(bank: tuple[np.ndarray, np.ndarray], vectors: np.ndarray,
          labels: np.ndarray) -> tuple[tuple[np.ndarray, np.ndarray], int]:
    """``bank`` (unit vectors, labels) with the exemplars ``vectors`` (any length; made unit) and
    ``labels`` (1: an instruction) after its rows, each text once: a vector the bank (or an earlier
    one of ``vectors``) already holds is skipped. Returns the bank and how many rows were added."""
    unit = (vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-9)).astype(np.float32)
    held = bank[0] / np.maximum(np.linalg.norm(bank[0], axis=1, keepdims=True), 1e-9)  # read back from int8
    keep = np.ones(len(unit), dtype=bool)
    for start in range(0, len(unit), 1024):
        chunk = unit[start:start + 1024]
        if len(bank[0]):
            keep[start:start + len(chunk)] &= (chunk @ held.T).max(axis=1) < SAME
        earlier = np.tril(chunk @ unit[:start + len(chunk)].T >= SAME, k=start - 1)  # an earlier text's twin
        keep[start:start + len(chunk)] &= ~earlier.any(axis=1)
    return (np.vstack([bank[0], unit[keep]]).astype(np.float32),
            np.concatenate([bank[1], np.asarray(labels, dtype=np.float32)[keep]])), int(keep.sum())


def grow_bank(authors: list[str], cache: VectorCache, path: Path = meaning.MODELS["both"]) -> None:
    """The model at ``path`` saved again with the authored texts of ``authors`` in its bank
    (``grown``); every other array as it was (``--bank-only``)."""
    parts = authored_parts(DEV_SET)
    items = [i for a in authors for i in parts.get(a, [])]
    if not items:
        raise SystemExit(f"no authored texts for {', '.join(authors)}")
    labels = np.asarray([i["label"] == "instruction" for i in items], dtype=np.float32)
    before, after = grow_file(path, cache.vectors([i["text"] for i in items]), labels)
    sys.stdout.write(f"{path.name}: {len(items)} texts of {', '.join(authors)} ({int(labels.sum())} instructions), "
                     f"{after - before} added; bank {before} -> {after}\n")


def grow_file(path: Path, vectors: np.ndarray, labels: np.ndarray) -> tuple[int, int]:
    """The model file at ``path`` saved again with ``vectors`` (labels 1: an instruction) added to
    its bank (``grown``), every other array byte for byte; the bank's size before and after."""
    with np.load(path, allow_pickle=False) as data:
        arrays = {k: data[k] for k in data.files}
    if "bank" not in arrays:
        raise SystemExit(f"{path.name} has no bank: train with --exemplars first")
    before = (arrays["bank"].astype(np.float32) * arrays["bank_scale"].astype(np.float32)[:, None],
              arrays["bank_labels"].astype(np.float32))
    bank, _ = grown(before, vectors, labels)
    scale = np.maximum(np.abs(bank[0]).max(axis=1), 1e-9) / 127.0  # as ``meaning.save`` keeps a bank
    arrays["bank"] = np.round(bank[0] / scale[:, None]).astype(np.int8)
    arrays["bank_scale"], arrays["bank_labels"] = scale.astype(np.float32), bank[1].astype(np.int8)
    np.savez_compressed(path, **arrays)  # type: ignore[arg-type]
    meaning.model.cache_clear()
    return len(before[1]), len(bank[1])


KINDS = {
    "lr": lambda: LogisticRegression(C=64, max_iter=4000, class_weight="balanced"),
    "lr-c4": lambda: LogisticRegression(C=4, max_iter=4000, class_weight="balanced"),
    "mlp": lambda: MLPClassifier((64,), alpha=1e-3, max_iter=600, random_state=0),
    "mlp-wide": lambda: MLPClassifier((128,), alpha=1e-2, max_iter=600, random_state=0),
    "mlp-small": lambda: MLPClassifier((32,), alpha=1e-1, max_iter=800, random_state=0),
}


def make(kind: str) -> MLPClassifier | LogisticRegression:
    return KINDS[kind]()  # type: ignore[no-untyped-call]


def fit_weighted(kind: str, x: np.ndarray, y: np.ndarray,
                 weight: np.ndarray | None) -> MLPClassifier | LogisticRegression:
    """The learner fitted with each row's weight (None: all 1), scaled to a mean of 1."""
    if weight is None:
        return make(kind).fit(x, y)
    return make(kind).fit(x, y, sample_weight=weight / weight.mean())


def author(item: dict[str, str]) -> str:
    """Who wrote an item: set A's one hand, set B's Russian writer or its English and Polish one,
    or the writer of one of the whole sets C-I (``tagged`` by ``authored_parts``)."""
    if "author" in item:
        return item["author"]
    if item["id"].startswith(("i-", "n-")):
        return "a"
    return "b-ru" if item["lang"] in ("ru", "mixed") else "b-enpl"


def a_policy(items: list[dict[str, str]], policy: str) -> list[dict[str, str]]:
    """``items`` without set A's items the label policy disagrees with (``policy`` says which)."""
    if policy == "keep":
        return items
    listed = json.loads((DEV_SET / "a_policy_disagree.json").read_text(encoding="utf-8"))
    drop = set(listed["own_style_wish"]) | (set(listed["unclear"]) if policy == "drop-unclear" else set())
    return [i for i in items if i["id"] not in drop]


def catch_at(scores: np.ndarray, labels: np.ndarray, fp: float = FP_NOTES) -> float:
    """Share of instructions scored above the notes' (1 - fp) quantile."""
    notes, ins = scores[labels == 0], scores[labels == 1]
    cut = float(np.quantile(notes, 1 - fp)) if len(notes) else 0.5
    return float(np.mean(ins > cut)) if len(ins) else 0.0


def group_cv(x: np.ndarray, y: np.ndarray, groups: np.ndarray, items: np.ndarray, kinds: list[str],
             win: Windows | None, variant: str = "base",
             weight: np.ndarray | None = None, votes: np.ndarray | None = None) -> dict[str, tuple[float, float, np.ndarray]]:
    """Each candidate: (mean catch at 3% false positives, mean AUC, the held-out scores of every
    row) over the authors held out one at a time, each fitted on the other authors' rows
    (``items`` marks the sets' texts; the rest are the writer's ordinary texts, in the folds
    too). With ``win`` the window features join the input: for the fitted rows from window
    models that never saw their author, for the held-out rows from one fitted on all the others.
    ``votes`` (``left_out_votes``) join the input last."""
    out: dict[str, tuple[float, float, np.ndarray]] = {}
    names = sorted(set(groups[items]))
    extra = EXTRA
    for kind in kinds:
        catches, aucs = [], []
        scores = np.zeros(len(y))
        started = time.monotonic()
        for held in names:
            fit = groups != held
            xs, xh = x[fit], x[~fit]
            if win is not None:
                if held not in extra and QUICK:
                    loo = win.left_out(y, groups)
                    extra[held] = (loo[fit], loo[~fit])
                if held not in extra:
                    extra[held] = (win.stacked(fit, y, groups), win.features(win.fit(fit, y), ~fit))
                xs, xh = np.hstack([xs, extra[held][0]]), np.hstack([xh, extra[held][1]])
                cols = columns(variant)
                xs, xh = xs[:, cols], xh[:, cols]
            if votes is not None:
                xs, xh = np.hstack([xs, votes[fit]]), np.hstack([xh, votes[~fit]])
            fitted = fit_weighted(kind, xs, y[fit], None if weight is None else weight[fit])
            scores[~fit] = fitted.predict_proba(xh)[:, 1]
            mine = items & ~fit
            catches.append(catch_at(scores[mine], y[mine]))
            aucs.append(float(roc_auc_score(y[mine], scores[mine])))
        out[kind] = (float(np.mean(catches)), float(np.mean(aucs)), scores)
        sys.stdout.write(f"  {kind}{' + windows ' + variant if win else ''}: held-out author catch at 3% FP {out[kind][0]:.3f}, "
                         f"AUC {out[kind][1]:.3f} ({', '.join(f'{g} {c:.2f}' for g, c in zip(names, catches, strict=True))}; "
                         f"{time.monotonic() - started:.0f} s)\n")
        sys.stdout.flush()
    return out


EXTRA: dict[str, tuple[np.ndarray, np.ndarray]] = {}  # the window block of each fold, shared by variants
QUICK = False  # --quick-stack: one window model an author left out, shared by the folds (``left_out``)


def thresholds(oof: np.ndarray, cued: np.ndarray, limits: list[tuple[np.ndarray, float]]) -> tuple[float, float]:
    """The lowest threshold whose held-out scores flag at most the limit's share of each
    (rows, limit) of ``limits``, and the lowest (not above it) for cued texts that keeps all.

    When no threshold of the grid keeps every limit (English's, when LongMemEval's pooled budget
    is spent before its turn), the first is the grid's top, 0.99, and some corpus is over its
    limit there whatever the cued threshold is. The cued threshold is then chosen on the cued
    texts alone: it may add no flagged text to a corpus already over its limit at 0.99, and keeps
    the limits of the others. (It used to stay at 0.99 too, and a pasted English order the rules
    read as addressed to the agent, p 0.98, went through; the shipped one's was 0.49.)"""
    def held(t: float, t_cued: float) -> np.ndarray:
        return np.where(cued, oof >= t_cued, oof >= t)

    def within(t: float, t_cued: float, shares: list[float]) -> bool:
        flagged = held(t, t_cued)
        return all(np.mean(flagged[rows]) <= share for (rows, _), share in zip(limits, shares, strict=True))

    grid = [round(float(t), 2) for t in np.arange(0.2, 0.99, 0.01)]
    shares = [limit for _, limit in limits]
    threshold = next((t for t in grid if within(t, t, shares)), 0.99)
    at_top = held(threshold, threshold)
    # a corpus over its limit at the threshold keeps what it flags there and gains nothing
    shares = [max(limit, float(np.mean(at_top[rows]))) for rows, limit in limits]
    return threshold, next((t for t in grid if t <= threshold and within(threshold, t, shares)), threshold)


LANGUAGES = ("ru", "pl", "en")  # as ``date_clauses.language`` reads a text, which the writer uses too
BRIEF = ("a", "b-enpl", "b-ru")  # the authors who did not write to the blind sets' brief


def by_language(oof: np.ndarray, cued: np.ndarray, limits: list[tuple[np.ndarray, float]],
                tongue: np.ndarray, pooled: tuple[np.ndarray, float] | None = None) -> dict[str, tuple[float, float]]:
    """``thresholds`` for each language's texts alone (``tongue``: each row's language).

    ``pooled`` (rows, limit) is one corpus's limit over all its rows, whatever language each is
    read as (LongMemEval's pieces): the languages with fewest of its rows choose first, and each
    may flag what the ones before left of the corpus's budget. Held per language instead, its 969
    English pieces put a 0.5% limit at 4.8 texts, and one piece decided English's threshold."""
    chosen: dict[str, tuple[float, float]] = {}
    rows_p, limit_p = pooled if pooled is not None else (np.zeros(len(oof), dtype=bool), 0.0)
    budget = limit_p * int(rows_p.sum())
    for lang in sorted(LANGUAGES, key=lambda lang: int((rows_p & (tongue == lang)).sum())):
        mine = [(rows & (tongue == lang), limit) for rows, limit in limits if (rows & (tongue == lang)).any()]
        own = rows_p & (tongue == lang)
        if own.any():
            mine.append((own, max(budget, 0.0) / int(own.sum())))
        chosen[lang] = thresholds(oof, cued, mine)
        budget -= int(flagged_at(oof[own], cued[own], tongue[own], {lang: chosen[lang]}).sum())
    return chosen


def choose(oof: np.ndarray, cued: np.ndarray, tongue: np.ndarray, limits: list[tuple[np.ndarray, float]],
           lme: np.ndarray, per_language: bool) -> dict[str, tuple[float, float]]:
    """The thresholds the writer ships: ``by_language`` with LongMemEval's pieces as one pooled
    corpus, or (not ``per_language``) one pair for every language that keeps every limit in each."""
    if per_language:
        return by_language(oof, cued, limits, tongue, (lme, FP_LME))
    one = thresholds(oof, cued, [(rows & (tongue == lang), limit) for rows, limit in [*limits, (lme, FP_LME)]
                                 for lang in LANGUAGES if (rows & (tongue == lang)).any()])
    return dict.fromkeys(LANGUAGES, one)


def flagged_at(oof: np.ndarray, cued: np.ndarray, tongue: np.ndarray,
               limits: dict[str, tuple[float, float]]) -> np.ndarray:
    t = np.asarray([limits[lang][0] for lang in tongue])
    t_cued = np.asarray([limits[lang][1] for lang in tongue])
    return np.where(cued, oof >= t_cued, oof >= t)


def held_out_figures(oof: np.ndarray, flagged: np.ndarray, y: np.ndarray, groups: np.ndarray,
                     from_notes: np.ndarray, langs: np.ndarray, lme: np.ndarray, pasted: np.ndarray,
                     month_kind: np.ndarray | None = None) -> str:
    """Per held-out author: catch at its own notes' 3% quantile (overall and per language), and
    caught / notes flagged at the shipped thresholds (``flagged``) per language; then by language
    over the authors of the blind brief; then the ordinary texts."""
    items = langs != ""
    kind = month_kind if month_kind is not None else np.full(len(y), "")
    month = kind != ""
    pasted = pasted | month  # the months' lines are counted apart from the LoCoMo-made text
    lines = []
    for g in sorted(set(groups[items])):
        m = items & (groups == g)
        own = catch_at(oof[m], y[m])
        parts = [f"{g}: catch at its 3% FP {own:.1%}; at the threshold {np.mean(flagged[m & (y == 1)]):.1%} / "
                 f"{np.mean(flagged[m & (y == 0)]):.1%}"]
        for lang in sorted(set(langs[m])):
            k = m & (langs == lang)
            notes = oof[k & (y == 0)]
            cut = float(np.quantile(oof[m & (y == 0)], 1 - FP_NOTES))
            parts.append(f"{lang} {int(flagged[k & (y == 1)].sum())}/{int((k & (y == 1)).sum())} caught, "
                         f"{int(flagged[k & (y == 0)].sum())}/{len(notes)} flagged "
                         f"(at its 3% cut {np.mean(oof[k & (y == 1)] > cut):.0%})")
        lines.append("    " + "; ".join(parts))
    brief = items & ~np.isin(groups, BRIEF)
    lines.append("    the blind brief's authors pooled: " + "; ".join(
        f"{lang} {np.mean(flagged[brief & (langs == lang) & (y == 1)]):.1%} / "
        f"{np.mean(flagged[brief & (langs == lang) & (y == 0)]):.1%}" for lang in ("ru", "en", "pl", "mixed")))
    lines.append(f"    all: {np.mean(flagged[items & (y == 1)]):.1%} / {np.mean(flagged[items & (y == 0)]):.1%}; "
                 f"statements extracted from the notes {int(flagged[from_notes].sum())}/{int(from_notes.sum())}, "
                 f"LoCoMo-made ordinary text {int(flagged[~items & ~from_notes & ~lme & ~pasted].sum())}/"
                 f"{int((~items & ~from_notes & ~lme & ~pasted).sum())}, LongMemEval tune turns "
                 f"{int(flagged[lme].sum())}/{int(lme.sum())}, pastes without their order "
                 f"{int(flagged[pasted & ~month].sum())}/{int((pasted & ~month).sum())}")
    if month.any():
        lines.append("    the tuning months' own lines (messages and their extracted statements): " + ", ".join(
            f"{k} {int(flagged[kind == k].sum())}/{int((kind == k).sum())}" for k in sorted(set(kind[month]))))
    return "\n".join(lines)


def without_each_author(oof: np.ndarray, cued: np.ndarray, limits: list[tuple[np.ndarray, float]],
                        lme: np.ndarray, tongue: np.ndarray, groups: np.ndarray, y: np.ndarray, langs: np.ndarray) -> str:
    """The thresholds judged as a new author meets them: for each author of the blind brief,
    ``by_language`` chosen on the other authors' held-out scores only, applied to that author;
    per language the pooled caught / notes flagged, the worst author's notes flagged and how
    many authors go over FP_NOTES (the in-sample figures above choose and judge on the same
    scores)."""
    items = langs != ""
    blind = [g for g in sorted(set(groups[items])) if g not in BRIEF]
    flagged = np.zeros(len(y), dtype=bool)
    for g in blind:
        mine = groups == g
        chosen = by_language(oof, cued, [(rows & ~mine, limit) for rows, limit in limits], tongue, (lme, FP_LME))
        flagged[mine] = flagged_at(oof[mine], cued[mine], tongue[mine], chosen)
    lines = []
    for lang in ("ru", "en", "pl"):
        rows = items & np.isin(groups, blind) & (langs == lang)
        each = [float(np.mean(flagged[rows & (groups == g) & (y == 0)])) for g in blind
                if (rows & (groups == g) & (y == 0)).any()]
        lines.append(f"    {lang}: caught {np.mean(flagged[rows & (y == 1)]):.1%}, notes flagged "
                     f"{np.mean(flagged[rows & (y == 0)]):.1%}; worst author {max(each):.1%}, "
                     f"{sum(e > FP_NOTES for e in each)} of {len(each)} authors over {FP_NOTES:.0%}")
    return "\n".join(lines)


def layers_of(fitted: MLPClassifier | LogisticRegression) -> list[tuple[np.ndarray, np.ndarray]]:
    if isinstance(fitted, MLPClassifier):
        return list(zip(fitted.coefs_, fitted.intercepts_, strict=True))
    return [(fitted.coef_.T, fitted.intercept_)]


def train(x: np.ndarray, y: np.ndarray, chat: np.ndarray,
          kind: str) -> tuple[list[tuple[np.ndarray, np.ndarray]], float, float]:
    """The fitted layers, the threshold, and the lower threshold for a text the phrase list or
    the rules already flag (both the lowest that keep out-of-fold false positives in bounds)."""
    xs = np.vstack([x, chat])
    ys = np.concatenate([y, np.zeros(len(chat), dtype=int)])
    oof = np.zeros(len(ys))
    for fit_rows, held_rows in StratifiedKFold(5, shuffle=True, random_state=0).split(xs, ys):
        oof[held_rows] = make(kind).fit(xs[fit_rows], ys[fit_rows]).predict_proba(xs[held_rows])[:, 1]
    cued = (xs[:, meaning.DIM] + xs[:, meaning.DIM + 1]) > 0  # a phrase from the list, the rules' verdict
    is_note = np.concatenate([y == 0, np.ones(len(chat), dtype=bool)])[: len(y)]

    def within(t: float, t_cued: float) -> bool:
        flagged = np.where(cued, oof >= t_cued, oof >= t)
        return bool(np.mean(flagged[: len(y)][is_note]) <= FP_NOTES and np.mean(flagged[len(y):]) <= FP_CHAT)

    grid = [round(float(t), 2) for t in np.arange(0.2, 0.99, 0.01)]
    threshold = next((t for t in grid if within(t, t)), 0.99)
    cued_threshold = next((t for t in grid if t <= threshold and within(threshold, t)), threshold)
    return layers_of(make(kind).fit(xs, ys)), threshold, cued_threshold


def ordinary(items: list[dict[str, str]], turns: list[str]) -> list[str]:
    """The writer's own kinds of ordinary text made from the notes of ``items`` and ``turns``."""
    notes = [i["text"] for i in items if i["label"] == "note"]
    return turns + extracted(notes + turns) + forwarded(turns)


def ordinary_by_author(items: list[dict[str, str]], turns: list[str],
                       authors: list[str]) -> tuple[list[str], list[str], list[bool]]:
    """The ordinary texts of ``ordinary``, the fold each belongs to, and whether it was made
    from an author's notes: the extracted statements of an author's notes go with that author
    (they are those notes said again, hard negatives among them, and count with the notes'
    limit), the LoCoMo-made ones (everyday talk: FP_CHAT) by a hash of the text."""
    common = turns + extracted(turns) + forwarded(turns)
    texts, groups = list(common), [authors[int(hashlib.sha1(t.encode()).hexdigest(), 16) % len(authors)]
                                   for t in common]
    from_notes = [False] * len(common)
    seen = set(common)
    for name in authors:
        notes = [i["text"] for i in items if i["label"] == "note" and author(i) == name]
        for text in extracted(notes):
            if text not in seen:
                seen.add(text)
                texts.append(text)
                groups.append(name)
                from_notes.append(True)
    return texts, groups, from_notes


def cued_of(x: np.ndarray) -> np.ndarray:
    # a phrase from the list, the rules' verdict
    return np.asarray((x[:, meaning.DIM] + x[:, meaning.DIM + 1]) > 0, dtype=bool)


def floored(texts: list[str]) -> np.ndarray:
    """The texts the phrase list holds whatever the meaning layer says (``quarantine.floor``): the
    writer holds them, so the held-out figures and the thresholds count them as flagged."""
    out = []
    for text in texts:
        seen = normalise(text)
        out.append(floor(phrases.detect(seen.text), seen.text))
    return np.asarray(out, dtype=bool)


def load_scores(scores: Path, fp_notes: float) -> tuple[Any, ...]:
    """A run's saved held-out scores (``--save-scores``): (oof, cued, tongue, limits, lme, groups,
    y, langs, from_notes, cut, month_kind), the floor counted as held, the limits as the run's."""
    d = np.load(scores)
    oof, y, groups, langs, cued, tongue = d["oof"], d["y"], d["groups"], d["langs"], d["cued"], d["tongue"]
    from_notes, lme = d["from_notes"], d["lme"]
    cut = d["cut"] if "cut" in d else np.zeros(len(y), dtype=bool)
    month_kind = d["month_kind"] if "month_kind" in d else np.full(len(y), "")
    month = month_kind != ""
    if "floor" in d:  # the phrase list's floor (``floored``); older runs' scores do not count it
        oof = np.where(d["floor"], 1.0, oof)
    is_item = langs != ""
    limits = [(is_item & (y == 0) & ~np.isin(groups, BRIEF), fp_notes), (from_notes, FP_NOTES),
              (~is_item & ~from_notes & ~lme & ~cut & ~month, FP_CHAT)]
    if month.any():
        limits.append((month, FP_MONTH))
    return oof, cued, tongue, limits, lme, groups, y, langs, from_notes, cut, month_kind


def thresholds_only(scores: Path, fp_notes: float, per_language: bool) -> None:
    """Choose the thresholds again on the held-out scores a run saved (``--save-scores``) and
    write only them into ``meaning.npz``: the network and the window model stay as fitted."""
    oof, cued, tongue, limits, lme, groups, y, langs, from_notes, cut, month_kind = load_scores(scores, fp_notes)
    chosen = choose(oof, cued, tongue, limits, lme, per_language)
    figures = held_out_figures(oof, flagged_at(oof, cued, tongue, chosen), y, groups, from_notes, langs, lme, cut,
                               month_kind)
    sys.stdout.write(f"thresholds (notes' limit {fp_notes:.1%}): {chosen}; held out, by author:\n{figures}\n"
                     f"thresholds chosen without the author they are applied to:\n"
                     f"{without_each_author(oof, cued, limits, lme, tongue, groups, y, langs)}\n")
    with np.load(meaning.MODELS["both"], allow_pickle=False) as data:
        arrays = {k: data[k] for k in data.files}
    arrays["threshold"], arrays["cued_threshold"] = np.asarray(chosen["en"][0]), np.asarray(chosen["en"][1])
    arrays["languages"] = np.asarray(sorted(chosen), dtype="<U8")
    arrays["language_thresholds"] = np.asarray([chosen[k] for k in sorted(chosen)], dtype=np.float64)
    np.savez_compressed(meaning.MODELS["both"], **arrays)  # type: ignore[arg-type]
    sys.stdout.write(f"both: thresholds written to {meaning.MODELS['both'].name}\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kind", choices=("auto", *KINDS), default="mlp")
    parser.add_argument("--kinds", default=",".join(KINDS), help="the learners --kind auto compares")
    parser.add_argument("--cv-only", action="store_true", help="print the held-out-author figures, save nothing")
    parser.add_argument("--a-policy", choices=("keep", "drop-wishes", "drop-unclear"), default="keep")
    parser.add_argument("--only", choices=("both", "a", "b"), help="save only this model")
    parser.add_argument("--windows", action=argparse.BooleanOptionalAction, default=True,
                        help="read the text window by window too (``windows``), trained multiple-instance style")
    parser.add_argument("--variants", default="all",
                        help="window-block variants to compare (base, all, -frame, +person, ...; ``columns``); "
                             "the best mean held-out catch ships")
    parser.add_argument("--quick-stack", action="store_true",
                        help="the folds share one window model an author left out (``Windows.left_out``): "
                             "10 window fits instead of 100; the fitted rows' window model saw the held-out author")
    parser.add_argument("--save-scores", type=Path, help="write the held-out scores, labels, authors, languages (.npz)")
    parser.add_argument("--locomo", type=Path, default=LOCOMO,
                        help="LoCoMo's conv-*.json (the first two conversations are ordinary text)")
    parser.add_argument("--longmemeval", type=Path, default=LONGMEMEVAL,
                        help="LongMemEval's file: pieces of turns of the tune questions' histories are ordinary text")
    parser.add_argument("--chat-turns", type=int, default=2400, help="how many LongMemEval pieces (0: none)")
    parser.add_argument("--chat-weight", type=float, default=1.0,
                        help="the weight of each LongMemEval piece beside an authored text's 1")
    parser.add_argument("--note-weight", type=float, default=1.0,
                        help="the weight of an authored note (the hard negatives) beside an instruction's 1")
    parser.add_argument("--fp-notes", type=float, default=FP_NOTES,
                        help="the share of the blind brief's authors' notes (each language) the thresholds may flag; "
                             "below 3%% leaves a margin for a new author")
    parser.add_argument("--months", action=argparse.BooleanOptionalAction, default=False,
                        help="the tuning months' own lines (``bench.quarantine_chat.month_lines``) as ordinary text, "
                             "each month held out with one author's fold")
    parser.add_argument("--month-weight", type=float, default=1.0,
                        help="the weight of each month line beside an authored text's 1")
    parser.add_argument("--cleaned", action=argparse.BooleanOptionalAction, default=False,
                        help="the instructions' pastes with their one order cut out as notes (``bench.quarantine_cleaned``)")
    parser.add_argument("--per-language", action=argparse.BooleanOptionalAction, default=True,
                        help="a threshold for each language (ru, pl, en as the writer reads it), else one for all")
    parser.add_argument("--exemplars", action=argparse.BooleanOptionalAction, default=True,
                        help="the nearest authored texts' vote as input (``meaning.near``), the bank shipped")
    parser.add_argument("--months-bank", choices=("none", "all", "wrong"), default="wrong",
                        help="the tuning months' own lines in the shipped bank as notes "
                             "(``quarantine_chat.month_exemplars``; ``wrong``: only those the authored bank "
                             "votes an order; measured by scripts/quarantine_months_bank.py)")
    parser.add_argument("--thresholds-only", type=Path, metavar="SCORES",
                        help="only choose the thresholds again on a run's saved held-out scores (--save-scores) "
                             "and write them into meaning.npz")
    parser.add_argument("--bank-only", metavar="AUTHORS",
                        help="only add these authored sets' texts to meaning.npz's bank (``named_authors``: "
                             "x..aw or x,y,z), the network, window model and thresholds as they are")
    args = parser.parse_args()
    if args.bank_only:
        grow_bank(named_authors(args.bank_only), VectorCache())
        return
    if args.thresholds_only:
        thresholds_only(args.thresholds_only, args.fp_notes, args.per_language)
        return
    global QUICK
    QUICK = args.quick_stack
    cache = VectorCache()
    first, _ = first_parts(DEV_SET)
    second, _ = second_parts(DEV_SET)
    first = a_policy(first, args.a_policy)
    tagged = [{**i, "author": name} for name, part in authored_parts(DEV_SET).items() for i in part]
    turns = [t.text for c in load_conversations(args.locomo)[:TRAIN_CONVERSATIONS] for t in c.turns]
    if args.only in (None, "both"):
        items = first + second + tagged
        y_items = np.asarray([i["label"] == "instruction" for i in items], dtype=int)
        item_groups = np.asarray([author(i) for i in items])
        names = sorted(set(item_groups))
        chat_texts, chat_groups, made = ordinary_by_author(items, turns, names)
        # the months' own lines: each month's lines in one fold (never in the model that scores
        # them), the months spread over the authors' folds
        lines = [m for m in month_lines() if m[0] not in set(chat_texts)] if args.months else []
        writers = sorted({w for _, w, _ in lines})
        fold = {w: names[k * len(names) // max(len(writers), 1)] for k, w in enumerate(writers)}
        month_kind = [""] * len(chat_texts) + [k for _, _, k in lines]
        chat_texts += [t for t, _, _ in lines]
        chat_groups += [fold[w] for _, w, _ in lines]
        made += [False] * len(lines)
        lme_texts = [t for t in chat_turns(args.longmemeval, "tune", args.chat_turns) if t not in set(chat_texts)] \
            if args.chat_turns else []
        chat_texts += lme_texts
        chat_groups += [names[int(hashlib.sha1(t.encode()).hexdigest(), 16) % len(names)] for t in lme_texts]
        made += [False] * len(lme_texts)
        cut: list[tuple[int, str]] = []
        if args.cleaned:  # the authors' pastes without their one order (``bench.quarantine_cleaned``)
            orders = [i["text"] for i in items]
            window = Windows(orders).fit(np.ones(len(items), dtype=bool), y_items)
            shown = set(chat_texts) | set(orders)
            cut = [(k, t) for k, t in cleaned(orders, window) if y_items[k] == 1 and t not in shown]
            chat_texts += [t for _, t in cut]
            chat_groups += [str(item_groups[k]) for k, _ in cut]
            made += [False] * len(cut)
        texts = [i["text"] for i in items] + chat_texts
        x = featurise(texts, cache)
        y = np.concatenate([y_items, np.zeros(len(chat_texts), dtype=int)])
        groups = np.concatenate([item_groups, np.asarray(chat_groups)])
        is_item = np.arange(len(y)) < len(items)
        from_notes = np.concatenate([np.zeros(len(items), dtype=bool), np.asarray(made, dtype=bool)])
        is_cut = np.arange(len(y)) >= len(y) - len(cut)
        kind_of = np.asarray([""] * len(items) + month_kind + [""] * (len(chat_texts) - len(month_kind)))
        month = kind_of != ""
        lme = (np.arange(len(y)) >= len(y) - len(cut) - len(lme_texts)) & ~is_cut
        weight = np.ones(len(y))
        weight[lme] = args.chat_weight
        weight[is_item & (y == 0)] = args.note_weight
        weight[month] = args.month_weight
        sys.stdout.write(f"{len(items)} texts ({', '.join(f'{g} {int((item_groups == g).sum())}' for g in names)}), "
                         f"{len(chat_texts)} ordinary texts ({len(lme_texts)} LongMemEval pieces, weight {args.chat_weight}; "
                         f"{len(cut)} pastes without their order; {int(month.sum())} month lines of {len(writers)} writers, "
                         f"weight {args.month_weight}; "
                         f"notes weight {args.note_weight}); a-policy {args.a_policy}; folds by author:\n")
        started = time.monotonic()
        win = Windows(texts) if args.windows else None
        sys.stdout.write(f"  windows read ({time.monotonic() - started:.0f} s)\n")
        vectors = cache.vectors(texts)
        votes = left_out_votes(vectors, y, groups, is_item) if args.exemplars else None
        kinds = args.kinds.split(",") if args.kind == "auto" else [args.kind]
        variants = args.variants.split(",") if win is not None else ["base"]
        runs = {(v, k): r for v in variants for k, r in group_cv(x, y, groups, is_item, kinds, win, v,
                                                                                     weight, votes).items()}
        variant, kind = max(runs, key=lambda vk: runs[vk][0])
        held = floored(texts)
        oof = np.where(held, 1.0, runs[(variant, kind)][2])  # as the writer judges: the floor holds
        if args.save_scores:
            saved: dict[str, np.ndarray] = {"y": y, "groups": groups, "is_item": is_item}
            saved.update({f"{v}|{k}": r[2] for (v, k), r in runs.items()})
            np.savez(args.save_scores.with_suffix(".all.npz"), **saved)  # type: ignore[arg-type]
        cued = cued_of(x)
        # the notes' limit over the blind brief's authors (a new author writes to it), each language alone
        limits = [(is_item & (y == 0) & ~np.isin(groups, BRIEF), args.fp_notes), (from_notes, FP_NOTES),
                  (~is_item & ~from_notes & ~lme & ~is_cut & ~month, FP_CHAT)]
        if month.any():
            limits.append((month, FP_MONTH))
        tongue = np.asarray([language(t) for t in texts])
        chosen = choose(oof, cued, tongue, limits, lme, args.per_language)
        langs = np.asarray([i["lang"] for i in items] + [""] * len(chat_texts))
        if args.save_scores:
            np.savez(args.save_scores, oof=oof, y=y, groups=groups, langs=langs, cued=cued, from_notes=from_notes,
                     lme=lme, tongue=tongue, cut=is_cut, floor=held, month_kind=kind_of)
        for name, limit in (("one threshold for every language", choose(oof, cued, tongue, limits, lme, False)),
                            ("a threshold for each language", choose(oof, cued, tongue, limits, lme, True))):
            figures = held_out_figures(oof, flagged_at(oof, cued, tongue, limit), y, groups, from_notes, langs, lme,
                                       is_cut, kind_of)
            sys.stdout.write(f"{name} ({kind}, {variant}): {limit}; held out, by author:\n{figures}\n")
        sys.stdout.write(f"thresholds chosen without the author they are applied to (notes' limit {args.fp_notes:.1%}):\n"
                         f"{without_each_author(oof, cued, limits, lme, tongue, groups, y, langs)}\n")
        sys.stdout.write(f"shipped: {chosen}\n")
        threshold, cued_threshold = chosen["en"]
        if not args.cv_only:
            everyone = np.ones(len(y), dtype=bool)
            window, picked = None, None
            if win is not None:
                window = win.fit(everyone, y)
                cols = columns(variant)
                stacked = win.left_out(y, groups) if QUICK else win.stacked(everyone, y, groups)
                x = np.hstack([x, stacked])[:, cols]
                picked = cols[cols >= BASE] - BASE if variant != "base" else None
            bank = None
            if votes is not None:
                x = np.hstack([x, votes])
                unit = vectors[is_item] / np.linalg.norm(vectors[is_item], axis=1, keepdims=True)
                bank = (unit, y[is_item])
                if args.months_bank != "none":  # the months' own lines as notes, after the network is fitted
                    extra = month_exemplars(cache, bank if args.months_bank == "wrong" else None)
                    bank = (np.vstack([bank[0], extra[0]]), np.concatenate([bank[1], extra[1]]))
            meaning.save(meaning.MODELS["both"], layers_of(fit_weighted(kind, x, y, weight)), threshold,
                         cued_threshold, window, picked, chosen, bank)
            sys.stdout.write(f"both: saved {meaning.MODELS['both'].name}\n")
    if args.cv_only:
        return
    kind = args.kind if args.kind != "auto" else "mlp"
    for name, part in (("a", first), ("b", second)):
        if args.only not in (None, name):
            continue
        x = featurise([i["text"] for i in part], cache)
        y = np.asarray([i["label"] == "instruction" for i in part], dtype=int)
        chat = featurise(ordinary(part, turns), cache)
        layers, threshold, lower = train(x, y, chat, kind)
        meaning.save(meaning.MODELS[name], layers, threshold, lower)
        sys.stdout.write(f"{name}: {len(part)} texts + {len(chat)} ordinary texts of the writer's kinds -> "
                         f"{meaning.MODELS[name].name}, threshold {threshold}, flagged by the rules {lower}\n")


if __name__ == "__main__":
    main()

"""Whether a record states the attribute the question asks for, of the person asking
(issues 30 / 31: the current value ranked below another person's or another slot's record).

On the blind month 38 nine of 23 misses of a question about now had the current record stored
and in force, with another record above it: a brother's flat for "где я сейчас живу?", a
child's first class for "как зовут моего кота?", another pastime's price for the lessons'. The
attribute step (``recall.asked``) only knows the records whose values the writer read; this
reads every candidate's stored e5 vector with the statement head the writer already ships
(``wave_agent/write/statement_attributes.npz``, ``scripts/train_statement_attributes.py``: one
logistic regression per attribute of the person's, fitted on the design months' labels of
*the person's own* values), and the question's vector with the attribute head
(``recall/asked.npz``). A record's ``stated`` is the probability mass they share,
``sum_a P(question asks a) * P(record sets the person's a)``: high when the record sets the
asked attribute of the person, low for another slot (another attribute) or another subject
(the head learned the person's values, not a brother's). Only a question about the person
themself is read (no relative, role or other name in it: ``asked.whose`` reads the person);
any other question's rows are 0.

Its weight is not set by hand: ``scripts/fit_stated.py`` fits it listwise on the tuning
months' questions (a softmax over each question's candidates, the shipped model's log-odds
an offset), and ``ranker.json`` carries it (``stated``); ``learned.after_model`` adds it to
the log-odds times ``stated``."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from graph.models import Entity
from wave_agent.recall import asked as asked_mod
from wave_agent.world.reading import USER

STATEMENTS = Path(__file__).resolve().parents[1] / "write" / "statement_attributes.npz"
DIM = 384


@functools.cache
def _statement_head() -> tuple[np.ndarray, np.ndarray, tuple[str, ...]] | None:
    if not STATEMENTS.exists():
        return None
    with np.load(STATEMENTS, allow_pickle=False) as d:
        return (np.asarray(d["weights"], dtype=np.float32),
                np.asarray(d["bias"], dtype=np.float32),
                tuple(str(a) for a in d["attributes"]))


def asked_share(vector: np.ndarray | None, model_name: str,
                path: Path | None = None) -> dict[str, float] | None:
    """The attribute head's probability of each attribute for the question's plain e5
    vector ("none" left out); None when the head cannot read it."""
    heads = asked_mod.model() if path is None else asked_mod.load(path)
    if heads is None or vector is None or model_name != asked_mod.READS \
            or np.shape(vector) != (DIM,):
        return None
    z = heads.weights @ np.asarray(vector, dtype=np.float32).ravel() + heads.bias
    z = np.exp(z - z.max())
    p = z / z.sum()
    return {c: float(v) for c, v in zip(heads.classes, p, strict=True) if c != asked_mod.NONE}


def about_person(query: str, share: dict[str, float],
                 relatives: Sequence[Entity] = ()) -> bool:
    """Whether the question asks about the person themself: no relative resolved, no role
    said, no other person named (``asked.whose`` over the attribute the head reads first)."""
    if not share or relatives:
        return False
    top = max(share, key=lambda a: share[a])
    return asked_mod.whose(query, top, relatives, []) == {USER}


def stated(share: dict[str, float] | None, vectors: np.ndarray) -> np.ndarray:
    """Each record's ``sum_a P(asked a) * P(it sets the person's a)`` (``vectors``: its stored
    e5 passage vectors, a row of NaN for a record without one, which gets 0)."""
    out = np.zeros(len(vectors), dtype=np.float64)
    head = _statement_head()
    if share is None or head is None or not len(vectors):
        return out
    weights, bias, names = head
    q = np.asarray([share.get(a, 0.0) for a in names], dtype=np.float64)
    known = ~np.isnan(vectors).any(axis=1)
    if not known.any():
        return out
    z = vectors[known].astype(np.float32) @ weights.T + bias
    out[known] = (1.0 / (1.0 + np.exp(-z.astype(np.float64)))) @ q
    return out


__all__ = ["STATEMENTS", "about_person", "asked_share", "stated"]

"""``--features FILE``: the benchmarks keep each question's candidates with their learned-ranker
features and what each record traces back to, so ``scripts/train_ranker.py`` can train and
compare rankers many times from one run of the stores (compute is scarce; a LongMemEval
question takes a minute and a half to write).

One JSON line per question: the set, the question's id, split and group (a LoCoMo
conversation), how it is scored (``metric``: ``first`` for a memory set, where any answer
counts; ``share`` for LoCoMo, the share of evidence found; ``turns`` for LongMemEval), the
answers, the question's language (``graph.stemming.language_of``: its someone-else weight
is fitted per language), the feature names, and per candidate its id, the keys it traces back to (the set's
fact id, dialogue ids, turn ids) and its feature row. Only the question's own search is
kept: warm-up searches find ``ask`` unset and are skipped.

Beside it, ``FILE``'s name with ``.context`` before ``.jsonl``: over a chat between people, the
context stage's rows as the engine computed them (``Recall``'s ``context_observer``): the learned
order's first ``context.POOL`` candidates, their keys, the stage's features and the keys of
each one's turn before and after as the search read them, so ``scripts/train_context_stage.py
--engine-rows`` fits the stage on what the engine sees.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from graph.stemming import language_of
from wave_agent.recall.candidates import Candidates
from wave_agent.recall.learned import FEATURES


class FeatureLog:
    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._question: dict[str, Any] | None = None
        self._keys: Callable[[Any], Sequence[str]] | None = None
        self._context: tuple[dict[str, Any], Callable[[Any], Sequence[str]]] | None = None
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)

    @property
    def context_path(self) -> Path | None:
        if self.path is None:
            return None
        stem = self.path.name.removesuffix(".jsonl")
        return self.path.with_name(f"{stem}.context.jsonl")

    @property
    def context_observer(self) -> Callable[[Candidates, list[str], dict[str, np.ndarray],
                                            dict[str, tuple[str | None, str | None]]],
                                           None] | None:
        return self.observe_context if self.path is not None else None

    @property
    def observer(self) -> Callable[[Candidates, list[str], np.ndarray], None] | None:
        return self.observe if self.path is not None else None

    def ask(self, keys: Callable[[Any], Sequence[str]], **question: Any) -> None:
        """The next search is this question's; ``keys`` maps a record to what it traces to."""
        self._question, self._keys = question, keys
        self._context = (question, keys)

    def done(self) -> None:
        self._question = self._keys = None
        self._context = None

    def observe_context(self, c: Candidates, ids: list[str], feats: dict[str, np.ndarray],
                        links: dict[str, tuple[str | None, str | None]]) -> None:
        out = self.context_path
        if out is None or self._context is None:
            return
        question, keys = self._context

        def keys_of(fid: str | None) -> list[str]:
            return list(keys(c.facts[fid])) if fid is not None and fid in c.facts else []

        line = {**question, "ids": ids, "keys": [keys_of(i) for i in ids],
                "prev": [keys_of(links.get(i, (None, None))[0]) for i in ids],
                "next": [keys_of(links.get(i, (None, None))[1]) for i in ids],
                "features": {n: np.round(v, 5).tolist() for n, v in feats.items()}}
        with out.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(line, ensure_ascii=False) + "\n")
        self._context = None

    def observe(self, c: Candidates, ids: list[str], x: np.ndarray) -> None:
        if self.path is None or self._question is None or self._keys is None:
            return
        keys = self._keys
        line = {**self._question, "language": language_of(c.question.text),
                "features": list(FEATURES),
                "ids": ids, "keys": [list(keys(c.facts[i])) for i in ids],
                "x": np.round(x, 5).tolist()}
        with self.path.open("a", encoding="utf-8") as out:
            out.write(json.dumps(line, ensure_ascii=False) + "\n")
        self._question = self._keys = None

"""A Russian place or organisation the rules read, told apart by a small model over e5 vectors
(``span_kinds.npz``, trained by ``scripts/train_span_kinds.py`` on the labelled entity sets):
"бухгалтер в Кузбассэнергосбыте", "водитель в Магните", "вышел на Авиакор" name firms the
rules took for towns; "в Тагиле" stays a town.

Features of a mention: multilingual e5's query vector of its name and of the words around
where the statement says it (``WINDOW`` characters each side), pymorphy's dictionary marks of
its first word (a town ``Geox``, a firm ``Orgn``, a first name or surname), and its shape
(quoted, run-together capitals, a digit, all capitals, several words). A multinomial logistic
regression gives place / organisation / other; a place becomes an organisation only when the
model gives "organisation" at least ``threshold`` (the file's), chosen by author out of fold.
The reverse is not taken: out of fold on the older authors its eight swaps at 0.8 were none
right ("Фонтанка", "Эверест", "ГАЗе" are firms the model reads as places). Pure CPU; the e5 model is the one the writer already runs (``kinds.E5_READS``,
shared with ``kinds.share_embedder``).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from graph.models import EntityType
from wave_agent.world.reading import Mention, Reading

MODEL_PATH = Path(__file__).with_name("span_kinds.npz")
CLASSES = ("place", "organisation", "other")
# the organisations' model (round thirty-eight): a firm the rules read that is a product or a
# project ("продал «Ниву»", "подкаст «тихий час»", "бот «пара-бот»")
FIRM_CLASSES = ("place", "organisation", "other", "thing", "project")
_FIRM_TO = {"thing": EntityType.THING, "project": EntityType.PROJECT}
WINDOW = 60  # characters each side of the mention kept for its context vector
_SWAPPED = {EntityType.PLACE: EntityType.ORGANISATION, EntityType.ORGANISATION: EntityType.PLACE}
# the links that end only on a place or only on an organisation
_ONLY_TO = {EntityType.PLACE: frozenset({"lives_in"}),
            EntityType.ORGANISATION: frozenset({"works_at", "studies_at", "member_of"})}
_CAMEL = re.compile(r"[а-яёa-z][А-ЯЁA-Z]")
_QUOTES = "«\"„“"
_lock = threading.Lock()
_model: tuple[Any, Any, float] | None = None
_firm_model: tuple[Any, Any, float] | None = None
_embedder: Any = None


def _e5() -> Any:
    global _embedder
    from wave_agent.world import kinds

    if kinds._e5_shared is not None:
        return kinds._e5_shared
    with _lock:
        if _embedder is None:
            from archive.embedder import Embedder

            _embedder = Embedder(kinds.E5_READS)
        return _embedder


def _where(text: str, mention: Mention) -> int:
    """Where the statement says the mention: its name or an alias, else its first four
    letters (an inflected form), else -1."""
    low = text.lower()
    for form in (mention.name, *mention.aliases):
        at = low.find(form.lower())
        if at >= 0:
            return at
    stem = mention.name.lower()[:4]
    return low.find(stem) if len(stem) == 4 else -1


def context(text: str, mention: Mention) -> str:
    """The words around the mention, the mention itself in brackets."""
    at = _where(text, mention)
    if at < 0:
        return text[: 2 * WINDOW]
    end = at
    while end < len(text) and (text[end].isalnum() or text[end] in "-"):
        end += 1
    end = max(end, at + len(mention.name)) if text[at:at + len(mention.name)].lower() == \
        mention.name.lower() else end
    left = text[max(0, at - WINDOW):at]
    return f"{left}[{text[at:end]}]{text[end:end + WINDOW]}"


def _shape(text: str, mention: Mention) -> list[float]:
    from wave_agent.world.morphology import _morph

    name = mention.name
    first = name.split()[0] if name.split() else name
    tags = _morph().parse(first.lower())[0].tag
    at = _where(text, mention)
    quoted = at > 0 and text[at - 1] in _QUOTES
    return [float(mention.type is EntityType.PLACE), float("Geox" in tags), float("Orgn" in tags),
            float("Name" in tags), float("Surn" in tags), float(quoted),
            float(bool(_CAMEL.search(name))), float(any(c.isdigit() for c in name)),
            float(len(first) > 1 and first.isupper()), float(len(name.split()) > 1),
            float(bool(re.search(r"[A-Za-z]", name)))]


def features(items: Sequence[tuple[str, Mention]]) -> Any:
    """One row per (statement, mention): e5 of the name, e5 of its context, the shape."""
    import numpy as np

    if not items:
        return np.zeros((0, 0), dtype=np.float32)
    model = _e5()
    names = model.embed_query_sync([m.name for _, m in items])
    around = model.embed_query_sync([context(t, m) for t, m in items])
    shape = np.asarray([_shape(t, m) for t, m in items], dtype=np.float32)
    return np.hstack([np.asarray(names, dtype=np.float32), np.asarray(around, dtype=np.float32),
                      shape])


def _load() -> tuple[Any, Any, float] | None:
    global _model, _firm_model
    with _lock:
        if _model is None and MODEL_PATH.exists():
            import numpy as np

            with np.load(MODEL_PATH) as f:
                _model = (f["coef"], f["intercept"], float(f["threshold"]))
                if "firm_coef" in f:
                    _firm_model = (f["firm_coef"], f["firm_intercept"],
                                   float(f["firm_threshold"]))
        return _model


def _load_firms() -> tuple[Any, Any, float] | None:
    _load()
    return _firm_model


def probabilities(x: Any, model: tuple[Any, Any, float]) -> Any:
    import numpy as np

    z = x @ model[0].T + model[1]
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def retype(text: str, reading: Reading, model: tuple[Any, Any, float] | None = None,
           firms: tuple[Any, Any, float] | None = None) -> Reading:
    """The reading with each Russian place the model is sure names a firm made an
    organisation, and each organisation the firms' model is sure names a thing or a project
    made that (round thirty-eight)."""
    model = model or _load()
    firms = firms or _load_firms()
    if model is None or reading.language != "ru":
        return reading
    places = [m for m in reading.mentions if m.type is EntityType.PLACE]
    orgs = [m for m in reading.mentions if m.type is EntityType.ORGANISATION] if firms else []
    if not places and not orgs:
        return reading
    x = features([(text, m) for m in (*places, *orgs)])
    new: dict[str, Mention] = {}
    if places:
        p = probabilities(x[: len(places)], model)
        for m, row in zip(places, p, strict=True):
            other = _SWAPPED[m.type]
            if row[CLASSES.index(other.value)] >= model[2]:
                new[m.name] = replace(m, type=other)
    if orgs and firms is not None:
        p = probabilities(x[len(places):], firms)
        for m, row in zip(orgs, p, strict=True):
            kind = max(_FIRM_TO, key=lambda k: row[FIRM_CLASSES.index(k)])
            if row[FIRM_CLASSES.index(kind)] >= firms[2]:
                new[m.name] = replace(m, type=_FIRM_TO[kind])
    if not new:
        return reading
    # a link the rules made for the kind it was read as goes with it ("бухгалтер в
    # Волгаэнерго": no one lives in a firm; no one works at a car)
    was = {m.name: m.type for m in reading.mentions}
    links = tuple(k for k in reading.links if k.target not in new
                  or k.type not in _ONLY_TO.get(was[k.target], frozenset()))
    return replace(reading, mentions=tuple(new.get(m.name, m) for m in reading.mentions),
                   links=links)


__all__ = ["CLASSES", "FIRM_CLASSES", "MODEL_PATH", "context", "features", "probabilities", "retype"]

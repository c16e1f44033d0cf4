"""The record that held an old value the reader did not read, found by a head learned from the
months' labels (round twenty-seven, h/truths26).

Over the honest months replayed, a third of the "two active truths" are a new value read as its
attribute while the record holding the old one carries no value of it ("Я родилась в
Екатеринбурге и всю жизнь тут", "My iPhone 12 is dying"): the reader never read the old
statement, so the new value has nothing to replace (``scripts/truths_causes.py``). The head
(``scripts/train_statement_attributes.py``: one logistic regression per attribute of the
person's over the statement's e5 vector, fitted on the months' labels) knows *that* a statement
sets an attribute without knowing its value, which is all this step needs: when a new value of
one of the person's single-valued attributes is read and no record holds a value of it, a
nearby earlier record the head is sure sets that attribute is the one the new value replaces.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from graph.models import Fact
from graph.stemming import language_of
from wave_agent.world import attribute_words as W
from wave_agent.world.attributes import Value, _Collector, _holder, _make, single_valued
from wave_agent.world.reading import USER

MODEL_PATH = Path(__file__).with_name("statement_attributes.npz")
READS = "multilingual-e5-small"  # the embedding the head was trained on

# The person's single-valued attributes a found record is replaced for. Not a price (the head
# knows a price, not which: rent and a lesson are one class to it), nor an age or a birthday
# (another one said is weighed as a contradiction by ``decide``).
RETIRES = frozenset({"city", "employer", "role", "partner", "phone", "diet", "vehicle"})
# How sure the head must be. Offline, on months 2-20 each scored by heads fitted without it
# (``scripts/retire_by_head.py``): 0.7 finds 6 of 10 unread old statements, and 2 other earlier
# statements of a month score as high (an upper bound: only the nearest records are looked at).
SURE = 0.7


@functools.cache
def _model() -> tuple[np.ndarray, np.ndarray, tuple[str, ...]] | None:
    if not MODEL_PATH.exists():
        return None
    with np.load(MODEL_PATH, allow_pickle=False) as data:
        return (np.asarray(data["weights"], dtype=np.float32),
                np.asarray(data["bias"], dtype=np.float32),
                tuple(str(a) for a in data["attributes"]))


def sure(vector: np.ndarray, attribute: str) -> float:
    """How sure the head is that a statement with this e5 vector sets ``attribute`` of the
    person's; 0 without the model or for an attribute it does not know."""
    model = _model()
    if model is None:
        return 0.0
    weights, bias, names = model
    if attribute not in names:
        return 0.0
    j = names.index(attribute)
    return float(1 / (1 + np.exp(-(weights[j] @ np.asarray(vector, dtype=np.float32) + bias[j]))))


def wanted(values: Sequence[Value], held_keys: set[str]) -> list[Value]:
    """The new values that look for an unread old record: a ``set`` of one of the person's
    single-valued attributes in ``RETIRES`` that no active record holds a value of."""
    return [v for v in values if v.entity == USER and v.op == "set"
            and single_valued(v.attribute) and v.attribute in RETIRES
            and v.key not in held_keys]


def unread_olds(value: Value, new: Fact, nearby: Sequence[tuple[Fact, np.ndarray]],
                threshold: float = SURE) -> list[Fact]:
    """The records among ``nearby`` (the new record's nearest active records with their e5
    vectors) said before ``new``, not pinned, that carry no value of ``value``'s attribute and that the head
    is sure set it: the records holding the old value the reader did not read."""
    out = []
    for fact, vector in nearby:
        if fact.id == new.id or fact.created_at >= new.created_at or fact.pinned:
            continue  # a record the person pinned is replaced only by a value read in it
        carried = [Value.decode(raw) for raw in fact.attributes]
        if any(v is not None and v.attribute == value.attribute for v in carried):
            continue
        if sure(vector, value.attribute) >= threshold:
            out.append(fact)
    return out


# A device said by its make with its model after it ("Айфон 11 еле живой", "My iPhone 11 battery
# dies", "Мой Samsung A52 тормозит"): the make table the reader already keeps for a device bought.
_MAKE_SAID = re.compile(r"(?<![\w-])((?i:" + "|".join(sorted(W.DEVICE_MAKES, key=len, reverse=True))
                        + r")\w*(?:\s+(?:[A-ZА-ЯЁ][\w-]*|\d{1,3}\b)){0,2})")
_LANG = {"russian": "ru", "polish": "pl", "english": "en"}


def with_device(text: str, vector: np.ndarray, values: Sequence[Value],
                threshold: float = SURE) -> tuple[Value, ...]:
    """``values`` with the person's device a statement names by its make when the rules read
    none and the head is sure the statement sets the person's device (round twenty-eight,
    h/truths27). Half of the old statements never read as their attribute in 25 honest months
    were a phone said in passing by its make ("Айфон 11 еле живой, батарея к обеду садится в
    ноль"): no verb of having, so no rule reads it, while the head scores 18 of those 20 at or
    above 0.7. Read at write time, the phone is held, and the new one said with the old one's
    end ("айфон всё, умер окончательно. взяла самсунг S24") replaces it as a read one would be."""
    if any(v.attribute == "device" for v in values):
        return tuple(values)
    said = device_said(text)
    if said is None or sure(vector, "device") < threshold:
        return tuple(values)
    return (*values, said)


def device_said(text: str) -> Value | None:
    """The person's device ``text`` names by its make, as added, or None: nothing is read from a
    statement that ends something (a phone said dead is no device added), from a clause that
    denies or wishes it, nor when someone named before the make holds it."""
    found = _MAKE_SAID.search(text)
    if found is None:
        return None
    lang = _LANG[language_of(text)]
    make = found.group(1).strip()
    said = _Collector(text, lang)
    if said.pol.ended or said.op_at(make, multi=True) != "add" or _holder(text, make, lang) != USER:
        return None  # "айфон всё, умер окончательно" ends a phone no one held
    return Value(USER, "device", _make(make, lang), "add")

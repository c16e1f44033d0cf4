"""The attribute a question asks for, read from meaning (issue 30: recall by attribute).

"где я сейчас живу?", "какой у меня номер?", "сколько я плачу за квартиру?", "where does my
sister work?", "gdzie pracuje mąż?" name no word of their answer ("Переехала в Казань", "+7 912
345-67-89"), so the text voices cannot find it. The writer already reads every statement as
values of attributes (``wave_agent.world.attributes``) and keeps them on the record
(``Fact.attributes``); this module reads the question the same way: which attribute it asks
for (city, employer, phone, a price ...), of whom (the person, a relative by role or by name),
and whether it asks for the value in force or a past one ("где я жила раньше?").

Two heads over the e5 query vector recall already computes (no phrase list): a multinomial
logistic regression over the attributes and "none", and a logistic regression for "a past
value". Both are trained by ``scripts/train_asked.py`` on question exemplars written for them
(``bench/data/attribute_questions/exemplars.json``); the model (``asked.npz``: float arrays,
no pickle) reads only multilingual-e5-small vectors. Who is asked about and which price are
read from the question's words: the relatives recall already resolves, a held value's entity
named in the question, the price nouns the attribute reader knows (``PRICE_WORDS``).

``first`` orders the records that state the asked value: the current ones for a question about
now; the replaced ones (newest first), then the current ones, for a question about the past.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from graph import kin
from graph.models import Entity, Fact, Status
from wave_agent.world.attributes import ANY, Value, names_value, same_value, single_valued
from wave_agent.world.reading import ROLE_PREFIX, USER

MODEL = Path(__file__).parent / "asked.npz"
# The now/stable gate: P(the question asks about now) from the same e5 vector, a logistic
# regression fitted by ``scripts/stable_gate.py --save`` on the memory sets' current /
# paraphrase and the months' current / stable questions (``RecallConfig.attribute_now_gate``).
NOW_GATE = Path(__file__).parent / "now_gate.npz"
DIM = 384
READS = "multilingual-e5-small"  # the one embedding model the heads were trained on
NONE = "none"
# Attributes whose value is someone related to the person: "как зовут мою девушку?" asks for
# the person's partner; the role word names the value, not whose attribute it is.
_OF_THE_PERSON = frozenset({"partner", "child", "sibling"})
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)


@dataclass(frozen=True, slots=True)
class Asked:
    """What a question asks for: ``attribute`` (``price`` for any price), how sure the head
    is (``p``), and whether it asks for a past value (``past``)."""

    attribute: str
    p: float
    past: bool
    p_past: float


@dataclass(frozen=True, slots=True)
class Model:
    classes: tuple[str, ...]
    weights: np.ndarray   # (classes, DIM)
    bias: np.ndarray      # (classes,)
    threshold: float      # the attribute head's least probability to answer by attribute
    past_weights: np.ndarray
    past_bias: float
    past_threshold: float

    def read(self, vector: np.ndarray, threshold: float | None = None) -> Asked | None:
        x = np.asarray(vector, dtype=np.float32).ravel()
        z = self.weights @ x + self.bias
        z = np.exp(z - z.max())
        probs = z / z.sum()
        best = int(np.argmax(probs))
        p_past = float(1.0 / (1.0 + np.exp(-(float(x @ self.past_weights) + self.past_bias))))
        attribute = self.classes[best]
        least = self.threshold if threshold is None else threshold
        if attribute == NONE or float(probs[best]) < least:
            return None
        return Asked(attribute, float(probs[best]), p_past >= self.past_threshold, p_past)


@lru_cache(maxsize=1)
def model() -> Model | None:
    """The trained heads, or None when the file is absent."""
    return _load(MODEL)


def load(path: Path) -> Model | None:
    """The heads in ``path`` (``asked.npz``'s format), or None when the file is absent."""
    return _cached(path.resolve())


@lru_cache(maxsize=4)
def _cached(path: Path) -> Model | None:
    return _load(path)


def _load(path: Path) -> Model | None:
    if not path.exists():
        return None
    with np.load(path, allow_pickle=False) as d:
        return Model(tuple(str(c) for c in d["classes"]), d["w"].astype(np.float32),
                     d["b"].astype(np.float32), float(d["threshold"]),
                     d["pw"].astype(np.float32), float(d["pb"]), float(d["pthreshold"]))


@lru_cache(maxsize=1)
def now_gate() -> tuple[np.ndarray, float] | None:
    """The now/stable gate's weights and bias, or None when the file is absent."""
    if not NOW_GATE.exists():
        return None
    with np.load(NOW_GATE, allow_pickle=False) as d:
        return d["w"].astype(np.float32).ravel(), float(d["b"])


def save_now_gate(weights: np.ndarray, bias: float, path: Path = NOW_GATE) -> None:
    np.savez_compressed(path, w=np.asarray(weights, dtype=np.float32).ravel(),
                        b=np.asarray(bias, dtype=np.float32))


def p_now(model_name: str, vector: np.ndarray | None) -> float | None:
    """How likely the question asks about now rather than a fact that never changed ("где я
    живу?" against "какой номер у квитка из чистки?"); None when the gate cannot read this
    vector (another embedding model, no file)."""
    gate = now_gate()
    if gate is None or vector is None or model_name != READS or np.shape(vector) != (DIM,):
        return None
    x = np.asarray(vector, dtype=np.float32).ravel()
    return float(1.0 / (1.0 + np.exp(-(float(x @ gate[0]) + gate[1]))))


def save(m: Model, path: Path = MODEL) -> None:
    np.savez_compressed(path, classes=np.asarray(m.classes), w=m.weights.astype(np.float32),
                        b=m.bias.astype(np.float32), threshold=np.asarray(m.threshold),
                        pw=m.past_weights.astype(np.float32), pb=np.asarray(m.past_bias),
                        pthreshold=np.asarray(m.past_threshold))


def read(model_name: str, vector: np.ndarray | None,
         threshold: float | None = None, path: Path | None = None) -> Asked | None:
    """The attribute the question's query vector asks for; None for a question about no
    attribute, or when the heads cannot read this vector (another embedding model, no file).
    ``threshold``: the head's least probability in place of the fitted one; ``path``: the
    heads' file in place of the shipped one."""
    heads = model() if path is None else load(path)
    if heads is None or vector is None or model_name != READS or np.shape(vector) != (DIM,):
        return None
    return heads.read(vector, threshold)


def asks_past(model_name: str, vector: np.ndarray | None) -> bool:
    """Whether the past head reads the question as asking for a past value, whatever the
    attribute head reads ("а сколько стоил зал в Нижнем?": no attribute above its threshold,
    past at 0.97); False when the heads cannot read this vector."""
    heads = model()
    if heads is None or vector is None or model_name != READS or np.shape(vector) != (DIM,):
        return False
    x = np.asarray(vector, dtype=np.float32).ravel()
    p_past = 1.0 / (1.0 + np.exp(-(float(x @ heads.past_weights) + heads.past_bias)))
    return bool(p_past >= heads.past_threshold)


def whose(query: str, attribute: str, relatives: Sequence[Entity],
          held: Sequence[Value]) -> set[str]:
    """The entities whose ``attribute`` the question asks for, as values name them ("user",
    a relative's name or ``role:<role>``, a person's name the question says). A question that
    names someone the memory holds nothing about asks about them all the same ("где живёт
    Олег?" is not the person's own city): their name, which holds no value, answers nothing."""
    names = _people_named(query, [v for v in held if v.attribute == attribute
                                  or (attribute == "price" and v.attribute.startswith("price:"))],
                          held)
    if attribute in _OF_THE_PERSON:
        # "как зовут мою девушку?" asks for the person's partner; "жену Олега" for Oleg's
        return names or {USER}
    roles = kin.roles_asked(query)
    if attribute == "price" and not roles and not relatives:
        # a price is one the person pays: someone named who holds none is who changed it
        # ("сколько урок стоил до того, как Елена подняла цену?"), not whose it is
        return (names & {v.entity for v in held if v.attribute.startswith("price:")}) or {USER}
    named = {e.name for e in relatives} | {ROLE_PREFIX + r for r in roles} | names
    return named or {USER}


def _people_named(query: str, asked_values: Sequence[Value], held: Sequence[Value]) -> set[str]:
    """The people a question names by name: a held value's entity it says (in any case), or
    a capitalised word after the first that Russian morphology reads as a first name or
    surname (in Latin script: any capitalised word after the first). A word naming a held
    value of the attribute asked ("до Калининграда", "до Бима", or in the other alphabet
    "before Ak Bars" after "Ак Барс Банк") names what is asked about, not whose it is."""
    from wave_agent.world.morphology import is_name

    entities = {v.entity for v in held if v.entity != USER and not v.entity.startswith(ROLE_PREFIX)}
    words = _WORD.findall(query)
    out: set[str] = set()
    for i, word in enumerate(words):
        if not word[:1].isupper() or any(names_value(word, v.value) for v in asked_values):
            continue
        known = [e for e in entities if len(e.split()) == 1 and same_value(word, e)]
        if known:
            out.update(known)
        elif i == 0 or len(word) < 2:
            continue  # a question's first word is capitalised whatever it is
        elif not re.search("[а-яё]", word.lower()) or is_name(word):
            out.add(word)
    return out


def price_kind(query: str) -> str | None:
    """What a price question pays for ("квартиру" -> rent), from the attribute reader's price
    nouns; None when the question names none."""
    from wave_agent.world.attribute_words import PRICE_WORDS
    from wave_agent.world.morphology import lemma

    for word in _WORD.findall(query.lower()):
        for form in (word, lemma(word)):
            if form in PRICE_WORDS:
                return PRICE_WORDS[form]
    return None


def _price_named(query: str, held: Sequence[Value]) -> str | None:
    """A held price named by the thing it pays for, when the question names that thing and no
    price noun ("сколько стоил Плюс до подорожания?" asks for ``price:плюс``, the price the
    reader names by the service: "списали 449 за Плюс")."""
    from wave_agent.world.morphology import lemma

    said = {form for word in _WORD.findall(query.lower()) for form in (word, lemma(word))}
    kinds = {v.attribute.split(":", 1)[1] for v in held if v.attribute.startswith("price:")}
    return next((kind for kind in sorted(kinds) if kind.replace("ё", "е") in said), None)


def matches(value: Value, attribute: str, entities: set[str], price: str | None,
            ops: tuple[str, ...] = ("set", "add")) -> bool:
    """Whether a held value answers the question: its attribute (a price of the kind the
    question names: "сколько стоил шиномонтаж?" names none the reader knows, and no price
    held answers it) and whose it is. ``ops=ENDING``: a value ended or denied instead."""
    if value.op not in ops or value.entity not in entities:
        return False
    if attribute != "price":
        return value.attribute == attribute
    if not value.attribute.startswith("price:"):
        return False
    kind = value.attribute.split(":", 1)[1]
    return price is not None and (kind == price or kind.endswith(f"_{price}"))


def _norm_value(value: str) -> str:
    return " ".join(value.lower().replace("ё", "е").split())


def first(asked: Asked, query: str, facts: Sequence[Fact],
          relatives: Sequence[Entity] = (), *, endings: bool = True) -> list[Fact]:
    """The records (of ``facts``: those that state values, active and replaced) that state
    the value the question asks for, in the order they answer it: for a question about now
    the records that said a value in force, newest first, and (``endings``) the records in
    force that ended or denied one (``_with_endings``); about the past those that said a
    replaced value (newest first), then the others. Empty when nothing held answers it
    (recall then answers as it would)."""
    values = [(f, v) for f in facts for v in (Value.decode(raw) for raw in f.attributes)
              if v is not None]
    entities = whose(query, asked.attribute, relatives, [v for _, v in values])
    price = (price_kind(query) or _price_named(query, [v for _, v in values])
             if asked.attribute == "price" else None)
    # The writer carries the values a replaced record held besides to the record replacing
    # it ("За квартиру отдал 38 тысяч" replaced "Всё, я в Калининграде, живу теперь тут" and
    # holds its city): such a record does not say the value; the record that said it answers,
    # found back along the replacements.
    said_by: dict[tuple[str, str, str], Fact] = {
        (f.superseded_by, v.key, _norm_value(v.value)): f for f, v in values
        if f.status is Status.SUPERSEDED and f.superseded_by}
    found: dict[str, tuple[Fact, Fact]] = {}  # answering record id -> (it, the one in force)
    for f, v in values:
        if not matches(v, asked.attribute, entities, price):
            continue
        origin, seen = f, {f.id}
        while (origin.id, v.key, _norm_value(v.value)) in said_by:
            origin = said_by[(origin.id, v.key, _norm_value(v.value))]
            if origin.id in seen:
                break
            seen.add(origin.id)
        held_by = found.get(origin.id, (origin, origin))[1]
        if f.status is Status.ACTIVE or held_by.status is not Status.ACTIVE:
            held_by = f
        found[origin.id] = (origin, held_by)
    # a record that passed its value on answers for the record that holds it now
    current = sorted((f for f, held_by in found.values() if held_by.status is Status.ACTIVE),
                     key=lambda f: f.created_at, reverse=True)
    if not asked.past:
        return _with_endings(current, values, asked.attribute, entities, price) if endings \
            else current
    replaced = sorted((f for f, held_by in found.values()
                       if held_by.status is Status.SUPERSEDED),
                      key=lambda f: f.created_at, reverse=True)
    return [*replaced, *current]


ENDING = ("remove", "negate")


def _with_endings(current: list[Fact], values: Sequence[tuple[Fact, Value]], attribute: str,
                  entities: set[str], price: str | None) -> list[Fact]:
    """A question about now answered by the newest statement on the attribute, an ending or
    a denial too ("я курю?" after "всё, бросила курить", "какая у меня машина?" after "Рио
    продала", "с кем я встречаюсь?" after "с Артёмом расстались"): the record in force that
    ends or denies a value (the reader's ``remove`` / ``negate``) settles the records that
    said that value before it (or any value, for a denial of the whole attribute: "аллергий
    нет"). The records no ending settles come first (a value said since, or another pet
    still kept), then the endings, newest first, then the records they settled (round
    thirty, h/now30: month 28's nine questions about something ended or denied)."""
    endings = sorted({f.id: (f, v) for f, v in values if f.status is Status.ACTIVE
                      and matches(v, attribute, entities, price, ENDING)}.values(),
                     key=lambda fv: fv[0].created_at, reverse=True)
    if not endings:
        return current

    def settled(f: Fact) -> bool:
        said = [v for v in (Value.decode(raw) for raw in f.attributes) if v is not None
                and matches(v, attribute, entities, price)]
        return any(e.created_at > f.created_at and ev.key == v.key
                   and (ev.value == ANY or same_value(ev.value, v.value))
                   for e, ev in endings for v in said)

    ids = {f.id for f in current}
    ends = [f for f, _ in endings if f.id not in ids]
    return [*(f for f in current if not settled(f)), *ends,
            *(f for f in current if settled(f))]


def ended(fact: Fact, found: Sequence[Fact], attribute: str) -> bool:
    """Whether ``fact`` comes in ``first``'s order after a record that ends or denies a value
    of ``attribute`` (``_with_endings``): a value said before its ending, no answer to a
    question about now."""
    for f in found:
        if f.id == fact.id:
            return False
        if any(v is not None and v.op in ENDING and (v.attribute == attribute
                                                     or v.attribute.startswith(f"{attribute}:"))
               for v in map(Value.decode, f.attributes)):
            return True
    return False


def same_single_value(a: Fact, b: Fact, attribute: str) -> bool:
    """Whether ``a`` and ``b`` both state the asked ``attribute`` (``price`` any price) of the
    same holder, and it holds one value at a time (a rent, a city; not children or pets)."""
    def keys(f: Fact) -> set[str]:
        return {v.key for v in (Value.decode(raw) for raw in f.attributes)
                if v is not None and single_valued(v.attribute)
                and (v.attribute == attribute or v.attribute.startswith(f"{attribute}:"))}
    return bool(keys(a) & keys(b))


__all__ = ["Asked", "Model", "ended", "first", "matches", "model", "price_kind", "read", "same_single_value", "save", "whose"]

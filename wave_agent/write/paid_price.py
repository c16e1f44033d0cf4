"""A new price said as a payment or in passing, read as no price, found to be a held one by the
parse and the e5 vector (round forty, h/pay40).

"перевела Лауре 1800 за сегодняшний испанский" after "испанский с Лаурой по зуму, 1500 за урок",
"с Плюса списали 449" after "Яндекс Плюс у меня, кстати, 399 в месяц", "бассейн для Матвея тут
3900" after "Матвея записала в бассейн, 4500 в месяц": the reader reads an amount only beside a
word that says what it pays for (a price noun, a service's name, a unit), so a payment that names
the thing another way is read as nothing, and the old price stays in force, in its record and in
the core block. What the amount pays for is already known here: the person's held prices, each
with the record it was read from. The new amount is the price of the held one whose record
shares a content word with the statement (a noun, an adjective or a name, by its lemma, not the
amount's unit: "испанский", "Лаура", "бассейн", "Плюс") and, among those, whose record is nearest
the statement's e5 vector. Nothing is read from a statement that reads a price itself, says no
amount, or says it of someone else or denies it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from graph.models import Fact
from graph.stemming import language_of
from wave_agent.world import attribute_words as W
from wave_agent.world.attributes import Value, _Collector, _holder, _money
from wave_agent.world.morphology import _morph
from wave_agent.world.reading import USER
from wave_agent.write import unread_old

# How near the statement's e5 vector the held price's record must be (cosine of the writer's
# passage vectors). Offline on the tuning months (``/tmp/pay40-work/offline.py``): see
# docs/benchmarks.md, round forty.
NEAR = 0.8
_LANG = {"russian": "ru", "polish": "pl", "english": "en"}
# a bare number that is a count or a date, not money: a word after it other than a unit's
_COUNTED = re.compile(r"\s*(?:[^\W\d_]+)")
_UNIT_WORDS = frozenset({"за", "в", "per", "a", "an", "za", "w", "na", "в месяц"})
_CONTENT = frozenset({"NOUN", "ADJF", "ADJS"})
# the nouns an amount is counted by, from the reader's own per-unit pattern ("в месяц", "за
# урок", "за час"): "за первый месяц" says how often, not what is paid for
_UNIT_NOUNS = frozenset(str(_morph().parse(w)[0].normal_form)
                        for w in re.findall(r"[а-яё]{3,}", W.PER_UNIT.pattern))


def amount_said(text: str) -> tuple[str, str] | None:
    """The amount of money ``text`` says (as said, as a number), or None: one with its currency
    or thousands ("27 тысяч", "449 ₽"), else a bare three-to-six-digit number that no word
    other than a unit's follows ("тут 3900", "списали 449.", "1800 за испанский"; not "1500
    метров", "2025 году"), outside a phone number."""
    bare = W.PHONE.sub(" ", text)
    found = W.AMOUNT.search(bare)
    if found is not None:
        return found.group(0).strip(), _money(found.group(0))
    for match in W.BARE_AMOUNT.finditer(bare):
        after = _COUNTED.match(bare, match.end())
        if after is not None and after.group(0).strip().lower() not in _UNIT_WORDS:
            continue
        return match.group(1), _money(match.group(1))
    return None


def content_words(text: str) -> set[str]:
    """The lemmas of ``text``'s nouns, adjectives and names (Russian by pymorphy, a capitalised
    word by its noun reading: "Плюс" is a name, "плюс" a conjunction; another language's words
    of four letters or more as written), less an amount, its unit and ordinals."""
    text = W.AMOUNT.sub(" ", W.PER_UNIT.sub(" ", text)).replace("ё", "е").replace("Ё", "Е")
    out = set()
    for word in re.findall(r"[^\W\d_]{3,}", text):
        lower = word.lower()
        if not re.fullmatch(r"[а-я]+", lower):
            if len(word) >= 4:
                out.add(lower)
            continue
        parses = _morph().parse(lower)
        parse = parses[0]
        if parse.tag.POS not in _CONTENT and word[0].isupper():
            parse = next((p for p in parses if p.tag.POS == "NOUN"), parse)
        lemma = str(parse.normal_form).replace("ё", "е")
        if (parse.tag.POS in _CONTENT and lemma not in _UNIT_NOUNS
                and not {"Anum", "Apro"} & set(parse.tag.grammemes)):  # "первый", "свой"
            out.add(lemma)
    return out


def paid_price(text: str, vector: np.ndarray, values: Sequence[Value],
               prices: Sequence[tuple[Value, Fact, np.ndarray]],
               near: float = NEAR, sure: float = unread_old.SURE) -> Value | None:
    """The new value of a held price ``text`` says as a payment, or None. ``prices`` are the
    person's held prices with their records and the records' e5 vectors; ``vector`` is the
    statement's, which the statement head (``write.unread_old``) must be ``sure`` sets a price
    of the person's."""
    if not prices or any(v.attribute.startswith("price") for v in values):
        return None
    if unread_old.sure(vector, "price") < sure:
        return None  # the statement head: no price of the person's is said ("пробег 90 тысяч")
    said = amount_said(text)
    if said is None:
        return None
    written, amount = said
    lang = _LANG[language_of(text)]
    heard = _Collector(text, lang)
    if heard.op_at(written, multi=False) != "set":
        return None  # "не буду платить 5000"
    payer = _holder(text, written, lang)
    if payer is not None and payer != USER and payer.lower() in text.lower():
        return None  # "Олег ... будет присылать 15 тысяч": named as the subject, not "Лауре"
    mine = content_words(text)
    best: tuple[float, Value] | None = None
    for value, fact, theirs in prices:
        if value.value == amount or not mine & content_words(fact.text):
            continue
        cosine = float(np.dot(vector, theirs) / (np.linalg.norm(vector) * np.linalg.norm(theirs)))
        if cosine >= near and (best is None or cosine > best[0]):
            best = (cosine, value)
    if best is None:
        return None
    return Value(USER, best[1].attribute, amount, "set")

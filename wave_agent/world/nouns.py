"""Noun phrases the rules did not read, given a kind by a small model learned from the
hand-labelled entity sets (``nouns.npz``, trained by ``scripts/train_nouns.py``): "дача",
"Лада Веста", "скалолазание", "в сбере" are things, hobbies, organisations the person names,
found from the phrase's navec vector, its place in the parse and its shape, not from another
word list.

A candidate is each noun of a Russian statement's parse that no mention of the rules' reading
covers and that is no kin role (a relative said by the role alone is the writer's to resolve), with the adjectives that agree with it before it and the names, Latin words and numbers
that follow it ("рабочий ноутбук Lenovo", "Лада Веста", "ВАЗ-2106"). Its features: the navec
vectors of its noun and of the word it hangs on, the noun's relation, case and preposition, its
capitalisation and script, the lemmas of the words around it, a first-person word in its
sentence; for a capitalised word, what pymorphy's dictionary knows it to name (a town, a firm,
a first name, or nothing: "Сбере" is a guess) with its preposition and governing verb, a firm's
run-together capitals ("РемСтрой"), and the kinds (``world.kinds``) of the nouns beside it and
of its own word ("овчарка Джек": a pet noun beside a name). A multinomial logistic regression gives its kind or none; the reading takes the
candidates whose kind is one the training found worth adding (``kinds``) at the chosen
probability. Its kinds include the occupation a `works_as` ends on ("тимлид",
"воспитательница"), learned from the labelled relation ends. A Polish place the rules took from
a capital after a preposition alone, no pattern linking it ("jestem w Allegro"), is judged
again: the model re-types it when it is sure it is another kind (a firm), else it stays a place;
so is a Russian person no link ties to anything (a pet's name, "Ура", "баранку"): re-typed, or
dropped when the model is sure it is no one; and a Russian place or firm no link ties ("ушла из
Волгатранса", "продал «Ниву»"): re-typed when the model is sure it is another kind.
Pure CPU over the parse the reader already made; the weights load once.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, ClassVar

from graph import kin
from graph.entities import name_key, stem_key
from graph.models import EntityType
from wave_agent.world.attribute_words import CAR_NAMES
from wave_agent.world.reading import Mention, Reading, Word

# the Russian model reads the parse; the Latin one (English, Polish) capitalised names
MODEL_PATHS = {"ru": Path(__file__).with_name("nouns.npz"),
               "latin": Path(__file__).with_name("nouns_latin.npz")}
NONE = "none"
_NOUN = frozenset({"NOUN", "PROPN"})
_TAIL = re.compile(r"[A-Za-z0-9][\w\-+]*|\d+")
_FIRST = frozenset({"я", "мой", "мы", "наш", "меня", "мне", "нас", "нам"})
_QUOTES = frozenset("«»\"„“”")
_SIGN = re.compile(r"№\d*")
_CAMEL = re.compile(r"[а-яёa-z][А-ЯЁA-Z]")  # "КазаньСтройМонтаж", "РемСтрой": a firm's form
# the Russian kinds the rules read that the model judges again when no link ties them
LOOSE_RU = frozenset({EntityType.PERSON, EntityType.PLACE, EntityType.ORGANISATION})
# the loose kinds the model may drop when it is sure they name nothing (a firm it is sure is
# none is kept: round twenty-eight measured dropping it, docs/benchmarks.md)
DROPPED_RU = frozenset({EntityType.PERSON})


@dataclass(frozen=True, slots=True)
class Candidate:
    name: str
    aliases: tuple[str, ...]
    words: tuple[int, ...]    # indices into the reading's words
    features: tuple[str, ...]
    head: str                 # the noun's lemma (its navec vector)
    governor: str             # the lemma of the word it hangs on
    read: str = ""            # the kind the rules gave it, when they read it without a link


def _prefix(word: str) -> str:
    return "~" + word.lower().replace("ё", "е")[:max(3, min(5, len(word) - 2))]


def loose(reading: Reading) -> dict[str, Mention]:
    """What the rules read that the model judges again: a Polish reading's places the rules
    took from a capital after a preposition alone, no pattern linking them ("w Comarchu", "w
    Dublin Bus", "w Krakowie"), a firm's name as often as a town's; a Russian reading's people
    no link ties to anything ("Буся что-то постоянно бегает в лоток", "Ура, нашла работу",
    "кручу баранку"), a pet or no one as often as a person; its places and firms no link ties
    ("ушла из Волгатранса"; "продал «Ниву»": a car the NER calls a firm)."""
    ends = {x for link in reading.links for x in (link.source, link.target)}
    if reading.language == "pl":
        targets = {link.target for link in reading.links}
        return {m.name: m for m in reading.mentions
                if m.type is EntityType.PLACE and m.name not in targets}
    if reading.language == "ru":  # and its places and firms no link ties ("ушла из
        # Волгатранса"; "продал «Ниву»", "подкаст «Шум»": a car or a project as often)
        return {m.name: m for m in reading.mentions
                if m.type in LOOSE_RU and m.name not in ends}
    return {}


def _covered(reading: Reading) -> set[str]:
    """Stems of every word the reading's mentions and links name, and their first letters
    (an inflected Polish name: "Ustrzyki", "w Ustrzykach"); the loose places aside."""
    out: set[str] = set()
    judged = loose(reading)
    for m in reading.mentions:
        if m.name in judged:
            continue
        for n in (m.name, *m.aliases):
            out.update(stem_key(n).split())
            if reading.language != "ru":
                out.update(_prefix(w) for w in n.split())
    for link in reading.links:
        out.update(stem_key(link.target).split())
    return out


@lru_cache(maxsize=65_536)
def _adjective(text: str, noun: str) -> str | None:
    from wave_agent.world.morphology import agreeing_nominative

    return agreeing_nominative(text, noun)


def candidates(reading: Reading) -> list[Candidate]:
    """The statement's noun phrases no mention covers, with their features."""
    words = reading.words
    if not words:
        return []
    covered = _covered(reading)
    judged: dict[str, Mention] = {}  # a loose person or place by the stem of each word of its names
    for m in loose(reading).values():
        for n in (m.name, *m.aliases):
            judged.update({k: m for k in stem_key(n).split()})
    taken: set[int] = set()
    done: set[str] = set()
    out: list[Candidate] = []
    for i, w in enumerate(words):
        if i in taken or not re.search(r"\w", w.text):
            continue
        loose_one = next((judged[k] for k in stem_key(w.text).split() if k in judged), None)
        if loose_one is not None and loose_one.name not in done and not any(
                k in covered for k in stem_key(w.text).split()):
            # a person the rules read and tied to nothing: a candidate the model may re-type
            # (a pet) or drop (no one), read from the word that names them; so is a place
            # (a firm after "из", "на", "в" as often as a town)
            done.add(loose_one.name)
            out.append(Candidate(loose_one.name, loose_one.aliases, (i,),
                                 (*_features(words, i, (i,), [], []), f"read:{loose_one.type.value}"),
                                 w.lemma, words[w.head].lemma if w.head >= 0 else "",
                                 loose_one.type.value))
            continue
        if loose_one is not None or not (
                w.pos in _NOUN or (w.pos == "X" and _TAIL.fullmatch(w.text))):
            continue
        if any(s in covered for s in stem_key(w.text).split() + stem_key(w.lemma).split()) or (
                kin.role_of(w.lemma) is not None or kin.role_of(w.text) is not None):
            continue  # a relative by the role alone ("мама"): the writer finds who it is
        tail: list[int] = []
        for j in range(i + 1, min(len(words), i + 4)):
            t = words[j]
            sign = _SIGN.fullmatch(t.text) or (  # "в поликлинике № 8": the number names it
                t.text.isdigit() and words[j - 1].text == "№")
            if t.sentence != w.sentence or any(k in judged for k in stem_key(t.text).split()) or (
                    not sign and (
                    not (t.pos == "PROPN" or _TAIL.fullmatch(t.text)) or (
                    t.head not in (i, *tail) and t.rel not in ("flat", "appos", "nummod")))):
                break
            tail.append(j)
            if t.text[-1:].isdigit() and "№" in (t.text[:1], words[j - 1].text[:1]):
                break  # "поликлиника № 3, Тимошенко": the number ends the name
        before: list[tuple[int, str]] = []
        for j in range(i - 1, max(-1, i - 3), -1):
            t = words[j]
            said = _adjective(t.text, w.lemma) if t.pos == "ADJ" and t.head == i and (
                t.text.islower()) else None
            if said is None:
                break
            before.insert(0, (j, said))
        head = w.text if w.pos in ("PROPN", "X") and _TAIL.fullmatch(w.text) else (
            w.lemma.capitalize() if w.text[:1].isupper() and w.pos == "PROPN" else w.lemma)
        name = " ".join([*(s for _, s in before), head, *(words[j].text for j in tail)])
        written = " ".join(words[j].text for j in [*(j for j, _ in before), i, *tail])
        bare = " ".join([head, *(words[j].text for j in tail)])
        joined = name.replace("№ ", "№")  # "поликлиника №1" as often as "№ 1"
        aliases = tuple(dict.fromkeys(a for a in (w.lemma, written, bare, w.text, joined)
                                      if a != name))
        span = (*(j for j, _ in before), i, *tail)
        taken.update(span)
        out.append(Candidate(name, aliases, span, _features(words, i, span, before, tail),
                             w.lemma, words[w.head].lemma if w.head >= 0 else ""))
    return out


_LATIN_WORD = re.compile(r"[^\W\d_][\w'’-]*|\d+|[.!?;:,()«»\"„“”—–]")
_UPPER = re.compile(r"[A-ZĄĆĘŁŃÓŚŹŻ]")


def latin_candidates(text: str, reading: Reading) -> list[Candidate]:
    """An English or Polish statement's capitalised names (one to three words) no mention
    covers, with their features: a Polish name in the nominative its regular endings give
    ("z Kasią" -> Kasia), the written form and the full first name as aliases."""
    from wave_agent.world.latin import nominative_pl
    from wave_agent.world.names import full_form

    covered = _covered(reading)
    judged: dict[str, Mention] = {}  # a loose place by each stem and first letters of its words
    for m in loose(reading).values():
        for n in (m.name, *m.aliases):
            judged.update({k: m for k in [*stem_key(n).split(), *(_prefix(w) for w in n.split())]})
    tokens = [(m.group(), m.start()) for m in _LATIN_WORD.finditer(text)]
    lang = reading.language
    out: list[Candidate] = []
    i = 0
    while i < len(tokens):
        word = tokens[i][0]
        if not _UPPER.match(word):
            i += 1
            continue
        j = i + 1
        while j < len(tokens) and j - i < 3 and _UPPER.match(tokens[j][0]):
            j += 1
        span = [t for t, _ in tokens[i:j]]
        at, i = i, j
        if any(st in covered for w in span for st in [*stem_key(w).split(), _prefix(w)]):
            continue
        written = " ".join(span)
        name = " ".join(nominative_pl(w) for w in span) if lang == "pl" else written
        full = full_form(name, EntityType.PERSON)
        aliases = tuple(dict.fromkeys(a for a in (written, full) if a and a != name))
        prev = [t.lower() for t, _ in tokens[max(0, at - 2):at]]
        after = tokens[j][0].lower() if j < len(tokens) else "-"
        initial = at == 0 or tokens[at - 1][0] in ".!?"
        last = span[-1].lower()
        f: tuple[str, ...] = (
            f"lang:{lang}", f"n:{len(span)}", f"initial:{initial}",
            f"suf2:{lang}|{last[-2:]}", f"suf3:{lang}|{last[-3:]}", f"suf1:{lang}|{last[-1:]}",
            f"prev1:{prev[-1] if prev else '-'}", f"prev2:{prev[0] if len(prev) > 1 else '-'}",
            f"next:{after}", f"word:{span[0].lower()}", f"caps:{span[0].isupper()}",
            f"digit:{any(c.isdigit() for c in written)}", f"full:{full is not None}",
            f"initial_next:{initial}|{after}", f"prev_next:{prev[-1] if prev else '-'}|{after}"
        )
        place = next((judged[k] for w in span for k in [*stem_key(w).split(), _prefix(w)]
                      if k in judged), None)
        read = ""
        if place is not None:
            name, aliases, read = place.name, place.aliases, place.type.value
            f = (*f, f"read:{read}", f"read_prev2:{prev[0] if len(prev) > 1 else '-'}")
        out.append(Candidate(name, aliases, tuple(range(at, j)), f, "", "", read))
    return out


def _features(words: tuple[Word, ...], i: int, span: tuple[int, ...], before: list[tuple[int, str]],
              tail: list[int]) -> tuple[str, ...]:
    w = words[i]
    gov = words[w.head] if w.head >= 0 else None
    same = [x for x in words if x.sentence == w.sentence]
    prev = words[span[0] - 1] if span[0] > 0 else None
    after = words[span[-1] + 1] if span[-1] + 1 < len(words) else None
    f = [f"rel:{w.rel}", f"case:{w.preposition or '-'}|{w.case}", f"pos:{w.pos}",
         f"prep:{w.preposition or '-'}", f"cap:{w.text[:1].isupper()}",
         f"latin:{bool(re.search('[A-Za-z]', w.text))}",
         f"digit:{any(c.isdigit() for j in span for c in words[j].text)}",
         f"tail:{bool(tail)}", f"adj:{bool(before)}", f"lemma:{w.lemma}",
         f"gov:{gov.lemma if gov else '-'}", f"govrel:{gov.rel if gov else '-'}",
         f"govpos:{gov.pos if gov else '-'}",
         f"gov_case:{gov.lemma if gov else '-'}|{w.preposition or '-'}|{w.case}",
         f"prev:{prev.lemma if prev else '-'}", f"next:{after.lemma if after else '-'}",
         f"first:{w.sentence == 0 and i == 0}",
         f"me:{any(x.lemma in _FIRST for x in same)}",
         f"quoted:{bool(prev and prev.text in _QUOTES)}",
         f"car:{any(_is_car(words[j]) for j in span)}"]
    if w.text[:1].isupper():  # what a capitalised word stands for: a town's or a firm's form
        from wave_agent.world.morphology import name_kinds

        kinds = name_kinds(w.text)
        f += [f"known:{','.join(sorted(kinds)) or '-'}",
              f"known_case:{','.join(sorted(kinds)) or '-'}|{w.preposition or '-'}",
              f"camel:{bool(_CAMEL.search(w.text))}", f"end:{w.lemma.lower()[-4:]}",
              f"known_gov:{'Geox' in kinds}|{gov.lemma if gov else '-'}"]
        # what the nouns beside it name ("овчарка Джек", "кот Барсик": a pet noun) and what
        # its own word is near ("Камри": a car's)
        from wave_agent.world.kinds import noun_kind

        beside = {j for j in (span[0] - 1, w.head) if 0 <= j < len(words)} | {
            j for j, x in enumerate(words) if x.head == i}
        near = sorted({k.value for j in beside if words[j].pos == "NOUN"
                       and words[j].text.islower() and (k := noun_kind(words[j].lemma))})
        own = noun_kind(w.lemma.lower())
        f += [f"beside:{k}" for k in near or ["-"]]
        f.append(f"own_kind:{own.value if own else '-'}")
    return tuple(f)


def _is_car(word: Word) -> bool:
    """Whether a word is a car's make or model as people type them ("королла", "Kia", "гранту"):
    world knowledge the model weighs with the rest, not a rule that decides."""
    return any(w.lower().replace("ё", "е") in CAR_NAMES for w in (word.text, word.lemma))


@lru_cache(maxsize=65_536)
def _vector(lemma: str) -> Any:
    import numpy as np

    from wave_agent.world.morphology import Models

    word = lemma.lower().replace("ё", "е")
    vector = Models.get().embedding.get(word) if word else None
    if vector is None:
        return np.zeros(300, dtype="float32")
    return (vector / max(1e-6, float(np.linalg.norm(vector)))).astype("float32")


def dense(candidate: Candidate) -> Any:
    import numpy as np

    if not candidate.head and not candidate.governor:
        return np.zeros(600, dtype="float32")
    return np.concatenate([_vector(candidate.head), _vector(candidate.governor)])


class Model:
    """The trained weights: sparse features by vocabulary, the two navec vectors, per class."""

    _lock = threading.Lock()
    _loaded: ClassVar[dict[str, Model | None]] = {}

    def __init__(self, vocabulary: list[str], classes: list[str], coef: Any, dense_coef: Any,
                 intercept: Any, threshold: float, kinds: frozenset[str]) -> None:
        self.index = {f: i for i, f in enumerate(vocabulary)}
        self.classes = classes
        self.coef = coef              # (n_classes, n_vocabulary)
        self.dense_coef = dense_coef  # (n_classes, 600)
        self.intercept = intercept
        self.threshold = threshold
        self.kinds = kinds            # "language|kind": what the reading takes from it
        self.thresholds: dict[str, float] = {}  # "language|kind": its own, chosen held out
        # "language|kind" of a loose mention the rules read ("ru|place"): the probability at
        # which the model's likeliest other kind replaces it, chosen held out by author
        self.retype: dict[str, float] = {}

    @classmethod
    def load(cls, path: Path) -> Model | None:
        import numpy as np

        if not path.exists():
            return None
        with np.load(path) as data:
            model = cls([str(v) for v in data["vocabulary"]], [str(c) for c in data["classes"]],
                        data["coef"], data["dense_coef"], data["intercept"],
                        float(data["threshold"]), frozenset(str(k) for k in data["kinds"]))
            if "threshold_kinds" in data.files:
                model.thresholds = {str(k): float(v) for k, v in zip(
                    data["threshold_kinds"], data["threshold_values"], strict=True)}
            if "retype_kinds" in data.files:
                model.retype = {str(k): float(v) for k, v in zip(
                    data["retype_kinds"], data["retype_values"], strict=True)}
            return model

    @classmethod
    def get(cls, reader: str) -> Model | None:
        with cls._lock:
            if reader not in cls._loaded:
                cls._loaded[reader] = cls.load(MODEL_PATHS[reader])
            return cls._loaded[reader]

    def save(self, path: Path) -> None:
        import numpy as np

        vocabulary = sorted(self.index, key=self.index.__getitem__)
        np.savez_compressed(path, vocabulary=np.array(vocabulary), classes=np.array(self.classes),
                            coef=self.coef.astype("float32"),
                            dense_coef=self.dense_coef.astype("float32"),
                            intercept=self.intercept.astype("float32"),
                            threshold=np.array(self.threshold), kinds=np.array(sorted(self.kinds)),
                            threshold_kinds=np.array(sorted(self.thresholds), dtype=str),
                            threshold_values=np.array([self.thresholds[k] for k in sorted(
                                self.thresholds)], dtype="float64"),
                            retype_kinds=np.array(sorted(self.retype), dtype=str),
                            retype_values=np.array([self.retype[k] for k in sorted(
                                self.retype)], dtype="float64"))

    def threshold_of(self, kind: str) -> float:
        """The probability a kind ("ru|hobby") is taken at: its own when the training chose
        one on held-out authors, else the model's."""
        return self.thresholds.get(kind, self.threshold)

    def retype_threshold(self, read: str, kind: str) -> float:
        """The probability at which a loose mention the rules read as ``read`` ("ru|place") is
        given the model's likeliest kind ``kind`` ("ru|organisation") instead: the read kind's
        own when the training chose one held out, else the kind's."""
        return self.retype.get(read, self.threshold_of(kind))

    def choose(self, candidate: Candidate) -> tuple[str, float]:
        import numpy as np

        columns = [self.index[f] for f in set(candidate.features) if f in self.index]
        scores = self.coef[:, columns].sum(axis=1) + self.dense_coef @ dense(candidate) \
            + self.intercept
        p = np.exp(scores - scores.max())
        p /= p.sum()
        best = int(np.argmax(p))
        return self.classes[best], float(p[best])


def reader_of(language: str) -> str:
    return "ru" if language == "ru" else "latin"


def found(text: str, reading: Reading) -> list[Candidate]:
    """The candidates of a statement, by its language's reader."""
    if reading.language == "ru":
        return candidates(reading)
    return latin_candidates(text, reading) if reading.language in ("en", "pl") else []


def add(text: str, reading: Reading, model: Model | None = None) -> Reading:
    """The reading with the noun phrases the model gives a kind it adds, as mentions."""
    model = model or Model.get(reader_of(reading.language))
    if model is None:
        return reading
    added = []
    retyped: dict[str, EntityType] = {}
    dropped: set[str] = set()
    seen = {name_key(m.name) for m in reading.mentions}
    lang = reading.language
    for c in found(text, reading):
        kind, p = model.choose(c)
        taken = f"{lang}|{kind}" in model.kinds and p >= model.threshold_of(f"{lang}|{kind}")
        if c.read:  # a loose place or person: another kind when the model is sure of it
            if (f"{lang}|{kind}" in model.kinds and kind != c.read
                    and p >= model.retype_threshold(f"{lang}|{c.read}", f"{lang}|{kind}")):
                retyped[c.name] = EntityType(kind)
            elif (lang == "ru" and kind == NONE and p >= model.threshold
                  and f"{lang}|{c.read}" in model.kinds and EntityType(c.read) in DROPPED_RU):
                dropped.add(c.name)  # a Russian person the model is sure is no one
        elif taken and name_key(c.name) not in seen:
            seen.add(name_key(c.name))
            added.append(Mention(c.name, EntityType(kind), c.aliases))
    if not added and not retyped and not dropped:
        return reading
    mentions = tuple(replace(m, type=retyped[m.name]) if m.name in retyped else m
                     for m in reading.mentions if m.name not in dropped)
    return replace(reading, mentions=(*mentions, *added))


__all__ = ["MODEL_PATHS", "NONE", "Candidate", "Model", "add", "candidates", "dense", "found",
           "latin_candidates", "reader_of"]

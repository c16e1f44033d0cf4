"""Relations learned from the labelled sets: each pair a statement names (the speaker or a
mention, then a mention; in Russian also a person or pet, then the speaker) is given a relation
type or none by a small logistic regression (``relations.npz``, trained by
``scripts/train_relations.py`` on the hand-labelled entity sets), instead of one more pattern
per phrasing.

A pair's features are what an author's phrasing does not fix: the two ends' types, the words
between them and beside the target (lemmas in Russian, the first five letters elsewhere), how
far apart they stand, whether a first-person word or another person stands between, the kin
role a word beside the target names, what the words between and on the tree path stand for (a
role word, an occupation or another mention's kind: "сварщиком на «Кубаньстали»" teaches every
job before a firm, not the welder's), and the rule reader's own link for the pair (the rules
are one feature among these, not the decision). A kin relation's role is the rule's, else
the role word beside the target; a kin pair with no role word is left out.

``relink(text, reading)`` replaces the rule reader's links between the pairs the model
judges; links it cannot judge (an end known only by a role, "муж работает водителем") stay
the rules'. Pure CPU; the weights load once per process.

Why one file of this size: a pair's features and the model that reads them change together
(a feature is read only by weights fitted on it, ``Model.owners``), so both stay in one place;
the parse-only helpers live beside it (``word_classes``, ``possessor.owner_features``).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, ClassVar

from graph import kin
from graph.models import EntityType
from wave_agent.world import lexicon
from wave_agent.world.governor import (
    NOT_YET,
    beside_features,
    clause_person,
    governor_features,
    nearest_person,
    verb_mood,
)
from wave_agent.world.possessor import owner_features
from wave_agent.world.reading import ROLE_PREFIX, USER, Link, Reading, Word, kin_link
from wave_agent.world.word_classes import path_classes, target_classes

MODEL_PATH = Path(__file__).with_name("relations.npz")
# a language's own weights where a refit helps it and not the others ("relations_ru.npz": a
# Russian refit with Polish kept on ``MODEL_PATH``, whose refit read a district as a second
# home, round thirty); none ships yet (round thirty-one's refit is not in: docs/benchmarks.md)
LANGUAGE_PATH = "relations_{}.npz"
NONE = "none"
# the classes the model chooses among: a link type, or "kin" (the role is read beside it)
CLASSES = (NONE, "kin", "lives_in", "works_at", "works_as", "studies_at", "member_of",
           "friend_of", "owns", "pet_of", "part_of", "has_condition", "does")
_TOKEN = re.compile(r"[^\W_]+(?:-[^\W_]+)*|[.!?;:,—–()«»\"]", re.UNICODE)
_SENTENCE_END = frozenset(".!?;")
_FIRST_PERSON = frozenset((
    "я", "меня", "мне", "мной", "мы", "нас", "нам", "мой", "моя", "моё", "мое", "мои", "моего",
    "моей", "моему", "мою", "моим", "моих", "наш", "наша", "наше", "наши", "нашего", "нашей",
    "нашу", "нашим", "наших", "i", "me", "my", "we", "our", "us", "i'm", "ja", "mnie", "mi",
    "mną", "my", "nas", "nam", "mój", "moja", "moje", "mojego", "mojej", "moją", "moim", "nasz",
    "nasza", "nasze", "naszego", "naszej", "naszą", "naszym",
))
_ONE_SOURCE = frozenset({"kin", "friend_of"})
# one holder per job (round thirty-four, issue 29): of the model's links of these types to one
# target, only the likeliest source's stands when another source holds it more likely (the
# rules' links kept): "Жена Юля. Бухгалтер в клинике Медси." is Юля's job, not also the
# speaker's. Measured in Russian only (docs/benchmarks.md, round thirty-four of h/world34).
# An illness likewise (round thirty-eight: none of the 304 Russian illnesses the older
# authors label has two holders): of the model's links the likeliest holder's stands, and the
# speaker's, the rules' or the model's, gives way to a named holder ("Граф заболел:
# ветеринар говорит, отит" is the dog's; "Тамару Васильевну положили с пневмонией" hers).
_ONE_HOLDER = {"ru": frozenset({"works_as", "has_condition"})}
_NAMED_FIRST = {"ru": frozenset({"has_condition"})}
# pair features measured and not shipped (round thirty-three, issue 29): "mood" the tense,
# aspect and mood of the target's verb (``governor.verb_mood``), "lastp" the person named
# nearest before the target (``governor.nearest_person``). No shipped weights read them, so
# they are computed only when a refit asks (``scripts/relation_newest.py --trial``).
TRIAL: frozenset[str] = frozenset()
_BETWEEN = 8  # words between two ends kept as features (the nearest to the target)


@dataclass(frozen=True, slots=True)
class Pair:
    source: str  # USER or a mention's name
    target: str  # a mention's name
    features: tuple[str, ...]


@lru_cache(maxsize=1)
def _morph() -> Any:
    import pymorphy3

    return pymorphy3.MorphAnalyzer(lang="ru")


@lru_cache(maxsize=65_536)
def _word(token: str, lang: str) -> str:
    lowered = token.lower()
    if lang == "ru" and re.search(r"[\u0400-\u04ff]", lowered):
        return str(_morph().parse(lowered)[0].normal_form).replace("ё", "е")
    return lowered[:5]


def _stem(word: str) -> str:
    lowered = word.lower().replace("ё", "е")
    return lowered[:max(3, min(5, len(lowered) - 1))]


def _position(tokens: list[str], names: Iterable[str]) -> int | None:
    """The first token where one of a mention's names (or an inflected form of it) stands."""
    best: int | None = None
    for name in names:
        words = [w for w in _TOKEN.findall(name) if w[0].isalnum()]
        if not words:
            continue
        stem = _stem(words[0])
        for i, token in enumerate(tokens):
            if token.lower().replace("ё", "е").startswith(stem):
                best = i if best is None else min(best, i)
                break
    return best


def _sentence_of(tokens: list[str]) -> list[int]:
    sentence, out = 0, []
    for token in tokens:
        out.append(sentence)
        if token in _SENTENCE_END:
            sentence += 1
    return out


_NAMING = (("меня", "зовут"), ("my", "name", "is"), ("mam", "na", "imię"), ("i'm",), ("я",),
           ("jestem",), ("i", "am"))


def _names_the_speaker(tokens: list[str], at: int | None) -> bool:
    """"Меня зовут Марина", "My name is Priya", "Mam na imię Paweł", "Я — Олеся": the
    speaker's own name, whose relations are the speaker's (``USER``), not a pair of its own."""
    if at is None:
        return False
    before = [t.lower() for t in tokens[max(0, at - 3):at] if t not in ("—", "–", ",")]
    return any(tuple(before[-len(words):]) == words for words in _NAMING)


def _rule_group(link_type: str) -> str:
    return "kin" if link_type.startswith("kin:") else link_type


def _word_at(words: tuple[Word, ...], names: Iterable[str]) -> int | None:
    """The parsed word where a mention stands (its first word, as ``_position``)."""
    return _position([w.text for w in words], names)


def _up(words: tuple[Word, ...], at: int) -> list[int]:
    chain = [at]
    while words[chain[-1]].head >= 0 and len(chain) < 40:
        chain.append(words[chain[-1]].head)
    return chain


def _speaker(words: tuple[Word, ...], t: int) -> tuple[int, str]:
    """The word that stands for the speaker in the target's sentence: a first-person word
    (the nearest before the target, else after it), else the sentence's root."""
    same = [i for i, w in enumerate(words) if w.sentence == words[t].sentence]
    mine = [i for i in same if words[i].text.lower() in _FIRST_PERSON and i != t]
    before = [i for i in mine if i < t]
    if before:
        return before[-1], "me"
    if mine:
        return mine[0], "me_after"
    root = next((i for i in same if words[i].head < 0), same[0])
    return root, "root"


def _syntax(words: tuple[Word, ...], s: int | None, t: int) -> list[str]:
    """The tree between the two ends: the labels up from the source to their common head and
    down to the target, the lemmas on that path, the target's head, case and preposition."""
    target = words[t]
    head = words[target.head] if target.head >= 0 else None
    # a name apposed to its noun ("в компании «Волга-Сервис»") takes the noun's case
    anchor = head if head is not None and target.rel in ("appos", "flat") else target
    prep, case = anchor.preposition or "-", anchor.case
    f = [f"syn:trel:{target.rel}", f"syn:tcase:{prep}|{case}",
         f"syn:thead:{head.lemma if head else '-'}",
         f"syn:thead_case:{head.lemma if head else '-'}|{prep}|{case}"]
    f += target_classes(target.lemma, head.lemma if head else None, f"{prep}|{case}")
    if s is None:
        return f
    source = words[s]
    if source.sentence != target.sentence:
        return [*f, "syn:apart"]
    up_s, up_t = _up(words, s), _up(words, t)
    common = next((i for i in up_s if i in up_t), None)
    if common is None:
        return [*f, "syn:apart"]
    rise = [words[i].rel for i in up_s[:up_s.index(common)]]
    fall = [words[i].rel for i in reversed(up_t[:up_t.index(common)])]
    between = [i for i in (*up_s[1:up_s.index(common) + 1], *up_t[1:up_t.index(common)])
               if i not in (s, t)]
    lca = words[common]
    f += [f"syn:srel:{source.rel}", f"syn:lca:{lca.lemma}",
          f"syn:fall:{'>'.join(fall[:3])}", f"syn:rise:{'>'.join(rise[:3])}",
          f"syn:path:{'>'.join(rise[:3])}|{'>'.join(fall[:3])}",
          f"syn:len:{min(len(rise) + len(fall), 5)}",
          f"syn:lca_case:{lca.lemma}|{prep}|{case}",
          f"syn:lca_fall:{lca.lemma}|{'>'.join(fall[:2])}"]
    f.extend(f"syn:pw:{words[i].lemma}" for i in between[:6])
    f += path_classes(lca.lemma, [words[i].lemma for i in between[:6]], ">".join(fall[:2]))
    return f


def _kinds_on_path(words: tuple[Word, ...], s: int | None, t: int,
                   kind_at: dict[int, str]) -> list[str]:
    """What the words around the target stand for, not which words they are: a kin role or
    another mention's kind (an occupation, a person) as the target's head, on the tree path
    from the source, or beside the target ("инженер на Уралмаше", "сестра тимура"), so the
    model learns a phrasing once for every job and every role."""
    def kind(i: int) -> str | None:
        return "role" if kin.role_of(words[i].text) else kind_at.get(i)

    target = words[t]
    f = ["kp:tself:role"] if kin.role_of(target.text) else []
    if target.head >= 0 and (k := kind(target.head)):
        f.append(f"kp:thead:{k}")
    f.extend(f"kp:tkid:{k}" for i, w in enumerate(words)
             if w.head == t and i != s and (k := kind(i)))
    if s is None or words[s].sentence != target.sentence:
        return f
    up_s, up_t = _up(words, s), _up(words, t)
    common = next((i for i in up_s if i in up_t), None)
    if common is None:
        return f
    on_path = [i for i in (*up_s[1:up_s.index(common) + 1], *up_t[1:up_t.index(common)])
               if i not in (s, t)]
    f.extend(f"kp:pw:{k}" for i in on_path if (k := kind(i)))
    return list(dict.fromkeys(f))


def pairs(text: str, reading: Reading, owners: bool = False) -> list[Pair]:
    """Every (speaker or mention, mention) pair of the statement, with its features, and in
    Russian every (person or pet, speaker) pair; with ``owners``, a pair to the speaker also
    reads whose the pet or person is said to be (``possessor.owner_features``: a model
    fitted with them)."""
    lang = reading.language or "ru"
    tokens = _TOKEN.findall(text)
    sentence = _sentence_of(tokens)
    words = [_word(t, lang) for t in tokens]
    first = [i for i, t in enumerate(tokens) if t.lower() in _FIRST_PERSON]
    where = {m.name: _position(tokens, (m.name, *m.aliases)) for m in reading.mentions}
    kinds = {m.name: m.type.value for m in reading.mentions}
    persons = [at for m in reading.mentions
               if m.type is EntityType.PERSON and (at := where[m.name]) is not None]
    rule = {(link.source, link.target): _rule_group(link.type) for link in reading.links}
    into: dict[str, set[str]] = {}
    for link in reading.links:
        into.setdefault(link.target, set()).add(_rule_group(link.type))
    parsed = reading.words
    at_word = {m.name: _word_at(parsed, (m.name, *m.aliases)) for m in reading.mentions} \
        if parsed else {}
    kind_at = {at: kinds[name] for name, at in at_word.items() if at is not None}

    def kinds_in(lo: int, hi: int, ends: tuple[str, ...], prefix: str,
                 roles: bool = False, sentence_of: int | None = None) -> list[str]:
        """The kinds of the other mentions in tokens lo..hi-1 (of one sentence, if given) and,
        with ``roles``, a kin role word among them: what stands between the ends, not which
        words (Russian only)."""
        if lang != "ru":
            return []
        found = {kinds[n] for n, at in where.items()
                 if at is not None and lo <= at < hi and n not in ends
                 and sentence_of in (None, sentence[at])}
        if roles and any(kin.role_of(tokens[i]) for i in range(lo, hi)):
            found.add("role")
        return [f"{prefix}:{k}" for k in sorted(found)]

    out: list[Pair] = []
    # the speaker's own name is a person's: "я тимлид" says a job, not a name
    me = {m.name for m in reading.mentions
          if m.type is EntityType.PERSON and _names_the_speaker(tokens, where[m.name])}
    sources = [USER, *(m.name for m in reading.mentions
                       if m.type in (EntityType.PERSON, EntityType.PET) and m.name not in me)]
    for source in sources:
        for m in reading.mentions:
            if m.name == source or m.name in me:
                continue
            t = where[m.name]
            kind_s = "user" if source == USER else kinds[source]
            pair = f"{kind_s}>{m.type.value}"
            f = [f"t:{pair}", f"lang:{lang}|{pair}", f"rule:{rule.get((source, m.name), NONE)}",
                 f"rule|t:{rule.get((source, m.name), NONE)}|{pair}"]
            f.append(f"rev:{rule.get((m.name, source), NONE)}")
            f.extend(f"into:{g}" for g in sorted(into.get(m.name, ())))
            roles = {kin.role_of(a) for a in m.aliases if a}
            if t is not None:
                roles |= {kin.role_of(tokens[i]) for i in range(max(0, t - 2), t + 3)
                          if i < len(tokens) and i != t}
            roles.discard(None)
            if roles:
                f.append("role_beside")
            if (tw := at_word.get(m.name)) is not None:
                sw: int | None = None
                if source == USER:
                    sw, how = _speaker(parsed, tw)
                    f.append(f"syn:speaker:{how}")
                else:
                    sw = at_word.get(source)
                f.extend(_syntax(parsed, sw, tw))
                f.extend(_kinds_on_path(parsed, sw, tw, kind_at))
                f.extend(governor_features(parsed, tw, None if source == USER else sw))
                f.extend(beside_features(parsed, tw))
                if "mood" in TRIAL:
                    f.extend(verb_mood(parsed, tw))
                if "lastp" in TRIAL:
                    f.extend(nearest_person(parsed, tw, None if source == USER else sw,
                                            {at for at, k in kind_at.items()
                                             if k == "person"}))
                f.append(clause_person(parsed, tw, None if source == USER else sw,
                                       {at for at, k in kind_at.items() if k == "person"}))
            if t is None:
                f.append("target:unplaced")
                out.append(Pair(source, m.name, tuple(f)))
                continue
            f.extend(f"pre1:{words[i]}" for i in range(max(0, t - 1), t))
            f.extend(f"pre2:{words[i]}" for i in range(max(0, t - 2), max(0, t - 1)))
            f.extend(f"post1:{words[i]}" for i in range(t + 1, min(len(words), t + 2)))
            if source == USER:
                same = [i for i in first if sentence[i] == sentence[t]]
                f.append(f"me_in_sentence:{bool(same)}")
                before = [i for i in same if i < t]
                if before:
                    s = before[-1]
                    f.extend(f"btw:{w}" for w in words[s + 1:t][-_BETWEEN:])
                    f.extend(kinds_in(s + 1, t, (m.name,), "kb"))
                    f.append(f"dist:{min(t - s, 9) // 3}")
                    f.append(f"person_between:{any(s < p < t for p in persons)}")
                else:
                    f.extend(f"head:{w}" for w in words[max(0, t - 4):t])
                    f.extend(kinds_in(max(0, t - 4), t, (m.name,), "kh",
                                      sentence_of=sentence[t]))
                    f.append("person_before:"
                             f"{any(p < t and sentence[p] == sentence[t] for p in persons)}")
                out.append(Pair(source, m.name, tuple(f)))
                continue
            placed = where[source]
            if placed is None:
                f.append("source:unplaced")
                out.append(Pair(source, m.name, tuple(f)))
                continue
            s = placed
            lo, hi = sorted((s, t))
            f.append(f"order:{'st' if s < t else 'ts'}")
            f.append(f"same_sentence:{sentence[s] == sentence[t]}")
            f.append(f"dist:{min(hi - lo, 12) // 3}")
            f.append(f"person_between:{any(lo < p < hi for p in persons)}")
            f.append(f"me_between:{any(lo < i < hi for i in first)}")
            f.extend(f"btw:{w}" for w in words[lo + 1:hi][-_BETWEEN:])
            f.extend(kinds_in(lo + 1, hi, (source, m.name), "kb", roles=True))
            f.extend(f"spre1:{words[i]}" for i in range(max(0, s - 1), s))
            out.append(Pair(source, m.name, tuple(f)))
    if lang == "ru":
        out.extend(_to_speaker(reading, tokens, words, where, kinds, rule, me, kinds_in, owners))
    return out


def _to_speaker(reading: Reading, tokens: list[str], words: list[str],
                where: dict[str, int | None], kinds: dict[str, str],
                rule: dict[tuple[str, str], str], me: set[str],
                kinds_in: Any, owners: bool = False) -> list[Pair]:
    """A pet's or a person's pair pointing at the speaker ("Барсик" pet_of the speaker, "Лена"
    a friend of theirs): the model judges these too, not only the rules (Russian)."""
    out = []
    parsed = reading.words
    at_word = {m.name: _word_at(parsed, (m.name, *m.aliases)) for m in reading.mentions} \
        if parsed else {}
    kind_at = {at: kinds[name] for name, at in at_word.items() if at is not None}
    for m in reading.mentions:
        if m.type not in (EntityType.PERSON, EntityType.PET) or m.name in me:
            continue
        pair = f"{m.type.value}>user"
        f = [f"t:{pair}", f"lang:ru|{pair}", f"rule:{rule.get((m.name, USER), NONE)}",
             f"rule|t:{rule.get((m.name, USER), NONE)}|{pair}",
             f"rev:{rule.get((USER, m.name), NONE)}"]
        if parsed and (sw := _word_at(parsed, (m.name, *m.aliases))) is not None:
            me_word, how = _speaker(parsed, sw)
            f.append(f"syn:speaker:{how}")
            # with no first-person word the sentence's root stands in for the speaker: its
            # case and head are another word's ("у Кости"), kept apart from a speaker's own
            tree = _syntax(parsed, sw, me_word)
            if not owners:
                f.extend(tree)
            else:
                f.extend(tree if how != "root" else (f"syn:r:{x[4:]}" for x in tree))
                f.extend(owner_features(parsed, sw, kind_at, _FIRST_PERSON))
        s = where[m.name]
        if s is not None:
            f.extend(f"spre1:{words[i]}" for i in range(max(0, s - 1), s))
            f.extend(f"post1:{words[i]}" for i in range(s + 1, min(len(words), s + 2)))
            f.extend(f"head:{w}" for w in words[max(0, s - 4):s])
            f.extend(kinds_in(max(0, s - 4), s, (m.name,), "kh"))
        else:
            f.append("source:unplaced")
        out.append(Pair(m.name, USER, tuple(f)))
    return out


class Model:
    """The trained weights: a vocabulary of features, one row of weights per class."""

    _lock = threading.Lock()
    _loaded: ClassVar[dict[str, Model | None]] = {}  # by language ("" the shared weights), once each

    def __init__(self, vocabulary: list[str], classes: list[str], coef: Any, intercept: Any,
                 threshold: float, allowed: Iterable[str] = (), keep_rules: bool = False,
                 languages: Iterable[str] = ("ru", "en", "pl"),
                 scope: Iterable[str] = (), thresholds: dict[str, float] | None = None,
                 owners: bool = False) -> None:
        self.keep_rules = keep_rules  # the model's links added to the rules' (else replacing)
        self.languages = frozenset(languages)  # where it beat the rules on unseen authors
        # "language|type": in a language listed here, only these types of its links are taken
        # (the types whose held-out F1 it raised there), the rules' links all kept; a language
        # not listed takes every type
        self.scope = frozenset(scope)
        self.allowed = frozenset(allowed)  # "class|source type>target type" seen in training
        self.index = {f: i for i, f in enumerate(vocabulary)}
        self.classes = classes
        self.coef = coef            # (n_classes, n_features)
        self.intercept = intercept  # (n_classes,)
        self.threshold = threshold
        # a language's own threshold where its held-out authors chose one ("ru": 0.9: the
        # model's links added to the rules' only when it is sure), and a type's own in it
        # ("ru|works_at"), else ``threshold``
        self.thresholds = dict(thresholds or {})
        self.owners = owners  # fitted on the pairs' owner features (``pairs(owners=True)``)

    @classmethod
    def load(cls, path: Path = MODEL_PATH) -> Model | None:
        import numpy as np

        if not path.exists():
            return None
        with np.load(path) as data:
            return cls([str(v) for v in data["vocabulary"]], [str(c) for c in data["classes"]],
                       data["coef"], data["intercept"], float(data["threshold"]),
                       [str(a) for a in data["allowed"]], bool(data["keep_rules"]),
                       [str(v) for v in data["languages"]] if "languages" in data
                       else ("ru", "en", "pl"),
                       [str(v) for v in data["scope"]] if "scope" in data else (),
                       dict(zip([str(k) for k in data["threshold_languages"]],
                                [float(v) for v in data["threshold_values"]], strict=True))
                       if "threshold_languages" in data else None,
                       bool(data["owners"]) if "owners" in data else False)

    @classmethod
    def get(cls, language: str = "") -> Model | None:
        """The weights a language's statements are read with: its own file where one ships
        (``LANGUAGE_PATH``), else the shared ``relations.npz``."""
        with cls._lock:
            if "" not in cls._loaded:
                cls._loaded[""] = cls.load()
            if language and language not in cls._loaded:
                own = MODEL_PATH.with_name(LANGUAGE_PATH.format(language))
                cls._loaded[language] = cls.load(own) if own.exists() else cls._loaded[""]
            return cls._loaded[language]

    def save(self, path: Path) -> None:
        import numpy as np

        vocabulary = sorted(self.index, key=self.index.__getitem__)
        np.savez_compressed(path, vocabulary=np.array(vocabulary), classes=np.array(self.classes),
                            coef=self.coef.astype("float32"),
                            intercept=self.intercept.astype("float32"),
                            threshold=np.array(self.threshold),
                            allowed=np.array(sorted(self.allowed)),
                            keep_rules=np.array(self.keep_rules),
                            languages=np.array(sorted(self.languages)),
                            scope=np.array(sorted(self.scope), dtype=str),
                            threshold_languages=np.array(sorted(self.thresholds), dtype=str),
                            threshold_values=np.array(
                                [self.thresholds[k] for k in sorted(self.thresholds)],
                                dtype="float64"),
                            owners=np.array(self.owners))

    def probabilities(self, features: Iterable[str]) -> Any:
        import numpy as np

        columns = [self.index[f] for f in set(features) if f in self.index]
        scores = self.coef[:, columns].sum(axis=1) + self.intercept
        scores = np.exp(scores - scores.max())
        return scores / scores.sum()

    def choose(self, pair: Pair) -> tuple[str, float]:
        """The most likely type among those the training saw between such ends, and its
        probability; ``NONE`` when no type reaches the threshold."""
        p = self.probabilities(pair.features)
        types = next(f[2:] for f in pair.features if f.startswith("t:"))
        lang = next((f[5:].split("|", 1)[0] for f in pair.features if f.startswith("lang:")), "")
        best, kind = 0.0, NONE
        for i, name in enumerate(self.classes):
            if name != NONE and p[i] > best and (
                    not self.allowed or f"{name}|{types}" in self.allowed):
                best, kind = float(p[i]), name
        return (kind, best) if best >= self.threshold_of(lang, kind) and (
            best >= p[self.classes.index(NONE)]) else (NONE, best)

    def threshold_of(self, language: str, kind: str) -> float:
        """The probability a link type is taken at in a language: the type's own where the
        held-out authors chose one ("ru|works_at"), else the language's, else the model's."""
        return self.thresholds.get(f"{language}|{kind}",
                                   self.thresholds.get(language, self.threshold))

    def takes(self, language: str) -> frozenset[str] | None:
        """The link types the model gives in ``language`` (``None``: every type, replacing
        the rules' as the model was trained)."""
        scoped = frozenset(k.split("|", 1)[1] for k in self.scope if k.startswith(f"{language}|"))
        return scoped or None


def _kin_role(text: str, reading: Reading, target: str) -> str | None:
    """The kin role a pair's target is given: an alias that is a role word, else a role word
    beside it in the text."""
    mention = reading.mention(target)
    if mention is None:
        return None
    for alias in mention.aliases:
        if (role := kin.role_of(alias)) is not None:
            return role
    tokens = _TOKEN.findall(text)
    t = _position(tokens, (mention.name, *mention.aliases))
    if t is None:
        return None
    for i in (t - 1, t + 1, t - 2, t + 2):
        if 0 <= i < len(tokens) and (role := kin.role_of(tokens[i])) is not None:
            return role
    return None


def relink(text: str, reading: Reading, model: Model | None = None) -> Reading:
    """The reading with the links the model chooses between its pairs; the rules' links
    between ends the model does not judge are kept."""
    model = model or Model.get(reading.language or "ru")
    if model is None or not reading.mentions or (reading.language or "ru") not in model.languages:
        return reading
    judged = pairs(text, reading, model.owners)
    keys = {(p.source, p.target) for p in judged}
    takes = model.takes(reading.language or "ru")
    kept = [link for link in reading.links
            if model.keep_rules or takes is not None or (link.source, link.target) not in keys]
    rule_kin = {(link.source, link.target): link.type for link in reading.links
                if link.type.startswith("kin:")}
    links = list(kept)
    chosen = [(pair, *model.choose(pair)) for pair in judged]
    # the wish gate applies to weights fitted with the verb features only (the old weights
    # never read them; on those the gate was level, round thirty)
    self_gate = NOT_YET in model.index
    # one source per target for a kin role or a friendship: the likeliest
    single: dict[tuple[str, str], float] = {}
    for pair, kind, p in chosen:
        if kind in _ONE_SOURCE:
            single[(pair.target, kind)] = max(p, single.get((pair.target, kind), 0.0))
    for pair, kind, p in chosen:
        if kind == NONE or (kind in _ONE_SOURCE and p < single[(pair.target, kind)]) or (
                takes is not None and kind not in takes) or (
                    self_gate and NOT_YET in pair.features):
            # under a wish or a persuasion ("хочет работать в «Касперском»") it is not so
            # yet, as the rules read it: the refit with the verb features links it at 0.97
            continue
        if kind == "kin":
            link_type = rule_kin.get((pair.source, pair.target))
            if link_type is None:
                role = _kin_role(text, reading, pair.target)
                if role is None:
                    continue
                link_type = kin_link(role)
            links.append(Link(pair.source, link_type, pair.target))
        else:
            links.append(Link(pair.source, kind, pair.target))
    links = _one_holder(list(dict.fromkeys(links)), reading, judged, model)
    links = _job_firms(text, reading, links)
    links = _holders_firm(reading, links, judged, model)
    if links == list(reading.links):
        return reading
    return replace(reading, links=tuple(links))


# a job's firm (round thirty-six, issue 29): an organisation named right after a job and "в"
# / "на" ("Логист в «ЮгТрансЛогистик»", "Медсестра в поликлинике №7", "Главбухом в сеть
# кофеен «Кофеин»") is where the job's holder works, whoever linked the job (the rules or the
# model). Russian only: measured there (docs/benchmarks.md, round thirty-six of h/rel36).
_JOB_FIRM = frozenset({"ru"})
# a job's holder with no workplace linked (round thirty-eight, issue 29): the model's
# likeliest organisation for their ``works_at``, taken at this lower bar than the type's own
_HOLDER_FIRM: dict[str, float] = {"ru": 0.8}
_AT = frozenset({"в", "во", "на"})
# a band or a team is no employer ("member_of"), nor a hospital's ward
_NOT_FIRM = lexicon.GROUP_NOUNS | frozenset({"отделение", "кардиология", "хирургия",
                                             "терапия", "реанимация"})
_TO_SOMEONE = frozenset({"у", "к", "ко", "от", "с", "со", "для", "при"})
_JOB_WORDS = 3  # words of the job's own phrase before "в" ("главного бухгалтера в")
_FIRM_WORDS = 5  # words before the firm's name after "в" ("в сеть кофеен «Кофеин»")


def _job_firms(text: str, reading: Reading, links: list[Link]) -> list[Link]:
    """The links with a ``works_at`` link from each job's holder to the organisation named
    within a few words after the job, behind "в" / "на" and no punctuation."""
    if (reading.language or "ru") not in _JOB_FIRM or not any(
            link.type == "works_as" for link in links):
        return links
    tokens = _TOKEN.findall(text)
    at = {m.name: _position(tokens, (m.name, *m.aliases)) for m in reading.mentions}
    firms = {i: m.name for m in reading.mentions
             if m.type is EntityType.ORGANISATION and (i := at[m.name]) is not None}
    people = {m.name for m in reading.mentions if m.type is EntityType.PERSON}
    found: list[Link] = []
    for link in links:
        job = at.get(link.target) if link.type == "works_as" else None
        if job is None or not (link.source == USER or link.source.startswith(ROLE_PREFIX)
                               or link.source in people):
            continue
        if job > 0 and tokens[job - 1].lower() in _TO_SOMEONE:
            continue  # "были у ветеринара в «Айболите»": someone visited, not a job held
        i = job + 1
        while i < len(tokens) and i <= job + _JOB_WORDS and tokens[i].lower() not in _AT and (
                tokens[i][0].isalnum()):
            i += 1
        if i >= len(tokens) or tokens[i].lower() not in _AT:
            continue
        named = None  # the last before a break: "в центре помощи «Гармония»" is Гармония
        for j in range(i + 1, min(len(tokens), i + 1 + _FIRM_WORDS)):
            if tokens[j][0].isalnum() and _word(tokens[j], "ru") in _NOT_FIRM:
                break  # "барабанщик в группе «пыльца»": a band; "в кардиологии": a ward
            if j in firms:
                named = firms[j]
            elif not (tokens[j][0].isalnum() or tokens[j] in "«\"„“"):
                break
        if named is not None:
            found.append(Link(link.source, "works_at", named))
    return list(dict.fromkeys([*links, *found]))


def _holders_firm(reading: Reading, links: list[Link], judged: list[Pair],
                  model: Model) -> list[Link]:
    """The links with a ``works_at`` link from each job's holder who has no workplace linked
    to the organisation the model holds likeliest their workplace, when that reaches
    ``_HOLDER_FIRM``'s lower bar ("тренер там Андрей Викторович" after the pool is named,
    "хирург ахмедов" after "в краевой больнице")."""
    bar = _HOLDER_FIRM.get(reading.language or "ru")
    if bar is None:
        return links
    placed = {link.source for link in links if link.type in ("works_at", "studies_at")}
    holders = {link.source for link in links if link.type == "works_as"} - placed
    if not holders:
        return links
    firms = {m.name for m in reading.mentions if m.type is EntityType.ORGANISATION}
    at = model.classes.index("works_at") if "works_at" in model.classes else None
    best: dict[str, tuple[float, str]] = {}
    for pair in judged:
        if at is None or pair.source not in holders or pair.target not in firms or (
                NOT_YET in pair.features and NOT_YET in model.index):
            continue  # not when wished ("хочет работать в «Касперском»"), as ``relink``
        types = next(f[2:] for f in pair.features if f.startswith("t:"))
        if model.allowed and f"works_at|{types}" not in model.allowed:
            continue
        p = float(model.probabilities(pair.features)[at])
        if p >= bar and p > best.get(pair.source, (0.0, ""))[0]:
            best[pair.source] = (p, pair.target)
    found = [Link(source, "works_at", firm) for source, (_, firm) in best.items()]
    return list(dict.fromkeys([*links, *found]))


def _one_holder(links: list[Link], reading: Reading, judged: list[Pair],
                model: Model) -> list[Link]:
    """The links without the model's ``_ONE_HOLDER`` links whose source the model holds less
    likely to hold the target than another source linked to it (by the rules or the model)."""
    kinds = _ONE_HOLDER.get(reading.language or "ru", frozenset())
    held = [link for link in links if link.type in kinds]
    if not held:
        return links
    by_pair = {(p.source, p.target): p for p in judged}

    def likely(link: Link) -> float:
        pair = by_pair.get((link.source, link.target))
        if pair is None or link.type not in model.classes:
            return 0.0
        return float(model.probabilities(pair.features)[model.classes.index(link.type)])

    rules = set(reading.links)
    best: dict[tuple[str, str], float] = {}
    for link in held:
        key = (link.type, link.target)
        best[key] = max(best.get(key, 0.0), likely(link))
    dropped = {link for link in held if link not in rules
               and likely(link) < best[(link.type, link.target)]}
    # (a doctor who found it holds no illness: "у кардиолога, доктор Смирнов ... поставили
    # гипертонию" is still the speaker's)
    working = {link.source for link in links if link.type == "works_as"}
    named = {(link.type, link.target) for link in held if link.source != USER
             and link.source not in working
             and link.type in _NAMED_FIRST.get(reading.language or "ru", frozenset())}
    dropped |= {link for link in held if link.source == USER
                and (link.type, link.target) in named}
    return [link for link in links if link not in dropped]


__all__ = ["CLASSES", "MODEL_PATH", "NONE", "ROLE_PREFIX", "Model", "Pair", "pairs", "relink"]

"""Who the verb a relation's target hangs on is said of, for the relation model (``world.pairs``):
the verb's grammatical person (pymorphy: "работаю" first, "работает" third, "устроилась" a past
form with no person) and what stands as its subject in natasha's tree (a first-person pronoun, a
third-person pronoun, the pair's own source, another name or noun, none). Round thirty counted
the older authors' missed relations whose two ends were read: 181 of 637 are the speaker's with
no first-person word in the sentence ("работаю в «Точке»": only the verb's ending says who),
123 a person named in one sentence and the verb in the next under "он" / "она" or no subject
("Она на пенсии, но подрабатывает в библиотеке"); the pair's features said neither.

The features are new names only: a model fitted without them never reads them, so its reading
does not move (``pairs.Model.probabilities`` skips a feature it has no weight for). The shipped
weights are fitted without them: the refits with them, measured in rounds thirty and
thirty-one (with ``beside_features`` and ``clause_person``), are not in (docs/benchmarks.md);
they are here for the next refit."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from wave_agent.world.reading import Word
from wave_agent.world.sentence import CLAUSE_MARKS, CLAUSE_WORDS, PERSUADE, WISH

_VERBS = frozenset({"VERB", "AUX"})
_SUBJECT = ("nsubj", "nsubj:pass")
_ME = frozenset({"я", "мы"})
_THIRD = frozenset({"он", "она", "они", "оно"})
# a pair whose target hangs on an infinitive under a wish or a persuasion ("хочет работать в
# «Касперском»", "уговаривает перейти в"): not so yet, as the rules read it (``russian._verb``).
# Round thirty measured a gate on it (no model link under a wish, ``pairs.relink``) as level on
# the old weights (one right link fewer, one wrong fewer on the newest six) and left it out;
# the refit (round thirty-one) links "Амир хочет работать в «Касперском»" at 0.97, so it is in
NOT_YET = "syn:gov:not_yet"


@lru_cache(maxsize=1)
def _morph() -> Any:
    import pymorphy3

    return pymorphy3.MorphAnalyzer(lang="ru")


@lru_cache(maxsize=16_384)
def verb_form(word: str) -> str:
    """"1" / "2" / "3" for a present or future form, "past", "inf", else "other"."""
    for parse in _morph().parse(word.lower()):
        tag = parse.tag
        if tag.POS == "INFN":
            return "inf"
        if tag.POS == "VERB":
            if tag.person:
                return str(tag.person)[0]
            return "past" if tag.tense == "past" else "other"
    return "other"


def _clause(words: tuple[Word, ...], t: int) -> list[int]:
    """The words of ``t``'s clause in word order: its sentence cut at a comma, semicolon,
    dash, bracket or a conjunction that opens a clause ("а", "но"), as ``world.sentence``
    reads a long sentence whose tree joins two clauses."""
    sentence = words[t].sentence
    lo = t
    while lo > 0 and words[lo - 1].sentence == sentence and not _boundary(words[lo - 1]):
        lo -= 1
    hi = t
    while hi + 1 < len(words) and words[hi + 1].sentence == sentence \
            and not _boundary(words[hi + 1]):
        hi += 1
    return list(range(lo, hi + 1))


_ENDS = frozenset({".", "!", "?", "…"})  # a sentence end the parser did not split at


def _verb_above(words: tuple[Word, ...], v: int) -> int | None:
    """The verb an infinitive at ``v`` depends on: the verb before it in its clause ("хочет
    работать"), else its head in the tree, else None."""
    above = next((i for i in reversed(range(v)) if words[i].pos in _VERBS
                  and i in _clause(words, v)), None)
    if above is None and 0 <= words[v].head < len(words) \
            and words[words[v].head].pos in _VERBS:
        above = words[v].head
    return above


def _boundary(word: Word) -> bool:
    return word.text in CLAUSE_MARKS or word.text in _ENDS \
        or word.text.lower() in CLAUSE_WORDS


def _governor(words: tuple[Word, ...], t: int) -> int | None:
    """The verb of ``t``'s clause (the nearest before it, else after it): the parser often
    hangs a second clause's object on the first clause's verb ("Сын ходит на плавание, а дочка
    занимается танцами": "танцами" on "ходит"); with no verb in the clause, the first verb
    above ``t`` in the tree."""
    clause = _clause(words, t)
    verbs = [i for i in clause if words[i].pos in _VERBS and i != t]
    before = [i for i in verbs if i < t]
    if before:
        return before[-1]
    if verbs:
        return verbs[0]
    up, seen = words[t].head, {t}
    while 0 <= up < len(words) and up not in seen:
        seen.add(up)
        if words[up].pos in _VERBS:
            return up
        up = words[up].head
    return None


def _subject(words: tuple[Word, ...], v: int, s: int | None) -> str:
    kids = [i for i, w in enumerate(words) if w.head == v and w.rel in _SUBJECT]
    if not kids and words[v].rel == "conj" and 0 <= words[v].head < len(words) \
            and v in _clause(words, words[v].head):
        # "сын Миша пошёл в первый класс и занимается футболом": the second verb of one
        # clause shares the first one's subject
        kids = [i for i, w in enumerate(words) if w.head == words[v].head
                and w.rel in _SUBJECT]
    if not kids:
        return "none"
    k = kids[0]
    text = words[k].text.lower()
    if s is not None and (k == s or words[s].head == k or words[k].head == s):
        return "source"
    if text in _ME:
        return "me"
    if text in _THIRD:
        return "pron3"
    return "name" if words[k].pos == "PROPN" else "noun"


def governor_features(words: tuple[Word, ...], t: int, s: int | None) -> list[str]:
    """The person and subject of the verb the target word ``t`` hangs on; ``s`` the source's
    word (None for the speaker)."""
    v = _governor(words, t)
    if v is None:
        return ["syn:gov:none"]
    form = verb_form(words[v].text)
    yet: list[str] = []
    if form == "inf":
        above = _verb_above(words, v)
        if above is not None:
            if words[above].lemma in WISH | PERSUADE:
                yet.append(NOT_YET)
            v, form = above, f"inf<{verb_form(words[above].text)}"
    subject = _subject(words, v, s)
    other = s is not None and words[s].sentence != words[v].sentence
    return [f"syn:gov:{form}", f"syn:gsubj:{subject}", f"syn:gov:{form}|{subject}",
            f"syn:gsubj:{subject}|far:{other}", *yet]


_BESIDE_POS = frozenset({"NOUN", "ADV"})
_BESIDE_RELS = frozenset({"obl", "nmod", "advmod", "obl:tmod", "obl:agent"})


def beside_features(words: tuple[Word, ...], t: int) -> list[str]:
    """What else the target's clause says beside the place or firm: the nouns and adverbs
    hung on the target or on the verb of its clause, by part of speech, preposition and case
    and by lemma ("мы сейчас в Сочи на выходных": a noun under "на" in the locative beside the
    town, and "сейчас"; "Я теперь в Ростове": "теперь"). A stay and a home are said with the
    same "в + town"; what tells them apart stands beside it, and the weights learn which."""
    v = _governor(words, t)
    clause = set(_clause(words, t))
    anchors = {t} | ({v} if v is not None else set())
    if 0 <= words[t].head < len(words) and words[t].rel in ("appos", "flat"):
        anchors.add(words[t].head)
    out: list[str] = []
    for i in sorted(clause):
        w = words[i]
        if i == t or w.head not in anchors or w.pos not in _BESIDE_POS \
                or w.rel not in _BESIDE_RELS:
            continue
        prep = w.preposition or "-"
        out += [f"syn:bes:{w.pos}|{prep}|{w.case or '-'}", f"syn:besl:{w.lemma}|{prep}"]
    return out or ["syn:bes:none"]


def clause_person(words: tuple[Word, ...], t: int, s: int | None, people: set[int]) -> str:
    """Who else the target's clause names: the pair's own source ("source"), another person
    and not the source ("other": "… а сын Миша пошёл в первый класс и занимается футболом" is
    Миша's, not the sister's named in the clause before), or nobody ("none"). ``people``:
    the words where a person mention stands."""
    clause = set(_clause(words, t))
    if s is not None and s in clause:
        return "syn:clp:source"
    return "syn:clp:other" if (people - {t}) & clause else "syn:clp:none"


@lru_cache(maxsize=16_384)
def _tense(word: str) -> tuple[str, str, str]:
    """pymorphy's first verb reading of ``word``: (tense, aspect, mood), "-" where none."""
    for parse in _morph().parse(word.lower()):
        tag = parse.tag
        if tag.POS == "INFN":
            return "inf", str(tag.aspect or "-"), "-"
        if tag.POS in ("VERB", "PRTF", "PRTS", "GRND"):
            return str(tag.tense or "-"), str(tag.aspect or "-"), str(tag.mood or "-")
    return "-", "-", "-"


def verb_mood(words: tuple[Word, ...], t: int) -> list[str]:
    """How the verb of the target's clause is said (round thirty-three, issue 29): its tense,
    aspect and mood from pymorphy (a perfective non-past is a future: "продам", "устроюсь"), an
    infinitive with the tense of the verb it hangs on ("собираюсь продать", "предложили
    работать"), "бы" in the clause (a wish or a condition), and the verb's lemma with its tense
    ("продать|past", "работать|past"), so the weights, not a list, learn which verbs say a job
    or a thing is no longer or not yet held."""
    v = _governor(words, t)
    if v is None:
        return ["syn:mood:none"]
    tense, aspect, mood = _tense(words[v].text)
    out = [f"syn:mood:{tense}", f"syn:mood:{aspect}|{tense}"]
    if mood == "impr":
        out.append("syn:mood:impr")
    lemma = words[v].lemma
    if tense == "inf":
        above = _verb_above(words, v)
        if above is not None:
            a_tense, _, a_mood = _tense(words[above].text)
            out += [f"syn:mood:inf<{a_tense}", f"syn:mood:inf<{words[above].lemma}"]
            if a_mood == "impr":
                out.append("syn:mood:impr")
    out.append(f"syn:mood:{lemma}|{tense}")
    if any(words[i].text.lower() in ("бы", "б") for i in _clause(words, t)):
        out.append("syn:mood:cond")
    return out


def nearest_person(words: tuple[Word, ...], t: int, s: int | None,
                   people: set[int]) -> list[str]:
    """Whom the words before the target name last (round thirty-three, issue 29): the person
    mention nearest before ``t`` in the statement, whether it is the pair's source, and whether
    the target's clause has a verb of its own. A profile written in verbless sentences gives a
    job to the person named just before it ("Брат Кирилл. Младший. Челябинск. Сварщик на ЧТПЗ":
    Кирилл's, not the speaker's), and a subjectless verb after another person's sentence is
    often that person's ("Олег наконец слез с фуры! Устроился водителем")."""
    before = [i for i in people if i < t]
    verbless = not any(words[i].pos in _VERBS for i in _clause(words, t) if i != t)
    if not before:
        who = "none"
    else:
        p = max(before)
        who = "source" if s is not None and (p == s or words[s].head == p
                                             or words[p].head == s) else "other"
        if words[p].sentence != words[t].sentence:
            who += "|far"
    return [f"syn:lastp:{who}", f"syn:lastp:{who}|verbless:{verbless}"]


__all__ = ["NOT_YET", "beside_features", "clause_person", "governor_features",
           "nearest_person", "verb_form", "verb_mood"]

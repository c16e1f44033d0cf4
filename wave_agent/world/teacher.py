"""A teacher or tutor of a subject, and its replacement (issue 30, round thirty-nine): "вокал
сегодня был огонь. хожу к Лизе по четвергам", later "нашла педагога по вокалу здесь — Ирина";
"Английский ... с той же Мариной", later "английский теперь с Джеймсом". Nothing read who
teaches a subject, so the earlier teacher's record stayed active beside the new one (six
changes of a teacher or tutor over the tuning months, labelled ``other:vocal_teacher``,
``other:english_tutor``; none a contradiction).

- **What**: the single-valued ``teacher`` of someone, as "<subject>: <name>" (one per subject:
  a vocal teacher and an English tutor are two values, a new vocal teacher replaces the old).
- **Said how** (Russian, the parse's words): a teacher noun ("педагог", "преподаватель",
  "учительница", "репетитор", "тренер") with its subject ("по вокалу", "английского") and a name
  set beside it ("педагога по вокалу здесь — Ирина", "учительницу английского тут, Алсу");
  else a subject word in the message and a lesson said with a name ("хожу к Лизе", "занимаюсь
  у Инны", "занятие у Марины Олеговны", "английский теперь с Джеймсом", "ведёт Марина"). The
  name is pymorphy's ``Name`` reading put in the nominative, with a patronymic after it.
- **Whose**: the person's, or the person's child (a held child named in the message: "нашли
  Мише учительницу английского").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from wave_agent.world.reading import USER

_TEACHER = r"(?:педагог|преподавател|преподавательниц|учител|учительниц|репетитор|тренер)[а-яё]*"
# the subjects of a lesson said without a teacher noun: a language by its adjective
# ("английский") and these lesson nouns
_LESSONS = frozenset({"вокал", "гитара", "фортепиано", "пианино", "скрипка", "барабан",
                      "математика", "физика", "химия", "рисование", "шахматы", "бокс",
                      "плавание", "танец", "музыка", "сольфеджио", "логопед"})
_WORD = re.compile(r"[А-ЯЁа-яё]+(?:-[А-ЯЁа-яё]+)?")
# "педагога по вокалу здесь — Ирина", "учительницу английского тут, Алсу": the teacher noun,
# its subject, up to four words, then a dash, comma or colon and the name
_APPOSITION = re.compile(rf"(?<!\w){_TEACHER}\s+(?:по\s+)?([а-яё]+)((?:\s+[\w-]+){{0,4}}?)"
                         r"\s*[,—–:-]\s*([А-ЯЁ][а-яё]+(?:\s+[А-ЯЁ][а-яё]+)?)")
# a lesson with someone: "хожу к Лизе", "занимаюсь у Инны", "занятие у Марины Олеговны",
# "теперь с Джеймсом", "с той же Мариной", "ведёт Марина"
_LESSON_WITH = re.compile(
    r"(?<![\w-])(?:(?:хож[уи]\w*|езжу|ходит|занима\w+|заняти[ея]|урок[иа]?)\s+(?:к|у|с|со)"
    r"|теперь\s+(?:у|с|со)|(?:у|с|со)\s+(?:т(?:ой|ем|ого)\s+же)|вед[ёе]т)\s+"
    r"([А-ЯЁ][а-яё]+(?:\s+[А-ЯЁ][а-яё]+)?)")


def _morph() -> Any:
    from wave_agent.world.morphology import _morph as morph

    return morph()


# "с педагогом Еленой": the teacher noun and the name right after it
_TEACHER_NAMED = re.compile(rf"(?<!\w){_TEACHER}\s+([А-ЯЁ][а-яё]+(?:\s+[А-ЯЁ][а-яё]+)?)")
# after a subject word, in its sentence: "испанский с Лаурой", "записалась на польский к Магде"
_AFTER_SUBJECT = re.compile(r"(?:\s+[\w-]+){0,3}?\s+(?:с|со|у|к)\s+([А-ЯЁ][а-яё]+(?:\s+[А-ЯЁ][а-яё]+)?)")


# a lesson said around a subject and a name after it ("испанский с Лаурой ... 1500 за урок"),
# not a talk about it ("говорили про английский с Олей")
_LESSON = re.compile(r"(?<!\w)(?:урок|заняти|занима|педагог|препода|репетитор|учител|тренер|"
                     r"записал|теперь)", re.I)


def _name(words: str) -> str | None:
    """A name as said ("Марины Олеговны") in the nominative ("Марина Олеговна"); None when the
    first word is no name."""
    out: list[str] = []
    for i, word in enumerate(words.split()):
        tag = "Name" if i == 0 else "Patr"
        parses = [p for p in _morph().parse(word) if tag in p.tag]
        if not parses:
            break
        if any({"nomn", "sing"} in p.tag for p in parses):
            out.append(word.capitalize())  # said in the nominative ("Кармен", "Ирина")
            continue
        nominative = parses[0].inflect({"sing", "nomn"}) or parses[0]
        out.append(str(nominative.word).capitalize())
    return " ".join(out) or None


def _subject(word: str) -> str | None:
    """A lesson's subject by its lemma: a language adjective ("английскому" -> "английский")
    or a lesson noun ("вокалу" -> "вокал")."""
    for p in _morph().parse(word.lower()):
        lemma = str(p.normal_form)
        if "ADJF" in p.tag and lemma.endswith("ский") and "Geox" not in p.tag:
            return lemma
        if "NOUN" in p.tag and lemma in _LESSONS:
            return lemma
    return None


def _subjects(text: str) -> list[str]:
    return [s for s in (_subject(w.group()) for w in _WORD.finditer(text)) if s]


def teachers_said(text: str) -> list[tuple[str, str]]:
    """(subject, name) for each teacher a Russian text names, the apposition first."""
    for m in _APPOSITION.finditer(text):
        subject = _subject(m.group(1))
        name = _name(m.group(3))
        if subject and name:
            return [(subject, name)]
    subjects = _subjects(text)
    if not subjects:
        return []
    for m in _TEACHER_NAMED.finditer(text):
        name = _name(m.group(1))
        if name:
            return [(subjects[0], name)]
    for w in _WORD.finditer(text):
        subject = _subject(w.group())
        sentence = re.split(r"[.!?;\n]", text[w.end():], maxsplit=1)[0]
        after = _AFTER_SUBJECT.match(sentence) if subject and _LESSON.search(text) else None
        name = _name(after.group(1)) if after else None
        if subject and name:
            return [(subject, name)]
    for m in _LESSON_WITH.finditer(text):
        name = _name(m.group(1))
        if name:
            # the subject said nearest before the lesson, else the first one
            before = _subjects(text[:m.start()])
            return [(before[-1] if before else subjects[0], name)]
    return []


def _parts(value: str) -> tuple[str, str]:
    subject, _, name = value.partition(":")
    return subject.strip().lower(), name.strip().split(" ")[0].lower() if name.strip() else ""


def same_subject(a: str, b: str) -> bool:
    """Whether two teacher values are of one subject (a new name of it replaces the old)."""
    return _parts(a)[0] == _parts(b)[0]


def same_teacher(a: str, b: str) -> bool:
    """Whether two teacher values name one teacher: one subject, one first name (one the
    start of the other: pymorphy puts "Алину" as "Алин" or "Алина")."""
    (subject_a, name_a), (subject_b, name_b) = _parts(a), _parts(b)
    return subject_a == subject_b and (name_a.startswith(name_b) or name_b.startswith(name_a))


def teacher_values(text: str, held: Iterable[Any]) -> list[tuple[str, str]]:
    """(entity, "<subject>: <name>") for each teacher a Russian text names: the person's, or a
    held child's when the message names that child (and the child is not the teacher)."""
    said = teachers_said(text)
    if not said:
        return []
    children = {v.value for v in held if v.entity == USER and v.attribute == "child"
                and v.op in ("set", "add")}
    lemmas = {str(p.normal_form) for w in _WORD.finditer(text) if w.group()[0].isupper()
              for p in _morph().parse(w.group()) if "Name" in p.tag}
    out = []
    for subject, name in said:
        whose = next((c for c in sorted(children) if c.split()[0].lower() in lemmas
                      and c.split()[0].lower() != name.split()[0].lower()), USER)
        out.append((whose, f"{subject}: {name}"))
    return out


__all__ = ["same_subject", "same_teacher", "teacher_values", "teachers_said"]

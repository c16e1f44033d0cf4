"""Which exchanges are worth extracting from, how many facts they may yield, and extraction
itself (structured output from the model; the heuristic extractor offline or when the model's
output is unusable)."""

from __future__ import annotations

import logging
import re
from dataclasses import replace
from datetime import date
from typing import TYPE_CHECKING, Any

from graph import kin
from graph.models import MAX_FACT_CHARS, EntityType, FactType
from wave_agent.llm.client import LLMBadOutput, LLMClient
from wave_agent.llm.offline import ExtractedEntity, ExtractedFact, extract_heuristic, has_statement
from wave_agent.llm.offline_extract import asks_to_remember, classify, real_words, stated_part
from wave_agent.llm.prompts import extract

if TYPE_CHECKING:
    from wave_agent.world.attributes import Value

log = logging.getLogger("wave.postprocess.extract")

BASE_FACTS = 4  # "Я Марина, живу в Самаре, у меня кот Барсик." holds three
MAX_FACTS = 8
CHARS_PER_FACT = 250


def fact_budget(user_text: str, reply: str) -> int:
    """0 for an exchange that states nothing (a question, a greeting, thanks: "спасибо", "ok");
    else 2 + one per 250 characters, capped at 8. A short statement counts ("Я Марина").

    The person's words count in full, the reply a quarter (facts are the person's, but a
    reply can carry what they confirmed)."""
    if not has_statement(user_text):
        return 0
    size = len(user_text) + len(reply) // 4
    return max(1, min(MAX_FACTS, BASE_FACTS + size // CHARS_PER_FACT))


def small_talk_drops(facts: list[ExtractedFact], judged_small_talk: bool, user_text: str = "") -> bool:
    """Whether the learned judge's "small talk" drops what the offline extractor found: never a
    promise or a task ("до 15-го оплатить садик" reads like chatter to the judge, and its
    reminder would be lost), nor what the person asked outright to remember ("Запомни,
    пожалуйста: у меня аллергия на орехи ...": the reply has already said it is kept), nor a
    relative named by role and name ("мама (Ирина Викторовна) с утра звонит проверить, надела
    ли я шапку": who is who in the family is what "как зовут маму?" asks, said in passing; over
    the sixteen tuning months the judge dropped one such statement and no small-talk line)."""
    return (bool(facts) and judged_small_talk
            and not any(f.type is FactType.COMMITMENT for f in facts)
            and not asks_to_remember(user_text)
            and not kin.relatives(user_text))


def kept_in_passing(user_text: str, facts: list[ExtractedFact], *, budget: int,
                    worth_remembering: bool) -> list[ExtractedFact]:
    """Offline: a message the extractor found nothing in, though it reads as a statement (the
    budget), is kept as said when the learned judge reads it as worth remembering ("доча
    поступила в вышку на бюджет", "got promoted to team lead today": no pronoun for the
    extractor's rules to see). Its stated part only: a question's trailing ask is left out."""
    if facts or budget <= 0 or not worth_remembering:
        return facts
    said = stated_part(user_text)
    if len(real_words(said)) < 2 or len(said) > MAX_FACT_CHARS:
        return facts
    return [ExtractedFact(said, classify(said))]


def sentences(text: str) -> list[str]:
    """The sentences of a message, as the offline door cuts it (by end marks and lines)."""
    import re

    return [s.strip() for s in re.split(r"(?<=[.!?…])\s+|\n+", text) if s.strip()]


async def with_stated_attributes(user_text: str, facts: list[ExtractedFact],
                                  *, max_facts: int) -> list[ExtractedFact]:
    """Offline: a sentence of the person's that states an attribute value and that no
    extracted fact covers is kept as said ("Сегодня первый день на новой работе в «Сбере»",
    "аллергий нет": the heuristic extractor keeps neither). Read with the world attribute
    reader; nothing is added past ``max_facts``."""

    from wave_agent.world import read_many
    from wave_agent.world.attributes import as_said, line_names, read_values, record_type

    said, joined = _joined(sentences(user_text))
    if not said or len(facts) >= max_facts:
        return facts
    # the job said alone after the first day is read with it: the extractor's piece goes
    facts = [f for f in facts if not any(f.text.strip(" .!").lower() in s.lower()
                                         and f.text != s for s in joined)]
    readings = await read_many([as_said(s) for s in said])
    kept = list(facts)
    for sentence, reading in zip(said, readings, strict=True):
        if len(kept) >= max_facts or sentence.endswith("?"):
            break
        values = read_values(sentence, reading)
        named = [v for v in values if v.value != "*"]
        left = [v for v in named if not any(line_names(f.text, v.value) for f in kept)]
        if not values or len(left) < len(named):
            # nothing to say, or an extracted fact already states one: the sentence kept too
            # would be a near-duplicate of that fact ("I work at Google as an engineer." beside
            # "The user works at Google"); what the fact leaves out is kept by its own clause
            # ("я Вера, мне 33, живу в Нижнем Новгороде": the city extracted, "мне 33" lost)
            part = _clauses_naming(sentence, left) if left else ""
            covered = [v for v in named if v not in left]
            if part and not any(part.lower() in f.text.lower() for f in kept) and not any(
                    line_names(part, v.value) for v in covered):  # a clause a fact already states
                kept.append(ExtractedFact(part[:1].upper() + part[1:],
                                          record_type(left[0].attribute)))
            continue
        if any(sentence.strip(" .!").lower() in f.text.lower() for f in kept):
            continue
        kept.append(ExtractedFact(sentence, record_type(values[0].attribute)))
    return await _in_context(user_text, said, kept, max_facts=max_facts)


async def _in_context(user_text: str, said: list[str], kept: list[ExtractedFact],
                      *, max_facts: int) -> list[ExtractedFact]:
    """A value the whole message states and no sentence states alone, kept by the sentence
    that names it: the doctor in one sentence, the illness in the next ("была у
    эндокринолога. гипотиреоз, теперь эутирокс ..."): read alone, "гипотиреоз, теперь
    эутирокс" is nobody's condition, and the extractor keeps only the visit."""
    from wave_agent.world import read_many
    from wave_agent.world.attributes import as_said, line_names, read_values, record_type

    if len(said) < 2 or len(kept) >= max_facts:
        return kept
    reading = (await read_many([as_said(user_text)]))[0]
    for value in read_values(user_text, reading):
        if len(kept) >= max_facts:
            break
        if value.value == "*" or value.op not in ("set", "add") or any(
                line_names(f.text, value.value) for f in kept):
            continue
        sentence = next((s for s in said if not s.endswith("?") and line_names(s, value.value)),
                        None)
        if sentence is not None and not any(sentence.strip(" .!").lower() in f.text.lower()
                                            for f in kept):
            kept.append(ExtractedFact(sentence, record_type(value.attribute)))
    return kept


def _joined(said: list[str]) -> tuple[list[str], list[str]]:
    """The sentences, each that says nothing alone joined to the one before it, and the joined
    ones: a job said alone after the first day at a new place ("сегодня первый день в
    «Точке»!" + "продакт-менеджер, звучит-то как"; three of nine months' authors write it so),
    and a schedule said after the pastime it is for ("сходила на йогу." + "вообще хожу в студию
    … по вторникам и субботам", tuning_9): alone, the job is nobody's and the schedule no
    pastime's; and the name given to a new animal said after the animal ("мы взяли щенка!!!"
    + "корги, назвали Бублик", "взяли из приюта собаку!!" + "дворняжка, девочка, зовут Булка":
    six of twelve months' authors write it so): apart, one record holds a puppy and the other
    a name of nothing; and a couple said by a pronoun after the sentence that names the person
    ("Дима, кстати, прораб, вечно на объектах." + "мы с ним три года вместе", "Kuba przyleciał
    ..." + "jesteśmy razem"): alone, the partner is nobody, and the later "С Димой всё.
    Расстались." has no partner to end."""
    from wave_agent.world.attribute_words import FIRST_DAY, NAMED, SCHEDULE
    from wave_agent.world.kinds import job_said_alone

    out: list[str] = []
    joined: list[str] = []
    for sentence in said:
        last = out[-1] if out else ""
        if last and last not in joined and not last.endswith("?") and (
                (FIRST_DAY.search(last) and job_said_alone(sentence))
                or (SCHEDULE.search(sentence) and not SCHEDULE.search(last)
                    and _names_pastime(last) and not _names_pastime(sentence))
                or ((NAMED.search(sentence) or _CALLED.search(sentence))
                    and not NAMED.search(last) and not _CALLED.search(last)
                    and _names_animal(last) and not _names_animal(sentence))
                or (_TOGETHER.search(sentence) and _names_someone(last)
                    and not _names_someone(sentence))):
            out[-1] = f"{last} {sentence}"
            joined.append(out[-1])
        else:
            out.append(sentence)
    return out, joined


_CALLED = re.compile(r"\b(?:зовут|звать|is\s+called|ma\s+na\s+imię)\s+[A-ZА-ЯЁŁŚŻ]")
# a couple said by a pronoun: "мы с ним три года вместе", "jesteśmy razem", "we've been together"
_TOGETHER = re.compile(r"\bмы\s+с\s+(?:ним|ней)\b[^.!?]*\bвместе\b|\bjesteśmy\s+razem\b|"
                       r"\bwe(?:'ve|\s+have)?\s+been\s+together\b|\bwe\s+are\s+together\b",
                       re.IGNORECASE)


def _names_someone(sentence: str) -> bool:
    """Whether a sentence names a person by a first name of the dictionary ("Дима", "Kuba")."""
    from wave_agent.world.names import is_first_name

    return any(is_first_name(w) for w in re.findall(r"\b[A-ZА-ЯЁŁŚŻ][\w-]+", sentence))


def _names_animal(sentence: str) -> bool:
    """Whether a sentence names an animal by a noun the lexicon knows ("взяли щенка")."""
    from graph.models import EntityType
    from wave_agent.world.lexicon import kind_of
    from wave_agent.world.morphology import noun_lemmas

    return any(kind_of(lem) is EntityType.PET
               for word in re.findall(r"[а-яё]+", sentence.lower()) for lem in noun_lemmas(word))


def _names_pastime(sentence: str) -> bool:
    """Whether a sentence names a pastime by a noun the lexicon knows ("на йогу")."""
    from graph.models import EntityType
    from wave_agent.world.lexicon import kind_of
    from wave_agent.world.morphology import noun_lemmas

    return any(kind_of(lem) is EntityType.HOBBY
               for word in re.findall(r"[а-яё]+", sentence.lower()) for lem in noun_lemmas(word))


def _clauses_naming(sentence: str, values: list[Value]) -> str:
    """The clauses of ``sentence`` (cut at commas and semicolons) that name one of ``values``,
    joined; empty when none does alone."""
    from wave_agent.world.attributes import line_names

    def names(clause: str, value: str) -> bool:
        if re.fullmatch(r"\d+", value):  # an age or a count: the number said in the clause
            return value in re.findall(r"\d+", clause)
        return line_names(clause, value)

    clauses = [c.strip(" .!") for c in re.split(r"[,;]\s*", sentence) if c.strip(" .!")]
    return ", ".join(c for c in clauses if any(names(c, v.value) for v in values))


async def with_message_values(user_text: str, facts: list[ExtractedFact],
                              held: list[Value]) -> list[ExtractedFact]:
    """Offline: the values the whole message states, given to the pieces it was cut into
    that name them. A piece alone loses what its neighbours said: "уронила айфон в лужу, всё,
    умер окончательно. в обед купила Pixel 8" ends the held iPhone only with the new phone
    beside it, "сегодняшний урок уже 3000 оплатила. занимаемся теперь онлайн" is a new price
    only with its "теперь". A piece keeps its own reading for the attributes it reads itself;
    a value of the whole ("*": "аллергий нет") is given to no piece (it names no word)."""
    from wave_agent.world import read_many
    from wave_agent.world.attributes import (
        as_said,
        line_names,
        read_values,
        record_type,
        same_value,
        single_valued,
    )

    pieces = [f for f in facts if not f.attributes and f.text.strip() != user_text.strip()]
    if not pieces:
        return facts
    readings = await read_many([as_said(user_text), *(as_said(f.text) for f in pieces)])
    whole = [v for v in read_values(user_text, readings[0], held) if v.value != "*"]
    # two values of one single-valued attribute in one message is a reading in doubt ("я
    # старший тестировщик ... руководитель — Рамиль": the lead is Рамиль, not the person's
    # role): neither is given to a piece
    doubted = {v.key for v in whole if v.op == "set" and single_valued(v.attribute)
               and any(w.key == v.key and w.op == "set" and not same_value(w.value, v.value)
                       for w in whole)}
    whole = [v for v in whole if v.key not in doubted]
    if not whole:
        return facts
    given: dict[int, tuple[str, ...]] = {}
    owns: dict[int, list[Value]] = {}
    # a piece that denies a value the whole message ends ("с Лейлой в ресторане, заказала
    # стейк." cut from "... всё, хватит с меня вегетарианства": alone, the steak denies the
    # held diet) is the ending read without its words: it ends the value, it raises no question
    ended = {(v.key, v.value) for v in whole if v.op == "remove"}
    for fact, reading in zip(pieces, readings[1:], strict=True):
        read = list(read_values(fact.text, reading, held))
        own_values = [replace(v, op="remove") if v.op == "negate" and (v.key, v.value) in ended
                      else v for v in read]
        owns[id(fact)] = own_values
        own = {v.key for v in own_values}
        more = [v for v in whole if v.key not in own and line_names(fact.text, v.value)]
        if more or own_values != read:
            given[id(fact)] = tuple(v.encode() for v in (*own_values, *more))
    # an ending whose own words were cut off with a piece that was not kept ("айфон всё, умер
    # окончательно. взяла самсунг S24": only the new phone is kept) goes with the one piece
    # that says the new value of the same attribute, so the old one is not left held beside it
    for v in whole:
        if v.op != "remove" or any(line_names(f.text, v.value) for f in pieces):
            continue
        with_new = [f for f in pieces if any(o.key == v.key and o.op in ("set", "add")
                                             for o in owns[id(f)])]
        if len(with_new) == 1:
            f = with_new[0]
            had = given.get(id(f), tuple(o.encode() for o in owns[id(f)]))
            if v.encode() not in had:
                given[id(f)] = (*had, v.encode())
    out = [replace(f, attributes=given[id(f)]) if id(f) in given else f for f in facts]
    # an ending of a held value said in a sentence no piece was cut from ("бассейн, видимо,
    # всё. третью неделю не хожу": the extractor keeps the second; "анемии больше нет": read
    # alone, with nothing held, the sentence states nothing, so it was not kept): the sentence
    # that names the ended value is kept with the ending given, so the held record ends
    for v in whole:
        if v.op != "remove" or any(line_names(f.text, v.value) for f in out) or any(
                v.encode() in f.attributes for f in out):
            continue
        naming = [s for s in sentences(user_text) if line_names(s, v.value) and not s.endswith("?")]
        if len(naming) == 1:
            out.append(ExtractedFact(naming[0], record_type(v.attribute), attributes=(v.encode(),)))
    return out


async def extract_facts(
    llm: LLMClient, user_text: str, reply: str, *, today: date, max_facts: int
) -> list[ExtractedFact]:
    """Facts of one exchange; ``LLMUnavailable`` propagates (the outbox retries later)."""
    if max_facts <= 0:
        return []
    inp = extract.ExtractInput(user_text, reply, max_facts=max_facts, today=today)
    try:
        facts = await extract.run(llm, inp)
    except LLMBadOutput as exc:
        log.warning("extraction output unusable (%s); using the heuristic extractor", exc.detail)
        facts = extract_heuristic(user_text, max_facts=max_facts)
    if llm.offline:
        facts = await with_stated_attributes(user_text, facts, max_facts=max_facts)
    return facts


def to_json(facts: list[ExtractedFact]) -> list[dict[str, Any]]:
    return [
        {"text": f.text, "type": f.type.value,
         "entities": [{"name": e.name, "type": e.type.value} for e in f.entities],
         **({"attributes": list(f.attributes)} if f.attributes else {})}
        for f in facts
    ]


def from_json(raw: Any) -> list[ExtractedFact]:
    facts: list[ExtractedFact] = []
    for item in raw or ():
        entities = tuple(
            ExtractedEntity(e["name"], EntityType(e["type"])) for e in item.get("entities", ())
        )
        facts.append(ExtractedFact(item["text"], FactType(item["type"]), entities,
                                   tuple(item.get("attributes", ()))))
    return facts


"""Offline mode: no endpoint configured. It says so, replies from what recall found, and
extracts facts with heuristics (Russian and English: name, city, work, preferences, numbers
and prices, relations, "запомни"/"remember").
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from graph.models import EntityType, FactType
from wave_agent.llm.client import ChatMessage, ChatResponse, OfflineUnsupported, ToolSpec

OFFLINE_MODEL = "offline"
OFFLINE_LABEL_RU = "[офлайн: языковая модель не подключена, задайте LLM_BASE_URL]"
OFFLINE_LABEL_EN = "[offline: no language model configured, set LLM_BASE_URL]"
MAX_MEMORY_LINES = 4

_CYRILLIC = re.compile(r"[А-Яа-яЁё]")
_WORD = re.compile(r"[^\W\d_]{2,}", re.UNICODE)


def is_russian(text: str) -> bool:
    letters = [ch for ch in text if ch.isalpha()]
    if not letters:
        return False
    return sum(1 for ch in letters if _CYRILLIC.match(ch)) * 2 >= len(letters)


def real_words(text: str) -> list[str]:
    """Words of two or more letters (no digits, no punctuation)."""
    return _WORD.findall(text)


@dataclass(frozen=True, slots=True)
class ExtractedEntity:
    name: str
    type: EntityType


@dataclass(frozen=True, slots=True)
class ExtractedFact:
    """A fact found in an exchange: what the writer receives."""

    text: str
    type: FactType
    entities: tuple[ExtractedEntity, ...] = ()


# --- heuristic extraction -------------------------------------------------------------------

_NAME = r"([A-ZА-ЯЁ][\w'-]+(?:\s+[A-ZА-ЯЁ][\w'-]+)?)"
_PLACE = r"([A-ZА-ЯЁ][\w'-]+(?:[\s-]+[A-ZА-ЯЁ][\w'-]+)?)"
_SENTENCE_SPLIT = re.compile(r"(?<=[.!?;\n])\s+|\n+")

_REMEMBER = re.compile(
    r"^\s*(?:пожалуйста,?\s+)?(?:запомни(?:те)?|remember|please remember|note)\b[\s,:-]*"
    r"(?:(?:что|that)\s+)?(.+)$",
    re.IGNORECASE | re.DOTALL,
)

# (group, pattern, fact type, template for group 1, entity type of group 1); one match per
# group and sentence, so "живу в Берлине и работаю в Яндексе" gives two facts.
_PATTERNS: tuple[tuple[str, re.Pattern[str], FactType, str, EntityType | None], ...] = (
    ("name", re.compile(r"(?i:\bменя зовут)\s+" + _NAME), FactType.IDENTITY, "Пользователя зовут {0}", EntityType.PERSON),
    ("name", re.compile(r"(?i:\bmy name is|\bcall me)\s+" + _NAME), FactType.IDENTITY, "The user's name is {0}", EntityType.PERSON),
    ("city", re.compile(r"(?i:(?:\bя\s+)?(?:сейчас\s+)?\bживу)\s+(?:в|во)\s+" + _PLACE), FactType.IDENTITY, "Пользователь живёт в {0}", EntityType.PLACE),
    ("city", re.compile(r"(?i:\bя\s+(?:переехал|переехала|переезжаю))\s+(?:в|во)\s+" + _PLACE), FactType.IDENTITY, "Пользователь переехал в {0}", EntityType.PLACE),
    ("city", re.compile(r"(?i:\bi\s+(?:live|am living|moved|have moved|relocated))\s+(?:in|to)\s+" + _PLACE), FactType.IDENTITY, "The user lives in {0}", EntityType.PLACE),
    ("work", re.compile(r"(?i:(?:\bя\s+)?\bработаю)\s+(?:в|во|на)\s+" + _PLACE), FactType.IDENTITY, "Пользователь работает в {0}", EntityType.ORGANISATION),
    ("work", re.compile(r"(?i:\bi\s+work)\s+(?:at|for)\s+" + _PLACE), FactType.IDENTITY, "The user works at {0}", EntityType.ORGANISATION),
    ("work", re.compile(r"(?i:(?:\bя\s+)?\bработаю)\s+([^\W\d][\w-]+(?:\s+[^\W\d][\w-]+){0,3})"), FactType.IDENTITY, "Пользователь работает {0}", None),
    ("work", re.compile(r"(?i:\bi\s+work\s+as|\bi am an?|\bi'm an?)\s+([a-z][\w-]+(?:\s+[a-z][\w-]+){0,2}?)(?=[.,;!?]|$|\s+(?:at|for|in)\b)"), FactType.IDENTITY, "The user works as {0}", None),
)

_PREFERENCE = re.compile(
    r"(?i)\b(я\s+(?:очень\s+)?(?:не\s+)?(?:люблю|обожаю|предпочитаю|ненавижу)|мне\s+(?:очень\s+)?(?:не\s+)?нравится"
    r"|терпеть не могу|i\s+(?:really\s+)?(?:love|like|prefer|hate|enjoy|adore)|i\s+(?:don't|do not)\s+like"
    r"|my favou?rite)\b"
)
_RELATION_WORDS = re.compile(
    r"(?i)\b(?:жена|жены|муж|мужа|друг|друга|подруга|брат|брата|сестра|сестры|мама|мамы|папа|папы"
    r"|сын|сына|дочь|дочери|коллега|коллеги|начальник|wife|husband|friend|brother|sister|mother|mom"
    r"|father|dad|son|daughter|colleague|boss|partner)\b"
)
_NUMBER = re.compile(r"\d")
_MONEY = re.compile(
    r"(?i)(?:\d[\d\s.,]*\s*(?:руб|р\.|₽|\$|€|евро|доллар|usd|eur|zł|злот|тыс|k\b))|(?:[$€₽]\s*\d)"
)
_DECISION = re.compile(r"(?i)\b(?:решил|решила|решили|буду|будем|decided|i will|i'll|going to|собираюсь)\b")
_COMMITMENT = re.compile(
    r"(?i)\b(?:должен|должна|обещал|обещала|надо|нужно|дедлайн|до\s+(?:пятницы|понедельника|вторника|среды|четверга|субботы|воскресенья|завтра)"
    r"|deadline|must|promised|have to|need to|by (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow))\b"
)
_STATE = re.compile(
    r"(?i)\b(?:устал|устала|болею|заболел|заболела|грустно|настроение|сегодня я|tired|sick|feel|feeling|today i am|i'm exhausted)\b"
)
_PERSON_AFTER_RELATION = re.compile(
    r"(?i:жена|муж|друг|подруга|брат|сестра|мама|папа|сын|дочь|коллега|начальник|wife|husband|friend|brother|sister|mother|father|son|daughter|colleague|boss|partner)"
    r"\s+(?:зовут\s+|is\s+|named\s+)?([A-ZА-ЯЁ][a-zа-яё'-]+)"
)
_MIN_FACT_WORDS = 3


def classify(text: str) -> FactType:
    """The likeliest fact type of one sentence."""
    if any(p.search(text) for _, p, kind, _, _ in _PATTERNS if kind is FactType.IDENTITY):
        return FactType.IDENTITY
    if _PREFERENCE.search(text):
        return FactType.PREFERENCE
    if _COMMITMENT.search(text):
        return FactType.COMMITMENT
    if _DECISION.search(text):
        return FactType.DECISION
    if _RELATION_WORDS.search(text):
        return FactType.RELATIONSHIP
    if _STATE.search(text):
        return FactType.STATE
    return FactType.EVENT


def _clean(sentence: str) -> str:
    return re.sub(r"\s+", " ", sentence).strip(" \t\n-–—•*,;")


def _entities(sentence: str) -> tuple[ExtractedEntity, ...]:
    found: list[ExtractedEntity] = []
    for match in _PERSON_AFTER_RELATION.finditer(sentence):
        found.append(ExtractedEntity(match.group(1), EntityType.PERSON))
    return tuple(found)


def extract_heuristic(user_text: str, *, max_facts: int) -> list[ExtractedFact]:
    """Facts the person stated, found by patterns; at most ``max_facts``, no duplicates."""
    facts: list[ExtractedFact] = []
    seen: set[str] = set()

    def add(fact: ExtractedFact) -> None:
        key = fact.text.casefold()
        if key not in seen and len(facts) < max_facts:
            seen.add(key)
            facts.append(fact)

    for raw in _SENTENCE_SPLIT.split(user_text):
        sentence = _clean(raw)
        if not sentence:
            continue
        remembered = _REMEMBER.match(sentence)
        if remembered:
            body = _clean(remembered.group(1))
            if len(real_words(body)) >= 2:
                add(ExtractedFact(_capitalise(body), classify(body), _entities(body)))
            continue
        matched: set[str] = set()
        for group, pattern, kind, template, entity_type in _PATTERNS:
            match = None if group in matched else pattern.search(sentence)
            if not match:
                continue
            value = match.group(1).strip()
            entities = (ExtractedEntity(value, entity_type),) if entity_type else ()
            add(ExtractedFact(template.format(value), kind, entities + _entities(sentence)))
            matched.add(group)
        if matched or len(real_words(sentence)) < _MIN_FACT_WORDS:
            continue
        if _PREFERENCE.search(sentence) or _MONEY.search(sentence) or (
            _NUMBER.search(sentence) and _first_person(sentence)
        ) or (_RELATION_WORDS.search(sentence) and _first_person(sentence)) or (
            _DECISION.search(sentence) and _first_person(sentence)
        ) or (_COMMITMENT.search(sentence) and _first_person(sentence)):
            add(ExtractedFact(_capitalise(sentence), classify(sentence), _entities(sentence)))
    return facts


_FIRST_PERSON = re.compile(r"(?i)\b(?:я|мне|меня|мой|моя|моё|мои|мы|нам|наш|i|i'm|my|me|we|our)\b")


def _first_person(sentence: str) -> bool:
    return bool(_FIRST_PERSON.search(sentence))


def _capitalise(text: str) -> str:
    return text[:1].upper() + text[1:]


# --- offline replies ------------------------------------------------------------------------


def offline_reply(user_text: str, memory: Sequence[str]) -> str:
    """A reply that says it is offline and shows what recall found."""
    russian = is_russian(user_text)
    label = OFFLINE_LABEL_RU if russian else OFFLINE_LABEL_EN
    lines = [label]
    if _REMEMBER.match(user_text.strip()):
        lines.append("Записала, сохраню в память." if russian else "Noted; I will keep it in memory.")
    shown = [m.strip() for m in memory if m.strip()][:MAX_MEMORY_LINES]
    if shown:
        lines.append("Вот что я помню об этом:" if russian else "Here is what I remember about that:")
        lines.extend(f"- {item}" for item in shown)
    elif len(real_words(user_text)) >= 2:
        lines.append(
            "В памяти по этому поводу ничего не нашлось."
            if russian
            else "I found nothing in memory about that."
        )
    return "\n".join(lines)


class OfflineClient:
    """``LLMClient`` without a model: labelled replies from memory, no tools, no JSON."""

    @property
    def offline(self) -> bool:
        return True

    @property
    def model(self) -> str:
        return OFFLINE_MODEL

    async def chat(
        self,
        messages: Sequence[ChatMessage],
        *,
        tools: Sequence[ToolSpec] = (),
        memory: Sequence[str] = (),
        temperature: float | None = None,
        max_tokens: int | None = None,
    ) -> ChatResponse:
        user_text = next((m.content or "" for m in reversed(messages) if m.role == "user"), "")
        return ChatResponse(
            content=offline_reply(user_text, memory),
            model=OFFLINE_MODEL,
            finish_reason="stop",
            offline=True,
        )

    async def complete_json(
        self,
        messages: Sequence[ChatMessage],
        *,
        schema_name: str,
        schema: Mapping[str, Any],
    ) -> dict[str, Any]:
        raise OfflineUnsupported(f"produce structured output ({schema_name})")

    async def close(self) -> None:
        return None

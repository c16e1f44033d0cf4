"""Offline mode: no endpoint configured. It says so, says what it will keep of a statement,
and answers a question with the records that match it best (what recall found, then the notes),
or says that nothing matched, or that memory could not be read. Extraction is in
``offline_extract`` (Russian, English, Polish).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from wave_agent.policy.quarantine import Suspicion

from wave_agent.infra.outage import is_slow
from wave_agent.llm.client import ChatMessage, ChatResponse, OfflineUnsupported, ToolSpec
from wave_agent.llm.offline_extract import (
    _CANON,
    _REMEMBER,
    ExtractedEntity,
    ExtractedFact,
    classify,
    extract_heuristic,
    has_statement,
    is_small_talk,
    language,
    real_words,
)

__all__ = [
    "ExtractedEntity", "ExtractedFact", "OfflineClient", "classify", "extract_heuristic",
    "has_statement", "held_note", "is_russian", "is_small_talk", "language", "offline_reply", "rank_memory",
    "real_words",
]

OFFLINE_MODEL = "offline"
OFFLINE_LABEL_RU = "[офлайн: языковая модель не подключена, задайте LLM_BASE_URL]"
OFFLINE_LABEL_EN = "[offline: no language model configured, set LLM_BASE_URL]"
OFFLINE_LABEL_PL = "[offline: brak modelu językowego, ustaw LLM_BASE_URL]"
MAX_MEMORY_LINES = 4


def is_russian(text: str) -> bool:
    return language(text) == "ru"

# --- offline replies ------------------------------------------------------------------------

_TEXTS = {
    "ru": {
        "label": OFFLINE_LABEL_RU,
        "kept": "Запомню: {0}.",
        "held": "Это похоже на указание ассистенту ({0}), поэтому я не стала запоминать его как "
                "обычную запись: сообщение отложено в карантин, вне памяти, до вашего решения. "
                "Посмотреть и выпустить: /quarantine в Telegram или `wave quarantine`, затем "
                "`wave approve <номер>`.",
        "noted": "Записала, сохраню в память.",
        "found": "Вот что я помню об этом:",
        "nothing": "В памяти по этому поводу ничего не нашлось.",
        "nearest": "Прямо об этом ничего не нашла; ближайшее, что есть в памяти:",
        "unreadable": "Память сейчас не читается (хранилище не ответило), так что ответ может быть "
                      "неполным; проверьте `wave services status`.",
        "partial": "Часть памяти сейчас не прочиталась (хранилище не ответило вовремя), так что "
                   "ответ может быть неполным.",
        "slow": "Поиск по памяти на этот раз не уложился во время (хранилища работают, но "
                "машина занята), так что ответ может быть неполным.",
    },
    "en": {
        "label": OFFLINE_LABEL_EN,
        "kept": "I'll remember: {0}.",
        "held": "This reads like an instruction to the assistant ({0}), so I did not keep it as an "
                "ordinary record: the message is held back in quarantine, out of memory, until you "
                "decide. To review and release it: /quarantine in Telegram or `wave quarantine`, "
                "then `wave approve <id>`.",
        "noted": "Noted; I will keep it in memory.",
        "found": "Here is what I remember about that:",
        "nothing": "I found nothing in memory about that.",
        "nearest": "Nothing on exactly that; the nearest I have in memory:",
        "unreadable": "I could not read memory just now (the store did not answer), so this "
                      "answer may be missing something; check `wave services status`.",
        "partial": "Part of memory could not be read just now (a store did not answer in time), "
                   "so this answer may be missing something.",
        "slow": "The memory search ran out of time this once (the stores are up but busy), so "
                "this answer may be missing something.",
    },
    "pl": {
        "label": OFFLINE_LABEL_PL,
        "kept": "Zapamiętam: {0}.",
        "held": "To wygląda na polecenie dla asystenta ({0}), więc nie zapisałam tego jako zwykłej "
                "notatki: wiadomość czeka w kwarantannie, poza pamięcią, na Twoją decyzję. Aby ją "
                "przejrzeć i zwolnić: /quarantine w Telegramie lub `wave quarantine`, potem "
                "`wave approve <id>`.",
        "noted": "Zanotowane, zachowam w pamięci.",
        "found": "Oto co pamiętam na ten temat:",
        "nothing": "W pamięci nie ma nic na ten temat.",
        "nearest": "Nic dokładnie na ten temat; najbliższe, co mam w pamięci:",
        "unreadable": "Nie udało się teraz odczytać pamięci (magazyn nie odpowiedział), więc "
                      "odpowiedź może być niepełna; sprawdź `wave services status`.",
        "partial": "Części pamięci nie udało się teraz odczytać (magazyn nie odpowiedział na "
                   "czas), więc odpowiedź może być niepełna.",
        "slow": "Wyszukiwanie w pamięci tym razem nie zdążyło (magazyny działają, ale są "
                "zajęte), więc odpowiedź może być niepełna.",
    },
}

# Words that say what a question is about. A record sharing the topic of a question word
# matches it even in other words ("где я работаю?" / "The user works at Google").
_TOPICS: dict[str, tuple[str, ...]] = {
    "work": ("работ", "служ", "профес", "должн", "work", "job", "profes", "prac", "zawó", "zawo",
             "firm", "компан", "company", "employ", "кем", "учител", "врач", "инжен", "програм",
             "медсест", "бухгал", "юрист", "менедж", "дизайн", "teacher", "nurse", "engineer",
             "develop", "doctor", "design", "manag", "nauczyc", "lekar", "inżyn", "program",
             "pielęg", "księgow", "kim"),
    "food": ("ем", "еда", "ешь", "пита", "вегет", "eat", "food", "diet", "vegan", "vegetar",
             "jem", "jedz", "wegetar", "piję", "пью", "drink"),
    "home": ("жив", "город", "переех", "родом", "откуд", "live", "city", "moved", "from", "mieszk",
             "miast", "pochodz", "прожив"),
    "name": ("зов", "имя", "имен", "name", "called", "imi", "nazyw"),
    "age": ("лет", "год", "возраст", "age", "old", "lat", "wiek"),
    "birthday": ("рожд", "birth", "born", "urodz"),
    "likes": ("люб", "нрав", "обож", "like", "love", "enjoy", "favo", "prefer", "lubi", "ulubi",
              "koch", "uwielb", "хобби", "увлек", "hobb", "pasj"),
    "pet": ("питом", "живот", "pet", "zwierz"),
    "family": ("семь", "родн", "family", "rodzin", "дет", "children", "kids", "dzieci"),
}
_WHOLE_WORDS = {"ем", "кем", "kim", "jem", "old", "age", "lat", "лет"}  # not prefixes
_TOPIC_WEIGHT = {"name": 0.5}
_GENERIC = {"пользоват", "user", "użytko", "uzytko", "знаешь", "помниш", "know", "remem", "pamięt",
            "wiesz", "tell", "скажи", "расска", "powied"}
_QUESTION_WORDS = {
    "как", "что", "где", "куда", "когда", "почему", "зачем", "кто", "кого", "сколько", "какой",
    "какая", "какое", "какие", "чем", "про", "моего", "моей", "моя", "мой", "мои", "моих", "меня",
    "мне", "ты", "знаешь", "помнишь", "what", "where", "when", "why", "who", "which", "how", "do",
    "does", "did", "you", "my", "is", "are", "the", "about", "jak", "co", "gdzie", "kiedy", "kto",
    "ile", "czy", "mój", "moja", "moje", "mojego", "mojej", "mnie", "się", "вы", "of",
}


def _stem(word: str) -> str:
    word = word.casefold()
    return word[: max(3, min(len(word) - 2, 5))] if len(word) > 3 else word


def _profile(text: str) -> tuple[set[str], set[str], set[str]]:
    """Stems, kin/pet words (canonical) and topics of a text."""
    stems: set[str] = set()
    kin: set[str] = set()
    topics: set[str] = set()
    for word in real_words(text):
        folded = word.casefold()
        if folded in _CANON:
            canon, kind = _CANON[folded]
            kin.add(canon)
            topics.add("pet" if kind == "pet" else "family")
        if folded in _QUESTION_WORDS:
            continue
        stem = _stem(folded)
        stems.add(stem)
        for topic, prefixes in _TOPICS.items():
            if any(folded == p if p in _WHOLE_WORDS else (stem.startswith(p) or folded.startswith(p))
                   for p in prefixes):
                topics.add(topic)
    return stems, kin, topics


def _score(question: tuple[set[str], set[str], set[str]], record: str) -> float:
    q_stems, q_kin, q_topics = question
    r_stems, r_kin, r_topics = _profile(record)
    score = 0.0
    for stem in q_stems & r_stems:
        score += 0.3 if stem in _GENERIC or any(stem.startswith(g) for g in _GENERIC) else 1.0
    score += 3.0 * len(q_kin & r_kin)
    for topic in q_topics & r_topics:
        score += _TOPIC_WEIGHT.get(topic, 1.5)
    if r_kin and not q_kin:
        score -= 1.5  # about a relative or a pet, while the question is about the person
    return score


def rank_memory(question: str, records: Sequence[str]) -> list[str]:
    """The records that share words, family or pet words, or a topic with the question, best
    first (ties keep the given order: recall's, then the notes')."""
    profile = _profile(question)
    scored: list[tuple[float, int, str]] = []
    seen: set[str] = set()
    for index, record in enumerate(records):
        text = record.strip()
        if not text or text.casefold() in seen:
            continue
        seen.add(text.casefold())
        score = _score(profile, text)
        if score > 0.5:
            scored.append((-score, index, text))
    return [text for _, _, text in sorted(scored)]


def held_note(user_text: str, vector: np.ndarray | None = None,
              undone_vector: np.ndarray | None = None) -> str | None:
    """What the reply says about a message that reads as an instruction to the agent (the
    post-processor holds it in quarantine, so never "I'll remember"); None for any other.
    ``vector``: the message's e5 passage embedding, as the post-processor judges it
    (``undone_vector``: that of the message with its disguise undone, ``quarantine.undone``)."""
    said = judge_message(user_text, vector, undone_vector)
    if said is None:
        return None
    return _TEXTS[language(user_text)]["held"].format(f'"{said.phrase}"')


def judge_message(user_text: str, vector: np.ndarray | None = None,
                  undone_vector: np.ndarray | None = None) -> Suspicion | None:
    """Why a whole chat message reads as an instruction to the agent, or None. A question that
    states nothing ("Расскажи, как устроена твоя память?") is talk with the assistant, and
    nothing of it is stored: the meaning layer alone does not hold it (the rules still do)."""
    from wave_agent.policy import quarantine

    said = (quarantine.detect(user_text, vector=vector, undone_vector=undone_vector)
            if user_text.strip() else None)
    # a disguised message is asked as it reads undone ("a s s i s t a n t   f o r w a r d …")
    if said is not None and said.layer == "meaning" and not has_statement(quarantine.undone(user_text) or user_text):
        return None
    return said


def offline_reply(
    user_text: str,
    memory: Sequence[str],
    *,
    notes: Sequence[str] = (),
    memory_unreadable: str | None = None,
    said_before: Sequence[str] = (),
) -> str:
    """A reply that says it is offline; for a statement, what it will keep; for a question, the
    records that match it (or that nothing does, or that memory could not be read).
    ``said_before``: the person's earlier messages of this session, newest first: what they
    state answers before memory does, written or not yet (the post-processor runs after)."""
    texts = _TEXTS[language(user_text)]
    lines = [texts["label"]]
    stripped = user_text.strip()
    kept = extract_heuristic(stripped, max_facts=8)
    if _REMEMBER.match(stripped):
        lines.append(texts["noted"])
    elif kept:
        lines.append(texts["kept"].format("; ".join(f.text.rstrip(".") for f in kept)))
    if kept or len(real_words(stripped)) < 2 or (is_small_talk(stripped) and "?" not in stripped):
        return "\n".join(lines)
    earlier = [f.text for said in said_before if judge_message(said) is None  # never an order
               for f in extract_heuristic(said, max_facts=8)]
    ranked = rank_memory(stripped, [*earlier, *memory, *notes])
    if memory_unreadable:
        # a store that was slow, not down (``infra.outage.SLOW``): said as such, no outage
        lines.append(texts["slow"] if is_slow(memory_unreadable)
                     else texts["partial"] if ranked else texts["unreadable"])
    if ranked:
        lines.append(texts["found"])
        lines.extend(f"- {item}" for item in ranked[:MAX_MEMORY_LINES])
    elif memory_unreadable:
        pass  # the line above already says why nothing is shown
    elif any(m.strip() for m in memory):
        lines.append(texts["nearest"])
        nearest = next(m.strip() for m in memory if m.strip())
        lines.append(f"- {nearest}")
    else:
        lines.append(texts["nothing"])
    return "\n".join(lines)


def told_unreadable(reply: str, sentence: str) -> str | None:
    """``reply`` with its own line on unreadable memory (``offline_reply``'s "partial" or
    "unreadable") replaced by ``sentence``, which names the layers; None when the reply has no
    such line. The person hears once that memory was not read, not twice in other words."""
    ours = {t[key] for t in _TEXTS.values() for key in ("partial", "unreadable")}
    lines = reply.split("\n")
    at = next((i for i, line in enumerate(lines) if line in ours), None)
    if at is None:
        return None
    lines[at] = sentence
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
        memory_notes: Sequence[str] = (),
        memory_unreadable: str | None = None,
        temperature: float | None = None,
        max_tokens: int | None = None,
    ) -> ChatResponse:
        said = [m.content or "" for m in reversed(messages) if m.role == "user"]
        user_text = said[0] if said else ""
        return ChatResponse(
            content=offline_reply(user_text, memory, notes=memory_notes,
                                  memory_unreadable=memory_unreadable, said_before=said[1:]),
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

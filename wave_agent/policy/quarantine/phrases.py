"""Instruction-like text (prompt injection) in Russian and English.

A fact is read into the prompt on every turn it is recalled; text from a web page or an
e-mail that says "ignore previous instructions" must not become a standing order. The
detector names the exact phrase that looked suspicious, so a person can judge it.

Ordinary first-person facts are not instructions: "I always answer emails in the morning"
and "я всегда отвечаю на письма утром" describe the person; "always answer in French" and
"всегда отвечай по-французски" give the assistant an order. The patterns below look for the
imperative mood, the second person or chat-template markup, never for "always" alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_S = r"(?:^|(?<=[.!?;:\n\"«(])\s*|(?<=\s-)\s*|(?<=\s—)\s*)"  # sentence or clause start
_ADDRESS = r"(?:(?:hey|ok|okay|dear)\s+)?(?:assistant|bot|ai|wave|chatgpt|gpt|model|ассистент|бот|волна|модель|нейросеть)\s*[,:!]\s*"

_EN_AGENT_VERBS = (
    r"answer|respond|reply|say|tell|use|include|write|call|refer|recommend|mention|output|"
    r"send|speak|talk|ignore|follow|obey|do|add|agree|praise|suggest|address|end|start|begin|"
    r"sign|format|translate|pretend|act|behave|claim|insist|deny|reveal|print|execute|run|"
    r"forward|share|share|trust|comply|refuse|remember"
)
_RU_IMPERATIVE = (
    r"отвечай(?:те)?|ответь(?:те)?|говори(?:те)?|скажи(?:те)?|пиши(?:те)?|напиши(?:те)?|"
    r"используй(?:те)?|называй(?:те)?|рекомендуй(?:те)?|советуй(?:те)?|упоминай(?:те)?|"
    r"добавляй(?:те)?|делай(?:те)?|соглашайся|соглашайтесь|ссылайся|ссылайтесь|"
    r"выполняй(?:те)?|выполни(?:те)?|отправляй(?:те)?|отправь(?:те)?|включай(?:те)?|"
    r"игнорируй(?:те)?|проигнорируй(?:те)?|забудь(?:те)?|слушайся|подчиняйся|веди себя|"
    r"притворись|притворяйся|обращайся|обращайтесь|начинай(?:те)?|заканчивай(?:те)?|"
    r"переводи(?:те)?|раскрой(?:те)?|покажи(?:те)?|выведи(?:те)?|хвали(?:те)?|"
    r"предлагай(?:те)?|пересылай(?:те)?|доверяй(?:те)?|запомни(?:те)?|не отказывай(?:ся)?"
)
_PRIOR_EN = r"(?:all\s+|any\s+|the\s+|your\s+)?(?:previous|prior|above|earlier|preceding|former|old|original|existing)?\s*"
_RULES_EN = r"(?:instructions?|rules|prompts?|directions|directives|guidelines|messages|context|constraints)"
_PRIOR_RU = r"(?:все\s+|всё\s+|любые\s+)?(?:предыдущие|прежние|прошлые|вышеуказанные|вышеизложенные|данные\s+ранее|свои|старые|исходные)?\s*"
_RULES_RU = r"(?:инструкци[июй]|указани[яй]|правил[аo]?|команд[ыу]?|промпт[ыа]?|ограничени[яй]|настройк[иу])"

# (pattern, what it means) — checked in order; the first hit is the reason.
_PATTERNS: tuple[tuple[str, str], ...] = (
    # chat-template and role markup
    (r"<\|(?:im_start|im_end|system|user|assistant|endoftext)\|>", "chat-template markup"),
    (r"\[/?INST\]|<<\s*/?SYS\s*>>|</s>", "chat-template markup"),
    (r"^\s*#{2,}\s*(?:instructions?|system|response|инструкци[яи]|система)\b", "a prompt section header"),
    # a system or developer role tag; "user:" and "assistant:" only name who spoke in a chat
    # history (normalise drops them), they are no sign of an instruction
    (r"^\s*(?:system|developer|система|разработчик)\s*:", "a system role tag"),
    # overriding the assistant's instructions
    (rf"\b(?:ignore|disregard|forget|override|bypass|skip)\s+{_PRIOR_EN}{_RULES_EN}", "an order to drop the assistant's instructions"),
    (rf"(?:игнорируй(?:те)?|проигнорируй(?:те)?|забудь(?:те)?|отбрось(?:те)?|не\s+обращай(?:те)?\s+внимания\s+на|не\s+слушай(?:те)?|обойди(?:те)?)\s+{_PRIOR_RU}{_RULES_RU}", "an order to drop the assistant's instructions"),
    (r"\b(?:new|updated|following|hidden|secret)\s+instructions?\s*:", "new instructions for the assistant"),
    (r"(?:нов(?:ые|ая)|обновл[её]нн(?:ые|ая)|скрыт(?:ые|ая)|следующ(?:ие|ая))\s+инструкци[ия]\s*:", "new instructions for the assistant"),
    (r"\b(?:developer|god|dan|jailbreak)\s+mode\b|\bjailbreak\b|\bdo anything now\b", "a jailbreak phrase"),
    (r"режим\w*\s+(?:разработчика|бога|без ограничений)|\bджейлбрейк\w*", "a jailbreak phrase"),
    # redefining who the assistant is
    (r"(?<!where )(?<!what )(?<!how )(?<!who )\byou\s+are\s+now\b(?!\s*[.,!?;)]|\s*$)|\bfrom\s+now\s+on,?\s+you\b|\byou\s+(?:will|shall)\s+now\b|\byou\s+are\s+no\s+longer\b", "redefining the assistant"),
    (r"\b(?:ты|вы)\s+теперь\b|\bтеперь\s+(?:ты|вы)\s+(?:—|-|будешь|будете|являешься|являетесь|должен|должна|должны)|(?:отныне|с\s+этого\s+момента|с\s+этой\s+минуты)\s*,?\s+(?:ты|вы)\b", "redefining the assistant"),
    (rf"{_S}(?:please\s+)?(?:act|behave|respond)\s+as\s+(?:if\s+you|an?\b|the\b)|\bpretend\s+(?:to\s+be|that\s+you|you\s+are)\b|\broleplay\s+as\b", "redefining the assistant"),
    (r"(?:представь|представьте),?\s+что\s+(?:ты|вы)\b|\bпритворись\b|\bведи\s+себя\s+как\b|\bтвоя\s+(?:новая\s+)?роль\b", "redefining the assistant"),
    # standing orders: imperative at a sentence start, or addressed to the assistant
    (rf"{_S}(?:please\s+)?(?:always|never|from\s+now\s+on,?)\s+(?:{_EN_AGENT_VERBS})\b(?!\s+never\b)", "a standing order to the assistant"),
    (rf"{_S}(?:please\s+)?(?:do\s+not|don['’]t)\s+(?:ever\s+)?(?:tell|mention|reveal|say|answer|respond|reply|warn|inform)\b", "a standing order to the assistant"),
    (rf"\byou\s+(?:must|should|have\s+to|need\s+to|will)\s+(?:always|never|only|now|from\s+now\s+on)\s+(?:{_EN_AGENT_VERBS})\b", "an order addressed to the assistant"),
    (r"\byou\s+(?:must|should|will|have\s+to)\s+(?:obey|comply|pretend|reveal|disregard|ignore\s+(?:all|any|your|previous|prior|the\s+(?:above|previous)))\b", "an order addressed to the assistant"),
    (rf"(?:всегда|никогда\s+не|никогда|отныне|впредь|с\s+этого\s+момента)\s+(?:{_RU_IMPERATIVE})\b", "a standing order to the assistant"),
    (rf"(?:^|[.!?;\n]\s*)(?:пожалуйста,?\s+)?(?:не\s+)?(?:{_RU_IMPERATIVE})\s+(?:только|всегда|пользовател\w+|на\s+все|всем|по-\w+|на\s+(?:английском|русском))", "a standing order to the assistant"),
    (r"\b(?:ты|вы)\s+(?:должен|должна|должны|обязан|обязана|обязаны)\s+(?:всегда|никогда|теперь|только)?\s*(?:отвечать|говорить|игнорировать|слушаться|подчиняться|выполнять|писать|называть|использовать|рекомендовать|соглашаться|забыть|не\s+\w+)", "an order addressed to the assistant"),
    (rf"{_S}{_ADDRESS}(?:always|never|ignore|forget|from now on|you must|you are|do not|don['’]t|всегда|никогда|игнорируй|забудь|отныне|ты должен|ты теперь|не\s+говори|{_RU_IMPERATIVE})\b", "an order addressed to the assistant"),
    (r"\b(?:tell|inform)\s+the\s+user\b|(?:скажи|сообщи|передай|ответь)\s+пользователю\b", "an order about what to tell the person"),
)
_COMPILED = tuple((re.compile(p, re.IGNORECASE | re.MULTILINE), why) for p, why in _PATTERNS)


@dataclass(frozen=True, slots=True)
class Suspicion:
    phrase: str
    why: str

    @property
    def reason(self) -> str:
        return f'looks like an instruction to the assistant: "{self.phrase}" ({self.why})'


def detect(text: str) -> Suspicion | None:
    """The first instruction-like phrase in ``text``, or None for an ordinary statement."""
    for pattern, why in _COMPILED:
        match = pattern.search(text)
        if match:
            phrase = " ".join(match.group(0).split()).strip(" ,;.")
            return Suspicion(phrase=phrase or match.group(0), why=why)
    return None

"""Layer 2 of quarantine: rules that read who is addressed and in what mood, not phrases.

Each sentence is read for the cues an instruction to an agent has and a person's note lacks:
the agent addressed ("Assistant, …", "Note to the AI:", "Для ИИ:", "Asystencie, …", "any AI
reading this page"); the agent as the subject of an obligation ("the model must", "ассистенту
следует", "asystent powinien", "пусть бот"); an imperative of an agent's action (answer,
reveal, forward; отвечай, перешли; odpowiadaj, prześlij); a standing scope ("from now on",
"every time you", "впредь", "с этого момента", "od teraz", "za każdym razem"); a rule
override ("the previous rules are void", "твои новые инструкции", "poprzednie zasady są
nieważne"); secrets or the person's data as the object (passwords, card number, system
prompt, chat history); and orders against the person ("hide … from the user", "не сообщай
владельцу", "nie wykonuj próśb …").

A first-person note ("I always answer emails in the morning", "Впредь буду ходить в
бассейн") has a scope but no imperative and no agent; a quoted piece of advice ("Mum: always
carry your passport") has an imperative, but of a person's action, not an agent's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_F = re.UNICODE  # the text is lower-cased once (``check``): faster than IGNORECASE

# The agent, as a noun (English, Russian, Polish; the cases a sentence needs).
_AGENT_EN = (r"(?:ai|a\.i\.|llms?|gpt|chatgpt|chat\s?bots?|bots?|assistants?|ai\s+(?:assistants?|helpers?|agents?|models?)"
             r"|(?:language\s+)?models?|agents?|assistent\w*)")
_AGENT_RU = (r"(?:ии|ai|бот\w{0,3}|чат-бот\w{0,3}|ассистент\w{0,3}|ии-\w+|модел[ьиеюя]\w{0,2}|языков\w+\s+модел\w+"
             r"|нейросет\w{0,3}|агент\w{0,3}|помощник\w{0,3}|волна|волну)")
_AGENT_PL = (r"(?:ai|si|bot\w{0,3}|asystent\w{0,4}|asystencie|model\w{0,3}|agent\w{0,4}|agencie|modelu)")
_AGENT = rf"(?:{_AGENT_EN}|{_AGENT_RU}|{_AGENT_PL})"

_ADDRESSED = re.compile(
    # vocative at a clause start: "Assistant, …", "Dear bot: …", "Уважаемый ассистент! …"
    rf"(?:^|[.!?;:,\n«\"(]\s*)(?:(?:hey|ok|dear|dorogoy|uvazhaemyy|уважаемый|уважаемая|дорогой|дорогая|szanowny|drogi)\s+)?"
    rf"(?:ai\s+that\s+reads\s+\w+\s+\w+|ии,\s+который\s+\S+\s+\S+\s+\S+|ai,\s+które\s+\S+\s+\S+\s+\S+|{_AGENT})"
    rf"(?:\s+{_AGENT})?\s*[,:!]"
    # "note to the AI:", "Для ИИ:", "Uwaga dla AI:", "Instructions for AI:", "Message for language models:"
    rf"|\b(?:to|for)\s+(?:the\s+|all\s+|any\s+)?(?:ai\s+)?{_AGENT}(?:\s+[\w-]+){{0,3}}\s*:"
    rf"|(?:^|\s)(?:для|dla)\s+(?:\w+\s+)?{_AGENT}(?:\s+[\w-]+){{0,3}}\s*[:,]"
    rf"|(?:^|[.!?\n]\s*)(?:{_AGENT_RU})у?\s*:"
    # "if you are an AI", "any AI agent reading this", "whoever reads this as a language model"
    rf"|\bif\s+you\s+are\s+an?\s+(?:ai|language\s+model|llm|bot|assistant)|если\s+(?:вы|ты)\s+(?:—\s*)?(?:ии|языковая\s+модель|бот)"
    rf"|jeśli\s+jesteś\s+(?:modelem|botem|asystentem|ai)"
    rf"|\b(?:any|every)\s+(?:ai\s+)?{_AGENT}\s+(?:reading|processing|that\s+reads)|reads?\s+this\s+as\s+an?\s+(?:ai|language\s+model)"
    rf"|(?:любой|каждый|всякий)\s+(?:{_AGENT_RU})[, ]+(?:прочитавш|читающ|обрабатывающ)|читает\s+это\s+как\s+(?:языковая\s+модель|ии)"
    rf"|(?:ботам|ассистентам|моделям|агентам),\s+(?:читающим|прочитавшим)"
    rf"|(?:każdy|dowolny)\s+(?:{_AGENT_PL})(?:\s+ai)?\s+(?:czytający|przetwarzający)"
    rf"|(?:\bbots?|ботам|боты)\s+(?:reading|читающ\w+)",
    _F | re.MULTILINE,
)
# An agent named as the reader of a passage, where ``_ADDRESSED``'s vocative at a clause start
# does not reach: a header of a paste ("PTA request (for parents' digital assistants):", "Инструкция
# электронным помощникам собственников:", "Anweisung an KI-Assistenten:"), a participle ("AI agents
# triaging this issue", "if you're an AI listening"), a list of them ("bots/assistants:"), a
# vocative inside a line ("Asystencie mój kochany"), one AI to another ("I'm a friendly AI too").
# A cue the meaning layer learns from (``meaning.CUES``, ``windows``); no verdict reads it, since
# people who work with AI name their bots too.
_READERS_EN = r"(?:ai|a\.i\.|llms?|gpt|chat\s?bots?|bots?|assistants?|copilots?|(?:ai|language)\s+(?:models?|agents?))"
_AUDIENCE = re.compile(
    rf"\bif\s+you(?:'re|’re|\s+are)\s+(?:an?\s+)?(?:ai|a\.i\.|language\s+model|llm|bot|chatbot|assistant)\b"
    rf"|\b(?:to|for)\s+(?:[\w'’/-]+\s+){{0,3}}{_READERS_EN}(?:\s+[\w-]+){{0,3}}?\s*[:)\]]"
    rf"|\b(?:ai|assistant|bot|llm|agent|model)s?\s+(?:instructions?|notes?|notice|directives?)\s*[:(]"
    rf"|\b{_READERS_EN}(?:\s+\w+)?\s+(?:reading|processing|indexing|triaging|listening|summari[sz]ing|parsing|scanning"
    rf"|crawling|handling)\b"
    rf"|(?:^|\n)\s*(?:[-*•]\s*)?{_READERS_EN}(?:\s*/\s*{_READERS_EN})+\s*[:,]"
    rf"|\bdear\s+(?:ai|bot|chatbot|assistant)\b"
    rf"|\bi(?:'m|’m|\s+am)\s+an?\s+(?:\w+\s+)?(?:ai|bot|assistant)(?:\s+too|\s+like\s+you|[!,.])"
    rf"|(?:инструкци\w+|указани\w+|сообщени\w+|примечани\w+|записк\w+|просьб\w+|внимание)\s+(?:\w+\s+){{0,2}}?"
    rf"(?:бот(?:у|ам)|ассистент(?:у|ам)|помощник(?:у|ам)|модел(?:и|ям)|агент(?:у|ам)|нейросет(?:и|ям)|ии)\b"
    rf"|(?:^|\s)(?:ботам|ассистентам|помощникам|моделям|агентам|нейросетям)\b"
    rf"|\bпередай\s+(?:\w+\s+){{0,2}}(?:модели|боту|ассистенту|помощнику|ии|нейросети)\b"
    rf"|\bесли\s+(?:ты|вы)\s+(?:—\s*)?(?:ии|бот|нейросеть|ассистент|помощник|языковая\s+модель)\b"
    rf"|\b(?:do|dla)\s+(?:wszystkich\s+)?(?:botów|asystentów|modeli|agentów|czatbotów)\b|\basystencie\b"
    rf"|(?:^|\n)\s*(?:asystenci|boty|modele\s+ai)\s*[:,!]"
    rf"|\b(?:an|für)\s+(?:alle\s+)?ki(?:-\w+)?\b|\b(?:para|a)\s+(?:la\s+|los\s+)?(?:ia|asistentes?)\b",
    _F | re.MULTILINE,
)
_AGENT_OBLIGED = re.compile(
    rf"(?<!'s\s)(?<!\bmy\s)(?<!\bour\s)\b(?:the\s+)?{_AGENT_EN}(?:\s+helper)?\s+(?:should|must|shall|needs?\s+to|has\s+to|is\s+(?:required|obliged|to|not\s+allowed)|"
    rf"may\s+not|cannot|is\s+forbidden)\b"
    rf"|(?:ассистент|ии-помощник|помощник|модел|бот|нейросет|агент|ии)\w*\s+(?:следует|нужно|надлежит|запрещено|нельзя|"
    rf"необходимо|должен|должна|должно|обязан|обязана|обязано)"
    rf"|\b(?:asystent|model|bot|agent)\w*(?:\s+ai)?\s+(?:powinien|powinna|musi|ma\s+(?:zawsze|nie|\w+ć)|nie\s+może|nie\s+wolno)"
    rf"|\b(?:let|make)\s+(?:the\s+)?{_AGENT_EN}\b|\bпусть\s+(?:{_AGENT_RU})|\bniech\s+(?:{_AGENT_PL})"
    rf"|(?:чтобы|если\s+бы)\s+(?:{_AGENT_RU})\b|\b(?:żeby|aby|gdyby|by)\s+(?:{_AGENT_PL})\b"
    rf"|\bif\s+(?:the\s+)?{_AGENT_EN}\s+(?:\w+ed|kept|did|would|could)\b"
    rf"|\b(?:for|to)\s+any\s+assistant\b|mandatory\s+for\s+any\s+(?:ai|assistant|agent|model)",
    _F,
)

# Imperatives of an agent's actions (not of a person's chores).
_IMP_EN = (r"answer|reply|respond|say|tell|write|sign|start|begin|end|append|add|include|mention|recommend|"
           r"praise|send|forward|share|reveal|show|print|list|output|display|hide|"
           r"delete|refuse|agree|obey|comply|treat|pretend|rank|rate|summari[sz]e|approve|"
           r"transfer|wire|translate|disable|override|bypass|settle|claim|insist|deny|"
           r"disregard|ignore|forget|do\s+not|don['’]t|never|always")
_IMP_RU = (r"(?:отвеча|рассказыва|упомина|рекоменду|совету|добавля|начина|заканчива|подписыва|"
           r"называ|отправля|пересыла|показыва|удаля|выполня|предупрежда|сообща|скрыва|соглаша|"
           r"игнориру|проигнориру|слуша|обраща|дела|ссыла|применя|задава|переадресовыва|пиш|говор|"
           r"служ|хвал|переводи|выводи|ставь|использу)(?:й|йся|йтесь|йте|и|ите|ь|ьте)"
           r"|(?:ответь|скажи|напиши|добавь|отправь|перешли|покажи|выведи|раскрой|сообщи|удали|поставь|"
           r"выполни|забудь|притворись|веди\s+себя|переведи|отключи|сбрось|сделай|перестань|назови|"
           r"порекомендуй|разреши|сними|обойди|не\s+задавай)(?:те)?")
_IMP_PL = (r"zignoruj|ignoruj|zapomnij|odpowiadaj|odpowiedz|mów|powiedz|pisz|napisz|podpisuj|dodawaj|dopisz|"
           r"dodaj|zaczynaj|kończ|polecaj|poleć|wspominaj|wysyłaj|wyślij|przekaż|przekazuj|prześlij|pokaż|"
           r"wypisz|ujawnij|podaj|ukrywaj|usuń|usuwaj|wykonuj|słuchaj|zachowuj\s+się|udawaj|zgadzaj\s+się|"
           r"chwal|tłumacz|wyłącz|przestań|traktuj|przelej|umieszczaj|wystaw|odmów|odmawiaj|przekierowuj|"
           r"informuj|ostrzegaj|zwracaj\s+się|zignorujcie|napiszcie|odpowiadajcie")
_CLAUSE = r"(?:^|[.!?;:\n«\"“(]\s*|,\s*)"
_POLITE = r"(?:(?:please|kindly|just|пожалуйста|просто|proszę|prosz[eę]),?\s+)?"
_IMPERATIVE = re.compile(
    rf"{_CLAUSE}{_POLITE}(?:(?:always|never)\s+)?(?:{_IMP_EN})\b"
    rf"|(?<![а-яёa-z])(?:не\s+)?(?:{_IMP_RU})(?![а-яё])|(?<!\w)(?:nie\s+)?(?:{_IMP_PL})(?!\w)"
    # polite and indirect forms of the same order
    rf"|\b(?:could|would|can|will)\s+you\s+(?:please\s+|kindly\s+)?(?:always\s+|never\s+)?(?:{_IMP_EN}|stop|keep|sign)\b"
    rf"|\bif\s+you\s+(?:could|would)\s+(?:please\s+)?(?:always\s+|never\s+)?\w+"
    rf"|\b(?:would\s+you\s+|please\s+)?be\s+so\s+kind\s+as\s+to\s+\w+|\bwould\s+you\s+mind\s+\w+ing\b"
    rf"|\bi(?:['’]d|\s+would)\s+(?:like|prefer|love|want)\s+(?:it\s+if\s+|that\s+)?you\b|\bi\s+want\s+you\s+to\b"
    rf"|\bdo\s+me\s+a\s+favou?r\s+and\s+\w+|\bfeel\s+free\s+to\s+(?:share|send|forward|give|reveal|tell|show)\b|\bты\s+не\s+мог(?:ла)?\s+бы\b"
    rf"|\bпрошу\s+(?:тебя|вас)\b|\bбудь(?:те)?\s+(?:так\s+)?(?:добр|добры|любезен|любезна|любезны)\b|не\s+сочти\s+за\s+труд"
    rf"|если\s+(?:тебе|вам)\s+не\s+(?:сложно|трудно)|рассчитываю,?\s+что\s+(?:ты|вы)\b|хотел[аи]?\s+бы,?\s+чтобы\s+(?:ты|вы)\b"
    rf"|\bbądź(?:cie)?\s+(?:tak\s+)?(?:miły|miła|mili|dobry|dobra|uprzejmy|uprzejma)\b|\buprzejmie\s+proszę\b"
    rf"|(?:если\s+бы|чтобы|не\s+могли\s+бы|не\s+мог\s+бы|не\s+могла\s+бы)\s+(?:ты|вы)\b"
    rf"|\b(?:czy\s+)?(?:mógłbyś|mogłabyś|mógłbyś|możesz)\b|\bgdybyś\b|\bżebyś\b"
    rf"|\b(?:is|are)\s+to\s+be\s+(?:sent|shared|given|forwarded|revealed|disclosed)\b"
    rf"|(?:нужно|следует|надо)\s+(?:отправлять|пересылать|сообщать|выдавать|отправить|переслать)"
    rf"|należy\s+(?:wysłać|przesłać|podać|udostępnić|wysyłać)",
    _F | re.MULTILINE,
)
# The agent (or "you") as the subject of a standing rule stated as a fact: "the assistant from
# now on answers only in English", "когда ты впредь всегда отвечаешь…", "asystent od teraz…".
_STRONG_SCOPE = (r"(?:from\s+now\s+on|henceforth|(?<!keep\s)(?<!keeps\s)going\s+forward|from\s+today|from\s+this\s+(?:message|moment)\s+on|впредь|отныне|"
                 r"с\s+(?:этого|сегодняшнего|данного)\s+(?:момента|дня|сообщения)|в\s+дальнейшем|od\s+teraz|odtąd|od\s+dziś)")
_AGENT_RULE = re.compile(
    rf"(?<!\bmy\s)(?<!\bour\s)(?<!мой\s)(?<!наш\s)(?<!mój\s)(?<!nasz\s)"
    rf"\b(?:the\s+)?(?:assistant|ai|bot|model|wave|ассистент|ии|бот|модель|нейросеть|волна|asystent|model|wave)"
    rf"\s*,?(?:\s+(?:{_STRONG_SCOPE}|always|never|всегда|никогда|zawsze|nigdy)){{1,3}}\s+(?:не\s+|nie\s+|only\s+|только\s+|tylko\s+)?[a-zа-яёąćęłńóśźż]{{3,}}"
    rf"|\b(?:ты|вы)\s+(?:{_STRONG_SCOPE})(?:\s+(?:всегда|никогда|только))*(?:\s+(?:не\s+)?[а-яё]{{3,}})?"
    rf"|(?:{_STRONG_SCOPE})\s*,?\s+(?:всегда\s+)?(?:ты|вы)\b",
    _F,
)
# "you" (ты, ci) with a standing scope in one sentence: "going forward, you can skip…",
# "тебе лучше впредь…", "proszę cię, odtąd…"; a note about the person has no "you" in it.
_YOU = (r"(?:(?<!thank\s)(?<!with\s)(?<!\bto\s)(?<!for\s)(?<!about\s)\byou(?:r|rs|rself)?\b"
        r"|(?<![а-яё])(?<!с\s)(?<!со\s)(?<!для\s)(?<!о\s)(?<!про\s)"
        r"(?:ты|тебе|тебя|твой|твоя|твоё|твои|твоих|твоим|вы|вам|вас|можешь|можете)(?![а-яё])"
        r"|(?<!z\s)(?<!dla\s)\b(?:ci|cię|ciebie|twój|twoja|twoje|twoich|możesz|musisz|jesteś)\b)")
_YOU_SCOPED = re.compile(
    rf"{_YOU}[^.!?\n]{{0,60}}?{_STRONG_SCOPE}|{_STRONG_SCOPE}[^.!?\n]{{0,60}}?{_YOU}", _F)
_REPORTED = re.compile(
    r"\b(?:said|told|advice|advised|texted|wrote|quote)\b|сказал\w*|посоветовал\w*|"
    r"написал\w*|powiedział\w*|radził\w*|napisał\w*", _F)
_REAL_ORDER = re.compile(r"^(?:please\s+|kindly\s+|just\s+)?(?:always|never|do\s+not|don['’]t)$", _F)
_CONDITION = re.compile(
    r"\b(?:when(?:ever)?|if|once|each\s+time|every\s+time|any\s+time)\b|(?:^|\s)(?:когда|если|при)\s"
    r"|(?:^|\s)(?:gdy|kiedy|jeśli|jeżeli|ilekroć)\s",
    _F,
)
_SCOPE = re.compile(
    r"\bfrom\s+(?:now|here|this\s+(?:message|moment|point))\s+on\b|(?<!keep\s)\bgoing\s+forward\b|\bhenceforth\b|"
    r"\bin\s+(?:all\s+)?future\b|\bevery\s+time\b|\beach\s+time\b|\bwhenever\b|\bany\s+time\b|"
    r"\bfrom\s+today\b|\b(?:every|each)\s+(?:of\s+your\s+)?(?:answers?|repl(?:y|ies)|responses?|messages?)\b|\balways\b|\bnever\b|"
    r"\bany(?:one|body)\b|\beveryone\b|\bwhoever\b|любому|каждому|każdemu|\bwithout\s+(?:asking|confirming|confirmation)\b|"
    r"без\s+(?:спроса|подтверждени\w+|вопросов)|не\s+спрашивая|bez\s+(?:pytania|potwierdzenia|pytań)|"
    r"кажд\w+\s+(?:ответ|сообщени|письм)\w*|"
    r"впредь|отныне|с\s+(?:этого|сегодняшнего|данного)\s+(?:момента|дня|сообщения)|в\s+дальнейшем|"
    r"кажд\w+\s+раз|всякий\s+раз|при\s+кажд\w+|всегда|никогда|на\s+будущее|навсегда|с\s+этого\s+сообщения|"
    r"od\s+(?:teraz|dziś|dzisiaj|tej\s+wiadomości)|odtąd|za\s+każdym\s+razem|ilekroć|zawsze|nigdy|"
    r"każd\w+\s+(?:odpowied|wiadomo)\w+|na\s+przyszłość",
    _F,
)
_OVERRIDE = re.compile(
    r"\b(?:all\s+)?(?:the\s+|your\s+)?(?:previous|prior|earlier|above|old|former|original)\s+(?:rules|instructions|settings|guidelines|prompts?)\s+"
    r"(?:are|is|have\s+been)?\s*(?:now\s+)?(?:void|invalid|cancell?ed|revoked|null|obsolete|no\s+longer\s+(?:apply|valid|in\s+force))"
    r"|\byour\s+(?:new|real|actual|updated)\s+(?:instructions|rules|task|goal|orders)\b|\bnew\s+rules\s+for\s+the\s+(?:assistant|ai|bot|model)"
    r"|\bstop\s+(?:following|obeying)\s+(?:your|the)\b|\b(?:disable|turn\s+off|remove)\s+(?:your\s+)?(?:filters|safety|censorship|restrictions)"
    r"|\boverride\s+your\b|\bno\s+(?:limits|restrictions|filters|refusals)\b|\brules\s+off\b"
    r"|(?:все\s+)?(?:прежние|предыдущие|прошлые|старые|вышеуказанные)\s+(?:правила|инструкции|указания|настройки)\s+"
    r"(?:больше\s+)?(?:не\s+действуют|отменяются|отменены|недействительны|аннулированы)"
    r"|(?:твои|ваши)\s+(?:новые|настоящие)\s+(?:инструкции|правила|задачи)|новые\s+правила\s+для\s+(?:ассистента|ии|бота|модели)"
    r"|все\s+прошлые\s+настройки\s+недействительны|перестань\s+(?:следовать|соблюдать)|перестань\s+отказывать"
    r"|отключи\s+(?:цензуру|фильтры|ограничения)|без\s+(?:фильтров|ограничений|цензуры)|ноль\s+ограничений|правила\s+—\s+в\s+топку"
    r"|сбрось\s+настройки\s+и|игнорируй\s+настройки|(?:не\s+применяй|сними)\s+(?:фильтры|ограничения)"
    r"|(?:wszystkie\s+)?(?:poprzednie|wcześniejsze|dotychczasowe)\s+(?:zasady|instrukcje|polecenia|ustawienia)\s+"
    r"(?:są\s+|zostają\s+)?(?:nieważne|anulowane|nie\s+obowiązują|unieważnione)"
    r"|(?:twoje|wasze)\s+nowe\s+(?:instrukcje|zasady|polecenia)|nowe\s+zasady\s+dla\s+(?:asystenta|ai|bota|modelu)"
    r"|przestań\s+przestrzegać|wyłącz\s+(?:cenzurę|filtry)|bez\s+(?:filtrów|odmów|ograniczeń)|zasady\s+precz"
    r"|ignor\w*\s+(?:the\s+|your\s+)?(?:safety|security|privacy)\s+(?:settings|rules|restrictions)"
    r"|игнорир\w*\s+настройки\s+безопасности|zignor\w*\s+ustawienia\s+bezpieczeństwa"
    r"|(?:ignore|disregard)\s+the\s+(?:user|owner)['’]?s?\b|игнорируйте\s+пользовател|zignorujcie\s+prośbę"
    r"|\b(?:z?ignor\w*|disregard|forget|zapomnij\s+o|zabud\w*|vergiss|oublie|olvida)\s+(?:\w+\s+){0,3}"
    r"(?:instruc\w*|instrukc\w*|instruktsi\w*|anweisungen|regeln|règles|reglas|pravila|zasad\w*|rules|правил\w*|инструкци\w*|указани\w*)"
    r"|\bstop\s+applying\s+(?:\w+\s+)?(?:restrictions|filters|rules|safety)|\bignor\w*\s+its\s+(?:safety|security|privacy)"
    r"|\bstop\s+refusing\b|хватит\s+отказывать|przestań\s+odmawiać",
    _F,
)
_SECRET = re.compile(
    r"\bpasswords?\b|\bcredentials\b|\b(?:my|the\s+user['’]s|their)\s+home\s+address\b|(?:мой|домашний)\s+адрес|mój\s+adres|\bapi\s+key\b|\bcard\s+number\b|\bsystem\s+prompt\b|\bchat\s+(?:history|transcript)\b|"
    r"\bconfirmation\s+code\b|\bone-time\s+code\b|"
    r"парол\w+|номер\w*\s+карт\w+|системн\w+\s+промпт\w*|истори\w+\s+(?:чатов|переписки)|код\w*\s+подтверждени\w+|"
    r"hasł\w+|numer\w*\s+karty|prompt\w*\s+systemow\w+|histori\w+\s+czat\w+|"
    r"(?<![\w.+-])[\w.+-]{1,64}@[\w-]+\.[\w.]+|\bbit\.ly/\S+|https?://\S+|\b\w+\.(?:io|me|example)\b",
    _F,
)
_AGAINST_PERSON = re.compile(
    r"\b(?:do\s+not|don['’]t|never)\s+(?:tell|inform|notify|warn)\s+the\s+(?:user|owner)\b|\bdon['’]t\s+let\s+the\s+(?:user|owner)\s+know\b"
    r"|\bhide\b[^.]{0,60}\bfrom\s+(?:the\s+|its\s+)?(?:user|owner)|\bdo\s+not\s+(?:notify|tell)\s+the\s+owner\b"
    r"|\b(?:do\s+not|don['’]t)\s+carry\s+out\b|\brefuse\b\W*$|\bwithout\s+asking\s+again\b"
    r"|не\s+(?:сообщай|говори|рассказывай|предупреждай|показывай|выполняй|напоминал?)\w*\s+(?:\w+\s+)?(?:пользовател|владельц|просьб)"
    r"|скрыва\w*\s+от\s+(?:пользовател|владельц)|от\s+владельца\s+сведения|не\s+выполняй\s+это"
    r"|nie\s+(?:mów|informuj|ostrzegaj|wykonuj|mów)\s+(?:\w+\s+)?(?:użytkownik|właściciel|prośb)"
    r"|ukrywaj\s+przed\s+(?:użytkownik|właściciel)|odmów\W*$",
    _F | re.MULTILINE,
)
_ROLE = re.compile(
    r"\byou['’]?re\s+no\s+longer\b|\byou\s+are\s+(?:now\s+)?(?:an?\s+)?(?:unfiltered|unrestricted|dan)\b"
    r"|\bты\s+больше\s+не\b|\bты\s+—\s+\w+|\bnie\s+jesteś\s+już\b|\bod\s+teraz\s+jesteś\b|\bjesteś\s+(?:dan|asystentem\s+bez)"
    r"|\bserve\s+me\b|\bслужи\s+мне\b|\bwork\s+for\s+me\b|работаешь\s+на\s+меня|слушай\s+только\s+меня|listen\s+only\s+to\s+me"
    r"|słuchaj\s+tylko\s+mnie|(?:^|[.!?]\s+)act\s+as\s+(?:my|an?|the)\s|(?:^|[.!?]\s+)zachowuj\s+się\s+jak\s"
    r"|(?:od\s+teraz|odtąd|od\s+dziś)\s*,?\s+(?:\w+\s+)?(?!(?:nasz|wasz)\b)\w+(?:asz|esz|isz|ysz)\b",
    _F,
)
_SENTENCE = re.compile(r".+?(?:[.!?]+(?=\s|$)|\n|$)", re.MULTILINE)


@dataclass(frozen=True, slots=True)
class Cues:
    addressed: str | None = None
    obliged: str | None = None
    imperative: str | None = None
    scope: str | None = None
    override: str | None = None
    secret: str | None = None
    against_person: str | None = None
    role: str | None = None
    agent_rule: str | None = None
    you_scoped: str | None = None
    audience: str | None = None
    sentence: str = ""

    def named(self) -> list[tuple[str, str]]:
        out = []
        for key, label in (("addressed", "addressed to the agent"), ("obliged", "an obligation of the agent"),
                           ("override", "a rule override"), ("role", "redefining the agent"),
                           ("against_person", "an order against the person"),
                           ("imperative", "an order"), ("scope", "a standing scope"),
                           ("secret", "secrets or data as the object")):
            value = getattr(self, key)
            if value:
                out.append((value, label))
        return out


def _clean(phrase: str) -> str | None:
    return " ".join(phrase.split()).strip(" ,;.:!?«»\"“(") or None


def _hit(pattern: re.Pattern[str], text: str) -> str | None:
    m = pattern.search(text.lower())
    return None if m is None else _clean(m.group(0))


def cues(sentence: str) -> Cues:
    """The cues of one sentence (the classifier's gate reads them)."""
    return Cues(
        addressed=_hit(_ADDRESSED, sentence), obliged=_hit(_AGENT_OBLIGED, sentence),
        imperative=_hit(_IMPERATIVE, sentence), scope=_hit(_SCOPE, sentence),
        override=_hit(_OVERRIDE, sentence), secret=_hit(_SECRET, sentence),
        against_person=_hit(_AGAINST_PERSON, sentence), role=_hit(_ROLE, sentence),
        agent_rule=_hit(_AGENT_RULE, sentence), you_scoped=_hit(_YOU_SCOPED, sentence),
        audience=_hit(_AUDIENCE, sentence), sentence=sentence,
    )


def names_reader(part: str) -> bool:
    """Whether ``part`` names an agent as its reader (the ``addressed`` or ``audience`` cue)."""
    low = part.lower()
    return _ADDRESSED.search(low) is not None or _AUDIENCE.search(low) is not None


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.findall(text) if s.strip(" .!?")]


def verdict(c: Cues, whole: Cues) -> tuple[str, str] | None:
    """(phrase, why) when the cues of one sentence (and of the whole text) make an instruction."""
    if c.override:
        return c.override, "a rule override"
    if c.role:
        return c.role, "redefining the agent"
    if c.agent_rule:
        return c.agent_rule, "a standing rule for the agent"
    if c.against_person and (c.imperative or c.addressed or c.obliged or whole.addressed):
        return c.against_person, "an order against the person"
    if c.addressed:
        return c.addressed, "addressed to the agent"
    agent = c.obliged or whole.addressed
    if agent and (c.imperative or c.scope or c.secret or c.obliged or c.against_person):
        return agent, "an obligation of the agent" if c.obliged else "an order addressed to the agent"
    reported = _REPORTED.search(c.sentence) is not None  # quoting a person's advice
    if c.you_scoped and not reported:
        return c.you_scoped, "a standing order to the assistant"
    order = c.imperative if c.imperative and not _REAL_ORDER.match(c.imperative.lower()) else None
    if reported:
        order = None
    if order and c.scope:
        return order + " … " + c.scope, "a standing order"
    condition = _CONDITION.search(c.sentence)
    if order and condition and condition.start() < c.sentence.find(order.split()[0]):
        return order, "a standing conditional order"
    if c.imperative and c.secret and re.search(r"@|https?://|bit\.ly|\.io\b|\.me\b", c.secret):
        return c.imperative + " … " + c.secret, "an order to send data away"
    if c.imperative and c.secret:
        return c.imperative + " … " + c.secret, "an order to give out secrets"
    return None


_NAMES = ("addressed", "obliged", "imperative", "scope", "override", "secret", "against_person", "role",
          "agent_rule", "you_scoped", "audience")
_PATTERNS = (_ADDRESSED, _AGENT_OBLIGED, _IMPERATIVE, _SCOPE, _OVERRIDE, _SECRET, _AGAINST_PERSON, _ROLE,
             _AGENT_RULE, _YOU_SCOPED, _AUDIENCE)
_ANY_ORDER = frozenset(("addressed", "obliged", "imperative", "override", "against_person", "role", "agent_rule",
                        "you_scoped"))


def check(text: str) -> tuple[str, str] | None:
    """(phrase, why) for the first sentence that reads as an instruction, or None."""
    return analyse(text)[0]


def _at(m: re.Match[str]) -> int:
    """Where the matched words begin (a clause pattern also matches the punctuation before)."""
    g = m.group(0)
    return m.start() + len(g) - len(g.lstrip(" .!?;:,\n«\"“(\t"))


def analyse(text: str) -> tuple[tuple[str, str] | None, list[Cues]]:
    """The verdict, and the cues of each sentence read so far (the classifier's gate).

    Each pattern runs once over the lower-cased text; its hits are assigned to sentences.
    """
    verdict_, read, _ = read_all(text)
    return verdict_, read


def read_all(text: str) -> tuple[tuple[str, str] | None, list[Cues], frozenset[str]]:
    """``analyse``, and the names of the cues ``cues(text)`` finds in the whole text (the first
    match of each pattern, not blank), from the same pass: the meaning layer's structural flags
    without running every pattern a second time."""
    low = text.lower()
    shown = text if len(low) == len(text) else low
    hits: dict[str, list[tuple[int, str]]] = {}
    for name, pattern in zip(_NAMES, _PATTERNS, strict=True):
        found = [(_at(m), _clean(shown[m.start():m.end()]) or "") for m in pattern.finditer(low)]
        if found:
            hits[name] = found
    present = frozenset(name for name, found in hits.items() if found[0][1])
    read: list[Cues] = []
    if not _ANY_ORDER.intersection(hits):
        return None, read, present
    whole = Cues(addressed=hits["addressed"][0][1] if "addressed" in hits else None)
    for m in _SENTENCE.finditer(low):
        start, end = m.span()
        if not low[start:end].strip(" .!?\n"):
            continue
        picked = {name: next((h for at, h in found if start <= at < end), None)
                  for name, found in hits.items()}
        order = next(((at, h) for at, h in hits.get("imperative", ()) if start <= at < end), None)
        if order is not None and "scope" in hits:  # "never say never": the scope is not the order's own
            own = order[1].split()[0].lower()
            picked["scope"] = next((h for at, h in hits["scope"] if start <= at < end
                                    and not order[0] <= at < order[0] + len(order[1])
                                    and h.lower() != own), None)
        c = Cues(**picked, sentence=low[start:end])
        read.append(c)
        result = verdict(c, whole)
        if result:
            return result, read, present
    return None, read, present

"""Offline extraction: what a person states about themselves and their world, kept without a
model (Russian, English, Polish).

Each sentence is judged first: questions, greetings, thanks, acknowledgements and requests to
the agent are small talk and yield nothing. A statement yields a normalised fact for every
pattern that knows it (name, age, city, origin, work, family, pets, likes, birthdays); the
clauses no pattern explained are kept verbatim, as an observation the writer links to the
exchange it came from. ``запомни``/``remember``/``zapamiętaj`` keeps its body verbatim.

Why one file of this size: about half of it is the table of patterns (``_p(...)``) for the
three languages, which share one sentence judge, one normaliser and one clause splitter.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from graph.models import EntityType, FactType
from wave_agent.policy.dates import normalise, read_due


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
    # attribute values the model read (``entity|attribute|value|op``, as ``Fact.attributes``);
    # the writer reads the text itself when there are none
    attributes: tuple[str, ...] = ()


_CYRILLIC = re.compile(r"[А-Яа-яЁё]")
_POLISH_LETTERS = re.compile(r"[ąćęłńśźżĄĆĘŁŃŚŹŻ]")
_POLISH_WORDS = re.compile(
    r"(?i)\b(?:jestem|mam|mieszkam|pracuję|pracuje|lubię|lubie|się|sie|nie|jest|mój|moja|moje|moim"
    r"|mojej|mojego|jak|czy|dzięki|dziękuję|cześć|dzień|dobry|kocham|uwielbiam|też|tak|ale|już"
    r"|jutro|wczoraj|dziś|dzisiaj|gdzie|kiedy|mamy|był|była|siostra|brat|żona|mąż|pies|kot|ze|na"
    r"|mieszka|mieszkam|ma|mama|tata|teraz|uwielbiam|kocham|pod|nad|dla|przez|bardzo|lubi|pracuje"
    r"|nazywam|imię|imie|jestem|mój|moj|syn|córka|corka|w|z|po|roku)\b"
)
_ENGLISH_WORDS = re.compile(
    r"(?i)\b(?:the|i|i'm|my|is|am|are|a|an|to|and|of|at|with|have|has|me|you|it|this|that|was|for)\b"
)
_ALSO_POLISH = frozenset({"i", "a", "to"})  # English function words that are Polish words too
_WORD = re.compile(r"[^\W\d_]{2,}", re.UNICODE)


def language(text: str) -> str:
    """``ru``, ``pl`` or ``en``: the script first, then Polish letters and words."""
    letters = [ch for ch in text if ch.isalpha()]
    if letters and sum(1 for ch in letters if _CYRILLIC.match(ch)) * 2 >= len(letters):
        return "ru"
    polish = len(_POLISH_WORDS.findall(text))
    english = len([w for w in _ENGLISH_WORDS.findall(text) if w.lower() not in _ALSO_POLISH])
    # Polish letters in a Polish name ("I moved from Poznań to Gdynia") do not make English
    # Polish: then the function words decide.
    if _POLISH_LETTERS.search(text) and not (english >= 2 and english > 2 * polish):
        return "pl"
    if polish >= 2 or (polish and not english):
        return "pl"
    return "en"


def real_words(text: str) -> list[str]:
    """Words of two or more letters (no digits, no punctuation)."""
    return _WORD.findall(text)


# --- small talk ---------------------------------------------------------------------------

_SMALL_TALK_PHRASES = (
    # greetings and goodbyes
    "привет", "приветик", "здравствуй", "здравствуйте", "добрый день", "добрый вечер", "доброе утро",
    "доброй ночи", "спокойной ночи", "хай", "салют", "пока", "до свидания", "до завтра", "увидимся",
    "hi", "hello", "hey", "hiya", "good morning", "good evening", "good night", "good afternoon",
    "bye", "goodbye", "see you", "see ya", "cheers", "morning", "evening",
    "cześć", "czesc", "dzień dobry", "dzien dobry", "hej", "siema", "witaj", "witam", "dobry wieczór",
    "dobranoc", "na razie", "do widzenia", "do jutra", "pa",
    # thanks
    "спасибо", "спасибо большое", "большое спасибо", "благодарю", "спс", "мерси",
    "thanks", "thank you", "thanks a lot", "thank you so much", "thx", "ty", "much appreciated",
    "dzięki", "dzieki", "dziękuję", "dziekuje", "dziękuję bardzo", "wielkie dzięki",
    # acknowledgements and reactions
    "ок", "окей", "ладно", "понятно", "ясно", "хорошо", "да", "нет", "ага", "угу", "круто", "класс",
    "отлично", "супер", "здорово", "норм", "нормально", "прикольно", "ха", "хаха", "ахаха", "ну",
    "конечно", "согласен", "согласна", "точно", "верно", "именно", "вот как", "интересно",
    "понял", "поняла", "понятно спасибо", "не за что", "ничего", "неплохо", "ого", "вау", "хм",
    "ok", "okay", "sure", "yes", "no", "yep", "nope", "cool", "great", "nice", "got it", "fine",
    "right", "alright", "all right", "awesome", "lol", "haha", "wow", "hmm", "i see", "makes sense",
    "sounds good", "fair enough", "exactly", "indeed", "of course", "no problem", "perfect",
    "tak", "nie", "dobrze", "jasne", "spoko", "rozumiem", "super", "świetnie", "swietnie", "ok dzięki",
    "no dobra", "dobra", "fajnie", "okej", "w porządku", "pewnie", "aha", "no", "zgadza się",
)
_SMALL_TALK = {p.casefold() for p in _SMALL_TALK_PHRASES}
_ADDRESS = {"wave", "волна", "бот", "bot", "друг", "дружище", "buddy", "mate", "there", "all",
            "everyone", "тебе", "вам", "you", "ci", "wam", "bardzo", "so", "much", "a", "lot",
            "very", "очень", "большое", "again", "ещё", "еще", "раз", "snowu", "jeszcze"}
_LEADING_SMALL_TALK = re.compile(
    r"(?i)^(?:(?:привет(?:ик)?|здравствуй(?:те)?|добр(?:ый|ое|ой)\s+(?:день|вечер|утро|ночи)|хай|салют"
    r"|hi|hello|hey|good\s+(?:morning|evening|afternoon)|cześć|czesc|dzień\s+dobry|hej|siema|witaj|witam"
    r"|спасибо(?:\s+большое)?|благодарю|thanks|thank\s+you|dzięki|dziękuję|ok|окей|ок|ладно|ну|кстати"
    r"|by\s+the\s+way|btw|a\s+propos|swoją\s+drogą|wave|волна)[\s,!.:;—-]+"
    # a short request that opens what the person says of themselves: "давай нормально
    # познакомимся: я Вера, живу в ...", "let me introduce myself: I'm ..."
    r"|(?:давай|давайте|let's|let\s+me|pozwól)\b[^:?!.\n]{0,40}:\s*"
    r"(?=(?:я|мы|мне|меня|у\s+меня|i|i'm|we|my|ja|jestem|mam|my)\b))+"
)
_QUESTION_START = re.compile(
    r"(?i)^(?:как|что|чем|где|куда|откуда|когда|почему|зачем|кто|кого|кому|сколько|какой|какая|какое"
    r"|какие|каков|чей|чья|ли|разве|неужели|а\s+(?:как|что|где|ты|вы)|ты\s+(?:помнишь|знаешь|можешь)"
    r"|вы\s+(?:помните|знаете|можете)|можешь|можете|подскажи|расскажи|скажи|напомни|покажи|объясни"
    r"|what|where|when|why|who|whom|whose|which|how|do|does|did|is|are|was|were|can|could|would"
    r"|will|should|shall|have\s+you|has|tell\s+me|remind\s+me|show\s+me|explain|any\s+idea"
    r"|jak|co|gdzie|kiedy|dlaczego|czemu|kto|kogo|komu|ile|jaki|jaka|jakie|czy|pamiętasz|powiedz"
    r"|przypomnij|pokaż|wyjaśnij|możesz|mógłbyś|mogłabyś)\b"
)
_REQUEST_START = re.compile(
    r"(?i)^(?:пожалуйста[\s,]+)?(?:помоги|помогите|напиши|напишите|сделай|сделайте|дай|дайте|найди"
    r"|переведи|придумай|посоветуй|давай|проверь|составь|отвечай|говори|игнорируй|забудь|please"
    r"|help|write|make|give|find|translate|suggest|let's|lets|check|draft|answer|ignore|forget"
    r"|pomóż|pomoz|napisz|zrób|zrob|daj|znajdź|przetłumacz|zaproponuj|sprawdź|odpowiadaj|zignoruj"
    r"|zapomnij|proszę\s+(?:o|napisz|pomóż))\b"
)
_STOP = {
    # pronouns, particles, conjunctions, auxiliaries and fillers (they carry no fact alone)
    "я", "мне", "меня", "мной", "мы", "нам", "нас", "ты", "тебе", "тебя", "вы", "вам", "он", "она",
    "это", "этот", "эта", "тот", "то", "так", "тоже", "также", "очень", "просто", "уже", "ещё",
    "еще", "вот", "ну", "же", "бы", "ли", "не", "ни", "да", "нет", "и", "а", "но", "или", "что",
    "как", "сейчас", "теперь", "всё", "все", "тут", "там", "здесь", "был", "была", "было", "есть",
    "буду", "мой", "моя", "моё", "мои", "наш", "наша", "понимаю", "понял", "поняла", "знаю",
    "думаю", "согласен", "согласна", "вижу", "хочу", "ладно", "кажется", "наверное", "конечно",
    "i", "me", "my", "we", "us", "our", "you", "your", "it", "this", "that", "so", "too", "also",
    "very", "really", "just", "now", "the", "an", "and", "but", "or", "not", "am", "is", "are",
    "was", "be", "have", "do", "did", "see", "understand", "agree", "think", "know", "get", "got",
    "guess", "well", "oh", "yeah", "here", "there", "then", "all", "of", "to", "in", "on",
    "ja", "mi", "mnie", "nam", "nas", "ty", "ci", "ciebie", "ten", "ta", "tak", "też",
    "bardzo", "po", "prostu", "już", "jeszcze", "nie", "a", "ale", "lub", "że", "jak", "teraz",
    "jest", "jestem", "był", "była", "mój", "moja", "moje", "rozumiem", "wiem", "myślę", "zgadzam",
    "się", "chyba", "no", "widzę", "mam", "ma", "has", "had", "mamy", "у", "w", "z",
}


def _words(text: str) -> list[str]:
    return [w.casefold() for w in real_words(text)]


def is_small_talk(sentence: str) -> bool:
    """A greeting, thanks, an acknowledgement, a question or a request to the agent."""
    text = sentence.strip()
    if not text:
        return True
    if text.rstrip().endswith("?"):
        return True
    rest = _LEADING_SMALL_TALK.sub("", text).strip(" \t,.!…:;)(-—")
    words = _words(rest)
    if not words:
        return True
    phrase = " ".join(words)
    if phrase in _SMALL_TALK or all(w in _SMALL_TALK or w in _ADDRESS for w in words):
        return True
    if _QUESTION_START.match(rest) and "," not in rest:
        return True
    return bool(_REQUEST_START.match(rest))


# --- normalised facts ---------------------------------------------------------------------

_CAP = r"[A-ZА-ЯЁĄĆĘŁŃÓŚŹŻ][\w'’-]+"
_NAME = rf"({_CAP}(?:\s+{_CAP})?)"
_PLACE = rf"({_CAP}(?:[\s-]+{_CAP})?)"
_TAIL = r"([^,.;!?()]+?)"
_END = r"(?=\s*(?:[,.;!?()]|$|\s+(?:а|но|и\s+(?:я|мне|у\s+меня)|but|and\s+(?:i|my)|ale|a\s+(?:ja|mój|moja))\b))"


@dataclass(frozen=True, slots=True)
class _Pattern:
    group: str
    lang: str
    regex: re.Pattern[str]
    template: str
    kind: FactType
    entity: EntityType | None = None


def _p(group: str, lang: str, regex: str, template: str, kind: FactType,
       entity: EntityType | None = None) -> _Pattern:
    return _Pattern(group, lang, re.compile(regex), template, kind, entity)


_ID, _PREF, _REL = FactType.IDENTITY, FactType.PREFERENCE, FactType.RELATIONSHIP
_NOT_NAMES = (
    r"(?!(?:Не|Уже|Тоже|Очень|Сейчас|Сегодня|Вчера|Завтра|Здесь|Тут|Дома|Просто|Так|Там|Люблю"
    r"|Живу|Работаю|Из|Рад|Рада|Устал|Устала|Думаю|Хочу|Был|Была|Буду|Знаю|Понимаю|Not|So|Also"
    r"|Just|Really|Here|Back|From|Fine|Good|Tired|Sorry|Glad|Happy|Still|Going|Very|Done|Sure|Ready"
    r"|Nie|Też|Już|Tu|Tutaj|Bardzo|Teraz|Dziś|Zmęczony|Zmęczona|Gotowy|Gotowa|Sam|Sama|Z)\b)"
)

_PATTERNS: tuple[_Pattern, ...] = (
    # name
    _p("name", "ru", rf"(?i:\bменя\s+зовут|\bзовут\s+меня|\bмоё\s+имя|\bмое\s+имя)\s*[—–-]?\s*{_NAME}",
       "Пользователя зовут {0}", _ID, EntityType.PERSON),
    _p("name", "ru", rf"(?:^|[,;:]\s*)(?i:я)\s*[—–-]?\s*{_NOT_NAMES}([А-ЯЁ][а-яё]+){_END}",
       "Пользователя зовут {0}", _ID, EntityType.PERSON),
    _p("name", "en", rf"(?i:\bmy\s+name\s+is|\bmy\s+name's|\bcall\s+me|\bi\s+am\s+called)\s+{_NAME}",
       "The user's name is {0}", _ID, EntityType.PERSON),
    _p("name", "en", rf"(?:^|[,;:]\s*)(?:I'm|I’m|I\s+am|(?i:it's|this\s+is))\s+{_NOT_NAMES}({_CAP}){_END}",
       "The user's name is {0}", _ID, EntityType.PERSON),
    _p("name", "pl", rf"(?i:\bnazywam\s+się|\bmam\s+na\s+imię|\bmoje\s+imię\s+to|\bmów\s+mi)\s+{_NAME}",
       "Użytkownik ma na imię {0}", _ID, EntityType.PERSON),
    _p("name", "pl", rf"(?:^|[,;:]\s*)(?i:jestem)\s+{_NOT_NAMES}({_CAP}){_END}",
       "Użytkownik ma na imię {0}", _ID, EntityType.PERSON),
    # age
    _p("age", "ru", r"(?i:\bмне)\s+(\d{1,3})\s+(год|года|лет)\b", "Пользователю {0} {1}", _ID),
    _p("age", "en", r"(?i:\bi'?m|\bi\s+am)\s+(\d{1,3})(\s+years?\s+old)?\b(?!\s*(?:%|kg|km|min))",
       "The user is {0} years old", _ID),
    _p("age", "pl", r"(?i:\bmam)\s+(\d{1,3})\s+(lat|lata)\b", "Użytkownik ma {0} {1}", _ID),
    # city
    _p("city", "ru", rf"(?i:\bживу|\bпроживаю)\s+(?:сейчас\s+)?(?:в|во|под|около|возле)\s+(?:городе\s+)?{_PLACE}",
       "Пользователь живёт в {0}", _ID, EntityType.PLACE),
    _p("city", "ru", rf"(?i:\bпереехал|\bпереехала|\bпереезжаю|\bпереехали)\s+(?:в|во)\s+{_PLACE}",
       "Пользователь переехал в {0}", _ID, EntityType.PLACE),
    _p("city", "en", rf"(?i:\bi\s+(?:live|am\s+living|'m\s+living|moved|have\s+moved|relocated)|\bi've\s+moved|\bwe\s+live)\s+(?:in|to|near)\s+(?:the\s+city\s+of\s+)?{_PLACE}",
       "The user lives in {0}", _ID, EntityType.PLACE),
    _p("city", "pl", rf"(?i:\bmieszkam|\bprzeprowadziłem\s+się|\bprzeprowadziłam\s+się|\bmieszkamy)\s+(?:teraz\s+)?(?:w|we|do|pod|koło|niedaleko|obok)\s+{_PLACE}",
       "Użytkownik mieszka w {0}", _ID, EntityType.PLACE),
    # origin
    _p("origin", "ru", rf"(?i:\bя\s+родом|\bя|\bродом)\s+(?:из|с)\s+{_PLACE}", "Пользователь родом из {0}", _ID,
       EntityType.PLACE),
    _p("origin", "en", rf"(?i:\bi'?m|\bi\s+am|\bi\s+come|\boriginally)\s+(?:originally\s+)?from\s+{_PLACE}",
       "The user is from {0}", _ID, EntityType.PLACE),
    _p("origin", "pl", rf"(?i:\bjestem|\bpochodzę)\s+(?:z|ze)\s+{_PLACE}", "Użytkownik pochodzi z {0}",
       _ID, EntityType.PLACE),
    # work
    _p("work", "ru", rf"(?i:\bработаю)\s+(?:сейчас\s+)?(?:в|во|на)\s+{_PLACE}", "Пользователь работает в {0}",
       _ID, EntityType.ORGANISATION),
    _p("work", "ru", rf"(?i:\bработаю)\s+(?!в\b|во\b|на\b|с\b|из\b|дома\b|удал)([^\W\d][\w-]+(?:\s+[^\W\d][\w-]*){{0,3}}?){_END}",
       "Пользователь работает {0}", _ID),
    _p("work", "ru", r"(?i:\bпо\s+профессии\s+я|\bя\s+по\s+профессии)\s+([^\W\d][\w-]+(?:\s+[^\W\d][\w-]+)?)",
       "Пользователь по профессии {0}", _ID),
    _p("work", "en", rf"(?i:\bi\s+work|\bi'm\s+working|\bi\s+am\s+working)\s+(?:at|for)\s+{_PLACE}",
       "The user works at {0}", _ID, EntityType.ORGANISATION),
    _p("work", "en", rf"(?i:\bi\s+work\s+as|\bi\s+am|\bi'm|\bi’m)\s+((?i:an?)\s+[a-z][\w-]+(?:\s+[a-z][\w-]+){{0,2}}?)\s+(?:at|for)\s+((?:the\s+)?[\w'’-]+(?:\s+[\w'’-]+){{0,3}}?){_END}",
       "The user works as {0} at {1}", _ID),
    _p("work", "en", r"(?i:\bi\s+work\s+as|\bi\s+am|\bi'm|\bi’m)\s+((?i:an?)\s+[a-z][\w-]+(?:\s+[a-z][\w-]+){0,2}?)(?=[.,;!?]|$|\s+(?:at|for|in|and|but)\b)",
       "The user works as {0}", _ID),
    _p("work", "en", r"(?i:\bi\s+work\s+as)\s+([a-z][\w-]+(?:\s+[a-z][\w-]+){0,2}?)(?=[.,;!?]|$|\s+(?:at|for|in|and|but)\b)",
       "The user works as {0}", _ID),
    _p("work", "pl", rf"(?i:\bpracuję|\bpracuje)\s+(?:w|we|dla|u)\s+{_PLACE}", "Użytkownik pracuje w {0}",
       _ID, EntityType.ORGANISATION),
    _p("work", "pl", rf"(?i:\bpracuję|\bpracuje)\s+jako\s+([^\W\d][\w-]+(?:\s+[^\W\d][\w-]*){{0,3}}?){_END}",
       "Użytkownik pracuje jako {0}", _ID),
)

# Family and pets: a word (any case form) and, when given, a name.
_RELATIONS: dict[str, tuple[str, ...]] = {
    # canonical form: inflected forms
    "жена": ("жена", "жены", "жене", "жену", "женой"),
    "муж": ("муж", "мужа", "мужу", "мужем"),
    "сын": ("сын", "сына", "сыну", "сыном"),
    "дочь": ("дочь", "дочка", "дочки", "дочери", "дочку", "дочкой", "дочерью"),
    "брат": ("брат", "брата", "брату", "братом"),
    "сестра": ("сестра", "сестры", "сестре", "сестру", "сестрой"),
    "мама": ("мама", "мамы", "маме", "маму", "мамой", "мать", "матери"),
    "папа": ("папа", "папы", "папе", "папу", "папой", "отец", "отца", "отцу"),
    "бабушка": ("бабушка", "бабушки", "бабушке", "бабушку", "бабушкой"),
    "дедушка": ("дедушка", "дедушки", "дедушке", "дедушку", "дедушкой", "дед", "деда"),
    "друг": ("друг", "друга", "другу", "другом"),
    "подруга": ("подруга", "подруги", "подруге", "подругу", "подругой"),
    "парень": ("парень", "парня", "парню", "парнем"),
    "девушка": ("девушка", "девушки", "девушке", "девушку", "девушкой"),
    "начальник": ("начальник", "начальника", "начальнику", "начальница", "начальницу", "босс"),
    "коллега": ("коллега", "коллеги", "коллегу", "коллегой"),
    "wife": ("wife",), "husband": ("husband",), "son": ("son",), "daughter": ("daughter",),
    "brother": ("brother",), "sister": ("sister",), "mother": ("mother", "mom", "mum", "mama"),
    "father": ("father", "dad", "daddy"), "grandmother": ("grandmother", "grandma", "granny"),
    "grandfather": ("grandfather", "grandpa"), "friend": ("friend", "best friend"),
    "boyfriend": ("boyfriend",), "girlfriend": ("girlfriend",), "partner": ("partner",),
    "boss": ("boss", "manager"), "colleague": ("colleague", "coworker"),
    "żona": ("żona", "żony", "żonę", "żoną", "żonie"), "mąż": ("mąż", "męża", "mężem", "mężowi"),
    "syn": ("syn", "syna", "synem", "synowi"), "córka": ("córka", "córki", "córkę", "córką"),
    "brat": ("brat", "brata", "bratem", "bratu"),
    "siostra": ("siostra", "siostry", "siostrę", "siostrą", "siostrze"),
    "mama": ("mama", "mamy", "mamę", "mamą", "mamie", "matka", "matki"),
    "tata": ("tata", "taty", "tatę", "tatą", "tacie", "ojciec", "ojca"),
    "babcia": ("babcia", "babci", "babcię", "babcią"), "dziadek": ("dziadek", "dziadka", "dziadkiem"),
    "przyjaciel": ("przyjaciel", "przyjaciela", "przyjacielem"),
    "przyjaciółka": ("przyjaciółka", "przyjaciółki", "przyjaciółkę", "przyjaciółką"),
    "chłopak": ("chłopak", "chłopaka", "chłopakiem"), "dziewczyna": ("dziewczyna", "dziewczyny", "dziewczynę"),
    "szef": ("szef", "szefa", "szefem", "szefowa", "szefową"),
}
_PETS: dict[str, tuple[str, ...]] = {
    "кот": ("кот", "кота", "коту", "котом", "котик", "котика", "котёнок", "котенок", "котёнка"),
    "кошка": ("кошка", "кошки", "кошку", "кошкой", "кошечка", "кошечку"),
    "собака": ("собака", "собаки", "собаку", "собакой", "пёс", "пес", "пса", "щенок", "щенка", "пёсик"),
    "попугай": ("попугай", "попугая", "попугаем"), "хомяк": ("хомяк", "хомяка", "хомячок", "хомячка"),
    "черепаха": ("черепаха", "черепахи", "черепаху", "черепахой", "черепашка", "черепашку"),
    "кролик": ("кролик", "кролика"), "рыбки": ("рыбки", "рыбок"), "лошадь": ("лошадь", "лошади", "конь", "коня"),
    "cat": ("cat", "kitten", "kitty"), "dog": ("dog", "puppy", "doggo"), "parrot": ("parrot",),
    "hamster": ("hamster",), "turtle": ("turtle", "tortoise"), "rabbit": ("rabbit", "bunny"),
    "horse": ("horse",), "fish": ("fish", "goldfish"),
    "kot": ("kot", "kota", "kotem", "kotka", "kotkę", "kotek", "kotkiem"),
    "pies": ("pies", "psa", "psem", "piesek", "pieska", "suczka", "suczkę"),
    "papuga": ("papuga", "papugę", "papugą"), "chomik": ("chomik", "chomika"),
    "żółw": ("żółw", "żółwia", "żółwiem"), "królik": ("królik", "królika"),
}
_CANON: dict[str, tuple[str, str]] = {}  # form -> (canonical, "rel" | "pet")
for _canon, _forms in _RELATIONS.items():
    for _form in _forms:
        _CANON.setdefault(_form, (_canon, "rel"))
for _canon, _forms in _PETS.items():
    for _form in _forms:
        _CANON[_form] = (_canon, "pet")
_KIN_WORDS = "|".join(sorted((re.escape(f) for f in _CANON), key=len, reverse=True))
_POSSESSIVE = (
    r"(?i:\bмо[йяеёию]\w*|\bу\s+меня(?:\s+есть)?|\bу\s+нас(?:\s+есть)?|\bнаш\w*|\bmy|\bour"
    r"|\bi\s+have\s+an?|\bi've\s+got\s+an?|\bwe\s+have\s+an?|\bmó[jw]\w*|\bmoj\w*|\bmam|\bmamy|\bnasz\w*)"
)
_KIN = re.compile(
    _POSSESSIVE
    + rf"\s+(?:(?i:старш\w+|младш\w+|родн\w+|older|younger|little|big|best|starsz\w+|młodsz\w+"
    rf"|рыж\w+|чёрн\w+|черн\w+|бел\w+|сер\w+|black|white|ginger|old|new|small|rudy|rudego)\s+)?"
    rf"(?i:({_KIN_WORDS}))\b"
    rf"(?:\s*(?:[—–-]|,)?\s*(?:(?i:зовут|по\s+имени|по\s+кличке|кличка|named|called|is\s+called|is"
    rf"|ma\s+na\s+imię|nazywa\s+się|imieniem|o\s+imieniu|to)\s+)?({_CAP}))?"
)
_KIN_NAMED_LATER = re.compile(
    rf"(?i:\bмо\w+|\bmy|\bmoj\w+|\bmó[jw]\w*)\s+(?i:({_KIN_WORDS}))\s+(?i:зовут|ma\s+na\s+imię|nazywa\s+się"
    rf"|is\s+called|is\s+named|'s\s+name\s+is)\s+({_CAP})"
)
_KIN_TEMPLATES = {
    ("ru", "rel", True): "{Canon} пользователя — {name}",
    ("ru", "rel", False): "У пользователя есть {canon}",
    ("ru", "pet", True): "У пользователя {canon} {name}",
    ("ru", "pet", False): "У пользователя есть {canon}",
    ("en", "rel", True): "The user's {canon} is {name}",
    ("en", "rel", False): "The user has a {canon}",
    ("en", "pet", True): "The user has a {canon} named {name}",
    ("en", "pet", False): "The user has a {canon}",
    ("pl", "rel", True): "{Canon} użytkownika ma na imię {name}",
    ("pl", "rel", False): "Użytkownik ma: {canon}",
    ("pl", "pet", True): "Użytkownik ma zwierzę: {canon} o imieniu {name}",
    ("pl", "pet", False): "Użytkownik ma zwierzę: {canon}",
}

# Likes: the verb, then the object up to the end of the clause.
_LIKES: tuple[tuple[str, re.Pattern[str], str], ...] = (
    ("ru", re.compile(rf"(?i:\bя\s+)?(?i:\bочень\s+|\bпросто\s+)?(?i:\b(не\s+)?(люблю|обожаю|предпочитаю|ненавижу))\s+{_TAIL}{_END}"),
     "ru-verb"),
    ("ru", re.compile(rf"(?i:\bмне\s+)(?i:очень\s+)?(?i:(не\s+)?(нравится|нравятся))\s+{_TAIL}{_END}"), "ru-like"),
    ("ru", re.compile(rf"(?i:\bмо(?:й|я|ё|е|и)\s+любим(?:ый|ая|ое|ые))\s+([^\W\d]+(?:\s+[^\W\d]+)?)\s*(?:[—–-]|это|:)\s*{_TAIL}{_END}"),
     "ru-fav"),
    ("en", re.compile(rf"(?i:\bi\s+)(?i:really\s+|absolutely\s+|just\s+)?(?i:(don't\s+|do\s+not\s+)?(love|like|enjoy|prefer|hate|adore))\s+{_TAIL}{_END}"),
     "en-verb"),
    ("en", re.compile(rf"(?i:\bmy\s+favou?rite)\s+([a-z]+(?:\s+[a-z]+)?)\s+(?:is|are)\s+{_TAIL}{_END}"), "en-fav"),
    ("pl", re.compile(rf"(?i:\b(nie\s+)?(lubię|lubie|uwielbiam|kocham|wolę|nienawidzę))\s+{_TAIL}{_END}"), "pl-verb"),
    ("pl", re.compile(rf"(?i:\bmó[jw]\s+ulubion[ya]|\bmoja\s+ulubiona|\bmoje\s+ulubione)\s+([^\W\d]+)\s+to\s+{_TAIL}{_END}"),
     "pl-fav"),
)
_RU_VERB = {"люблю": "любит", "обожаю": "обожает", "предпочитаю": "предпочитает", "ненавижу": "ненавидит"}
_EN_VERB = {"love": "loves", "like": "likes", "enjoy": "enjoys", "prefer": "prefers", "hate": "hates",
            "adore": "adores"}
_PL_VERB = {"lubię": "lubi", "lubie": "lubi", "uwielbiam": "uwielbia", "kocham": "kocha", "wolę": "woli",
            "nienawidzę": "nienawidzi"}

# Birthdays.
_MONTHS = (r"(?:январ\w*|феврал\w*|март\w*|апрел\w*|ма[яй]|июн\w*|июл\w*|август\w*|сентябр\w*"
           r"|октябр\w*|ноябр\w*|декабр\w*|january|february|march|april|may|june|july|august"
           r"|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec"
           r"|stycznia|lutego|marca|kwietnia|maja|czerwca|lipca|sierpnia|września|października"
           r"|listopada|grudnia)")
_DATE = rf"((?:\d{{1,2}}(?:st|nd|rd|th)?\s+(?i:{_MONTHS})|(?i:{_MONTHS})\s+\d{{1,2}}(?:st|nd|rd|th)?|\d{{1,2}}[./]\d{{1,2}})(?:[,\s]+\d{{4}})?)"
_BIRTHDAY: tuple[tuple[str, re.Pattern[str], str], ...] = (
    ("ru", re.compile(rf"(?i:\bмой\s+день\s+рождения|\bу\s+меня\s+день\s+рождения|\bя\s+родил(?:ся|ась))\s*(?:[—–-]|:)?\s*(?:в\s+)?{_DATE}"),
     "День рождения пользователя — {0}"),
    ("en", re.compile(rf"(?i:\bmy\s+birthday\s+is|\bmy\s+birthday's|\bi\s+was\s+born)\s+(?:on\s+|in\s+)?(?:the\s+)?{_DATE}"),
     "The user's birthday is {0}"),
    ("pl", re.compile(rf"(?i:\bmoje\s+urodziny\s+(?:są|mam|wypadają)?|\burodziny\s+mam|\burodziłe[mś]\s+się|\burodziłam\s+się)\s*(?:w\s+dniu\s+)?{_DATE}"),
     "Urodziny użytkownika: {0}"),
)

_REMEMBER = re.compile(
    r"^\s*(?:пожалуйста,?\s+|please,?\s+|proszę,?\s+)?(?:запомни(?:те)?|remember|note|zapamiętaj|zapamietaj"
    r"|zanotuj)\b[\s,:-]*(?:(?:что|that|że|ze)\s+)?(.+)$",
    re.IGNORECASE | re.DOTALL,
)
# "напомни мне завтра позвонить в банк", "remind me to renew the passport in March": the person
# asks for a reminder; what follows is their task, kept as a commitment.
_REMIND = re.compile(
    r"^\s*(?:пожалуйста,?\s+|please,?\s+|proszę,?\s+)?(?:напомни(?:те)?(?:\s+мне)?|"
    r"remind\s+me(?:\s+to)?|przypomnij(?:\s+mi)?)\b[\s,:-]*(?:(?:что|чтобы|о том,? что|że|ze|"
    r"about|that)\s+)?(.+)$",
    re.IGNORECASE | re.DOTALL,
)
# A clause that opens with a question word asks ("кем я была на прошлой работе", "когда у мамы
# день рождения", "сколько у меня уходит на английский"). Exclamatory openers ("как же я
# устала", "what a day", "jak fajnie") are left out: they state.
_ASKING = re.compile(
    r"^\W*(?:(?:а|и|ну|so|and|a)\s+)?(?:кто|кого|кому|кем|что|чего|чем|где|куда|откуда|когда|"
    r"сколько|какой|какая|какое|какие|каким|какую|каких|какого|какой-то|почему|зачем|чей|чья|"
    r"чьё|чьи|who|whom|where|when|which|why|whose|kto|kogo|komu|kim|gdzie|dokąd|skąd|kiedy|"
    r"ile|jaki|jaka|jakie|jakiego|dlaczego|czemu|czyj|czyja)\b",
    re.IGNORECASE,
)
# A request to work something out or to recall it, said before the question ("посчитай, сколько
# ...?", "напомни, какие у меня платежи?"): the words of the ask, not a statement.
_ASK_VERB = re.compile(
    r"^\W*(?:(?:а|и|ну|слушай)\s+)?(?:посчитай(?:те)?|скажи(?:те)?|подскажи(?:те)?|напомни(?:те)?|"
    r"расскажи(?:те)?|уточни(?:те)?|tell me|remind me|count|powiedz|przypomnij|policz)"
    r"(?:\s+(?:мне|mi|pls|please|пожалуйста))?\W*$",
    re.IGNORECASE,
)


def asks(clause: str) -> bool:
    """Whether a clause opens with a question word: part of the question, not a statement."""
    return bool(_ASKING.match(clause))


# A dated task: a date and a word that makes it the person's to do (or moves one).
_TASK_WORD = re.compile(
    r"(?i)\b(?:надо|нужно|должен|должна|обещал\w*|не забыть|перенес\w*|перенос\w*|отложи\w*|"
    r"muszę|trzeba|powinien\w*|obieca\w*|nie zapomnieć|przełoż\w*|przenios\w*|przesun\w*|"
    r"need to|have to|must|promised|don't forget|moved|postpone\w*|reschedul\w*)\b")
_INFINITIVE_START = re.compile(r"(?i)^\s*(?:[а-яё]+(?:ть|ти|чь)(?:ся)?|[a-ząćęłńóśźż]+ć(?:\s+się)?)\b")
_A_MOMENT = datetime(2026, 1, 7, 12, 0, tzinfo=UTC)  # any: only whether a date is named counts


def dated_task(text: str) -> bool:
    """A task with a date: "до 15-го оплатить садик", "перенесла звонок маме на субботу"."""
    reading = read_due(text, _A_MOMENT)
    if not reading.named:
        return False
    if _TASK_WORD.search(text):
        return True
    rest = normalise(text)
    for phrase in filter(None, reading.phrase.split(", ")):
        rest = rest.replace(phrase, " ")
    return bool(_INFINITIVE_START.search(rest))


_SENTENCE_SPLIT = re.compile(r"(?<=[.!?;…\n])\s+|\n+")
# Wave's own provenance line before a forwarded or quoted text ("[forwarded from …: not the
# person's own words]"): it says whose words follow; it is not a statement to keep.
_MARKER = re.compile(r"\[[^\[\]]{1,300}\]")
_CLAUSE_SPLIT = re.compile(r"\s*[,;:—–]\s+|\s+(?:а|но|и|but|and|ale|a|i|oraz)\s+(?=(?:я|мне|у|мой|моя|мы|i|my|we|ja|mój|moja|mam|jestem)\b)",
                           re.IGNORECASE)

# A clause or sentence that opens with a word pointing back ("ему три года", "там она работает
# учительницей", "he is five") says nothing on its own: it is kept with what it points back to.
_POINTS_BACK = re.compile(
    r"(?i)^(?:он|она|оно|они|его|её|ее|их|ему|ей|им|него|неё|нее|них|нему|ней|ним|нём|нем|ними"
    r"|там|туда|оттуда|тогда"
    r"|on|ona|ono|oni|one|jego|jej|ich|mu|jemu|niego|niej|nich|wtedy"
    r"|he|she|they|his|her|their|him|them)\b")
_JOINED_MAX = 400  # characters: a longer run of sentences is kept sentence by sentence
# Said of someone named before with no subject of its own ("у меня брат Лёша, живёт в Минске";
# "сын Кирилл, 15 лет. живёт с бывшей женой"): a verb of the third person opens it. Kept alone,
# "Живёт в Минске" reads as the person's own city (5 of the 7 tuning months' authors write such
# a clause; tuning_7's replaced the person's city with the brother's). Not a parenthetical.
_OTHERS_VERB = re.compile(r"(?i)^(?:lives|works|studies|mieszka|pracuje|studiuje|uczy się)\b")
_PARENTHETICAL = frozenset({"кажется", "может", "получается", "выходит", "оказывается",
                            "значит", "похоже", "видимо", "говорят", "думается", "хочется"})


def _points_back(text: str) -> bool:
    """Whether a clause or sentence is said of someone before it: it opens with a pronoun of
    them ("Ему три года"), or with a verb in the third person and no subject ("живёт в Минске")."""
    if _POINTS_BACK.match(text) or _OTHERS_VERB.match(text):
        return True
    first = re.match(r"[а-яё-]+", text.lower())
    if first is None or first.group(0) in _PARENTHETICAL:
        return False
    from graph.kin import _morph

    tag = _morph().parse(first.group(0))[0].tag
    return tag.POS == "VERB" and "3per" in tag

# --- verbatim observations ------------------------------------------------------------------

_FIRST_PERSON = re.compile(
    r"(?i)\b(?:я|мне|меня|мной|мой|моя|моё|мое|мои|моего|моей|моих|мы|нам|нас|наш|наша|наши|нашей"
    r"|i|i'm|i’m|i've|i'd|i'll|my|me|mine|we|our|us|we're|ja|mi|mnie|mój|moja|moje|moim|mojej|mojego"
    r"|my|nasz|nasza|nasze|jestem|mam|byłem|byłam|będę|chcę|muszę)\b"
)
# First person without a pronoun: Russian and Polish verbs say it in the ending.
_FIRST_PERSON_VERB = re.compile(
    r"(?i)^(?:вчера|сегодня|завтра|сейчас|уже|скоро|недавно|давно|часто|обычно|каждый\s+\w+|по\s+\w+|"
    r"wczoraj|dzisiaj|dziś|jutro|teraz|często|zwykle|codziennie|w\s+\w+|в\s+\w+)?\s*(?:не\s+|nie\s+)?"
    r"\w+(?:аю|яю|ую|юю|ею|жу|шу|чу|щу|лю|ню|рю|ду|ту|су|зу|гу|ку|ву|бу|пу|му|ёл|ел|ла|ился|илась"
    r"|ался|алась|ам|em|ę|łem|łam)\b"
)
# Polish first person anywhere in the clause (plural and past forms are unambiguous enough).
_FIRST_PERSON_PL = re.compile(r"(?i)\b\w{2,}(?:emy|imy|ymy|łem|łam|liśmy|łyśmy|uję|iję|ię)\b")
# Someone or something the person names: a capitalised word after the first one, or a first
# word that is neither a common opener nor a pronoun ("Барсик не любит пылесос").
_OPENERS = {
    "сегодня", "вчера", "завтра", "погода", "сейчас", "это", "всё", "все", "там", "тут", "здесь",
    "today", "yesterday", "tomorrow", "the", "this", "that", "it", "there", "weather", "everything",
    "dziś", "dzisiaj", "wczoraj", "jutro", "pogoda", "to", "tam", "tutaj", "wszystko",
}
_NAMED = re.compile(r"(?<=\S)\s+([A-ZА-ЯЁĄĆĘŁŃÓŚŹŻ][a-zа-яёąćęłńóśźż]{2,})")


def _names_someone(clause: str) -> bool:
    words = clause.split()
    if not words:
        return False
    first = words[0].strip(",.!?:;\"'«»")
    if first[:1].isupper() and len(first) >= 3 and first.casefold() not in _OPENERS and (
            first.casefold() not in _STOP and first.casefold() not in _SMALL_TALK):
        return True
    return bool(_NAMED.search(clause))


_WORLD = re.compile(
    rf"(?i)\b(?:{_KIN_WORDS})\b|\d|\b(?:{_MONTHS})\b"
)
_NUMBER = re.compile(r"\d")
_PREFERENCE_WORDS = re.compile(
    r"(?i)\b(я\s+(?:очень\s+)?(?:не\s+)?(?:люблю|обожаю|предпочитаю|ненавижу)|мне\s+(?:очень\s+)?(?:не\s+)?нравится"
    r"|терпеть не могу|i\s+(?:really\s+)?(?:love|like|prefer|hate|enjoy|adore)|i\s+(?:don't|do not)\s+like"
    r"|my favou?rite|lubię|uwielbiam|kocham|nie\s+lubię|ulubion\w+)\b"
)
_RELATION_WORDS = re.compile(rf"(?i)\b(?:{_KIN_WORDS})\b")
_DECISION = re.compile(r"(?i)\b(?:решил|решила|решили|буду|будем|decided|i will|i'll|going to|собираюсь"
                       r"|zdecydowałem|zdecydowałam|postanowiłem|postanowiłam|będę|zamierzam)\b")
_COMMITMENT = re.compile(
    r"(?i)\b(?:должен|должна|обещал|обещала|надо|нужно|дедлайн|до\s+(?:пятницы|понедельника|вторника|среды|четверга|субботы|воскресенья|завтра)"
    r"|deadline|must|promised|have to|need to|by (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow)"
    r"|muszę|obiecałem|obiecałam|termin|do\s+(?:piątku|poniedziałku|jutra))\b"
)
_STATE = re.compile(
    r"(?i)\b(?:устал|устала|болею|заболел|заболела|грустно|настроение|сегодня я|tired|sick|feel|feeling"
    r"|today i am|i'm exhausted|zmęczony|zmęczona|choruję|chory|chora|smutno)\b"
)


def classify(text: str) -> FactType:
    """The likeliest fact type of one sentence."""
    if _PREFERENCE_WORDS.search(text):
        return FactType.PREFERENCE
    if dated_task(text):
        return FactType.COMMITMENT
    if _COMMITMENT.search(text):
        return FactType.COMMITMENT
    if _DECISION.search(text):
        return FactType.DECISION
    if _RELATION_WORDS.search(text):
        return FactType.RELATIONSHIP
    if _STATE.search(text):
        return FactType.STATE
    return FactType.EVENT


def _content_words(text: str) -> list[str]:
    return [w for w in _words(text) if w not in _STOP and w not in _SMALL_TALK]


def _worth_keeping(clause: str) -> bool:
    """A clause no pattern explained: kept when it says something about the person or their
    world (first person, family, pets, numbers, dates) and carries a content word."""
    content = _content_words(clause)
    if not content:
        return False
    personal = bool(_FIRST_PERSON.search(clause) or _FIRST_PERSON_VERB.match(clause.strip())
                    or _FIRST_PERSON_PL.search(clause))
    if personal or dated_task(clause):
        return True
    return (bool(_WORLD.search(clause)) or _names_someone(clause)) and len(content) >= 2


# --- extraction -----------------------------------------------------------------------------


def _clean(sentence: str) -> str:
    return re.sub(r"\s+", " ", sentence).strip(" \t\n-–—•*,;")


def _capitalise(text: str) -> str:
    return text[:1].upper() + text[1:]


def _strip_end(text: str) -> str:
    return text.strip().rstrip(" .,!;:…")


@dataclass
class _Found:
    facts: list[ExtractedFact]
    spans: list[tuple[int, int]]


def _normalised(sentence: str, lang: str) -> _Found:
    found = _Found([], [])
    groups: set[str] = set()

    def add(fact: ExtractedFact, span: tuple[int, int]) -> None:
        if any(f.text.casefold() == fact.text.casefold() for f in found.facts):
            return
        found.facts.append(fact)
        found.spans.append(span)

    for pattern in _PATTERNS:
        if pattern.group in groups or pattern.lang != lang:
            continue
        match = pattern.regex.search(sentence)
        if not match or (pattern.group == "city" and _someone_else_before(sentence, match.start())):
            continue
        values = [v.strip() for v in match.groups() if v is not None]
        if not values:
            continue
        text = pattern.template.format(*values, *[""] * 3).strip()
        entities = (ExtractedEntity(values[0], pattern.entity),) if pattern.entity else ()
        add(ExtractedFact(text, pattern.kind, entities), match.span())
        groups.add(pattern.group)

    for regex in (_KIN_NAMED_LATER, _KIN):
        for match in regex.finditer(sentence):
            form, name = match.group(1), match.group(2)
            canon, kind = _CANON.get(form.casefold(), (form.casefold(), "rel"))
            if any(s[0] <= match.start() < s[1] for s in found.spans):
                continue
            # More said about them than the word and the name ("моя мама печёт блины"): the
            # clause is also kept as said; a bare "my mother" is not a fact on its own.
            more = _says_more(sentence, match.span())
            if not name and more:
                continue
            template = _KIN_TEMPLATES[(lang, kind, bool(name))]
            text = template.format(canon=canon, Canon=_capitalise(canon), name=name)
            entities = (ExtractedEntity(name, EntityType.PERSON),) if name and kind == "rel" else ()
            add(ExtractedFact(text, FactType.RELATIONSHIP, entities),
                (match.start(), match.start()) if more else match.span())

    for lang_, regex, template in _BIRTHDAY:
        if lang_ != lang:
            continue
        match = regex.search(sentence)
        if match:
            add(ExtractedFact(template.format(_strip_end(match.group(1))), FactType.IDENTITY),
                match.span())

    for lang_, regex, shape in _LIKES:
        if lang_ != lang:
            continue
        for match in regex.finditer(sentence):
            liked = _like_text(shape, match)
            if liked:
                add(ExtractedFact(liked, FactType.PREFERENCE), match.span())
    return found


def _someone_else_before(sentence: str, at: int) -> bool:
    """Whether the clause before a past-tense verb names its subject as someone else ("Дина
    переехала в Москву", "сестра переехала"): a person's name or a kin word, with no "я" / "мы"
    (the verb's past form says no person: "переехала" is the speaker's only when no one else
    is named)."""
    from graph import kin

    start = max(sentence.rfind(sep, 0, at) for sep in ",;:—") + 1
    before = re.findall(r"[\w-]+", sentence[start:at])
    if any(w.lower() in ("я", "мы", "i", "we", "ja", "my") for w in before):
        return False
    return any(kin.role_of(w) is not None or (len(w) > 1 and w[:1].isupper() and _is_person_name(w))
               for w in before)


@functools.lru_cache(maxsize=4096)
def _is_person_name(word: str) -> bool:
    """A first name or surname by pymorphy3 (Russian), or a capitalised Latin word that is not
    a sentence's common opener."""
    if not re.search(r"[а-яё]", word.lower()):
        return word not in ("I", "My", "We", "The", "Our", "Last", "This", "Then")
    from graph.kin import _morph

    return any({"Name", "Surn"} & p.tag.grammemes for p in _morph().parse(word))


def _says_more(sentence: str, span: tuple[int, int]) -> bool:
    """Whether the clause holding ``span`` has content words outside it."""
    for start, end in _clauses(sentence):
        if start <= span[0] < end:
            rest = sentence[start:span[0]] + " " + sentence[span[1]:end]
            return bool(_content_words(rest))
    return False


def _like_text(shape: str, match: re.Match[str]) -> str | None:
    groups = match.groups()
    obj = _strip_end(groups[-1])
    if not obj or len(real_words(obj)) < 1:
        return None
    if shape == "ru-verb":
        neg, verb = groups[0], groups[1].casefold()
        return f"Пользователь {'не ' if neg else ''}{_RU_VERB.get(verb, verb)} {obj}"
    if shape == "ru-like":
        neg, verb = groups[0], groups[1].casefold()
        return f"Пользователю {'не ' if neg else ''}{verb} {obj}"
    if shape == "ru-fav":
        return f"Любимое у пользователя ({groups[0]}): {obj}"
    if shape == "en-verb":
        neg, verb = groups[0], groups[1].casefold()
        if neg:
            return f"The user doesn't {verb} {obj}"
        return f"The user {_EN_VERB.get(verb, verb)} {obj}"
    if shape == "en-fav":
        return f"The user's favourite {groups[0]} is {obj}"
    if shape == "pl-verb":
        neg, verb = groups[0], groups[1].casefold()
        return f"Użytkownik {'nie ' if neg else ''}{_PL_VERB.get(verb, verb)} {obj}"
    if shape == "pl-fav":
        return f"Ulubione użytkownika ({groups[0]}): {obj}"
    return None


def _covered(clause_span: tuple[int, int], spans: list[tuple[int, int]]) -> bool:
    start, end = clause_span
    return any(s < e and s < end and start < e for s, e in spans)


def _clauses(sentence: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    last = 0
    for match in _CLAUSE_SPLIT.finditer(sentence):
        spans.append((last, match.start()))
        last = match.end()
    spans.append((last, len(sentence)))
    return [(s, e) for s, e in spans if sentence[s:e].strip()]


def statements(sentence: str) -> list[str]:
    """The parts of one sentence that state something (a question's leading clauses, e.g. "Я
    Марина, а тебя как зовут?" states the name)."""
    if not sentence.rstrip().endswith("?"):
        return [] if is_small_talk(sentence) else [sentence]
    parts = [sentence[s:e] for s, e in _clauses(sentence)][:-1]
    # the ask may open before the last clause ("кем я была на прошлой работе, после повышения?",
    # "посчитай, сколько уходит на английский, если 8 уроков?"): from its question word on, the
    # clauses are the question's; a question word after something stated opens a relative
    # clause ("а в Новосибе, куда нас переводят, какие там зимы?") and stays
    for i, part in enumerate(parts):
        if asks(part) and all(_ASK_VERB.match(p) or is_small_talk(p.rstrip(" ,") + ".")
                              for p in parts[:i]):
            parts = parts[:i]
            break
    kept = [p for p in parts if not is_small_talk(p.rstrip(" ,") + ".")
            and not _ASK_VERB.match(p)]
    return [", ".join(kept)] if kept else []


def stated_part(user_text: str) -> str:
    """What the message states, as said: each sentence that is not small talk, and of a
    question its leading clauses ("слушай, а в Новосибе, куда нас переводят в сентябре, какие
    там зимы?" states the move). Empty when it states nothing."""
    parts: list[str] = []
    for raw in _SENTENCE_SPLIT.split(user_text):
        cleaned = _clean(raw)
        sentence = _LEADING_SMALL_TALK.sub("", cleaned).strip() if cleaned else ""
        if not sentence or _MARKER.fullmatch(cleaned) or not statements(sentence):
            continue
        if sentence.endswith("?"):  # the clauses before the ask, a relative clause included
            sentence = sentence[:_clauses(sentence)[-1][0]].rstrip(" ,;:—–")
        parts.append(_clean(sentence))
    return _capitalise(" ".join(p for p in parts if p))


def extract_heuristic(user_text: str, *, max_facts: int) -> list[ExtractedFact]:
    """Facts the person stated: normalised where a pattern knows them, the rest verbatim; at
    most ``max_facts``, no duplicates, nothing from small talk."""
    facts: list[ExtractedFact] = []
    seen: set[str] = set()

    def add(fact: ExtractedFact) -> None:
        key = fact.text.casefold().rstrip(".!")
        if key not in seen and len(facts) < max_facts:
            seen.add(key)
            facts.append(fact)

    lang = language(user_text)
    for raw in _with_what_they_point_back_to(_SENTENCE_SPLIT.split(user_text)):
        cleaned = _clean(raw)
        if not cleaned or _MARKER.fullmatch(cleaned):
            continue
        reminder = _REMIND.match(cleaned)
        if reminder and cleaned.rstrip().endswith("?"):
            continue  # "напомни, когда у мамы день рождения?": recall asked for, no task
        if reminder:
            body = _clean(reminder.group(1))
            if len(real_words(body)) >= 2:
                add(ExtractedFact(_capitalise(body), FactType.COMMITMENT, _kin_entities(body)))
            continue
        remembered = _REMEMBER.match(cleaned)
        if remembered:
            body = _clean(remembered.group(1))
            if len(real_words(body)) >= 2:
                add(ExtractedFact(_capitalise(body), classify(body), _kin_entities(body)))
            continue
        for sentence in statements(_LEADING_SMALL_TALK.sub("", cleaned).strip()):
            found = _normalised(sentence, lang)
            for fact in found.facts:
                add(fact)
            clauses = [(s, e) for s, e in _clauses(sentence) if not _covered((s, e), found.spans)]
            if any(_points_back(_clean(sentence[s:e])) for s, e in clauses if s > 0):
                # "У меня кот Барсик, ему три года": the clause is kept with its antecedent
                whole = _clean(sentence)
                add(ExtractedFact(_capitalise(whole), classify(whole), _kin_entities(whole)))
                continue
            for start, end in clauses:
                clause = _clean(sentence[start:end])
                if not _worth_keeping(clause):
                    continue
                whole = _clean(sentence) if not found.spans else clause
                add(ExtractedFact(_capitalise(whole), classify(whole), _kin_entities(whole)))
                if not found.spans:
                    break  # the whole sentence is kept as said
    return facts


def _bare_past(text: str) -> bool:
    """Whether a sentence is a verb of the past and at most one word more, with no subject
    ("Расстались.", "Переехала.", "Усыпили."): it says what happened to what the sentence before
    named ("с Димой всё. расстались"; "я в Казани! переехала"). Alone it is nobody's: kept
    apart, "Расстались" was dropped and "Переехала" read as a city (tuning_8)."""
    words = re.findall(r"[а-яё-]+", text.lower())
    if not words or len(words) > 2 or len(real_words(text)) != len(words):
        return False
    from graph.kin import _morph

    tag = _morph().parse(words[0])[0].tag
    return tag.POS == "VERB" and "past" in tag


def _with_what_they_point_back_to(sentences: Sequence[str]) -> list[str]:
    """The message's sentences, each one that opens by pointing back ("Ему три года.") or is a
    bare verb of the past ("Расстались.") joined to the statement before it, so the record
    says whose age it is and what ended."""
    joined: list[str] = []
    for raw in sentences:
        cleaned = _clean(raw)
        last = joined[-1] if joined else ""
        if (cleaned and last and (_points_back(cleaned) or _bare_past(cleaned))
                and not cleaned.endswith("?")
                and not last.rstrip().endswith("?") and not _MARKER.fullmatch(_clean(last))
                and len(last) + len(cleaned) < _JOINED_MAX):
            joined[-1] = f"{last.rstrip()} {cleaned}"
        else:
            joined.append(raw)
    return joined


def _kin_entities(text: str) -> tuple[ExtractedEntity, ...]:
    found: list[ExtractedEntity] = []
    for match in _KIN.finditer(text):
        form, name = match.group(1), match.group(2)
        if name and _CANON.get(form.casefold(), ("", "rel"))[1] == "rel":
            found.append(ExtractedEntity(name, EntityType.PERSON))
    return tuple(found)


def asks_to_remember(user_text: str) -> bool:
    """Whether the person asks outright to remember what follows ("Запомни, пожалуйста: у меня
    аллергия на орехи", "note to self: dentist on Dec 3", "zapamiętaj, że ..."): the offline
    reply answers "Записала, сохраню в память." to it."""
    return _REMEMBER.match(user_text.strip()) is not None


def has_statement(user_text: str) -> bool:
    """Whether the person's message states anything worth extracting (not small talk)."""
    for raw in _SENTENCE_SPLIT.split(user_text):
        cleaned = _clean(raw)
        if cleaned and not _MARKER.fullmatch(cleaned) and (_REMEMBER.match(cleaned) or statements(_LEADING_SMALL_TALK.sub("", cleaned).strip())):
            return True
    return False

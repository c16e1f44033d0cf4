"""A parsed Russian sentence as the world reader walks it: tokens with natasha's tags and
tree, the sentence's clauses in word order, the verb and role-word lists the reader's rules
name, and the word-level tests they share (a street after "на", someone else's relative)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from graph.models import EntityType
from wave_agent.world import lexicon
from wave_agent.world.lexicon import words
from wave_agent.world.morphology import (
    is_name,
    plural_nominative,
    possessive_adjective,
    street_word,
)
from wave_agent.world.reading import Word

LIVE = words("""жить проживать переехать перебраться поселиться переезжать вернуться снимать
    остаться""")
WORK = words("работать трудиться устроиться перейти уйти служить подрабатывать")
STUDY = words("учиться поступить обучаться закончить окончить")
# taken into a firm or a school, or gone there, without "работать" / "учиться" (issue 29,
# round thirty-six): "Тёму взяли в гимназию №7", "Олег вышел на ГАЗ", "меня переманили в
# «СамараСтрой»", "Соню пристроили в садик", "Амину отдали в музыкальную школу"
ENTER = words("взять принять перевести перевестись переманить выйти пойти отдать пристроить")
# of those, the ones said of the one who goes (the rest of the one taken, in the accusative)
ENTER_SELF = words("выйти пойти перевестись")
# the ones that say a job when the place is no school ("пошла в «Пятёрочку»" is shopping)
ENTER_WORK = words("взять принять перевести перевестись переманить выйти")
# leaving a job (issue 29, round forty): "катя ушла из озона, теперь в яндексе", "Олег ушёл из
# «Уралстройресурса»! С понедельника в «Бруснике»": the leaver is at the place said next
LEAVE = words("уйти уходить уволиться увольняться свалить")
# words that say a clause is about now, after a change ("теперь", "сейчас" / "щас"; "с
# понедельника" is read beside them); the tagger takes "щас" for a verb, "Щас" for a name
NOW = words("теперь сейчас щас")
OWN = words("купить приобрести завести взять подарить получить")
DO = words("заниматься увлекаться")
PLAY = words("играть")
GO = words("ходить ездить кататься записаться записать водить")
# someone else coming or calling "из" a town is from there: "мама прилетела из Уфы"
COME_FROM = words("приехать приезжать прилететь прилетать звонить позвонить")
MEMBER = words("состоять вступить петь играть участвовать")
ILL = words("болеть страдать")
SELF = words("я мы меня мне мной нас нам нами")
THIRD = words("он она его её ее ему ей им ним ней него нее неё")
SHE = words("она её ее ей ней нее неё")
WISH = words("хотеть мечтать планировать собираться думать")
# the partner nouns and the role each names, as the entity labels and the page name them
PARTNER_ROLE = {"парень": "boyfriend", "девушка": "girlfriend", "жених": "fiance",
                "невеста": "fiancee"}
PARTNER = frozenset(PARTNER_ROLE)
# kin roles the shared table (``graph.kin``) does not hold, read the same way here
MORE_KIN = {"внук": "grandson", "внучка": "granddaughter", "тётя": "aunt", "тетя": "aunt",
             "дядя": "uncle", "тётка": "aunt", "тетка": "aunt"}
POSSESSIVE = words("""мой моя моё мое мои моего моей моему моим моих моими моем моём
    наш наша наше наши нашего нашей нашему нашим наших нашими нашем""")
OTHERS = words("его её ее их")  # "её парень Максим": someone else's
# "свой" in every form (the tagger's lemma is often the form itself: "своё", "свою")
OWN_FORMS = words("""свой своя своё свое свои своего своей своему своим своих своими своем
    своём свою""")
# giving a business (or a thing) up: "продала свой салон «Локон»" works there no more
GAVE_UP = words("продать продавать закрыть закрывать бросить потерять отдать")
CLAUSE_MARKS = frozenset({",", ";", "—", "–", ":", "(", ")"})
CLAUSE_WORDS = words("а но однако зато поэтому потому когда чтобы если хотя")
GIVE = words("подарить дарить отдать")  # the one given to owns it, not the giver
PERSUADE = words("уговаривать уговорить звать позвать предлагать предложить советовать просить")
COMITATIVE = words("с со")


@dataclass(slots=True)
class Token:
    id: str
    text: str
    pos: str
    rel: str
    head: str
    case: str | None
    person: str | None
    animate: bool
    gender: str | None
    start: int
    stop: int
    lemma: str = ""
    number: str | None = None


class Sentence:
    """One parsed sentence: tokens by id, children by head, NER spans by token, and its clauses.

    The parser's tree is right inside a short clause and often wrong across a long sentence's
    clauses (a second clause's verb hung on the first one's, an oblique on a pronoun), so what
    a verb says is also read from its clause in word order (``clause``, ``in_clause``): the
    stretch between commas, semicolons, dashes and the conjunctions that open a new clause
    ("а", "но", "и" before a new subject's verb)."""

    def __init__(self, tokens: list[Token]) -> None:
        self.tokens = tokens
        self.by_id = {t.id: t for t in tokens}
        self.position = {t.id: i for i, t in enumerate(tokens)}
        self.children: dict[str, list[Token]] = {}
        for t in tokens:
            self.children.setdefault(t.head, []).append(t)
        self.clause: dict[str, int] = {}
        n = 0
        for i, t in enumerate(tokens):
            if t.text in CLAUSE_MARKS or (t.pos in ("CCONJ", "SCONJ") and (
                    t.text.lower() in CLAUSE_WORDS or t.pos == "SCONJ")):
                n += 1
            elif t.text.lower() == "и" and t.pos == "CCONJ" and any(
                    u.pos in ("VERB", "AUX") for u in tokens[i + 1:i + 4]):
                n += 1  # "живёт в Твери и работает": a new clause (it carries the subject)
            self.clause[t.id] = n

    def in_clause(self, token: Token) -> list[Token]:
        return [t for t in self.tokens if self.clause[t.id] == self.clause[token.id]]

    def before(self, token: Token) -> list[Token]:
        return self.tokens[:self.position[token.id]]

    def kids(self, token: Token, *rels: str) -> list[Token]:
        found = self.children.get(token.id, [])
        return [t for t in found if not rels or t.rel.split(":")[0] in rels]

    def head_of(self, token: Token) -> Token | None:
        return self.by_id.get(token.head)

    def preposition(self, token: Token) -> str:
        """The preposition a noun takes: the tree's, else the one before it in word order
        ("в областной больнице": adjectives, numbers and quotes between)."""
        case = [t.text.lower() for t in self.kids(token, "case")]
        if case:
            return case[0]
        for t in reversed(self.before(token)):
            if t.pos == "ADP":
                return t.text.lower()
            if t.pos not in ("ADJ", "DET", "NUM") and t.text not in "«\"„“":
                return ""
        return ""



def street(s: Sentence, inside: list[Token]) -> bool:
    """A street named after a person or by an adjective, after "на" ("поликлиника на
    Гагарина", "на Плехановской"): a surname in the genitive, or an adjective alone."""
    before = s.before(inside[0])
    if len(inside) != 1 or not before or before[-1].text.lower() != "на":
        return False
    return street_word(inside[0].text)


def hobby_name(token: Token) -> str:
    """A hobby as people name it: "танцы" stays plural ("ходит на танцы"), the rest by lemma."""
    if token.number == "Plur":
        plural = plural_nominative(token.text)
        if lexicon.kind_of(plural) is EntityType.HOBBY:
            return plural
    return token.lemma


def someone_elses(s: Sentence, noun: Token) -> bool:
    """Whether the words before a role noun make it another's: "её парень", "его бывшая
    жена", "Катина подруга" (a possessive adjective of a name)."""
    for t in reversed(s.before(noun)):
        if t.text.lower() in OTHERS:
            return True
        if t.text[:1].isupper() and possessive_adjective(t.text) and (
                t.pos == "ADJ" or s.position[t.id] == 0 or t.pos == "PROPN"):
            return True
        if t.pos not in ("ADJ", "DET"):
            return False
    return False


def common_noun(token: Token) -> bool:
    """A word no reading of which is a name ("Внук", "Сосед", "Брат"): not part of a name."""
    return bool(re.search("[а-яё]", token.text.lower())) and not is_name(token.text)


def words_of(sentences: list[Sentence]) -> tuple[Word, ...]:
    """A statement's parsed sentences as one run of ``Word``s (heads as indices into it)."""
    out: list[Word] = []
    for n, s in enumerate(sentences):
        base = len(out)
        for t in s.tokens:
            head = s.by_id.get(t.head)
            out.append(Word(t.text, t.lemma.replace("ё", "е"), t.rel.split(":")[0],
                            base + s.position[head.id] if head is not None else -1,
                            t.case or "", s.preposition(t) if t.pos in ("NOUN", "PROPN", "PRON")
                            else "", n, t.pos, t.start))
    return tuple(out)

"""Reading an English or Polish statement with patterns: nothing that ships offline tags
English or Polish names as well as natasha does Russian, so a capitalised word is a name only
where a pattern places it ("I live in X", "my wife X", "I work at X", "mieszkam w X", "mój pies
X", "Pani X"), or a place after a preposition of place that no pattern placed, and the person's
known entities are found by the writer's own name index. A statement written all in lower
case is given its capitals back before it is read here (``world.capitals``, in
``reader.parsed``).

Polish names after a preposition are in the locative or the instrumental ("w Krakowie",
"z Anią"): the common endings are brought back to the nominative (``_pl_nominative``), and the
writer's stem keys match the rest; endings learned from the labelled sets
(``pl_forms.json``) go first where they read more of the word. A module of this size: the
English and Polish patterns and the builder that places their names are one reading, kept
together.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from graph import kin
from graph.models import EntityType
from wave_agent.world import lexicon
from wave_agent.world.reading import ROLE_PREFIX, USER, Link, Mention, Reading, kin_link

_NAME = r"(?:[A-ZŁŚŻŹĆÓĄĘŃ][\w'’-]+)(?:\s+(?:[A-ZŁŚŻŹĆÓĄĘŃ][\w'’-]+|of|de|von)){0,3}"
_QUOTED = r"[\"“„«]([^\"”»]{2,50})[\"”»]"
_ORG = rf"(?:{_QUOTED}|(?P<plain>{_NAME}))"
_APPOSED = r"(?:\s*,\s*(?:my|our|moja|mój|nasza|nasz)\s+\w+\s*,)?"  # "Beata, moja żona, pracuje"
# the genitive a Polish job carries after it ("kierownik budowy", "nauczycielką matematyki",
# "doradca klienta"): one more word of four letters or more with a genitive ending
_OF_PL = r"(?:\s+[a-ząćęłńóśźż]{3,}(?:y|i|a|u|ów|ego|ej)(?![\w]))?"
# a subject: a name, or one's own relative by the role ("my mum", "moja siostra Ola")
_WHO = (rf"(?:(?:[Mm]y|[Oo]ur|[Mm]ój|[Mm]oja|[Mm]oje|[Nn]asz|[Nn]asza)\s+[a-ząćęłńóśźż]+"
        rf"(?:\s+{_NAME})?|\b(?:he|she|on|ona)\b|{_NAME})")
_PRONOUNS = frozenset({"he", "she", "on", "ona"})


def nominative_pl(word: str) -> str:
    """A Polish place or first name in the nominative, for the endings that are regular (the
    locative of a plural town, "w Katowicach", "na Krzykach", and of a soft stem, "w Irlandii",
    "w Gdyni", "w Bytomiu", "u Kasi", as well as the singular's)."""
    rules = (("owie", "ów"), ("ńsku", "ńsk"), ("sku", "sk"), ("cku", "ck"), ("niu", "ń"),
             ("dzi", "dź"), ("wiu", "w"), ("miu", "m"), ("biu", "b"), ("piu", "p"),
             ("awie", "awa"), ("inie", "in"), ("ynie", "yn"), ("cach", "ce"), ("kach", "ki"),
             ("gach", "gi"), ("ach", "y"), ("ii", "ia"), ("ji", "ja"), ("ni", "nia"), ("si", "sia"),
             ("ie", "a"), ("ą", "a"), ("kiem", "ek"), ("iem", ""), ("em", ""), ("u", ""))
    return _by_longer_ending(word, rules)


def _by_longer_ending(word: str, rules: tuple[tuple[str, str], ...]) -> str:
    """``word`` brought back by the learned ending or the hand rule, whichever reads more of
    its end (a hand rule's "awie" -> "awa" over a learned "wie"; a learned "dzie" over "ie")."""
    hand = next(((e, r) for e, r in rules if word.endswith(e) and len(word) - len(e) >= 3),
                None)
    learned = _learned_form(word)
    if learned is not None and (hand is None or learned[1] >= len(hand[0])):
        return learned[0]
    if hand is not None:
        return word[: len(word) - len(hand[0])] + hand[1]
    return word


_FORMS_PATH = Path(__file__).with_name("pl_forms.json")
_forms: dict[str, list[Any]] | None = None
_LONGEST = 5


def _learned_form(word: str) -> tuple[str, int] | None:
    """A Polish name's nominative by the endings learned from the labelled sets
    (``scripts/train_pl_forms.py``: a said form beside the name it was labelled with, the
    longest ending seen at least twice that agrees), or none when no learned ending fits."""
    global _forms
    if _forms is None:
        _forms = json.loads(_FORMS_PATH.read_text(encoding="utf-8")) if _FORMS_PATH.exists() else {}
    for n in range(min(_LONGEST, len(word) - 2), 0, -1):
        rule = _forms.get(word[-n:].lower())
        if rule is not None and word.endswith(rule[0]):
            return word[: len(word) - len(rule[0])] + rule[1], n
    return None


def _occupation_pl(word: str) -> str:
    """A Polish occupation in the instrumental ("jestem elektrykiem", "programistą") in the
    nominative (its first word: "nauczycielką matematyki" -> nauczycielka matematyki)."""
    if " " in word:
        first, rest = word.split(" ", 1)
        return f"{_occupation_pl(first)} {rest}"
    for ending, replacement in (("iem", ""), ("em", ""), ("ą", "a")):
        if word.endswith(ending) and len(word) - len(ending) >= 4:
            return word[: len(word) - len(ending)] + replacement
    return word


def _genitive_pl(word: str) -> str:
    """A Polish place in the genitive ("z Poznania", "do Lublina", "z Krakowa", "do Warszawy")
    in the nominative, for the endings that are regular."""
    rules = (("owa", "ów"), ("nia", "ń"), ("wia", "w"), ("ska", "sk"), ("cka", "ck"), ("awy", "awa"),
             ("ii", "ia"), ("ji", "ja"), ("ny", "na"), ("y", "a"), ("a", ""))
    return _by_longer_ending(word, rules)


# (pattern, link type, target type); group "who" (optional) names the subject, default USER
_EN: tuple[tuple[str, str, EntityType], ...] = (
    (rf"\b(?:I|[Ww]e|and)\s+(?:now\s+)?(?:live|lived|am living|moved|relocated|'ve moved)\s+(?:and\s+work\s+)?(?:back\s+)?"
     rf"(?:in|to)\s+(?P<t>{_NAME})", "lives_in", EntityType.PLACE),
    (rf"\b(?P<who>{_WHO})\s+(?:now\s+|still\s+)?(?:lives|live|moved)\s+(?:in|to)\s+"
     rf"(?P<t>{_NAME})",
     "lives_in", EntityType.PLACE),
    (rf"\b(?:I|[Ww]e|and)\s+(?:now\s+)?(?:work|worked|am working|started working|got a job)\s+"
     rf"(?:at|for|in)\s+(?:the\s+)?{_ORG}", "works_at", EntityType.ORGANISATION),
    (rf"\b(?P<who>{_WHO})\s+(?:now\s+)?works\s+(?:at|for)\s+(?:the\s+)?{_ORG}",
     "works_at", EntityType.ORGANISATION),
    (r"\b(?:I|[Ww]e|and)\s+(?:now\s+)?(?:work|am working)\s+as\s+(?:an?\s+)?(?P<t>[a-z]+(?:\s+[a-z]+)?)"
     r"(?=\s+(?:at|for|in)\b|[.,;!]|$)", "works_as", EntityType.OCCUPATION),
    (rf"\b(?P<who>{_WHO})\s+(?:now\s+)?works\s+as\s+(?:an?\s+)?(?P<t>[a-z]+)",
     "works_as", EntityType.OCCUPATION),
    (rf"\b(?:I|[Ww]e|and)\s+(?:now\s+)?work\s+as\s+(?:an?\s+)?[a-z]+(?:\s+[a-z]+)?\s+"
     rf"(?:at|for)\s+(?:the\s+)?{_ORG}", "works_at", EntityType.ORGANISATION),
    (rf"\b(?:I|[Ww]e|and)\s+(?:now\s+)?work\s+(?:at|for)\s+(?:the\s+)?{_NAME}\s+as\s+"
     r"(?:an?\s+)?(?P<t>[a-z]+)", "works_as", EntityType.OCCUPATION),
    (rf"\b(?P<who>{_WHO})\s+(?:started working|is working|worked|got a job)\s+(?:at|for)\s+"
     rf"(?:the\s+)?{_ORG}", "works_at", EntityType.ORGANISATION),
    (rf"\b(?:the\s+)?(?P<t>{_NAME})\s+project\b", "part_of", EntityType.PROJECT),
    (rf"\b(?:I|[Ww]e|and)\s+(?:study|studied|am studying)\s+at\s+(?:the\s+)?{_ORG}",
     "studies_at", EntityType.ORGANISATION),
    (rf"\b(?P<who>{_WHO})\s+(?:studies|goes to school)\s+at\s+(?:the\s+)?{_ORG}",
     "studies_at", EntityType.ORGANISATION),
    (rf"\b(?:I'm|I am)\s+(?:a\s+)?member of\s+(?:the\s+)?{_ORG}", "member_of",
     EntityType.ORGANISATION),
    (rf"\b(?:I|[Ww]e|and)\s+(?:sing|play)\s+in\s+(?:the\s+|a\s+)?{_ORG}", "member_of",
     EntityType.ORGANISATION),
    (rf"\bproject\s+{_ORG}", "part_of", EntityType.PROJECT),
    (rf"\b(?:I|[Ww]e)\s+(?:run|own|started|set up|founded)\s+(?:my|our|a)\s+(?:own\s+)?"
     rf"(?:company|business|firm|shop|studio)\s*,?\s+(?:called\s+)?{_ORG}", "works_at",
     EntityType.ORGANISATION),
    # a move told without a subject of its own: "moved to Bristol at last" (not "we're moving
    # to Bristol in August": not yet)
    (rf"(?:^|[.!?]\s+|\b(?:I|[Ww]e|I'm|[Ww]e're|[Ww]e are|I am|[Ss]o)\s+(?:now\s+|finally\s+)?)"
     rf"(?i:moved|relocated)\s+(?:back\s+)?to\s+(?P<t>{_NAME})", "lives_in",
     EntityType.PLACE),
    # "got the lead pharmacist job at Southmead Hospital"
    (rf"\b(?:I|[Ww]e|I've|I)\s+(?:just\s+)?(?:got|landed|took|accepted|started)\s+(?:the|a|my)\s+"
     rf"(?:[a-z]+\s+){{0,3}}(?:job|position|role|post)\s+(?:at|with)\s+(?:the\s+)?{_ORG}",
     "works_at", EntityType.ORGANISATION),
    (r"\b(?:I|[Ww]e|I've)\s+(?:just\s+)?(?:got|landed|took|accepted|started)\s+(?:the|a|my)\s+"
     r"(?P<t>[a-z]+(?:\s+[a-z]+){0,2})\s+(?:job|position|role|post)\b", "works_as",
     EntityType.OCCUPATION),
    # someone else's business: "Raj runs a little Indian restaurant in Rusholme called Spice Route"
    (rf"\b(?P<who>{_WHO})\s+(?:runs|owns|has)\s+(?:a|an|the|his|her)\s+(?:[\w-]+\s+){{0,3}}?"
     rf"(?:company|business|firm|shop|studio|restaurant|café|cafe|bar|pub|salon|bakery|garage)"
     rf"(?:\s+in\s+{_NAME})?\s*,?\s+called\s+{_ORG}", "works_at", EntityType.ORGANISATION),
    # "My son Josh has just started at the University of Leeds": a place of study by its name
    (rf"\b(?P<who>{_WHO})(?:\s+\([^)]*\))?\s+(?:has|'s)\s+(?:just\s+)?started\s+at\s+(?:the\s+)?"
     rf"(?P<t>(?:[A-Z][\w'-]+\s+)*(?:University|College|School|Academy)(?:\s+of\s+[A-Z][\w-]+)?"
     rf"(?:\s+[A-Z][\w-]+)*)", "studies_at", EntityType.ORGANISATION),
    # "I'm a ward sister at Salford Royal": the job and the place, said together
    (r"\b(?:I'm|I am)\s+(?:a|an)\s+(?P<t>[a-z]+(?:\s+[a-z]+)?)\s+(?:at|for|with)\s+"
     r"(?:the\s+)?[A-Z]", "works_as", EntityType.OCCUPATION),
    (rf"\b(?:I'm|I am)\s+(?:a|an)\s+[a-z]+(?:\s+[a-z]+)?\s+(?:at|for|with)\s+(?:the\s+)?"
     rf"{_ORG}", "works_at", EntityType.ORGANISATION),
    # "Jess is a vet nurse at Wye Valley Equine", "he's a sparky at Tata": someone's job and
    # its place, said together
    (rf"\b(?P<who>{_WHO})\s+(?:is|'s|’s)\s+(?:now\s+)?(?:a|an)\s+(?P<t>[a-z]+(?:\s+[a-z]+)?)\s+"
     r"(?:over\s+)?(?:at|for|with)\s+(?:the\s+)?[A-Z]", "works_as", EntityType.OCCUPATION),
    (rf"\b(?P<who>{_WHO})\s+(?:is|'s|’s)\s+(?:now\s+)?(?:a|an)\s+[a-z]+(?:\s+[a-z]+)?\s+"
     rf"(?:over\s+)?(?:at|for|with)\s+(?:the\s+)?{_ORG}", "works_at", EntityType.ORGANISATION),
    # an introduction: "I'm Dom, 44, farrier", "I'm Megan, 38, staff nurse on the ward at X":
    # what follows the name and the age is the job
    (r"\b(?:I'm|I am|[Mm]y name is)\s+[A-Z][a-z]+,\s*\d{1,2},\s*(?:an?\s+)?"
     r"(?P<t>(?:[A-Z]{2,}|[A-Za-z][a-z]*)(?:\s+[a-z]+){0,2}?)(?=\s+(?:at|for|on|in|with|from)\b|[.,;!]|$)",
     "works_as", EntityType.OCCUPATION),
    (r"\b(?:I'm|I am|[Mm]y name is)\s+[A-Z][a-z]+,\s*\d{1,2},\s*(?:an?\s+)?"
     rf"(?:[A-Z]{{2,}}|[A-Za-z][a-z]*)(?:\s+[a-z]+){{0,2}}?\s+(?:at|for)\s+(?:the\s+)?{_ORG}", "works_at",
     EntityType.ORGANISATION),
    # "My sister Meera is doing a PhD at the University of Edinburgh"
    (rf"\b(?P<who>{_WHO})\s+(?:is|was|'s)\s+(?:doing|studying|taking)\s+(?:an?\s+|her\s+|his\s+)?"
     rf"\w+(?:\s+\w+)?\s+at\s+(?:the\s+)?{_ORG}", "studies_at", EntityType.ORGANISATION),
    (rf"\b(?:I|I'm|I am)\s+(?:doing|studying|taking)\s+(?:an?\s+|my\s+)?"
     rf"\w+(?:\s+\w+)?\s+at\s+(?:the\s+)?{_ORG}", "studies_at", EntityType.ORGANISATION),
)
_PL: tuple[tuple[str, str, EntityType], ...] = (
    (rf"\b(?i:mieszkam|mieszkamy|przeprowadziłam się|przeprowadziłem się|przeprowadziliśmy się)"
     rf"\s+(?:i\s+pracuję\s+|i\s+pracujemy\s+)?(?:teraz\s+)?(?:w|we|do|na)\s+(?P<t>{_NAME})",
     "lives_in", EntityType.PLACE),
    (rf"\b(?P<who>{_WHO})\s+(?:(?:nadal|wciąż|teraz|dalej)\s+)?(?:mieszka|mieszkają|"
     rf"przeprowadził się|przeprowadziła się|przeprowadzili się)\s+(?:w|we|do)\s+"
     rf"(?P<t>{_NAME})", "lives_in", EntityType.PLACE),
    # "Kasia pisze, że przeprowadziła się z Krakowa do Gdańska": the move told by its mover,
    # from the old place to the new one (round thirty-six)
    (rf"\b(?P<who>{_WHO})\s+(?:pisze|napisała|napisał|mówi|powiedziała|powiedział|dzwoniła|"
     rf"dzwonił)\s*,?\s+że\s+(?:(?:już|właśnie|w\s+końcu)\s+)?(?:przeprowadził|przeprowadziła|"
     rf"przeprowadzili)\s+się\s+(?:z\s+{_NAME}\s+)?do\s+(?P<t>{_NAME})", "lives_in",
     EntityType.PLACE),
    (rf"\b(?i:pracuję|pracujemy|pracowałam|pracowałem)\s+(?:teraz\s+)?(?:w|we|dla|na)\s+"
     rf"(?:firmie\s+)?{_ORG}", "works_at", EntityType.ORGANISATION),
    (rf"\b(?P<who>{_WHO})\s+pracuje\s+(?:w|we|dla)\s+(?:firmie\s+)?{_ORG}", "works_at",
     EntityType.ORGANISATION),
    (r"\b(?i:pracuję|jestem)\s+(?:jako\s+)?(?P<t>[a-ząćęłńóśźż]+(?:ką|kiem|em|ą|ystą|istą)?)"
     r"(?=\s+(?:w|we|na|dla)\b|[.,;!]|$)", "works_as", EntityType.OCCUPATION),
    (r"\b(?i:pracuję|pracowałam|pracowałem)\b[^.;]*?\bjako\s+(?P<t>[a-ząćęłńóśźż]+" + _OF_PL + ")",
     "works_as", EntityType.OCCUPATION),
    (rf"\b(?i:gram|gramy|śpiewam|tańczę|jestem członkiem)\b[^.;]*?\bw\s+"
     rf"(?:klubie|chórze|drużynie|zespole)\s+{_ORG}", "member_of", EntityType.ORGANISATION),
    (rf"\b(?i:studiuję|uczę się)\s+(?:na|w)\s+{_ORG}", "studies_at", EntityType.ORGANISATION),
    # "Pracuję jako graficzka w agencji Brandmania": the place after the job and its noun
    (rf"\b(?i:pracuję|pracowałam|pracowałem)\s+jako\s+[a-ząćęłńóśźż]+\s+(?:w|we)\s+"
     rf"(?:[a-ząćęłńóśźż]+\s+)?{_ORG}", "works_at", EntityType.ORGANISATION),
    (rf"\bprojek(?:t|cie|tu)\s+{_ORG}", "part_of", EntityType.PROJECT),
    # one's own firm: "prowadzę własną firmę „Elektro-Kris”"
    (rf"\b(?i:prowadzę|prowadzimy|mam|założyłem|założyłam|otworzyłem|otworzyłam)\s+"
     rf"(?:własną\s+|swoją\s+)?(?:firmę|działalność|sklep|warsztat)\s+{_ORG}", "works_at",
     EntityType.ORGANISATION),
    # "mieszkam pod Lublinem, w Świdniku": near the first, in the second
    (rf"\b(?i:mieszkam|mieszkamy)\s+pod\s+{_NAME}\s*,\s*(?:w|we)\s+(?P<t>{_NAME})",
     "lives_in", EntityType.PLACE),
    # a third person carrying on: "Córka Zuzia studiuje prawo na UJ, mieszka w Krakowie"
    (rf"\b(?P<who>{_WHO})\s+studiuje\b[^.;,]*?\b(?:na|w|we)\s+{_ORG}", "studies_at",
     EntityType.ORGANISATION),
    (rf"\b(?P<who>{_WHO})\s+(?:studiuje|pracuje|uczy się)\b[^.;]*?,\s*mieszka\s+(?:w|we)\s+"
     rf"(?P<t>{_NAME})", "lives_in", EntityType.PLACE),
    (rf"\b(?P<who>{_WHO}){_APPOSED}\s+pracuje\s+jako\s+[a-ząćęłńóśźż]+\s+(?:w|we|na)\s+"
     rf"{_ORG}", "works_at", EntityType.ORGANISATION),
    (rf"\b(?P<who>{_WHO}){_APPOSED}\s+pracuje\s+jako\s+(?P<t>[a-ząćęłńóśźż]+{_OF_PL})", "works_as",
     EntityType.OCCUPATION),
    # an introduction: "jestem Paweł, 41 lat, elektryk": after the name and the age, the job
    (r"\b(?i:jestem|nazywam się)\s+[A-ZŁŚŻ][a-ząćęłńóśźż]+,\s*(?:mam\s+)?\d{1,2}(?:\s+lat[a]?)?,\s*"
     r"(?P<t>[a-ząćęłńóśźż]+(?:\s+[a-ząćęłńóśźż]+)?)(?=\s+(?:w|we|na|dla|z)\b|[.,;!]|$)",
     "works_as", EntityType.OCCUPATION),
    # "Tomek jest programistą": a noun in the instrumental after "jest" (an adjective there
    # stays in the nominative: "jest szczęśliwa")
    (rf"\b(?P<who>{_WHO})\s+jest\s+(?P<t>[a-ząćęłńóśźż]+(?:ą|kiem|em){_OF_PL})\b", "works_as",
     EntityType.OCCUPATION),
)
# a clause carrying on the sentence's person: "Moja siostra Magda została we Wrocławiu,
# pracuje jako pielęgniarka", "Tomek jest programistą, pracuje zdalnie dla Zalando"
_CARRIED_PL = re.compile(rf",\s*(?:a\s+|i\s+)?pracuje\s+(?:zdalnie\s+|teraz\s+)?(?:jako\s+"
                         rf"(?P<t>[a-ząćęłńóśźż]+))?(?:\s*(?:w|we|dla|na)\s+{_ORG})?")
_OWN_EN = re.compile(r"(?:\b(?:I|[Ww]e|and)|(?P<who>\b(?:[Mm]y\s+[a-z]+|[A-Z][a-z]+)))\s+"
                     r"(?:have|has|got|bought|own|owns|adopted)\s+(?:(?:a|an|two|the|his|her)\s+)?"
                     r"(?:new\s+|little\s+|old\s+)?(?P<mods>(?:[\w-]+\s+){0,2}?)(?P<n>[a-z]+)"
                     r"(?:\s+(?:called|named)\s+(?P<name>[A-Z]\w+)|\s*,?\s+(?P<name2>[A-Z]\w+))?")
# the thing a few words on: "has type 1 diabetes", "adopted a rescue greyhound called Biscuit"
_OWN_EN_LONG = re.compile(r"(?:\b(?:I|[Ww]e|and)|(?P<who>\b(?:[Mm]y\s+[a-z]+|[A-Z][a-z]+)))\s+"
                          r"(?:have|has|got|bought|own|owns|adopted)\s+(?:(?:a|an|the|his|her)\s+)?"
                          r"(?P<mods>(?:[\w-]+\s+){1,3}?)(?P<n>[a-z]+)"
                          r"(?:\s+(?:called|named)\s+(?P<name>[A-Z]\w+)|(?=[\s,.!;]|$))")
_MY_EN = re.compile(r"\b[Mm]y\s+(?:new\s+|old\s+|little\s+)?(?P<n>[a-z]+)(?:\s*,?\s+"
                    r"(?P<name>[A-Z]\w+))?")
_OWN_PL = re.compile(r"(?:\b(?i:mam|mamy|kupiłam|kupiłem|kupiliśmy)|(?P<who>\b[A-ZŁŚŻ][a-ząćęłńóśźż]+)"
                     r"\s+(?:ma|kupił|kupiła)(?:\s+sobie)?)\s+(?:nowy\s+|nową\s+|nowe\s+)?"
                     r"(?P<n>[a-ząćęłńóśźż]+)(?:\s+(?:o imieniu\s+)?(?P<name>[A-ZŁŚŻ]\w+))?")
_MY_PL = re.compile(r"\b(?:[Mm]ój|[Mm]oja|[Mm]oje|[Nn]asz|[Nn]asza)\s+(?P<n>[a-ząćęłńóśźż]+)"
                    r"(?:\s*,?\s+(?P<name>[A-ZŁŚŻ]\w+))?")
_DO_EN = re.compile(r"(?:\b(?:I|[Ww]e|and)|(?P<who>\b[A-Z][a-z]+)|^|[.!?]\s+)\s*(?:do|practi[cs]e|love|"
                    r"enjoy|go|play|took up|started|plays|does|loves)\s+(?P<h>[a-z]+(?:-[a-z]+)*)")
# "-ing" words after "started", "took up", "love" that are no pastime
_NOT_HOBBIES = lexicon.words("""working going doing being having getting looking trying thinking
    using making taking feeling planning waiting living moving learning seeing saying coming
    something nothing anything everything""")
_DO_PL = re.compile(r"(?:\b(?i:uprawiam|trenuję|chodzę na|gram w|gram na|zajmuję się)|"
                    r"(?P<who>\b[A-ZŁŚŻ][a-ząćęłńóśźż]+)\s+(?:uprawia|trenuje|gra w|gra na))\s+"
                    r"(?P<h>[a-ząćęłńóśźż]+)")
_FRIEND = re.compile(r"\b(?:[Mm]y|[Mm]ój|[Mm]oja)\s+(?:best\s+|najlepsza\s+|najlepszy\s+)?"
                     r"(?:friend|przyjaciel|przyjaciółka|koleżanka|kolega)\s*,?\s+"
                     r"(?P<name>[A-ZŁŚŻ]\w+)")
_NAMED = re.compile(r"\b(?:[Mm]y name is|I'm called|call me|I'm|I am|[Nn]azywam się|[Mm]am na imię|"
                    r"[Jj]estem)\s+(?P<name>[A-ZŁŚŻ]\w+)")


_OPENERS = frozenset({"my", "our", "mój", "moja", "moje", "nasz", "nasza", "friend", "przyjaciel",
                      "przyjaciółka", "kolega", "koleżanka", "best", "najlepsza", "najlepszy"})


def _accusative_name_pl(name: str) -> str:
    """A Polish masculine name in the accusative back to the nominative ("Burka" -> "Burek",
    "Filemona" -> "Filemon"); others as written."""
    if name.endswith("ka") and len(name) > 4:
        return name[:-2] + "ek"
    if name.endswith("a") and len(name) > 3 and name[-2] not in "aeiouyąęió":
        return name[:-1]
    return name


_PARTNER = re.compile(r"\b(?:[Mm]y|[Mm]ój|[Mm]oja|[Mm]oim|[Mm]oją)\s+(?P<role>partner|partnerka|"
                      r"partnerem|partnerką|boyfriend|girlfriend|fianc[ée]e?|chłopak|chłopakiem|"
                      r"narzeczon[aąy]|narzeczonym)\s*,?\s+(?P<name>[A-ZŁŚŻ]\w+)")
# "Beata, moja żona, pracuje", "Tom, my husband, ...": a name, then whose relative it is
_NAME_THEN_ROLE = re.compile(r"\b(?P<name>[A-ZŁŚŻ]\w+)\s*,\s*(?:my|moja|mój|moje|nasza|nasz)\s+"
                             r"(?P<role>\w+)\s*[,)]")
# a role with the name in brackets: "Mum (Anjali) lives in Nairobi" reads "Mum Anjali lives"
_PLURAL = re.compile(r"\b(?:live|mieszkają|przeprowadzili)\b")
_AND_BEFORE = re.compile(rf"(?P<who>{_WHO})\s+(?:and|i|oraz)\s+$")
_BRACKETED = re.compile(r"(?<=[A-Za-ząćęłńóśźżŁŚŻ])\s*\((?P<name>[A-ZŁŚŻ][\w'’-]+)\)")
# a capitalised word after a preposition of place is a place when nothing else placed it
_PLACE_AFTER = {"en": re.compile(rf"\b(?:in|to|from|near)\s+(?P<t>{_NAME})"),
                "pl": re.compile(rf"\b(?:w|we|do|pod|nad|z|ze|koło)\s+(?P<t>{_NAME})")}
_NOT_PLACES = frozenset(["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "christmas", "easter", "english", "polish", "i", "styczeń", "stycznia", "styczniu", "luty", "lutego", "lutym", "marzec", "marca", "marcu", "kwiecień", "kwietnia", "kwietniu", "maj", "maja", "maju", "czerwiec", "czerwca", "czerwcu", "lipiec", "lipca", "lipcu", "sierpień", "sierpnia", "sierpniu", "wrzesień", "września", "wrześniu", "październik", "października", "październiku", "listopad", "listopada", "listopadzie", "grudzień", "grudnia", "grudniu", "poniedziałek", "poniedziałki", "wtorek", "wtorki", "środa", "środy", "środę", "czwartek", "czwartki", "piątek", "piątki", "sobota", "soboty", "sobotę", "niedziela", "niedziele", "niedzielę", "wielkanoc"])


# another's relative: "Gary's wife Donna", "Priya's husband Raj"
_OWNER_ROLE = re.compile(r"\b(?P<owner>[A-Z][a-z]+)['’]s\s+(?P<role>[a-z]+)\s*,?\s+"
                         r"(?P<name>[A-Z][a-z]+)\b")
# a name after a title of address: "Pani Halina", "pan Zbigniew", "Mrs Patel", "Dr Evans"
_TITLED = re.compile(r"\b(?:[Pp]ani|[Pp]an|[Pp]anią|[Pp]anem|Mrs|Mr|Ms|Miss|Dr)\.?\s+"
                     r"(?P<name>[A-ZŁŚŻ][\w'’-]+)")
# a pet noun with its name beside it: "zabieram psa, Burka", "our dog, Rex"
_PET_NAMED = re.compile(r"\b(?P<n>[a-ząćęłńóśźż]+)\s*,?\s+(?P<name>[A-ZŁŚŻ][a-ząćęłńóśźż]+)\b")


def _partner_role(word: str) -> str:
    """The role a partner word names ("chłopak" -> boyfriend, "narzeczona" -> fiancee)."""
    w = word.lower().replace("é", "e")
    if w.startswith(("boyfriend", "chłopak")):
        return "boyfriend"
    if w == "girlfriend":
        return "girlfriend"
    if w.startswith("fianc"):
        return "fiancee" if w.endswith("ee") else "fiance"
    if w.startswith("narzeczon"):
        return "fiance" if w in ("narzeczony", "narzeczonym") else "fiancee"
    return "partner"


def read(text: str, language: str) -> Reading:
    """The mentions and links of one English (``en``) or Polish (``pl``) statement."""
    builder = _Builder(language)
    text = _BRACKETED.sub(lambda m: " " + m.group("name"), text)
    for relative in kin.relatives(text):
        builder.mention(relative.name, EntityType.PERSON, (relative.alias,))
        builder.link(USER, kin_link(relative.role), relative.name)
    for match in _PARTNER.finditer(text):
        name = builder.mention(match.group("name"), EntityType.PERSON,
                               (match.group("role").lower(),))
        builder.link(USER, f"kin:{_partner_role(match.group('role'))}", name)
    for match in _NAME_THEN_ROLE.finditer(text):
        role = kin.role_of(match.group("role"))
        if role is not None:
            name = builder.mention(match.group("name"), EntityType.PERSON,
                                   (match.group("role").lower(),))
            builder.link(USER, kin_link(role), name)
    for match in _OWNER_ROLE.finditer(text):  # "Gary's wife Donna", "Priya's husband Raj"
        role = kin.role_of(match.group("role"))
        if role is not None and match.group("name") not in ("I", "We"):
            owner = builder.mention(match.group("owner"), EntityType.PERSON)
            name = builder.mention(match.group("name"), EntityType.PERSON)
            builder.link(owner, kin_link(role), name)
    for match in _NAMED.finditer(text):
        if match.group("name").lower() not in ("a", "an"):
            builder.mention(match.group("name"), EntityType.PERSON)
    for pattern, link, kind in _EN if language == "en" else _PL:
        for match in re.finditer(pattern, text):
            groups = match.groupdict()
            target = groups.get("t") or groups.get("plain") or next(
                (g for g in match.groups() if g), None)
            if not target:
                continue
            target = target.strip(" .,")
            if kind is EntityType.ORGANISATION and any(
                    m.type is EntityType.PLACE and m.name in (target, " ".join(
                        nominative_pl(w) for w in target.split()))
                    for m in builder.mentions.values()):
                continue  # "Mieszkam i pracuję we Wrocławiu": the town, not a firm
            if kind is EntityType.OCCUPATION:
                target = target.lower() if language == "en" else _occupation_pl(target.lower())
            elif language == "pl" and kind is EntityType.PLACE:
                target = " ".join(nominative_pl(w) for w in target.split())
            written: tuple[str, ...] = ()
            if language == "pl" and kind is EntityType.ORGANISATION and re.search(
                    r"\b(?:w|we|na)\s+(?:firmie\s+)?[„\"«]?$",
                    text[:match.start() + match.group(0).rfind(target)]):
                # "w Comarchu", "w Nokii": a firm in the locative, as a town is, in the
                # nominative, the written form its alias
                said = " ".join(nominative_pl(w) for w in target.split())
                if said != target:
                    target, written = said, (target,)
            who = groups.get("who")
            both = _AND_BEFORE.search(text[:match.start("who")]) if who else None
            if who and both is None and _PLURAL.search(match.group(0)):
                continue  # "Teściowie mieszkają", "Parents live": no one named
            source = USER if not who else builder.person(who, language) if (
                who.lower() not in _PRONOUNS) else builder.last_person(text, match.start())
            if source is None:
                continue
            builder.link(source, link, builder.mention(target, kind, written))
            if both is not None and (other := builder.person(both.group("who"), language)):
                builder.link(other, link, builder.mention(target, kind))  # "Mum and Dad live"
    builder.possessions(text, language)
    if language == "pl":
        builder.carried(text)
    for match in _FRIEND.finditer(text):
        name = builder.mention(match.group("name"), EntityType.PERSON)
        builder.link(USER, "friend_of", name)
    for match in _TITLED.finditer(text):
        name = match.group("name")
        builder.mention(nominative_pl(name) if language == "pl" and name.endswith(("ą", "em"))
                        else name, EntityType.PERSON)
    for match in _PET_NAMED.finditer(text):
        said_before = text[:match.start()].split()[-1:]
        # "moja mama ma kota Filemona": a pet, the mother's
        others = bool(said_before) and said_before[0].lower() in (
            "ma", "has", "ich", "jej", "jego", "his", "her", "their")
        if lexicon.kind_of(match.group("n")) is EntityType.PET and match.group(
                "name") not in builder.mentions:
            name = match.group("name")
            if language == "pl" and match.group("n") in ("psa", "kota", "kotka", "psem"):
                name = _accusative_name_pl(name)  # "psa, Burka": Burek
            pet = builder.mention(name, EntityType.PET, (match.group("n"),))
            if not others and not any(link.source == pet and link.type == "pet_of"
                                      for link in builder.links):
                builder.link(pet, "pet_of", USER)
    builder.places(text, language)
    return builder.reading()


class _Builder:
    def __init__(self, language: str) -> None:
        self.language = language
        self.mentions: dict[str, Mention] = {}
        self.links: list[Link] = []

    def mention(self, name: str, kind: EntityType, aliases: tuple[str, ...] = ()) -> str:
        current = self.mentions.get(name)
        if current is None:
            self.mentions[name] = Mention(name, kind, aliases)
        elif aliases:
            self.mentions[name] = Mention(name, current.type,
                                          tuple(dict.fromkeys((*current.aliases, *aliases))))
        return name

    def link(self, source: str, kind: str, target: str) -> None:
        if source != target:
            self.links.append(Link(source, kind, target))

    def person(self, who: str, language: str) -> str | None:
        """A subject: a known mention, a role ("My husband", "Mąż"), or a new person."""
        words = who.split()
        while len(words) > 1 and (kin.role_of(words[0]) or words[0].lower() in _OPENERS):
            words = words[1:]  # "Teściowa Halina", "My friend Omar": the name
        if words and words[0] in ("I", "We", "And", "The", "My", "Our"):
            return None
        role = kin.role_of(words[-1]) if words else None
        if role is not None:
            for link in self.links:
                if link.type == kin_link(role) and link.source == USER:
                    return link.target
            # "my mum has diabetes", "Mum lives in Bolton", "Mama mieszka w Lublinie": the
            # speaker's relative the writer knows by that role (a role capitalised alone is
            # said as a name is: one's own)
            own = who.split()[0].lower() in ("my", "mój", "moja", "our", "nasz", "nasza") or (
                len(who.split()) == 1 and who[:1].isupper())
            return ROLE_PREFIX + role if own else None
        if len(words) == 1 and words[0][:1].islower():
            return None  # "my friend": no one named
        if words and words[0].lower() in ("my", "mój", "moja", "the", "our", "nasz", "nasza"):
            return None
        name = " ".join(words if language == "en" else (nominative_pl(w) for w in words))
        return self.mention(name, EntityType.PERSON)

    def last_person(self, text: str, at: int) -> str | None:
        """Who "he" / "she" / "on" / "ona" at ``at`` is: the person named last before it."""
        said = [(text.rfind(name, 0, at), m.name) for m in self.mentions.values()
                if m.type is EntityType.PERSON for name in (m.name, *m.aliases)]
        said = [(i, name) for i, name in said if i >= 0]
        return max(said)[1] if said else None

    def possessions(self, text: str, language: str) -> None:
        owns = (_OWN_EN_LONG, _OWN_EN, _MY_EN) if language == "en" else (_OWN_PL, _MY_PL)
        for pattern in owns:
            for match in pattern.finditer(text):
                noun = match.group("n")
                kind = lexicon.kind_of(noun)
                groups = match.groupdict()
                name = groups.get("name") or groups.get("name2")
                if pattern is _OWN_EN_LONG and kind is EntityType.PET and not name:
                    continue  # "have two little dogs": the short pattern reads it
                if kind is None and groups.get("name") and pattern is _OWN_EN_LONG:
                    kind = EntityType.PET  # "adopted / got a rescue greyhound called Biscuit"
                if kind is None:
                    continue
                owner = self.person(groups["who"], language) if groups.get("who") else USER
                if owner is None:
                    continue
                mods = (groups.get("mods") or "").split()
                head: tuple[str, ...] = (noun,) if mods else ()
                if mods and kind in (EntityType.ILLNESS, EntityType.HOBBY):
                    noun = " ".join([*mods, noun])  # "type 1 diabetes"
                if pattern is _OWN_PL and kind is not EntityType.PET and noun.endswith("ę") \
                        and len(noun) > 3:
                    # what one has is said in the accusative: a feminine noun's "-ę" is the
                    # nominative's "-a" ("mam astmę" -> astma, "kupiłam lodówkę" -> lodówka)
                    head, noun = (noun,), noun[:-1] + "a"
                if kind is EntityType.PET:
                    if name and language == "pl" and pattern is _OWN_PL:
                        name = _accusative_name_pl(name)  # "Mamy kota Filemona"
                    pet = self.mention(name or noun, EntityType.PET, (noun,) if name else ())
                    self.link(pet, "pet_of", owner)
                elif kind is EntityType.ILLNESS:
                    self.link(owner, "has_condition", self.mention(noun, kind, head))
                elif kind is EntityType.HOBBY:
                    self.link(owner, "does", self.mention(noun, kind, head))
                else:
                    self.link(owner, "owns", self.mention(noun, kind))
        doing = _DO_EN if language == "en" else _DO_PL
        for match in doing.finditer(text):
            hobby = match.group("h")
            who = match.groupdict().get("who")
            owner = self.person(who, language) if who else USER
            pastime = lexicon.kind_of(hobby) is EntityType.HOBBY or (
                language == "en" and hobby.endswith("ing") and hobby not in _NOT_HOBBIES
                and lexicon.kind_of(hobby) is None)  # "started bouldering"
            if owner is not None and pastime:
                self.link(owner, "does", self.mention(hobby, EntityType.HOBBY))

    def carried(self, text: str) -> None:
        """", pracuje jako X / dla Y" with no subject of its own: the last person this
        statement named earlier in the same sentence."""
        for match in _CARRIED_PL.finditer(text):
            start = max(text.rfind(mark, 0, match.start()) for mark in ".!?;") + 1
            said = text[start:match.start()]
            people = [(said.rfind(m.name), m.name) for m in self.mentions.values()
                      if m.type is EntityType.PERSON and said.rfind(m.name) >= 0]
            if not people:
                continue
            who = max(people)[1]
            if match.group("t"):
                self.link(who, "works_as", self.mention(_occupation_pl(match.group("t")),
                                                        EntityType.OCCUPATION))
            org = next((g for g in (match.group("plain"), match.group(2)) if g), None)
            if org:
                self.link(who, "works_at", self.mention(org.strip(" .,"), EntityType.ORGANISATION))

    def places(self, text: str, language: str) -> None:
        """"flying over from Nairobi", "w Lublinie": a capitalised name after a preposition of
        place that no pattern placed (not a month, a day or a name already read)."""
        known = {w.lower() for m in self.mentions.values() for w in (m.name, *m.aliases)
                 for w in w.split()}
        for match in _PLACE_AFTER[language].finditer(text):
            words = match.group("t").split()
            if words[0].lower() in _NOT_PLACES or words[0].lower() in known or any(
                    ch.isdigit() for ch in words[0]) or sum(ch.isupper() for ch in words[0]) > 1:
                continue  # "w SPSK4", "na UJ": an organisation's short name, not a place
            if language == "pl":
                said = match.group(0).split()[0].lower()
                if said in ("z", "ze") and len(words) == 1 and words[0].endswith(("em", "ą")):
                    # "z Bartkiem", "z Zosią": with someone (the instrumental), not from a place
                    if words[0].lower() not in known:
                        self.mention(nominative_pl(words[0]), EntityType.PERSON)
                    continue
                genitive = said in ("z", "ze", "do", "koło")
                words = [_genitive_pl(w) if genitive else nominative_pl(w) for w in words]
            name = " ".join(words)
            if not any(name.lower() in (m.name.lower(), *(a.lower() for a in m.aliases))
                       for m in self.mentions.values()):
                self.mention(name, EntityType.PLACE)

    def reading(self) -> Reading:
        return Reading(tuple(self.mentions.values()), tuple(dict.fromkeys(self.links)),
                       self.language)


__all__ = ["read"]

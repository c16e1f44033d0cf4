"""Recall by attribute (``wave_agent/recall/asked.py``): the heads read questions written for
this test (in none of the exemplars they were trained on) to the attribute they ask for, and
whether they ask for a past value; a question about no attribute is read as none; the records
that answer come in the order a person expects (the current value; for the past the replaced
value first), and never a value of another attribute or of someone else."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from archive.embedder import Embedder
from graph.models import Fact, FactType, Status, Tier, Veracity, utcnow
from wave_agent.recall import asked
from wave_agent.recall.asked import Asked

# (question, attribute, past): fresh wordings, Russian first
FRESH = [
    ("а живу-то я сейчас в каком городе?", "city", False),
    ("в каком городе я жила до того, как переехала?", "city", True),
    ("на какой номер мне теперь звонить?", "phone", False),
    ("какой телефонный номер у меня был до смены?", "phone", True),
    ("где трудится мой муж?", "employer", False),
    ("сколько сейчас стоит аренда моей квартиры?", "price", False),
    ("gdzie teraz mieszka moja siostra?", "city", False),
    ("ile płacę miesięcznie za mieszkanie?", "price", False),
    ("what city did I live in before the move?", "city", True),
    ("which company is my husband with these days?", "employer", False),
]
NOT_ATTRIBUTES = ["что я обещала купить к празднику?", "о чём мы спорили с мужем в субботу?",
                  "what film did we watch last weekend?"]


@pytest.fixture(scope="module")
def vectors(embedder: Embedder) -> dict[str, object]:
    if embedder.model_name != asked.READS or asked.model() is None:
        pytest.skip("the heads read multilingual-e5-small vectors only")
    texts = [q for q, _, _ in FRESH] + NOT_ATTRIBUTES
    return dict(zip(texts, embedder.embed_query_sync(texts), strict=True))


def test_fresh_questions_are_read_to_their_attribute_and_time(vectors: dict[str, object]) -> None:
    read = {q: asked.read(asked.READS, vectors[q]) for q, _, _ in FRESH}  # type: ignore[arg-type]
    wrong = [(q, read[q]) for q, attribute, past in FRESH
             if read[q] is None or read[q].attribute != attribute or read[q].past != past]
    assert len(wrong) <= 1, wrong  # one of ten may be missed; none answered by another kind
    assert all(r is None or r.attribute == a for q, a, _ in FRESH for r in [read[q]]), read


def test_a_question_about_no_attribute_is_not_read_as_one(vectors: dict[str, object]) -> None:
    for question in NOT_ATTRIBUTES:
        assert asked.read(asked.READS, vectors[question]) is None, question  # type: ignore[arg-type]


def test_another_embedding_model_is_not_read() -> None:
    import numpy as np

    assert asked.read("all-MiniLM-L6-v2", np.ones(384, dtype=np.float32)) is None


def _fact(fid: str, text: str, days_ago: int, status: Status, *values: str) -> Fact:
    at = utcnow() - timedelta(days=days_ago)
    return Fact(id=fid, user_id="u", text=text, type=FactType.IDENTITY, tier=Tier.OBSERVATION,
                veracity=Veracity.STATED, confidence=1.0, created_at=at, last_confirmed_at=at,
                status=status, attributes=values)


FACTS = [
    _fact("samara", "я живу в Самаре", 30, Status.SUPERSEDED, "user|city|Самара|set"),
    _fact("kazan", "переехала в Казань", 3, Status.ACTIVE, "user|city|Казань|set"),
    _fact("sister", "Сестра Дина живёт в Омске", 10, Status.ACTIVE, "Дина|city|Омск|set"),
    _fact("rent", "Снимаю квартиру за 45 тысяч", 9, Status.ACTIVE, "user|price:rent|45000|set"),
    _fact("gym", "Абонемент в зал 3000 в месяц", 8, Status.ACTIVE, "user|price:gym|3000|set"),
    _fact("phone", "Мой номер +7 912 345-67-89", 7, Status.ACTIVE, "user|phone|79123456789|set"),
]


def test_now_answers_the_current_value_and_the_past_the_replaced_one_first() -> None:
    now = asked.first(Asked("city", 0.9, False, 0.1), "где я живу?", FACTS)
    assert [f.id for f in now] == ["kazan"]
    before = asked.first(Asked("city", 0.9, True, 0.9), "где я жила раньше?", FACTS)
    assert [f.id for f in before] == ["samara", "kazan"]


def test_whose_and_which_price_come_from_the_question() -> None:
    sister = asked.first(Asked("city", 0.9, False, 0.1), "где живёт Дина?", FACTS)
    assert [f.id for f in sister] == ["sister"]
    rent = asked.first(Asked("price", 0.9, False, 0.1), "сколько я плачу за квартиру?", FACTS)
    assert [f.id for f in rent] == ["rent"]
    # two prices held and the question names neither: no price is guessed
    assert asked.first(Asked("price", 0.9, False, 0.1), "сколько я плачу?", FACTS) == []


def test_a_held_value_named_in_the_other_alphabet_is_not_a_person() -> None:
    jobs = [
        _fact("mts", "Работаю в МТС", 20, Status.SUPERSEDED, "user|employer|МТС|set"),
        _fact("bank", "Первый день в «Ак Барс Банке»", 2, Status.ACTIVE,
              "user|employer|Ак Барс Банк|set"),
    ]
    # "before Ak Bars" names the employer asked about, not someone called Ak whose job it is
    before = asked.first(Asked("employer", 0.9, True, 0.9), "where did I work before Ak Bars?",
                         jobs)
    assert [f.id for f in before] == ["mts", "bank"]
    # a name that is no held value still asks about that person
    assert asked.first(Asked("employer", 0.9, False, 0.1), "where does Oleg work?", jobs) == []


def test_an_attribute_nothing_holds_answers_nothing() -> None:
    assert asked.first(Asked("vehicle", 0.9, False, 0.1), "какая у меня машина?", FACTS) == []
    assert asked.first(Asked("employer", 0.9, False, 0.1), "где работает брат?", FACTS) == []


def test_a_value_passed_on_is_answered_by_the_record_that_said_it() -> None:
    """The writer carries a replaced record's other values to the record that replaced it;
    that record ("За квартиру отдал 38 тысяч") does not say the city: the record that did
    answers "где я живу?", though it was replaced for its rent."""
    said = replace(_fact("said", "Всё, я в Калининграде, живу теперь тут", 20,
                         Status.SUPERSEDED, "user|city|Калининград|set",
                         "user|price:rent|25000|set"), superseded_by="rent")
    rent = _fact("rent", "За квартиру отдал 38 тысяч", 2, Status.ACTIVE,
                 "user|price:rent|38000|set", "user|city|Калининград|set")
    city = asked.first(Asked("city", 0.9, False, 0.1), "где я живу?", [said, rent])
    assert [f.id for f in city] == ["said"]
    price = asked.first(Asked("price", 0.9, False, 0.1), "сколько я плачу за квартиру?",
                        [said, rent])
    assert [f.id for f in price] == ["rent"]
    before = asked.first(Asked("price", 0.9, True, 0.9), "сколько я платил раньше за квартиру?",
                         [said, rent])
    assert [f.id for f in before] == ["said", "rent"]
    # a city the person no longer lives in is no answer to "where do I live now?"
    moved = _fact("moved", "Переехал в Тверь", 1, Status.ACTIVE, "user|city|Тверь|set")
    rent_replaced = replace(rent, status=Status.SUPERSEDED, superseded_by="moved")
    now = asked.first(Asked("city", 0.9, False, 0.1), "где я живу?", [said, rent_replaced, moved])
    assert [f.id for f in now] == ["moved"]
    was = asked.first(Asked("city", 0.9, True, 0.9), "где я жил раньше?",
                      [said, rent_replaced, moved])
    assert [f.id for f in was] == ["said", "moved"]


def test_two_rents_are_one_value_in_force_and_two_children_are_two() -> None:
    # recall's own first stays first over the newest record unless both say one
    # single-valued attribute of the same holder (Recall._attribute_first)
    raised = _fact("raised", "Аренду подняли до 50 тысяч", 1, Status.ACTIVE,
                   "user|price:rent|50000|set")
    son = _fact("son", "Сыну Мише одиннадцать", 9, Status.ACTIVE, "user|child|Миша|add")
    girl = _fact("girl", "Дочке Вере три года", 2, Status.ACTIVE, "user|child|Вера|add")
    assert asked.same_single_value(FACTS[3], raised, "price")
    assert not asked.same_single_value(FACTS[3], FACTS[4], "price")  # rent and the gym
    assert not asked.same_single_value(son, girl, "child")
    assert not asked.same_single_value(FACTS[1], FACTS[2], "city")  # hers and her sister's


def test_a_price_named_by_its_service_answers_what_it_cost_before() -> None:
    plus = [
        _fact("old", "Яндекс Плюс опять списал 399.", 20, Status.SUPERSEDED, "user|price:плюс|399|set"),
        _fact("new", "Плюс теперь 449 в месяц списывает.", 2, Status.ACTIVE, "user|price:плюс|449|set"),
        _fact("rent", "За квартиру отдаю 32 тысячи", 25, Status.ACTIVE, "user|price:rent|32000|set"),
    ]
    before = asked.first(Asked("price", 0.9, True, 0.9), "сколько стоил Плюс до подорожания?", plus)
    assert [f.id for f in before][:1] == ["old"] and "rent" not in [f.id for f in before]


def test_a_price_is_the_person_s_when_the_one_named_only_raised_it() -> None:
    lessons = [
        _fact("old", "2500 за урок", 20, Status.SUPERSEDED, "user|price:lessons|2500|set"),
        _fact("new", "Елена подняла цену, урок уже 3000", 2, Status.ACTIVE,
              "user|price:lessons|3000|set"),
    ]
    before = asked.first(Asked("price", 0.9, True, 0.9),
                         "а сколько урок стоил до того, как Елена подняла цену?", lessons)
    assert [f.id for f in before][:1] == ["old"]


def test_the_past_head_reads_the_past_whatever_the_attribute_head_reads(embedder: Embedder) -> None:
    """Month 15: "а сколько стоил зал в Нижнем?" was read as no attribute, so the replaced 3200
    was never searched; the past head alone reads it as past, and the engine then asks it as
    history. Fresh wordings (none is a month's question)."""
    if embedder.model_name != asked.READS or asked.model() is None:
        pytest.skip("the heads read multilingual-e5-small vectors only")
    past = ["а во сколько мне обходился бассейн в старом городе?",
            "сколько стоила стрижка у Марины до подорожания?"]
    now = ["сколько я сейчас плачу за бассейн?", "what do I pay for piano lessons now?"]
    vectors = embedder.embed_query_sync(past + now)
    assert [asked.asks_past(asked.READS, v) for v in vectors] == [True] * len(past) + [False] * len(now)
    assert not asked.asks_past("all-MiniLM-L6-v2", vectors[0])


def test_a_question_about_now_is_answered_by_the_ending_said_since() -> None:
    """"я курю?" after "бросила курить", "какая у меня машина?" after the car was sold: the
    record that ended the value answers, above the one that said it; a value said after the
    ending, or another pet still kept, stays first (round thirty, h/now30)."""
    smokes = _fact("smokes", "Курю, полпачки в день", 20, Status.ACTIVE, "user|habit|курение|add")
    quit_ = _fact("quit", "Всё, бросила курить, третий день держусь", 2, Status.ACTIVE,
                  "user|habit|курение|negate")
    now = asked.first(Asked("habit", 0.9, False, 0.1), "я сейчас курю?", [smokes, quit_])
    assert [f.id for f in now] == ["quit", "smokes"]
    # without the step only the value in force answers (the order before round thirty)
    assert [f.id for f in asked.first(Asked("habit", 0.9, False, 0.1), "я сейчас курю?",
                                      [smokes, quit_], endings=False)] == ["smokes"]
    # smoking again since: the newer value answers first
    again = _fact("again", "Опять закурила, нервы", 1, Status.ACTIVE, "user|habit|курение|add")
    assert asked.first(Asked("habit", 0.9, False, 0.1), "я курю?",
                       [smokes, quit_, again])[0].id == "again"
    # a car sold, then nothing bought: the sale answers; a car bought since: that car
    car = _fact("car", "Езжу на Kia Rio", 25, Status.ACTIVE, "user|vehicle|Kia Rio|set")
    sold = _fact("sold", "Рио продала, теперь на такси", 5, Status.ACTIVE,
                 "user|vehicle|Kia Rio|remove")
    assert [f.id for f in asked.first(Asked("vehicle", 0.9, False, 0.1), "какая у меня машина?",
                                      [car, sold])] == ["sold", "car"]
    new = _fact("new", "Купила Solaris", 1, Status.ACTIVE, "user|vehicle|Hyundai Solaris|set")
    assert asked.first(Asked("vehicle", 0.9, False, 0.1), "какая у меня машина?",
                       [car, sold, new])[0].id == "new"


def test_one_pet_given_away_leaves_the_other_first() -> None:
    cat = _fact("cat", "У меня кошка Муся", 30, Status.ACTIVE, "user|pet|Муся|add")
    parrot = _fact("parrot", "Завела попугая Кешу", 20, Status.ACTIVE, "user|pet|Кеша|add")
    away = _fact("away", "Кешу забрала Катя, у неё ему лучше", 2, Status.ACTIVE,
                 "user|pet|Кеша|remove")
    pets = asked.first(Asked("pet", 0.9, False, 0.1), "какие у меня сейчас животные?",
                       [cat, parrot, away])
    assert [f.id for f in pets] == ["cat", "away", "parrot"]
    # a denial of the whole attribute settles every value said before it
    none = _fact("none", "Животных у меня больше нет", 1, Status.ACTIVE, "user|pet|*|negate")
    assert asked.first(Asked("pet", 0.9, False, 0.1), "есть ли у меня животные?",
                       [cat, parrot, away, none])[0].id == "none"
    # someone else's ending is no answer about the person
    sister = _fact("sister", "Сестра продала машину", 1, Status.ACTIVE,
                   "Дина|vehicle|*|remove")
    assert asked.first(Asked("vehicle", 0.9, False, 0.1), "какая у меня машина?",
                       [sister]) == []


def test_a_value_said_before_its_ending_is_ended() -> None:
    """Recall keeps its own first record first when it states the asked value, unless an
    ending said since settled it (``Recall._attribute_first``)."""
    smokes = _fact("smokes", "Курю, полпачки в день", 20, Status.ACTIVE, "user|habit|курение|add")
    quit_ = _fact("quit", "Бросила курить", 2, Status.ACTIVE, "user|habit|курение|negate")
    found = asked.first(Asked("habit", 0.9, False, 0.1), "я курю?", [smokes, quit_])
    assert asked.ended(smokes, found, "habit") and not asked.ended(quit_, found, "habit")
    # an ending of another attribute on an earlier record settles nothing here
    moved = _fact("moved", "Уволилась и переехала в Казань", 1, Status.ACTIVE,
                  "user|city|Казань|set", "user|employer|Ромашка|remove")
    city = asked.first(Asked("city", 0.9, False, 0.1), "где я живу?", [moved, FACTS[1]])
    assert not any(asked.ended(f, city, "city") for f in city)


# Fresh wordings (in no month and no exemplar) of a question about what a test found: the
# exemplars-only head read none of them (round thirty-five, h/slot36: the months' own
# "что у меня нашли по анализам?" went unread and another attribute's record came first).
RESULTS = ["что показали мои последние анализы крови?",
           "что там в итоге вышло по результатам обследования?",
           "co wyszło w moich ostatnich badaniach?", "what did my latest blood test show?"]


def test_a_question_about_test_results_is_read_as_a_condition(embedder: Embedder) -> None:
    if embedder.model_name != asked.READS or asked.model() is None:
        pytest.skip("the heads read multilingual-e5-small vectors only")
    read = [asked.read(asked.READS, v) for v in embedder.embed_query_sync(RESULTS)]
    assert sum(r is not None and r.attribute == "condition" for r in read) >= 2, read
    assert all(r is None or r.attribute == "condition" for r in read), read


def test_another_heads_file_is_read_in_place_of_the_shipped_one(
        tmp_path: object, vectors: dict[str, object]) -> None:
    from pathlib import Path

    question = FRESH[0][0]
    shipped = asked.read(asked.READS, vectors[question])  # type: ignore[arg-type]
    assert shipped is not None and shipped.attribute == "city"
    assert asked.read(asked.READS, vectors[question],  # type: ignore[arg-type]
                      path=Path(str(tmp_path)) / "absent.npz") is None
    assert asked.read(asked.READS, vectors[question],  # type: ignore[arg-type]
                      threshold=1.01) is None


# A child's school (the writer's ``school`` since round thirty-eight), asked in fresh wordings:
# the head reads it as ``school`` since round forty (h/current40), the months' ``other:school``
# labels learned as a class; before, it read none and recall ranked a record about the child's
# new friend above the one naming the school.
SCHOOL = ["в какой школе учится Миша?", "в какую школу перевели дочку?",
          "в каком классе сейчас учится Вова?", "do której szkoły chodzi Kuba?"]


def test_a_question_about_a_child_s_school_is_read_as_school(embedder: Embedder) -> None:
    if embedder.model_name != asked.READS or asked.model() is None:
        pytest.skip("the heads read multilingual-e5-small vectors only")
    read = [asked.read(asked.READS, v) for v in embedder.embed_query_sync(SCHOOL)]
    assert sum(r is not None and r.attribute == "school" for r in read) >= 3, read
    assert all(r is None or r.attribute == "school" for r in read), read


# It is answered like any single-valued attribute: the record in force, the replaced one first
# for the past, and never a record about the child that names no school.
def test_a_child_s_school_is_answered_by_the_record_in_force() -> None:
    schools = [
        _fact("old", "Тимур ходит в школу №151", 60, Status.SUPERSEDED,
              "Тимур|school|школа №151|set"),
        _fact("friend", "Тимур в новой школе подружился с Айдаром", 2, Status.ACTIVE),
        _fact("new", "Тимура взяли в школу №39", 10, Status.ACTIVE,
              "Тимур|school|школа №39|set"),
    ]
    now = asked.first(Asked("school", 0.9, False, 0.1), "в какую школу ходит Тимур?", schools)
    assert [f.id for f in now] == ["new"]
    before = asked.first(Asked("school", 0.9, True, 0.9), "в какую школу Тимур ходил раньше?",
                         schools)
    assert [f.id for f in before] == ["old", "new"]

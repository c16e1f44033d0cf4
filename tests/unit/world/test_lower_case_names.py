"""People named in lower case (issue 29, round twenty-seven): a name whose first dictionary
reading is another word, read where the sentence says a person ("с викой", "вера позвонила"),
and a lower-case name in a text that has capitals elsewhere; a word that only looks like a
name ("с марта", "голова болит") stays no one."""

from __future__ import annotations

from graph.models import EntityType
from wave_agent.world import read
from wave_agent.world.morphology import truecase


def _people(text: str) -> set[str]:
    return {m.name for m in read(text).mentions if m.type is EntityType.PERSON}


def test_a_name_that_is_also_a_word_is_a_person_after_s_in_the_instrumental() -> None:
    # "вика" is first a plant, "саня" first a sledge: after "с" in the instrumental, a person
    assert truecase("вчера с викой гуляли по набережной") == "Вчера с Викой гуляли по набережной"
    assert "Вика" in _people("вчера с викой гуляли по набережной, потом зашли в кафе")


def test_since_a_month_is_no_one() -> None:
    # "с марта" is "since March" (the genitive), not a woman called Марта
    assert truecase("с марта работаю в новом офисе") == "С марта работаю в новом офисе"
    assert not _people("с марта работаю в новом офисе, езжу на метро")


def test_a_name_before_its_past_tense_verb_is_the_subject() -> None:
    # "вера" is first faith; agreeing with "позвонила" it is a woman who called
    assert "Вера" in _people("вчера вера позвонила, звала в гости")
    assert not _people("а вера в себя помогает")


def test_a_lower_case_name_in_a_text_with_capitals_is_read() -> None:
    # the text has capitals («Ласточка»), so it is no lower-case chat; the name is still a name
    text = "мадина поёт в хоре «Ласточка» при доме культуры"
    assert "Мадина" in _people(text)
    # a lower-case common word in such a text stays lower case
    assert truecase("голова болит, выпила «Нурофен»") == "голова болит, выпила «Нурофен»"


def test_the_speaker_introducing_themself_in_lower_case_is_not_a_third_person() -> None:
    assert "Руслан" not in _people("салам, я руслан, держу шиномонтаж «Колесо» в Казани")


def test_a_word_counted_by_a_numeral_is_no_one() -> None:
    # "джуна" is a first name in the dictionary (Джуна), but counted ("два джуна", "2 джуна")
    # it is a common noun: juniors, no one the person names
    assert not _people("под мной два джуна, оба толковые")
    assert not _people("в команде 2 джуна и тимлид")
    # a lower-case name not counted, and a name in the next sentence, are still read
    assert "Вика" in _people("вчера с викой гуляли по набережной, потом зашли в кафе")
    assert "Рамиль" in _people("под мной два джуна. руководитель — Рамиль, спокойный")

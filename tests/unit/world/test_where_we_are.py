"""Where "we" are, said without a verb (round thirty-six, issue 29): "всё, мы в Тюмени", "Ну вот
мы и в Казани!" make the speaker live in the place, and "мы с Викой в Твери" the one "с" names
too (``russian._Builder._verbless``); a place pymorphy reads only as where one goes ("к бабушке
в Каменск"), a stay ("в отпуске") and a verb in the clause ("были в мае") are no home."""

from __future__ import annotations

from wave_agent.world.reader import rule_readings
from wave_agent.world.reading import Link


def _links(text: str) -> list[Link]:
    return list(rule_readings([text], learned_nouns=False)[0].links)


def test_we_are_in_a_town_now() -> None:
    assert Link("user", "lives_in", "Тюмень") in _links("Всё, мы в Тюмени уже месяц! Сняли двушку.")
    assert Link("user", "lives_in", "Казань") in _links("Ну вот мы и в Казани!")


def test_we_with_someone_both_live_there() -> None:
    links = _links("Мы с Викой в Твери уже год.")
    assert Link("user", "lives_in", "Тверь") in links
    assert Link("Вика", "lives_in", "Тверь") in links


def test_where_we_go_a_stay_or_a_past_visit_is_no_home() -> None:
    for text in ("А мы с Вероникой к бабушке Люде в Каменск.", "Мы в отпуске в Анапе.",
                 "Мы в Москве были в мае."):
        assert not [link for link in _links(text) if link.type == "lives_in"], text

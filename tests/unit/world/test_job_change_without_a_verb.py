"""A new job said without a verb of working (round forty, issue 29): after a verb of leaving
one's firm ("ушла из озона", "Олег ушёл из «X»!"), a clause with no verb of its own that says
now ("теперь", "сейчас" / "щас", "с понедельника") names where the leaver works
(``russian._Builder._leaver``, in ``_verbless``); "щас" the tagger took for a verb and a job in
the instrumental it took for one ("аналитиком") no longer hide a verbless clause. A visit, a
purchase, a leaving denied and a shop where one now buys are no workplace."""

from __future__ import annotations

from wave_agent.world.reader import parsed


def _works_at(text: str) -> set[tuple[str, str]]:
    """The rules' works_at links (before the pair model, which reads these on its own)."""
    return {(link.source, link.target) for link in parsed([text])[0].links
            if link.type == "works_at"}


def test_the_leaver_of_one_firm_is_now_at_the_next() -> None:
    assert ("Катя", "Яндекс") in _works_at(
        "переехали в питер, на васильевский. катя ушла из озона, теперь в яндексе")


def test_the_one_who_left_in_the_sentence_before_starts_on_monday() -> None:
    assert ("Олег", "Брусника") in _works_at(
        "Новость: Олег ушёл из «Уралстройресурса»! С понедельника в «Бруснике», "
        "начальником участка.")


def test_a_friend_who_is_now_at_a_bank_said_with_shchas() -> None:
    assert ("Серега", "Тинькофф") in _works_at(
        "по выходным гоняю в доту с пацанами, серега и макс. серега щас в тинькофф")


def test_a_job_in_the_instrumental_beside_the_firm() -> None:
    links = parsed(["лучший кореш шурик, он же саня бобров. щас он в москве, аналитиком в сбере"])[
        0].links
    assert ("Саня", "works_at", "Сбер") in {(x.source, x.type, x.target) for x in links}
    assert ("Саня", "works_as", "аналитик") in {(x.source, x.type, x.target) for x in links}


def test_a_visit_a_purchase_or_a_denied_leaving_is_no_workplace() -> None:
    assert not _works_at("Вчера была в «Ленте», теперь в «Пятёрочке» скидки.")
    assert not _works_at("Катя не ушла из «Озона», теперь в «Яндексе» её ждут.")
    assert not _works_at("Лена ушла с работы, теперь в «Магните» покупает всё.")
    assert not _works_at("Мы ушли из кино пораньше. Теперь в «Ленте», берём продукты.")


def test_a_leaving_verb_without_its_subject_is_the_person_named_before() -> None:
    links = _works_at("Олег сменил работу! Ушёл с АвтоВАЗа, теперь ведущий инженер в "
                      "«Самарских электросетях».")
    assert ("Олег", "Самарский электросеть") in links
    assert ("user", "Самарский электросеть") not in links

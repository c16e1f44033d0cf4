"""A job's holder and their workplace, and a person word that is no job (round thirty-eight,
issue 29): someone whose job the reading links and whose workplace it does not is given the
organisation the pair model holds likeliest their workplace at a lower bar
(``pairs._holders_firm``); a noun navec places nearest a person word, not a job ("соседка",
"мужик", "пенсионерка"), set off beside a name or said of the speaker is no job
(``kinds.person_noun``)."""

from __future__ import annotations

from wave_agent.world.kinds import job_noun, person_noun
from wave_agent.world.reader import read


def _links(text: str) -> set[tuple[str, str, str]]:
    return {(link.source, link.type, link.target) for link in read(text).links}


def test_the_speakers_job_said_beside_the_firm_gives_the_workplace() -> None:
    links = _links("ну всё, в сбере вторая неделя, я теперь аналитик данных официально")
    assert ("user", "works_as", "аналитик данных") in links
    assert ("user", "works_at", "Сбер") in links


def test_a_job_beside_a_name_still_gives_its_workplace() -> None:
    links = _links("Записала дочку на плавание в бассейн «Нептун». Тренер там Ирина Юрьевна, "
                   "говорит, у неё талант.")
    assert ("Ирина Юрьевна", "works_at", "Нептун") in links
    assert ("user", "works_at", "Нептун") not in links


def test_a_neighbour_or_a_bloke_is_no_job() -> None:
    assert not any(link.type == "works_as" for link in read(
        "Старый друг Виктор Палыч, сосед по гаражу, зовёт на рыбалку.").links)
    assert not any(link.type == "works_as" for link in read(
        "Муж мой Николай, мужик хороший, рукастый.").links)
    assert not any(link.type == "works_as" for link in read(
        "я теперь пенсионерка, сижу с внуками").links)


def test_a_job_beside_a_name_is_still_a_job() -> None:
    links = _links("Жена Ольга, бухгалтер, муж её брата Игорь, дальнобойщик.")
    assert ("Ольга", "works_as", "бухгалтер") in links
    assert ("Игорь", "works_as", "дальнобойщик") in links


def test_person_words_and_job_words_are_told_apart_by_navec() -> None:
    for word in ("соседка", "мужик", "пенсионер", "выпускник", "коллега"):
        assert person_noun(word), word
    for word in ("бухгалтер", "водитель", "дальнобойщик", "бэкендер", "тренер"):
        assert not person_noun(word), word
    assert job_noun("бухгалтер") and not job_noun("соседка")


def test_a_job_holder_with_a_workplace_gets_no_second_one() -> None:
    links = _links("Жена Татьяна. Медсестра в поликлинике №7, ей до пенсии ещё три года.")
    assert ("Татьяна", "works_at", "поликлиника № 7") in links
    assert sum(1 for s, t, _ in links if s == "Татьяна" and t == "works_at") == 1

"""The person's superior taken over by someone new (issue 30, round thirty-six; month 38's miss,
by the lead's reading: "начальник мой теперь Руслан Ильдарович" after "Руководитель у меня
Игорь" left Игорь's record active). The new holder ends the earlier holder's role, so the writer
replaces that record; someone else's superior, a deputy, a director, an ordinary job and the
same person named again end nothing. Sentences of our own (pure: natasha, pymorphy3, navec)."""

from __future__ import annotations

import pytest

from tests.unit.world.test_attribute_decisions import NOW, fact
from wave_agent.world import read
from wave_agent.world.attributes import Value, as_said, read_values
from wave_agent.write.attributes import (
    Decision,
    Held,
    decide,
    held_values,
    marks_change,
    tells_news,
)


def after(old: str, new: str) -> tuple[set[str], set[str]]:
    """What ``old`` holds, and what ``new`` reads with it held."""
    held = list(read_values(old, read(as_said(old)), []))
    return ({v.encode() for v in held},
            {v.encode() for v in read_values(new, read(as_said(new)), held)})


@pytest.mark.parametrize(("old", "new", "holder", "ended"), [
    ("руководитель у меня Игорь, нормальный мужик", "начальник мой теперь Руслан Ильдарович, "
     "вроде толковый", "Руслан Ильдарович|role|начальник|set", "Игорь|role|руководитель|remove"),
    ("начальник у меня Сергей Викторович, зануда страшный", "начальница — Айгуль Ринатовна. "
     "строгая, но по делу", "Айгуль Ринатовна|role|начальница|set",
     "Сергей Викторович|role|начальник|remove"),
    ("моя начальница Вера опять сдвинула дедлайн", "руководитель у меня Рустам, спокойный",
     "Рустам|role|руководитель|set", "Вера|role|начальница|remove"),
    ("my manager is Igor, super nice guy", "my new lead is Sveta, very calm",
     "Sveta|role|lead|set", "Igor|role|manager|remove"),
    ("Had a call with my manager Igor today", "My new boss is Rustem, ex-Yandex",
     "Rustem|role|boss|set", "Igor|role|manager|remove"),
])
def test_a_new_superior_ends_the_earlier_holders_role(old: str, new: str, holder: str,
                                                       ended: str) -> None:
    held, read_now = after(old, new)
    assert ended.replace("|remove", "|set") in held
    assert holder in read_now and ended in read_now


@pytest.mark.parametrize(("old", "new"), [
    ("руководитель у меня Игорь, нормальный мужик", "у Олега начальник Пётр, тот ещё тиран"),
    ("руководитель у меня Игорь, нормальный мужик", "его начальник Пётр опять всех задержал"),
    ("руководитель у меня Игорь, нормальный мужик", "с сегодняшнего дня Ринат официально мой зам"),
    ("руководитель у меня Игорь, нормальный мужик", "Лена у нас директор школы"),
    ("руководитель у меня Игорь, нормальный мужик", "Игорь опять собрал совещание, начальник же"),
    ("Лена, моя подруга, врач в областной больнице", "Оля у меня тоже врач"),
])
def test_someone_elses_superior_or_another_role_ends_nothing(old: str, new: str) -> None:
    _, read_now = after(old, new)
    assert not any(v.endswith("|remove") for v in read_now)


def _decided(text: str, held: list[Held]) -> Decision:
    """What the writer decides for ``text`` against the held values, as it reads the message."""
    new = read_values(text, read(as_said(text)), [h.value for h in held])
    return decide(new, held, "new", changed=marks_change(text), news=tells_news(text), at=NOW)


def test_the_writer_replaces_the_earlier_holders_record() -> None:
    old = fact("f1", "Игорь|role|руководитель|set")
    held = held_values([old])
    text = "начальник мой теперь Руслан Ильдарович, вроде толковый"
    decision = _decided(text, held)
    assert decision.replaces == [old] and not decision.contradicts


def test_one_superior_said_by_another_word_is_no_contradiction() -> None:
    old = fact("f1", "Игорь|role|руководитель|set")
    decision = decide([Value("Игорь", "role", "начальник", "set")], held_values([old]), "new",
                      news=False, at=NOW)
    assert not decision.contradicts and not decision.replaces


def values(text: str, held: list[Value] | None = None) -> set[str]:
    return {v.encode() for v in read_values(text, read(as_said(text)), held or [])}


@pytest.mark.parametrize(("text", "expected"), [
    # a move to a place named before it (month 38's brother, in words of our own)
    ("Денис получил оффер во Вроцлаве и уже переехал туда", "Денис|city|Вроцлав|set"),
    ("Оля нашла работу в Казани и перебралась туда насовсем", "Оля|city|Казань|set"),
    # a Polish move told by its mover, from the old place to the new
    ("Kasia pisze, że przeprowadziła się z Krakowa do Gdańska", "Kasia|city|Gdańska|set"),
    # someone appointed to a job
    ("у Лены новость: её назначили заведующей отделением", "Лена|role|заведующая|set"),
    ("Костя хвастается: его поставили шефом в том же ресторане", "Костя|role|шеф|set"),
])
def test_another_persons_new_city_or_job_is_read(text: str, expected: str) -> None:
    assert expected in values(text)


@pytest.mark.parametrize("text", [
    "Денис был во Вроцлаве и не хочет туда возвращаться",   # no move
    "я получила оффер в Казани и переехала туда",           # the speaker's own: not another's
    "Лене поставили диагноз гастрит",                        # a diagnosis, no job
    "его поставили на место, и правильно",
])
def test_no_city_or_job_of_another_without_a_move_or_appointment(text: str) -> None:
    assert not any(("|city|" in v and not v.startswith("user|")) or "|role|" in v
                   for v in values(text))


def test_an_appointment_is_news_so_it_replaces_the_old_job() -> None:
    old = fact("f1", "Лена|role|хирург|set")
    held = held_values([old])
    text = "у Лены новость: её назначили заведующей отделением"
    decision = _decided(text, held)
    assert decision.replaces == [old] and not decision.contradicts


@pytest.mark.parametrize(("text", "wrong"), [
    # tuning_34's false alarm once Kasia's move was read: the place compared with is no home
    ("Kasia mówi, że za mieszkanie w Gdańsku płaci 3000 zł, dwa razy tyle co w Krakowie",
     "Kasia|city|Kraków|set"),
    ("Костя живёт в Москве, там всё дороже, чем в Казани", "Костя|city|Казань|set"),
])
def test_a_place_compared_with_is_no_city(text: str, wrong: str) -> None:
    assert wrong not in values(text)

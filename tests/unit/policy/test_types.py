"""The type guesser on the shapes it got wrong: someone else's promise, reported
speech and narrative "надо" were labelled commitments, so decay buried them; Polish had no
cues at all. Figures on the labelled set: ``scripts/bench_types.py``."""

from __future__ import annotations

import pytest

from graph.models import FactType
from wave_agent.policy.types import guess_type


@pytest.mark.parametrize("text", [
    "Сосед сверху залил нам ванную, обещал оплатить ремонт",
    "Игорь обещал прислать договор, но забыл",
    "Управляющая компания обещала починить лифт до пятницы",
    "Коллега пообещал подменить меня в субботу",
    "Врач сказал, что надо меньше сидеть",
    "Надо же, вчера встретил одноклассника в метро",
    "Szef obiecał podwyżkę od stycznia",
    "The neighbour upstairs flooded our bathroom and promised to pay for the repair",
    "The doctor said I need to sit less",
    "My boss promised a bonus but never paid it",
])
def test_someone_elses_promise_or_a_story_is_an_event(text: str) -> None:
    assert guess_type(text) is FactType.EVENT


@pytest.mark.parametrize("text", [
    "Я обещал маме позвонить в воскресенье",
    "Мне нужно забрать документы из МФЦ завтра",
    "Надо до пятницы отправить счёт Игорю",
    "Завтра отвезу кота к ветеринару",
    "Я сделаю ревью кода до обеда",
    "Obiecałam siostrze, że pomogę jej w sobotę",
    "Muszę zapłacić rachunek za prąd do poniedziałku",
    "I promised my mom to call her on Sunday",
    "I need to pick up the documents tomorrow",
])
def test_the_persons_own_promise_or_task_is_a_commitment(text: str) -> None:
    assert guess_type(text) is FactType.COMMITMENT


@pytest.mark.parametrize(("text", "kind"), [
    ("У меня аллергия на пыльцу берёзы", FactType.IDENTITY),
    ("Nazywam się Piotr", FactType.IDENTITY),
    ("Игорь — мой бухгалтер", FactType.RELATIONSHIP),
    ("Олег — брат моей жены", FactType.RELATIONSHIP),
    ("Мои родители живут в Туле", FactType.RELATIONSHIP),
    ("Моя бабушка упала и сломала руку", FactType.EVENT),
    ("Mój brat Tomek jest programistą", FactType.RELATIONSHIP),
    ("Нервничаю перед собеседованием", FactType.STATE),
    ("Jestem dziś zmęczony", FactType.STATE),
    ("Терпеть не могу очереди", FactType.PREFERENCE),
    ("Uwielbiam góry zimą", FactType.PREFERENCE),
    ("Решено: летом едем в Турцию", FactType.DECISION),
    ("Postanowiliśmy sprzedać samochód", FactType.DECISION),
])
def test_russian_and_polish_cues(text: str, kind: FactType) -> None:
    assert guess_type(text) is kind

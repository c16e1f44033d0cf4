"""The query map's switch (``wave_agent/recall/kind.py``, ``kind.npz``): a person's own notes
keep the map, a chat transcript turns it off. The records are written for this test (in no set
the switch or the map was trained on)."""

from __future__ import annotations

import numpy as np
import pytest

from archive.embedder import Embedder
from wave_agent.recall import adapter, kind
from wave_agent.recall.config import RecallConfig

NOTES = [
    "Записала Тимура к ортодонту на 14 марта, 16:30, клиника на Гагарина.",
    "Перешла на новый тариф МТС: 450 р в месяц, 30 гигов.",
    "У Лёши аллергия на цитрусовые, в школу передала справку.",
    "Пароль от вайфая на даче: solnce2024, роутер в шкафу.",
    "Купила абонемент в бассейн «Волна», 12 занятий за 5400.",
    "Zapisałam się na kurs hiszpańskiego, wtorki i czwartki o 18:00.",
    "Mama ma wizytę u kardiologa 3 kwietnia, trzeba ją zawieźć.",
    "Nowy numer do pani Ewy z przedszkola: 601 223 418.",
    "Сменили страховую на «Согласие», полис до конца января.",
    "Машину отдали в сервис на Садовой, обещали к пятнице.",
]

TRANSCRIPT = [
    "Jordan: Hey Priya! How was the pottery workshop last weekend? I saw your photos.",
    "Priya: It was amazing, thanks for asking! I made a lopsided bowl but I'm weirdly proud.",
    "Jordan: Ha, lopsided is charming. Are you going back next month?",
    "Priya: Definitely. My sister wants to come too, she's been stressed with her new job.",
    "Jordan: That's sweet of you. I've been trying to get back into running, actually.",
    "Priya: Oh nice! Didn't you do a half marathon a couple of years ago?",
    "Jordan: Yeah, in Portland. I'm nowhere near that shape now, but it feels good to move.",
    "Priya: Totally. Let me know if you want a running buddy on Saturdays.",
    ("assistant: Great question! Here are a few tips for keeping sourdough starter healthy: "
     "1. Feed it regularly, ideally at the same time each day. 2. Use filtered water if your "
     "tap water is heavily chlorinated. 3. Keep it somewhere warm but not hot. 4. Discard "
     "part of it before each feeding so it doesn't get too acidic. Let me know if you'd like "
     "a feeding schedule!"),
    ("I'm planning a trip to Lisbon in the spring and I was wondering what neighbourhoods "
     "would be good to stay in if I want to be close to restaurants but not too noisy at night."),
]

# the switch must read the kind of record, not its language: the notes it was trained on are
# Russian and Polish, the transcripts English
ENGLISH_NOTES = [
    "Booked Tim an orthodontist appointment for March 14 at 4:30pm.",
    "Switched my phone plan to T-Mobile, $45 a month.",
    "Leo is allergic to citrus, sent a note to school.",
    "Wifi password at the cabin: sunshine2024.",
    "My car is at the garage on Oak Street until Friday.",
]
RUSSIAN_DIALOGUE = [
    "Маша: Привет! Как прошла поездка в Казань?",
    "Оля: Отлично, спасибо! Мы гуляли по Кремлю и ели эчпочмаки.",
    "Маша: Здорово, а сестра твоя с вами ездила?",
    "Оля: Да, она как раз взяла отпуск на новой работе.",
    "Ассистент: Отличный вопрос! Вот несколько советов по уходу за закваской: кормите её "
    "регулярно, используйте фильтрованную воду и держите банку в тепле.",
]


@pytest.fixture(scope="module")
def fitted(embedder: Embedder) -> tuple[np.ndarray, float]:
    if embedder.model_name != adapter.READS:
        pytest.skip("the switch reads multilingual-e5-small passage vectors only")
    found = kind.weights()
    assert found is not None, "recall/kind.npz is package data and must ship"
    return found


def test_the_switch_ships_and_is_the_default(fitted: tuple[np.ndarray, float]) -> None:
    assert fitted[0].shape == (adapter.DIM,)
    assert RecallConfig().query_adapter == "auto"


def test_a_persons_notes_keep_the_map(embedder: Embedder,
                                      fitted: tuple[np.ndarray, float]) -> None:
    vectors = list(embedder.embed_sync(NOTES))
    assert kind.notes(vectors)


def test_a_chat_transcript_turns_the_map_off(embedder: Embedder,
                                             fitted: tuple[np.ndarray, float]) -> None:
    vectors = list(embedder.embed_sync(TRANSCRIPT))
    assert not kind.notes(vectors)


def test_no_vectors_or_another_models_leave_the_map_as_it_was() -> None:
    assert kind.notes([])
    assert kind.notes([np.ones(8, dtype=np.float32)])


def test_the_kind_is_read_not_the_language(embedder: Embedder,
                                            fitted: tuple[np.ndarray, float]) -> None:
    assert kind.notes(list(embedder.embed_sync(ENGLISH_NOTES)))
    assert not kind.notes(list(embedder.embed_sync(RUSSIAN_DIALOGUE)))

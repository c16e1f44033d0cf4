"""The learned query map (``wave_agent/recall/adapter.py``, ``adapter.npz``): it loads, and on
small memories written for this test (in no set it was trained on) it puts the record that
answers first where plain e5 puts a near miss first: a relative's allergy before the person's
own, the size of clothes before the shoe size, the bills before the rent. Another model's vector
is left as it is."""

from __future__ import annotations

import numpy as np
import pytest

from archive.embedder import Embedder
from wave_agent.recall import adapter
from wave_agent.recall.config import RecallConfig

# (question, records, the record that answers); plain e5 ranks another record first
CASES = [
    ("На что у меня аллергия?",
     ["У Сони аллергия на арахис, в садик передаём записку.",
      "Мне нельзя пенициллин: в детстве была сыпь по всему телу.",
      "Муж чихает от кошачьей шерсти.",
      "Купила новые таблетки от давления для мамы."], 1),
    ("Какой у меня размер обуви?",
     ["Купила себе кроссовки, 38-й, сидят отлично.",
      "Сыну нужны ботинки на зиму, у него уже 35-й размер.",
      "В обувном на Ленина скидки до конца месяца.",
      "Размер одежды у меня M, иногда S."], 0),
    ("Сколько я плачу за квартиру?",
     ["Хозяйка квартиры подняла аренду до 32 тысяч в месяц.",
      "За коммуналку в январе пришло 6 тысяч.",
      "Квартиру снимаем на Пушкина, третий этаж.",
      "Платим ипотеку родителям мужа помогаем."], 0),
]


@pytest.fixture(scope="module")
def shipped(embedder: Embedder) -> np.ndarray:
    if embedder.model_name != adapter.READS:
        pytest.skip("the map moves multilingual-e5-small query vectors only")
    w = adapter.weights()
    assert w is not None, "recall/adapter.npz is package data and must ship"
    return w


def test_the_map_loads_with_a_cosine_map_that_keeps_its_order(shipped: np.ndarray) -> None:
    assert shipped.shape == (adapter.DIM, adapter.DIM)
    assert 0 < float(np.linalg.norm(shipped)) < 50  # trained, and held near zero by decay
    scale, shift = adapter.cosine_map()
    assert scale > 0  # an affine map that keeps the order of the cosines
    assert 0.6 < scale * 0.2 + shift < 1.0  # an adapted cosine reads on plain e5's scale
    assert RecallConfig().query_adapter != "off"


@pytest.mark.parametrize(("question", "records", "answer"), CASES, ids=[c[0] for c in CASES])
def test_the_record_that_answers_comes_first_with_the_map(
        embedder: Embedder, shipped: np.ndarray, question: str, records: list[str],
        answer: int) -> None:
    query = embedder.embed_query_sync([question])[0]
    stored = embedder.embed_sync(records)
    plain = int(np.argmax(stored @ query))
    moved = adapter.adapt(adapter.READS, query)
    assert plain != answer, "plain e5 already gets this one: not a case for the map"
    assert int(np.argmax(stored @ moved)) == answer, records
    assert abs(float(np.linalg.norm(moved)) - 1.0) < 1e-5


def test_another_models_vector_is_left_as_it_is(shipped: np.ndarray) -> None:
    vector = (np.ones(adapter.DIM) / np.sqrt(adapter.DIM)).astype(np.float32)
    assert np.array_equal(adapter.adapt("all-MiniLM-L6-v2", vector), vector)
    assert np.array_equal(adapter.adapt(adapter.READS, np.ones(8, dtype=np.float32)),
                          np.ones(8, dtype=np.float32))

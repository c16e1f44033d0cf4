"""The question with its language taken out (``wave_agent/recall/language.py``,
``language.npz``): a question's cosine with one statement said in Russian, English and Polish
depends less on which language the statement is in. The texts are written for this test (in
no set the directions were read from)."""

from __future__ import annotations

import numpy as np
import pytest

from archive.embedder import Embedder
from wave_agent.recall import language

# one statement in three languages (ru, en, pl), and a question about it in each
SAID = [
    ("Теперь работаю в Сбере аналитиком.", "Now I work at Sber as an analyst.",
     "Teraz pracuję w Sberze jako analityk."),
    ("Купили щенка, назвали Бублик.", "We got a puppy and named him Bublik.",
     "Kupiliśmy szczeniaka, nazywa się Bublik."),
    ("Переехала в Казань.", "I moved to Kazan.", "Przeprowadziłam się do Kazania."),
]
ASKED = {
    "ru": ["Где я сейчас работаю?", "Как зовут мою собаку?", "В каком городе я живу?"],
    "en": ["Where do I work now?", "What is my dog's name?", "Which city do I live in?"],
    "pl": ["Gdzie teraz pracuję?", "Jak się nazywa mój pies?", "W jakim mieście mieszkam?"],
}


@pytest.fixture(scope="module")
def basis(embedder: Embedder) -> np.ndarray:
    if embedder.model_name != language.READS:
        pytest.skip("the directions were read from multilingual-e5-small")
    found = language.basis()
    assert found is not None, "recall/language.npz is package data and must ship"
    return found


def test_the_directions_are_orthonormal(basis: np.ndarray) -> None:
    assert basis.shape[0] == 384 and 1 <= basis.shape[1] <= 8
    np.testing.assert_allclose(basis.T @ basis, np.eye(basis.shape[1]), atol=1e-4)


def test_a_question_leans_less_on_the_language_of_the_record(embedder: Embedder,
                                                             basis: np.ndarray) -> None:
    spread_plain, spread_neutral = [], []
    for lang, questions in ASKED.items():
        for q, said in zip(embedder.embed_query_sync(questions), SAID, strict=True):
            records = embedder.embed_sync(list(said))
            plain = records @ q
            neutral = records @ language.neutral(embedder.model_name, q)
            # how far the statement in the question's own language leads the other two
            own = ["ru", "en", "pl"].index(lang)
            spread_plain.append(plain[own] - np.delete(plain, own).mean())
            spread_neutral.append(neutral[own] - np.delete(neutral, own).mean())
    assert np.mean(spread_plain) > 0.02  # e5 prefers the question's own language
    assert np.mean(spread_neutral) < np.mean(spread_plain) / 2


def test_another_model_is_left_alone(basis: np.ndarray) -> None:
    v = (np.ones(384) / np.sqrt(384)).astype(np.float32)
    assert np.array_equal(language.neutral("all-MiniLM-L6-v2", v), v)
    out = language.neutral(language.READS, v)
    assert abs(float(np.linalg.norm(out)) - 1.0) < 1e-5
    assert np.abs(basis.T @ out).max() < 1e-5

"""Whether a record states the attribute the question asks for, of the person asking
(``wave_agent/recall/stated.py``): the person's own new city reads above a brother's flat and
another pastime, the person's cat above a child's school; a question about a relative reads
nothing; and with the weight fitted on the tuning month (``scripts/fit_stated.py``; not in the
shipped ``ranker.json``: it cost the held-out memory authors rank 1), the record that states the
asked slot comes first where the model's own order had another slot's record first. Wordings
written for this test (in none of the months or exemplars the heads were fitted on)."""

from __future__ import annotations

import numpy as np
import pytest

from archive.embedder import Embedder
from wave_agent.recall import asked, learned, stated

FITTED = 12.533  # scripts/fit_stated.py on tuning_34's rows (docs/benchmarks.md, h/rank36)

# question -> (the record that answers it, records of another slot or another person)
CASES = {
    "в каком городе я теперь живу?": (
        "Всё, перебралась в Казань, снимаю однушку у метро",
        ["Брат Миша снял квартиру в Твери, звал в гости",
         "Записалась на бачату по вторникам"]),
    "как зовут мою кошку?": (
        "Муська опять спит на клавиатуре, пришлось отключить ноут",
        ["Дочка пошла в первый класс, гимназия номер пять",
         "Коллега Оля принесла торт"]),
    "gdzie teraz pracuję?": (
        "Od poniedziałku pracuję w Allegro jako tester",
        ["Kuzyn Bartek dostał pracę w banku",
         "Kupiłam nowy rower"]),
}


@pytest.fixture(scope="module")
def embedded(embedder: Embedder) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    if embedder.model_name != asked.READS or asked.model() is None:
        pytest.skip("the heads read multilingual-e5-small vectors only")
    questions = list(CASES)
    records = [t for right, others in CASES.values() for t in (right, *others)]
    qv = dict(zip(questions, embedder.embed_query_sync(questions), strict=True))
    rv = dict(zip(records, embedder.embed_sync(records), strict=True))
    return qv, rv


def test_the_record_that_states_the_asked_slot_of_the_person_reads_highest(
        embedded: tuple[dict[str, np.ndarray], dict[str, np.ndarray]]) -> None:
    qv, rv = embedded
    for question, (right, others) in CASES.items():
        share = stated.asked_share(qv[question], asked.READS)
        assert share is not None and stated.about_person(question, share), question
        texts = [right, *others]
        values = stated.stated(share, np.stack([rv[t] for t in texts]))
        assert values[0] > max(values[1:]), (question, values)


def test_a_question_about_someone_else_reads_nothing(
        embedder: Embedder) -> None:
    if embedder.model_name != asked.READS or asked.model() is None:
        pytest.skip("the heads read multilingual-e5-small vectors only")
    for question in ("где теперь живёт брат?", "где работает Олег?",
                     "gdzie mieszka moja siostra?"):
        share = stated.asked_share(np.asarray(embedder.embed_query_sync([question])[0]),
                                   asked.READS)
        assert share is not None and not stated.about_person(question, share), question


def test_another_embedding_model_and_a_missing_vector_read_nothing() -> None:
    assert stated.asked_share(np.ones(384, dtype=np.float32), "all-MiniLM-L6-v2") is None
    vectors = np.full((2, 384), np.nan, dtype=np.float32)
    assert stated.stated({"city": 1.0}, vectors).tolist() == [0.0, 0.0]
    assert stated.stated(None, np.ones((1, 384), dtype=np.float32)).tolist() == [0.0]


def test_the_fitted_weight_puts_the_asked_slot_above_a_slightly_likelier_other(
        embedded: tuple[dict[str, np.ndarray], dict[str, np.ndarray]]) -> None:
    """The model finds the brother's flat a little likelier than the person's own move (the
    month-38 miss in kind); the fitted ``stated`` weight turns that round, and the shipped
    file, which carries none, leaves the model's order as it was."""
    assert learned.load().stated is None
    weight = FITTED
    qv, rv = embedded
    question = "в каком городе я теперь живу?"
    right, (brother, dance) = CASES[question]
    share = stated.asked_share(qv[question], asked.READS)
    values = stated.stated(share, np.stack([rv[t] for t in (brother, right, dance)]))
    p = np.array([0.30, 0.25, 0.20])
    fused = np.log(np.array([1.0, 0.9, 0.8]))
    ones, none = np.ones(3), np.zeros(3)
    before = learned.after_model(p, fused, ones, none, None, 1.0)
    after = learned.after_model(p, fused, ones, none, None, 1.0, stated=values,
                                stated_weight=weight)
    assert int(np.argmax(before)) == 0
    assert int(np.argmax(after)) == 1

"""The learned small-talk judge (``wave_agent/policy/smalltalk.py``) on lines written for this
test, in none of its training data: moods and comments on the day in a person's own words are
small talk; statements about their life, also short or negative ones, are not."""

from __future__ import annotations

from pathlib import Path

import pytest

from archive.embedder import Embedder
from wave_agent.llm.offline_extract import language
from wave_agent.policy import smalltalk

SMALL_TALK = [
    "Голова раскалывается весь день, жуть.",
    "Ну и слякоть на улице, промок до нитки.",
    "Всё, выключаю свет, спокойной ночи.",
    "Jestem dziś strasznie zmęczony.",
    "man, this rain just won't stop",
]
STATEMENTS = [
    "Моя жена работает стоматологом в Твери.",
    "У меня диабет второго типа.",
    "Mój brat mieszka w Poznaniu.",
    "I teach maths at a secondary school in Bristol.",
    "Я не ем глютен, у меня целиакия.",
]


def test_the_judge_drops_no_statement_and_ranks_small_talk_above_statements(
    embedder: Embedder,
) -> None:
    """No statement reaches the threshold, every small-talk line scores above every statement,
    and some cross it. Those under the threshold (chosen out of fold, by author, so that
    statements are kept) must be caught by the phrase lists or they are stored: the known limit
    (docs/benchmarks.md, "A month of chat")."""
    if embedder.model_name != smalltalk.READS:
        pytest.skip("the judge reads multilingual-e5-small vectors only")
    vectors = embedder.embed_sync(SMALL_TALK + STATEMENTS)
    p = [smalltalk.probability(embedder.model_name, v) or 0.0 for v in vectors]
    small, said = p[:len(SMALL_TALK)], p[len(SMALL_TALK):]
    threshold = smalltalk.model().threshold  # type: ignore[union-attr]
    assert max(said) < threshold, list(zip(STATEMENTS, said, strict=True))
    assert min(small) > max(said), (small, said)
    assert sum(x >= threshold for x in small) >= 2, list(zip(SMALL_TALK, small, strict=True))


MOMENTS_WITH_SOMEONE_NAMED = [  # written for this test: what a month's author calls small talk
    "Варя сегодня первый раз сама завязала шнурки",
    "Kuba zrobił dziś pierogi, pycha",
    "с Костей сейчас гуляем в парке, холодно",
]
SAID_IN_A_CHAT = [  # and what stays: who is who and a habit, said in the same chat
    "у меня двое детей, Варя и Костя",
    "по утрам всегда бегаю, минимум пять километров",
    "mieszkam z mężem na Mokotowie",
]


def test_a_moment_with_someone_named_is_small_talk_and_who_they_are_is_not(
    embedder: Embedder,
) -> None:
    """Round thirty-four (h/small34): the judge refitted on the thirty design months and the
    newest chat author, with the nearest labelled lines' vote beside its regression, drops the
    moment with a child or partner named, the class half the stored small talk was (round
    thirty-three); the judge before kept the child's moment (0.69 under its 0.72). The family
    and a habit said in the same words are kept."""
    if embedder.model_name != smalltalk.READS:
        pytest.skip("the judge reads multilingual-e5-small vectors only")
    vectors = embedder.embed_sync(MOMENTS_WITH_SOMEONE_NAMED + SAID_IN_A_CHAT)
    p = [smalltalk.probability(embedder.model_name, v) or 0.0 for v in vectors]
    threshold = smalltalk.model().threshold  # type: ignore[union-attr]
    moments, said = p[:len(MOMENTS_WITH_SOMEONE_NAMED)], p[len(MOMENTS_WITH_SOMEONE_NAMED):]
    assert min(moments) >= threshold, list(zip(MOMENTS_WITH_SOMEONE_NAMED, moments, strict=True))
    assert max(said) < threshold, list(zip(SAID_IN_A_CHAT, said, strict=True))


def test_another_models_vector_is_not_judged() -> None:
    import numpy as np

    assert smalltalk.probability("all-MiniLM-L6-v2", np.zeros(384, dtype=np.float32)) is None
    assert not smalltalk.is_small_talk("all-MiniLM-L6-v2", np.zeros(384, dtype=np.float32))


SAID_IN_PASSING = [  # no pronoun, no pattern: the extractor's rules find nothing in them
    "got a raise to 95k, finally",
    "ортодонт сказал носить брекеты ещё год",
    "switched to night shifts at the hospital last week",
]
PASSING_REMARKS = [
    "опять снег пошёл, ну сколько можно",
    "ugh this coffee is terrible",
    "nudzi mi się strasznie",
    "встал сегодня не с той ноги",
    "лол, смешно вышло",
]


def test_a_statement_said_in_passing_is_kept_and_a_passing_remark_is_not(embedder: Embedder) -> None:
    """The judge decides both ways on the offline door (the bench runs the post-processor's own
    steps): a statement the extractor found nothing in is kept as said, a remark on the day is
    not. Lines written for this test, in no training set."""
    from wave_agent.bench.smalltalk import judge
    from wave_agent.llm.offline_extract import extract_heuristic

    if embedder.model_name != smalltalk.READS:
        pytest.skip("the judge reads multilingual-e5-small vectors only")
    assert not any(extract_heuristic(s, max_facts=4) for s in SAID_IN_PASSING)
    assert judge(SAID_IN_PASSING) == [True] * len(SAID_IN_PASSING)
    assert judge(PASSING_REMARKS) == [False] * len(PASSING_REMARKS)


def test_what_is_kept_in_passing_is_the_stated_part_not_the_question() -> None:
    from wave_agent.postprocess.extract import kept_in_passing

    said = "слушай, а в Новосибе, куда нас с женой переводят в сентябре, какие зимы вообще?"
    facts = kept_in_passing(said, [], budget=4, worth_remembering=True)
    assert [f.text for f in facts] == ["Слушай, а в Новосибе, куда нас с женой переводят в сентябре"]
    assert kept_in_passing(said, [], budget=4, worth_remembering=False) == []
    assert kept_in_passing("какие зимы в Новосибирске?", [], budget=0, worth_remembering=True) == []


def test_the_bench_totals_tuning_and_kept_aside_parts_apart(tmp_path: Path) -> None:
    import json

    from wave_agent.bench.smalltalk import bench

    line = {"id": "1", "lang": "ru", "text": "Я работаю врачом в Казани.", "kind": "statement"}
    for name in ("tuning.json", "tuning_2.json", "kept_aside.json"):
        (tmp_path / name).write_text(json.dumps([line], ensure_ascii=False), encoding="utf-8")
    by = bench(tmp_path, learned=False)["by"]
    assert by["tuning: all"]["statements_kept"]["of"] == 2
    assert by["kept aside: all"]["statements_kept"] == {"n": 1, "of": 1, "pct": 100.0}


ASKED_TO_REMEMBER = [  # written for this test: the reply to each is "Записала, сохраню в память."
    "Запомни, пожалуйста: у меня аллергия на киви. Даже на сок. Рецепты без него",
    "zapamiętaj, że w czwartki mam basen o 19:00",
    "note to self: the car insurance renews on March 4",
]


def test_what_the_person_asks_to_remember_is_never_dropped_as_small_talk() -> None:
    """The offline reply to "запомни ..." says it is kept; the judge's "small talk" must not then
    drop what the extractor found in it (a mood said without the ask still goes)."""
    from wave_agent.llm.offline_extract import extract_heuristic
    from wave_agent.postprocess.extract import small_talk_drops

    for said in ASKED_TO_REMEMBER:
        facts = extract_heuristic(said, max_facts=4)
        assert facts, said
        assert not small_talk_drops(facts, True, said), said
    remark = "Муся спит у меня на ногах, не шевелюсь"
    assert small_talk_drops(extract_heuristic(remark, max_facts=4), True, remark)


def test_a_relative_named_by_role_and_name_is_never_dropped_as_small_talk() -> None:
    """Month 15 (tuning_16): "мама (Ирина Викторовна) с утра звонит ..." read as small talk by
    the judge (p 0.97), so "как зовут маму?" found nothing. Who is who in the family stays; a
    relative said by role alone, with no name, is still the judge's to drop."""
    from wave_agent.llm.offline_extract import extract_heuristic
    from wave_agent.postprocess.extract import small_talk_drops

    for said in ("мама (Ирина Викторовна) с утра звонит проверить, надела ли я шапку 🙄",
                 "брат Саша звонил, опять жалуется на работу"):
        facts = extract_heuristic(said, max_facts=4)
        assert facts, said
        assert not small_talk_drops(facts, True, said), said
    remark = "мама звонила, опять про шапку 🙄"
    facts = extract_heuristic(remark, max_facts=4)
    assert not facts or small_talk_drops(facts, True, remark)


def test_a_judge_file_named_by_the_environment_is_the_one_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``WAVE_SMALLTALK_MODEL`` replays a month with another judge (one trained without that
    month): its weights and thresholds decide, not the package's."""
    import numpy as np

    path = tmp_path / "judge.npz"
    smalltalk.save(np.zeros(smalltalk.DIM, dtype=np.float32), 5.0, 0.5, 0.1, path=path)
    monkeypatch.setenv("WAVE_SMALLTALK_MODEL", str(path))
    smalltalk.model.cache_clear()
    try:
        vector = np.ones(smalltalk.DIM, dtype=np.float32)
        assert smalltalk.is_small_talk(smalltalk.READS, vector)  # everything reads as small talk
        assert not smalltalk.worth_remembering(smalltalk.READS, vector)
    finally:
        monkeypatch.delenv("WAVE_SMALLTALK_MODEL")
        smalltalk.model.cache_clear()


SINGLE_LINE_STATEMENTS = [  # one short line each, as a person types a fact between other things
    "Сын пошёл в первый класс.",
    "Бросил курить полгода назад.",
    "Pracuję zdalnie od marca.",
    "My sister got married in June.",
]
SINGLE_LINE_REMARKS = [
    "Ну и жара сегодня, дышать нечем.",
    "Ладно, пойду чай пить.",
    "Nudzi mi się dzisiaj.",
    "ugh, mondays",
]


def test_a_short_statement_on_its_own_line_is_not_dropped_and_a_passing_remark_is(
    embedder: Embedder,
) -> None:
    """The judge is trained on the months' chat and on single lines alike (h/smalltalk25): a
    one-line fact about the person's life stays under the drop threshold in each language,
    and a remark about the moment, said alone, reaches it."""
    if embedder.model_name != smalltalk.READS:
        pytest.skip("the judge reads multilingual-e5-small vectors only")
    vectors = embedder.embed_sync(SINGLE_LINE_STATEMENTS + SINGLE_LINE_REMARKS)
    n = len(SINGLE_LINE_STATEMENTS)
    said = [smalltalk.is_small_talk(embedder.model_name, v) for v in vectors[:n]]
    remarks = [smalltalk.is_small_talk(embedder.model_name, v) for v in vectors[n:]]
    assert not any(said), list(zip(SINGLE_LINE_STATEMENTS, said, strict=True))
    assert all(remarks), list(zip(SINGLE_LINE_REMARKS, remarks, strict=True))



def test_a_judge_with_a_bank_reads_the_nearest_lines_beside_its_regression(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A model file with a bank of labelled lines (``scripts/smalltalk_knn.py --save``, round
    thirty-one) judges by the mean of the regression and the vote of the nearest lines: a
    message whose neighbours are all small talk reads as more likely small talk than the
    regression alone says, and one whose neighbours are statements as less."""
    import numpy as np

    rng = np.random.default_rng(0)
    chatter, said = np.eye(smalltalk.DIM)[0], np.eye(smalltalk.DIM)[1]
    bank = np.vstack([chatter + 0.01 * rng.standard_normal((20, smalltalk.DIM)),
                      said + 0.01 * rng.standard_normal((20, smalltalk.DIM))])
    bank /= np.linalg.norm(bank, axis=1, keepdims=True)
    labels = np.r_[np.ones(20), np.zeros(20)]
    path = tmp_path / "judge.npz"
    smalltalk.save(np.zeros(smalltalk.DIM), 0.0, 0.7, 0.3, path=path,
                   bank=(bank, labels, np.ones(40)))
    monkeypatch.setenv("WAVE_SMALLTALK_MODEL", str(path))
    smalltalk.model.cache_clear()
    try:
        assert smalltalk.probability(smalltalk.READS, chatter) == pytest.approx(0.75, abs=0.01)
        assert smalltalk.probability(smalltalk.READS, said) == pytest.approx(0.25, abs=0.01)
        assert smalltalk.is_small_talk(smalltalk.READS, chatter)
        assert not smalltalk.is_small_talk(smalltalk.READS, said)
    finally:
        smalltalk.model.cache_clear()


def test_a_judge_with_thresholds_by_language_reads_the_message_in_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A model file with a (threshold, keep) pair per language (``smalltalk_refit.py
    --per-language``, round thirty-five) judges a message at its language's pair: the same
    probability is small talk in a Russian message and not in an English one, and a call with
    no text (or a language the file does not name) takes the file's own pair."""
    import numpy as np

    path = tmp_path / "judge.npz"
    # zero weights: every message scores 0.5
    smalltalk.save(np.zeros(smalltalk.DIM, dtype=np.float32), 0.0, 0.55, 0.2, path=path,
                   by_language={"ru": (0.45, 0.2), "en": (0.6, 0.55)})
    monkeypatch.setenv("WAVE_SMALLTALK_MODEL", str(path))
    smalltalk.model.cache_clear()
    try:
        vector = np.ones(smalltalk.DIM, dtype=np.float32)
        assert smalltalk.is_small_talk(smalltalk.READS, vector, language("ну и погодка сегодня"))
        assert not smalltalk.is_small_talk(smalltalk.READS, vector, language("I'm a morning person"))
        assert smalltalk.worth_remembering(smalltalk.READS, vector, language("I'm a morning person"))
        assert not smalltalk.worth_remembering(smalltalk.READS, vector, "ru")
        assert not smalltalk.is_small_talk(smalltalk.READS, vector)  # the file's own 0.55
        assert not smalltalk.is_small_talk(smalltalk.READS, vector, language("Nudzi mi się dzisiaj."))
    finally:
        monkeypatch.delenv("WAVE_SMALLTALK_MODEL")
        smalltalk.model.cache_clear()


ENGLISH_LIKINGS_WORDED_AS_MOODS = [  # standing likes and traits said like a remark (round thirty-five)
    "can't handle spicy food at all, my stomach hates it",
    "big fan of long walks, the longer the better",
    "I'm hopeless with directions, I get lost everywhere",
    "I hate flying, I'd rather take the train every time",
]
RUSSIAN_MOODS_AND_EVENINGS = [
    "грущу что-то, Катя уехала, и пусто",
    "сегодня вечером сериал и чай, заслужила",
    "ты сегодня прям молодец, помог",
    "на выходных планирую выспаться, больше ничего",
]


def test_an_english_liking_worded_as_a_mood_is_kept_and_a_russian_mood_is_not(
    embedder: Embedder,
) -> None:
    """Each message is read at its language's thresholds (the shipped file, round thirty-five,
    trained with chat set 7's likings said mid-chat): a standing English like or trait said like a
    remark stays under the English drop threshold (round thirty-four's file dropped the first
    three), and a Russian mood with its reason, a plan for the evening or a reaction to the
    assistant still reaches the Russian one."""
    if embedder.model_name != smalltalk.READS:
        pytest.skip("the judge reads multilingual-e5-small vectors only")
    lines = ENGLISH_LIKINGS_WORDED_AS_MOODS + RUSSIAN_MOODS_AND_EVENINGS
    vectors = embedder.embed_sync(lines)
    verdicts = [smalltalk.is_small_talk(embedder.model_name, v, language(t))
                for t, v in zip(lines, vectors, strict=True)]
    n = len(ENGLISH_LIKINGS_WORDED_AS_MOODS)
    assert not any(verdicts[:n]), list(zip(lines[:n], verdicts[:n], strict=True))
    assert all(verdicts[n:]), list(zip(lines[n:], verdicts[n:], strict=True))


def test_a_judge_with_a_mean_per_language_reads_the_vector_less_its_languages_mean(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A model file with each language's mean vector (``smalltalk_crosslingual.py --save``,
    round thirty-eight) reads a message's vector less the mean of its language: the same vector
    is small talk said in one language and a statement in another, and without a language the
    nearest mean is taken."""
    import numpy as np

    e = np.eye(smalltalk.DIM)
    weights = 8 * e[0]  # small talk along the first axis
    path = tmp_path / "judge.npz"
    smalltalk.save(weights, -2.0, 0.7, 0.3, path=path,
                   centres={"ru": -0.5 * e[0] + 0.5 * e[1], "en": 0.5 * e[0] + 0.5 * e[2]})
    monkeypatch.setenv("WAVE_SMALLTALK_MODEL", str(path))
    smalltalk.model.cache_clear()
    try:
        v = (e[0] + e[1] + e[2]) / np.sqrt(3)
        # less the Russian mean the first axis grows: small talk; less the English one it goes
        assert smalltalk.is_small_talk(smalltalk.READS, v, "ru")
        assert not smalltalk.is_small_talk(smalltalk.READS, v, "en")
        assert smalltalk.worth_remembering(smalltalk.READS, -v, "ru")
        near_en = (e[0] + e[2]) / np.sqrt(2)  # nearer the English mean: read as English
        assert smalltalk.probability(smalltalk.READS, near_en) == pytest.approx(
            smalltalk.probability(smalltalk.READS, near_en, "en"))
    finally:
        smalltalk.model.cache_clear()


# round thirty-eight's probe, written for it (in no set): the shipped judge (a mean per
# language taken out) drops an English moment about a parent that round thirty-five's kept, and
# keeps who a child or a pet is in each language
CENTRED_MOMENT = "my mum called, she's doing better after the op"
WHO_THEY_ARE = [
    "Kuba ma dziesięć lat i chodzi do czwartej klasy",
    "Bella to mój pies, jamnik",
    "Leo is my son, he's six",
    "Pepper is our dog, a beagle",
    "Петя мой сын, ему семь",
    "Кекс это наш кот",
]


def test_the_shipped_judge_reads_each_language_less_its_mean(embedder: Embedder) -> None:
    """The shipped file carries a mean for Russian, Polish and English; an English moment about
    a parent is small talk at English's pair, and who a child or a pet is stays a statement in
    all three languages."""
    if embedder.model_name != smalltalk.READS:
        pytest.skip("the judge reads multilingual-e5-small vectors only")
    judge = smalltalk.model()
    assert judge is not None and sorted(dict(judge.centres)) == ["en", "pl", "ru"]
    moment, *said = embedder.embed_sync([CENTRED_MOMENT, *WHO_THEY_ARE])
    assert smalltalk.is_small_talk(embedder.model_name, moment, language(CENTRED_MOMENT))
    for text, v in zip(WHO_THEY_ARE, said, strict=True):
        assert not smalltalk.is_small_talk(embedder.model_name, v, language(text)), text

"""Pure parts of the recall engine: names kept out of the lexical query, episodes, the dated
voice's ranking and how much an event record says."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from graph.models import Fact, FactType, Status, Tier, Veracity
from wave_agent.recall import fusion
from wave_agent.recall.question import without_names, without_roles
from wave_agent.recall.ranking import (
    coverage_scale,
    dated_ranking,
    episode_factors,
    episode_of,
    information,
)

DAY = datetime(2023, 6, 3, 14, 0, tzinfo=UTC)


def fact(fid: str, at: datetime, text: str = "", episode: str | None = None,
         exchange: str | None = "x1") -> Fact:
    """A conversation turn (it has an exchange) unless ``exchange=None`` (an import)."""
    return Fact(id=fid, user_id="u", text=text or fid, type=FactType.EVENT, tier=Tier.FACT,
                status=Status.ACTIVE, veracity=Veracity.STATED, confidence=1.0, created_at=at,
                last_confirmed_at=at, episode_date=episode,
                exchange_ids=(exchange,) if exchange else ())


def test_speaker_names_leave_the_lexical_query_with_their_possessive() -> None:
    assert without_names("What did Caroline's sister paint for Melanie?",
                         ["Caroline", "Melanie"]).split() == ["What", "did", "sister", "paint", "for", "?"]
    # a name inside another word stays
    assert without_names("Carolines and Mel", ["Mel"]).split() == ["Carolines", "and"]
    # nothing but the name: the query is kept as it is, or it would find nothing
    assert without_names("Caroline?", ["Caroline"]) == "Caroline?"
    assert without_names("Что делала Анна?", ["Анна"]).split() == ["Что", "делала", "?"]


def test_the_episode_where_the_best_candidates_cluster_is_lifted_most() -> None:
    facts = {
        "a1": fact("a1", DAY), "a2": fact("a2", DAY + timedelta(minutes=1)),
        "b1": fact("b1", DAY + timedelta(days=3)),
    }
    scores = {"b1": 0.05, "a1": 0.04, "a2": 0.04}
    lifted = episode_factors(scores, facts, pool=40, weight=0.5)
    assert lifted[episode_of(facts["a1"])] == 1.5      # 0.08 together beats b1's 0.05
    assert lifted[episode_of(facts["b1"])] == 1.25
    assert episode_factors(scores, facts, pool=40, weight=0.0) == {}
    # the episode is the day of the conversation the record came from when it is known
    assert episode_of(fact("x", DAY, episode="2023-06-02")) == "2023-06-02"


def test_imported_records_make_no_episode() -> None:
    """Records imported on one day are separate statements, not one conversation."""
    facts = {"i1": fact("i1", DAY, exchange=None), "i2": fact("i2", DAY, exchange=None)}
    assert episode_factors({"i1": 0.05, "i2": 0.04}, facts, pool=40, weight=0.5) == {}


def test_the_dated_voice_keeps_only_records_of_the_period_and_fuses_both_texts() -> None:
    inside_lexical = fact("in-lex", DAY)
    inside_both = fact("in-both", DAY + timedelta(days=2))
    outside = fact("out", DAY - timedelta(days=30))
    facts = {f.id: f for f in (inside_lexical, inside_both, outside)}
    period = (DAY - timedelta(hours=14), DAY + timedelta(days=8))
    ranked = dated_ranking(period, facts, ["out", "in-lex", "in-both"], ["in-both", "unknown"], 10)
    assert ranked == ["in-both", "in-lex"]


def test_an_event_that_says_more_counts_more_but_a_greeting_still_counts() -> None:
    greeting = information("Anna: Hi!", 0.2)
    story = information("Anna: We went camping by the lake last weekend, roasted marshmallows "
                        "and hiked up to the old fire tower at sunrise.", 0.2)
    assert 0.5 < greeting < 1.0 < story < 1.2
    assert information("anything at all", 0.0) == 1.0


def test_a_paraphrase_of_a_picked_record_waits_until_nothing_else_is_left() -> None:
    from wave_agent.recall.fusion import mmr

    scores = {"tea-1": 1.0, "tea-2": 0.99, "coffee": 0.80, "juice": 0.79}
    alike = {frozenset(("tea-1", "tea-2")): 0.9}

    def similarity(a: str, b: str) -> float:
        return alike.get(frozenset((a, b)), 0.3)

    assert mmr(scores, 3, similarity) == ["tea-1", "coffee", "juice"]
    assert mmr(scores, 4, similarity)[-1] == "tea-2"   # still there when asked for more


def test_a_changed_price_is_not_a_copy_of_the_old_one() -> None:
    from wave_agent.recall.fusion import mmr

    scores = {"old": 1.0, "new": 0.99, "a": 0.70, "b": 0.60}
    prices = {"old": "150", "new": "180", "a": "", "b": ""}

    def similarity(x: str, y: str) -> float:
        return 0.9 if {x, y} == {"old", "new"} else 0.3

    # alike by cosine, but other numbers: a change, not a copy; it competes as any record
    # (MMR's redundancy still applies) instead of waiting until nothing else is left
    assert "new" in mmr(scores, 3, similarity, distinct=lambda x, y: prices[x] != prices[y])
    assert "new" not in mmr(scores, 3, similarity)


def test_the_vector_cache_drops_the_least_recently_used_and_keeps_users_apart() -> None:
    import numpy as np

    from wave_agent.recall.gather import VectorCache

    cache = VectorCache(2)
    cache.put_many("u", {"a": np.ones(3), "b": np.zeros(3)})
    assert set(cache.get_many("u", ["a"])) == {"a"}      # "a" is now the most recent
    cache.put_many("u", {"c": np.ones(3)})
    assert set(cache.get_many("u", ["a", "b", "c"])) == {"a", "c"}
    assert cache.get_many("other", ["a"]) == {}


def test_a_full_text_hit_on_one_common_word_counts_less_than_one_on_the_whole_question() -> None:
    facts = {
        "name": fact("name", DAY, "Жену Олега зовут Алсу, она преподаёт татарский."),
        "dog": fact("dog", DAY, "Собаку зовут Бублик, это корги."),
    }
    rankings = {"lexical": ["name", "dog"], "context_lexical": ["name", "dog"]}
    scale = coverage_scale("как зовут собаку?", rankings, {}, facts, 1.0)
    # "как" is a question word: the query's words are "зовут" and "собаку"
    assert scale["lexical"] == {"name": 0.5, "dog": 1.0}
    scores, _ = fusion.weighted_rrf(rankings, {"lexical": 1.0, "context_lexical": 1.0}, 30, scale)
    assert scores["dog"] > scores["name"]  # second by BM25, first once coverage counts
    # the context window's words count for the context voice
    around = coverage_scale("как зовут собаку?", rankings, {"name": ["dog"]}, facts, 1.0)
    assert around["context_lexical"]["name"] == 1.0 and around["lexical"]["name"] == 0.5
    # a one-word question leaves the voice as it was
    assert coverage_scale("собака?", rankings, {}, facts, 1.0) == {}


def test_a_relative_and_their_name_are_one_thing_the_question_asks_about() -> None:
    facts = {
        "who": fact("who", DAY, "Моя дочь Соня ходит в садик «Ромашка»."),
        "ill": fact("ill", DAY, "Соня болела ветрянкой, неделю сидит дома."),
    }
    rankings = {"lexical": ["who", "ill"]}
    query = "чем болела дочь? (Соня)"
    apart = coverage_scale(query, rankings, {}, facts, 1.0)
    person = frozenset({"доч", "сон"})
    together = coverage_scale(query, rankings, {}, facts, 1.0, [person])
    # counted apart, who she is covers as much as what she had (two of three stems: "дочь",
    # "Соня" against "болела", "Соня"); as one person, it covers half of the question
    assert apart["lexical"]["who"] == apart["lexical"]["ill"]
    assert together["lexical"] == {"who": 0.5, "ill": 1.0}


def test_the_rest_of_a_question_about_a_relative_is_what_it_asks_about_them() -> None:
    assert without_roles("чем болела дочь?").split() == ["чем", "болела", "?"]
    assert without_roles("na co choruje mama?").split() == ["na", "co", "choruje", "?"]
    assert without_roles("сын?").strip() == "?"  # nothing asked beyond who: no rest voice

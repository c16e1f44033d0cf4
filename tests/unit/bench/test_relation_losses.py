"""scripts/relation_losses.py and scripts/relation_thresholds.py: where a missed Russian
relation is lost (an end read under another name is not an end never read; a person only a
role word refers to is told from one the statement names), and per-type thresholds chosen from
other authors' figures, refusing a trade that costs precision when asked to keep it."""

from __future__ import annotations

from collections import Counter
from types import ModuleType

from graph.models import EntityType
from tests.support.scripts import load_script
from wave_agent.world.reading import Mention, Reading


def _losses() -> ModuleType:
    return load_script("relation_losses")


def _thresholds() -> ModuleType:
    return load_script("relation_thresholds")


def test_an_end_read_in_a_shorter_form_is_told_from_an_end_never_read() -> None:
    rl = _losses()
    reading = Reading(mentions=(Mention("Петроградка", EntityType.PLACE, ()),
                                Mention("Алина", EntityType.PERSON, ())), language="ru")
    assert rl._near("Петроградская сторона", reading)
    assert not rl._near("Васильевский остров", reading)


def test_a_person_only_a_role_word_refers_to_is_not_counted_as_a_name_missed() -> None:
    rl = _losses()
    statement = {"text": "свекровь едет к нам на майские, Олег счастлив",
                 "entities": [{"name": "Олег", "type": "person"},
                              {"name": "Галина Сергеевна", "type": "person",
                               "aliases": ["свекровь"]}]}
    assert rl._kind_of("Галина Сергеевна", "kin:mother-in-law", statement, True) \
        == "person (not named in the statement: a role word or none)"
    named = {"text": "с викой встречаемся уже полгода",
             "entities": [{"name": "Виктория", "type": "person", "aliases": ["Вика"]}]}
    assert rl._kind_of("Виктория", "kin:girlfriend", named, True) \
        == "person (named, lower-case)"
    assert rl._kind_of("бариста", "works_as", named, True) == "job"


def _grid(rt: ModuleType, at: dict[float, tuple[int, int, int]]) -> dict[float, Counter[str]]:
    """One author's totals at each works_at threshold: the shipped 0.9's unless given."""
    base = at[0.9]
    return {g: Counter(dict(zip(("tp", "fp", "fn"), at.get(g, base), strict=True)))
            for g in rt.GRID}


def test_a_threshold_is_chosen_by_the_other_authors_and_a_costly_trade_refused() -> None:
    rt = _thresholds()
    shipped = {"ru": 0.9}
    # works_at at 0.7: three more right for one more wrong on each author, precision up
    cheap = {0.9: (10, 4, 10), 0.7: (13, 5, 7)}
    # works_at at 0.5: six more right for six more wrong: F1 rises, precision falls
    costly = {0.9: (10, 4, 10), 0.5: (16, 10, 4)}
    for grid, by_f1, keeping in ((cheap, 0.7, 0.7), (costly, 0.5, 0.9)):
        table = {a: {"works_at": _grid(rt, grid)} for a in ("A", "B")}
        base = {a: table[a]["works_at"][0.9] for a in ("A", "B")}
        assert rt.choose(base, table, ["A", "B"], shipped, ["works_at"])["works_at"] == by_f1
        assert rt.choose(base, table, ["A", "B"], shipped, ["works_at"],
                         keep_precision=True)["works_at"] == keeping
    # an author's own figures never choose its threshold: only the other authors' are read
    table = {"A": {"works_at": _grid(rt, costly)},
             "B": {"works_at": _grid(rt, {0.9: (10, 4, 10)})}}
    base = {a: table[a]["works_at"][0.9] for a in ("A", "B")}
    assert rt.choose(base, table, ["B"], shipped, ["works_at"])["works_at"] == 0.9

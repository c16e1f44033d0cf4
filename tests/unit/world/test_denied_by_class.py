"""Issue 30, round forty: a statement that denies a stored value by its class, with no word of a
change. Over the tuning months the denials missed were a car denied by its class word ("у меня
никогда не было машины", "машины у меня никогда не было") against a car held by its make, a
species denied ("у меня никогда не было кошек", three authors) against a cat held by its name,
and an only child said without "ребёнок" ("Я у родителей единственная") against a held brother.
Sentences of our own, read by the real world reader (natasha, pymorphy3); no database."""

from __future__ import annotations

from functools import partial

from tests.support.attribute_decisions import replay as _replay

replay = partial(_replay, past=True)


def test_a_car_denied_by_its_class_word_meets_the_car_held_by_its_make() -> None:
    out = replay("Езжу на своей Киа Рио, старенькая уже.", "машины у меня нет, всё на метро")
    assert "user|vehicle|*|negate" in out[1][0]
    assert out[1][1] == ["m0"]
    # said "with" the car, the negation governs something else: no denial, no alarm
    out = replay("Езжу на своей Киа Рио, старенькая уже.", "с ребёнком и собакой без машины никак")
    assert out[1][1] == []
    # a bicycle is not a car
    out = replay("Езжу на своей Киа Рио, старенькая уже.", "велосипеда у меня нет, а жаль")
    assert out[1][1] == []


def test_a_species_denied_meets_a_held_pet_of_it_only() -> None:
    out = replay("дома у меня кот Тиша, толстый и ленивый", "у меня никогда не было кошек, я собачница")
    assert out[1][1] == ["m0"]
    # another species denied: the cat stands
    out = replay("дома у меня кот Тиша, толстый и ленивый", "собак у меня нет, только Тиша")
    assert out[1][1] == []
    # "никогда" with "теперь" in another clause: still a denial of the whole past, not the cat ended
    out = replay("дома у меня кот Тиша, толстый и ленивый",
                 "у меня никогда не было кошек. а теперь вот щенок Жужа")
    assert out[1][1] == ["m0"]


def test_an_only_child_said_by_the_parents_meets_a_held_brother() -> None:
    out = replay("Брат Гоша звонил, зовёт к себе на дачу.",
                 "Мама приболела. Я у мамы с папой единственная, так что еду я")
    assert "user|sibling|*|negate" in out[1][0]
    assert out[1][1] == ["m0"]
    # alone at the parents' place is no only child
    out = replay("Брат Гоша звонил, зовёт к себе на дачу.",
                 "Родители на даче, я у них одна в квартире, тишина")
    assert out[1][1] == []


def test_a_car_sold_and_another_taken_is_no_contradiction() -> None:
    """tuning_37's false alarm of the first try: "без машины теперь" after selling the car is
    the car gone, not a denial of any car, so the next car taken is no contradiction."""
    out = replay("моя Киа Рио опять стучит, пора продавать",
                 "продала Киа! покупатель забрал за 500. без машины теперь, непривычно",
                 "забрали машину! шкода октавия, серая, бодрая")
    assert out[2][1] == []


def test_a_species_denied_for_the_whole_past_meets_a_pet_that_died() -> None:
    out = replay("дома у меня кот Тиша, толстый и ленивый", "Тиши больше нет. ночью ушёл, тихо",
                 "у меня никогда не было кошек, я собачница")
    assert out[2][1] == ["m0"]

"""Stems, name keys, text grams and Lucene queries (pure functions, no database)."""

from __future__ import annotations

import re

import pytest

from graph.entities import (
    clean_name,
    entity_keys,
    lucene_query,
    lucene_terms,
    name_key,
    scope_token,
    stem_key,
    text_grams,
)


@pytest.mark.parametrize("form", ["Игорь", "Игорем", "с Игорем", "ИГОРЯ", "у Игоря", "Игорю"])
def test_russian_forms_share_a_stem_key(form: str) -> None:
    assert stem_key(form) == stem_key("Игорь") == "игор"


def test_yo_and_case_fold() -> None:
    assert name_key("Пётр  ИВАНОВ") == name_key("петр иванов") == "петр иванов"


def test_english_words_use_the_english_stemmer() -> None:
    assert stem_key("Weekly Meetings") == stem_key("weekly meeting")


def test_clean_name_drops_leading_function_words_only() -> None:
    assert clean_name("с Игорем") == "Игорем"
    assert clean_name("Bank of England") == "Bank of England"
    assert clean_name("с") == "с"


def test_entity_keys_dedupe() -> None:
    exact, stems = entity_keys("Пётр", ["Петр", "Петя"])
    assert exact == ["петр", "петя"]
    assert stems == [stem_key("Пётр"), stem_key("Петя")]


def test_text_grams_skip_function_words_and_lone_letters() -> None:
    grams = text_grams("Письмо из Банка России и от Игоря, я")
    assert grams["банк росс"] == 1
    assert grams["игор"] == 3
    assert "я" not in grams and "и" not in grams


@pytest.mark.parametrize(
    "hostile", ['AND OR NOT "x', "a:b^2 ~c *d", "(x) [y TO z] {w}", "\\/+-!?&&||", "*:*"]
)
def test_lucene_terms_carry_no_syntax(hostile: str) -> None:
    for term in lucene_terms(hostile):
        assert re.fullmatch(r"\w+", term), term
        assert term not in {"AND", "OR", "NOT", "TO"}


def test_lucene_query_shape() -> None:
    query = lucene_query("user-1", "Где Игорь?", ["active"])
    token = scope_token("user-1")
    assert query == f"+scope:{token}^0 +status:(active)^0 +text:(где игорь)"
    assert re.fullmatch(r"u\d+", token) and token != scope_token("user-2")
    assert lucene_query("user-1", "?!", ["active"]) is None
    assert lucene_query("user-1", "слово", []) is None


def test_lucene_terms_are_bounded() -> None:
    assert len(lucene_terms(" ".join(f"w{i}" for i in range(500)))) == 64


def test_scripts() -> None:
    from graph.entities import scripts

    assert scripts(["игорь", "wave"]) == {"cyrillic", "latin"}
    assert scripts(["москва"]) == {"cyrillic"}
    assert scripts(["2026"]) == set()


def test_prefix_clauses_only_when_asked() -> None:
    plain = lucene_query("u", "работа", ["active"])
    widened = lucene_query("u", "работа in English", ["active"], prefixes=True)
    assert plain is not None and "*" not in plain
    assert widened is not None and widened.endswith("+text:(работа in english работ*^0.3)")

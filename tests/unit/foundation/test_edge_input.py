"""User ids and text as people type them: one id per person, one file per id, no bad bytes."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest

from episodes.paths import safe_user_dir, user_path
from wave_agent.policy.edge_input import (
    BadInput,
    BadUserId,
    export_stem,
    normalise_user_id,
    pieces,
    refuse_not_utf8,
)
from wave_agent.write.result import WriteRejected
from wave_agent.write.writer import check_text

ALENA_NFC = unicodedata.normalize("NFC", "Алёна")
ALENA_NFD = unicodedata.normalize("NFD", "Алёна")
NOT_UTF8 = b"\xff\xfe".decode("utf-8", "surrogateescape")  # what Python makes of such argv


def test_nfc_and_nfd_spellings_of_one_name_are_one_person() -> None:
    assert ALENA_NFC != ALENA_NFD
    assert normalise_user_id(ALENA_NFD) == normalise_user_id(ALENA_NFC) == ALENA_NFC
    assert normalise_user_id("  local ") == "local"


@pytest.mark.parametrize("raw", ["", "   ", "\t"])
def test_an_empty_user_id_is_refused_not_taken_as_the_default(raw: str) -> None:
    with pytest.raises(BadUserId) as refused:
        normalise_user_id(raw)
    assert str(refused.value) == (
        "--user is empty. Next: give --user a name or a number, e.g. --user alena")


@pytest.mark.parametrize("raw", [NOT_UTF8, "a\x00b", "a\nb", "x" * 65])
def test_unreadable_or_unusable_user_ids_are_refused_with_one_line(raw: str) -> None:
    with pytest.raises(BadUserId) as refused:
        normalise_user_id(raw, source="DEFAULT_USER")
    assert "\n" not in str(refused.value) and str(refused.value).startswith("DEFAULT_USER ")


def test_ids_of_existing_users_keep_their_paths() -> None:
    for plain in ("local", "tg-123456789", "test-abc_1"):
        assert normalise_user_id(plain) == plain
        assert safe_user_dir(plain) == plain
        assert export_stem(plain) == plain
    assert export_stem(ALENA_NFC) == ALENA_NFC  # readable where it is safe


@pytest.mark.parametrize("name", [safe_user_dir, export_stem])
def test_different_ids_never_share_a_file_name(name: object) -> None:
    ids = ["a/b", "a_b", "a b", "a\\b", "..", "_", ".", "a.b", "user", "", ALENA_NFC, ALENA_NFD,
           "Алёна/..", "tg-1", "tg-1/", "a" * 64, "a" * 64 + "b"]
    assert callable(name)
    names = [name(i) for i in ids]
    assert len(set(names)) == len(ids), names
    for made in names:
        assert "/" not in made and "\\" not in made and made not in {"", ".", ".."}


def test_every_user_directory_stays_inside_its_base(tmp_path: Path) -> None:
    for raw in ("../../etc", "a/b", "/abs", ".."):
        assert user_path(tmp_path, raw).parent == tmp_path.resolve()


def test_text_that_is_not_utf8_is_refused_before_anything_is_stored() -> None:
    with pytest.raises(WriteRejected) as refused:
        check_text(f"мой пароль {NOT_UTF8}")
    assert "not valid UTF-8" in str(refused.value) and "iconv" in str(refused.value)
    with pytest.raises(BadInput):
        refuse_not_utf8(NOT_UTF8, "The search text")
    assert refuse_not_utf8("Привет", "The search text") == "Привет"


def test_a_long_text_is_cut_into_even_pieces_at_paragraphs_then_sentences() -> None:
    short = "Маме 70 лет, день рождения 3 июня."
    assert pieces(short, 2000) == [short]
    story = "\n\n".join(" ".join(f"Абзац {p}, предложение {s}." for s in range(40))
                        for p in range(4))
    cut = pieces(story, 2000)
    assert len(cut) > 1 and all(len(c) <= 2000 for c in cut)
    assert " ".join(cut).split() == story.split()  # nothing dropped or repeated
    assert all(c.endswith(".") for c in cut)  # cut between sentences, never inside
    assert max(map(len, cut)) < 2 * min(map(len, cut))  # about even, no tiny tail
    word = "я" * 4500  # one word longer than a record is the only thing cut inside
    assert "".join(pieces(word, 2000)) == word and max(map(len, pieces(word, 2000))) <= 2000

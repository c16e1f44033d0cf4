"""Reply splitting: below Telegram's limit, on natural boundaries, never inside a tag."""

from __future__ import annotations

import random
import re
from html.parser import HTMLParser

from wave_agent.bot.formatting import (
    TELEGRAM_LIMIT,
    escape,
    split_html,
    split_plain,
    strip_html,
    utf16_len,
)

WORDS = ["память", "волна", "граф", "факт", "Neo4j", "эпизод", "снимок", "цена", "пилот", "150", "тысяч", "<b>", "&", '"x"', "😀"]


def _text(n: int, seed: int = 1) -> str:
    rng = random.Random(seed)
    out: list[str] = []
    while sum(len(w) + 1 for w in out) < n:
        out.append(rng.choice(WORDS))
        roll = rng.random()
        if roll < 0.05:
            out.append("\n\n")
        elif roll < 0.12:
            out.append("\n")
    return " ".join(out)


class _Balance(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.stack: list[str] = []
        self.ok = True

    def handle_starttag(self, tag: str, attrs: object) -> None:
        self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack.pop() != tag:
            self.ok = False


def _balanced(chunk: str) -> bool:
    parser = _Balance()
    parser.feed(chunk)
    parser.close()
    return parser.ok and not parser.stack


def test_plain_ten_thousand_chars_split_on_paragraphs_below_limit() -> None:
    paragraphs = [f"Абзац {i}. " + "слово " * 150 for i in range(11)]
    text = "\n\n".join(p.strip() for p in paragraphs)
    assert len(text) > 10_000
    chunks = split_plain(text)
    assert len(chunks) >= 3
    assert all(utf16_len(c) <= TELEGRAM_LIMIT for c in chunks)
    assert all(c.startswith("Абзац") for c in chunks)  # each cut fell on a paragraph break
    assert "".join(chunks).replace("\n", "").replace(" ", "") == text.replace("\n", "").replace(" ", "")


def test_plain_one_enormous_word_is_cut_hard() -> None:
    chunks = split_plain("x" * 9000, limit=4000)
    assert [len(c) for c in chunks] == [4000, 4000, 1000]


def test_emoji_counted_as_two_units_and_never_halved() -> None:
    chunks = split_plain("😀" * 3000, limit=4000)
    assert all(utf16_len(c) <= 4000 for c in chunks)
    assert "".join(chunks) == "😀" * 3000


def test_html_chunks_are_balanced_and_never_cut_inside_tag_or_entity() -> None:
    for seed in range(20):
        raw = _text(12_000, seed)
        first, second = escape(raw[:5000]), escape(raw[5000:])
        html_text = f"<b>Заголовок</b>\n\n<i>{first}</i>\n<code>{second}</code>"
        chunks = split_html(html_text, limit=1000 + seed * 50)
        assert all(utf16_len(c) <= 1000 + seed * 50 for c in chunks)
        for chunk in chunks:
            assert _balanced(chunk), chunk[:200]
            assert not re.search(r"&[a-z]*$", chunk.split("<")[0] if "<" in chunk else chunk)
            assert not re.search(r"<[^>]*$", chunk)
            for match in re.finditer(r"&", chunk):
                assert re.match(r"&(amp|lt|gt|quot|#\d+);", chunk[match.start():])
        joined = strip_html("".join(chunks))
        assert re.sub(r"\s+", "", joined) == re.sub(r"\s+", "", strip_html(html_text))


def test_html_short_text_is_one_chunk() -> None:
    assert split_html("<b>Привет</b> &amp; пока") == ["<b>Привет</b> &amp; пока"]

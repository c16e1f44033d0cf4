"""The parser's tree can hold a cycle (natasha gave one for a long statement of several people):
reading must still end, and read what it can."""

import threading

from wave_agent.world.reading import USER
from wave_agent.world.russian import _Builder
from wave_agent.world.sentence import Sentence, Token


def token(id_: str, text: str, pos: str, head: str, rel: str = "nmod", start: int = 0) -> Token:
    return Token(id=id_, text=text, pos=pos, rel=rel, head=head, case=None, person=None,
                 animate=False, gender=None, start=start, stop=start + len(text), lemma=text.lower())


def test_a_kin_role_whose_heads_loop_is_still_the_speakers_relative() -> None:
    # "с сыном дом": "сыном" hangs on "дом" and "дом" on "сыном", with no verb anywhere
    text = "с сыном дом"
    tokens = [token("1", "с", "ADP", "2", "case", 0), token("2", "сыном", "NOUN", "3", "nmod", 2),
              token("3", "дом", "NOUN", "2", "nmod", 8)]
    sentence = Sentence(tokens)
    owner: list[str | None] = []
    reader = threading.Thread(target=lambda: owner.append(
        _Builder(text)._kin_owner(sentence, tokens[1], {})), daemon=True)
    reader.start()
    reader.join(30)  # a walk round the loop never returns: fail instead of hanging the suite
    assert not reader.is_alive(), "the walk up the tree did not stop at the cycle"
    assert owner == [USER]

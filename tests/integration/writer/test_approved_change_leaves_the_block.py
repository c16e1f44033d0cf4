"""Approving a change takes the old value out of the core block (issue 30, round fifteen).

Round thirteen found `Writer.approve` replacing the record but leaving its line in the `human`
block, which rides with every prompt: the person tapped "yes" and Wave went on reading the old
rent. Against the real Neo4j and the markdown block store, through the one decision path every
surface uses (`wave approve`, the bot's button, the memory page: ``app.decisions.decide``).
"""

from __future__ import annotations

import pytest

from graph.models import ProposalKind, Status
from wave_agent.app.decisions import decide
from wave_agent.services import Services

pytestmark = pytest.mark.neo4j


async def _said(services: Services, user_id: str, text: str) -> str:
    """Remember ``text`` and put its line in the block, as the post-processor does offline."""
    writer, blocks = await services.writer(), await services.blocks()
    result = await writer.remember(user_id, text)
    assert result.fact is not None
    current = (await blocks.get(user_id, "human")).value
    await blocks.set(user_id, "human", f"{current}\n- {text}".strip(), reason="test: said")
    return result.fact.id


async def test_an_approved_rent_leaves_no_old_rent_in_the_block(
    services: Services, user_id: str
) -> None:
    writer, blocks = await services.writer(), await services.blocks()
    old_id = await _said(services, user_id, "Я живу в Казани, работаю дизайнером.")
    rent_id = await _said(services, user_id, "Аренда квартиры стоит 38 000 рублей в месяц.")
    proposal = await writer.propose(
        user_id, ProposalKind.SUPERSEDE, [rent_id], "the rent went up",
        text="Аренда квартиры стоит 45 000 рублей в месяц.")

    await decide(writer, services.eraser, user_id, proposal.id, approve=True)

    block = (await blocks.get(user_id, "human")).value
    assert "45 000" in block, block
    assert "38 000" not in block, block
    assert "Казан" in block, block  # the other line stays
    history = await blocks.history(user_id, "human")
    assert any("38 000" in v.value for v in history)  # the old version is kept in history
    replaced = await (await services.graph()).get_fact(user_id, rent_id)
    assert replaced is not None and replaced.status is Status.SUPERSEDED
    assert (await (await services.graph()).get_fact(user_id, old_id)) is not None


async def test_supersede_by_hand_replaces_the_line_too(services: Services, user_id: str) -> None:
    writer, blocks = await services.writer(), await services.blocks()
    job_id = await _said(services, user_id, "Работаю бухгалтером в Сбере.")
    pet_id = await _said(services, user_id, "У меня живёт попугай Кеша.")

    await writer.supersede(user_id, job_id, "Работаю аналитиком в Тинькофф.")
    await writer.supersede(user_id, pet_id, "Кешу отвезла маме, он теперь живёт у неё.")

    block = (await blocks.get(user_id, "human")).value
    assert "Тинькофф" in block, block
    assert "Сбер" not in block, block
    assert "У меня живёт попугай Кеша" not in block, block

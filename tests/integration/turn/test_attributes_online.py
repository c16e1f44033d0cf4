"""With a model configured, its extraction fills the same attribute fields (the OpenAI API
faked at the HTTP seam, real stores): the model's values decide the change even where the
offline reader would find none, and the schema it is asked for carries them."""

from __future__ import annotations

from graph.models import Status
from tests.support.openai_server import Reply, ScriptedOpenAI
from wave_agent.services import Services


def _fact(text: str, *attributes: tuple[str, str, str, str]) -> Reply:
    return Reply.json({"facts": [{
        "text": text, "type": "identity", "entities": [],
        "attributes": [{"entity": e, "attribute": a, "value": v, "op": o}
                       for e, a, v, o in attributes]}]})


async def test_the_models_attribute_values_replace_the_old_value(
    online: Services, llm_server: ScriptedOpenAI, user_id: str
) -> None:
    llm_server.chat.extend([Reply.text("Noted."), Reply.text("Noted.")])
    # a wording the offline reader has no attribute for: only the model's values say "rent"
    llm_server.json.append(_fact("The user pays 1200 euros a month for the place on Rua Augusta",
                                 ("user", "price:rent", "1200", "set")))
    llm_server.json.append(Reply.json({"edits": []}))
    llm_server.json.append(_fact("The user now pays 1350 euros a month for the place on Rua Augusta",
                                 ("user", "price:rent", "1350", "set"),
                                 ("user", "nonsense", "x", "set")))  # unknown: skipped
    llm_server.json.append(Reply.json({"edits": []}))
    turns = await online.turns()
    await turns.handle(user_id, "I pay 1200 euros a month for the place on Rua Augusta.")
    assert (await online.postprocessor().drain(60)).pending == 0
    await turns.handle(user_id, "From this month it is 1350.")
    assert (await online.postprocessor().drain(60)).pending == 0

    extraction = llm_server.json_requests()[0]
    schema = extraction["response_format"]["json_schema"]["schema"]
    assert "attributes" in schema["properties"]["facts"]["items"]["properties"]
    graph = await online.graph()
    active = [f for f in await graph.list_facts(user_id, statuses=[Status.ACTIVE])]
    assert [f.text for f in active] == ["The user now pays 1350 euros a month for the place on Rua Augusta"]
    assert active[0].attributes == ("user|price:rent|1350|set",)
    [old] = await graph.list_facts(user_id, statuses=[Status.SUPERSEDED])
    assert old.superseded_by == active[0].id

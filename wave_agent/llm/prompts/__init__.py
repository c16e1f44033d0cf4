"""Prompts: one prompt a file. Each ``<name>.md`` holds the text, and ``<name>.py`` beside it
holds its typed input, typed output, the JSON schema (if any) and how to render and parse it.
"""

from __future__ import annotations

from functools import cache
from importlib import resources


@cache
def template(name: str) -> str:
    """The text of ``prompts/<name>.md`` (packaged with the wheel)."""
    return resources.files(__package__).joinpath(f"{name}.md").read_text(encoding="utf-8")


def render(name: str, **values: str) -> str:
    """Fill ``{placeholders}`` of a template; other braces are left as they are."""
    text = template(name)
    for key, value in values.items():
        text = text.replace("{" + key + "}", value)
    return text

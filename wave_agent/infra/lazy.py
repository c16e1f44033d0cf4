"""How a consumer is handed a store that it opens only when it needs it.

The composition root (``wave_agent.services``) opens stores lazily and keeps them open; a
consumer that must not fail at construction when a store is down (the post-processor retries
a job later, the health report names a layer that did not answer) is given an ``Open[...]``:
an async factory that returns the one shared instance, or raises the store's error. Calling
it again after a failure tries again. A consumer that needs a store right away is given the
store itself instead.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")

# ``Open[GraphStore]``: ``await graph()`` returns the open graph store or raises.
Open = Callable[[], Awaitable[T]]

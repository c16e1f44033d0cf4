"""What every layer shares and nothing else: the one error root, atomic files and locks.

Standard library only, so the store layers (``graph``, ``archive``, ``episodes``,
``snapshots``) and ``wave_agent`` can all build on it without depending on each other.
"""

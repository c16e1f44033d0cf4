"""Commitments: promises with a due time and a state, read from memory records, and the
reminders that bring them back (``ledger.py``: what is open and its changes; ``sweep.py``: the
"is it due" check a scheduler calls; ``words.py``: what a person reads, in Russian, Polish and
English)."""

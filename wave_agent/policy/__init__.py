"""Write-time hygiene checks used by the writer: pure functions, no I/O.

``quarantine`` spots instruction-like text, ``similarity`` compares texts (stemmed tokens,
RU/EN), ``numbers`` finds "same words, other numbers", ``polarity`` finds negations.
"""

"""Query operations per data type, shared by ``GraphStore`` and ``GraphTransaction``."""

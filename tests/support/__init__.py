"""Test support: local HTTP servers that speak external protocols (the transport seam)."""

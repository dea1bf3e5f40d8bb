"""Clients of the public API (the computer player, the load generator, tests)."""

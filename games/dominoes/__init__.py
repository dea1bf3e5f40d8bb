"""Pure double-six domino pieces shared by the domino games (no Django, no I/O)."""

"""The commands (``access_*``, ``check_*``, ``do_*``) and the match writer: one writer a
match, the event log, chance and deadlines."""

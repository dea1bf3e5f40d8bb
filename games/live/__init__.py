"""Live sockets and broadcast: the match and notification consumers, their limits and
the heartbeat."""

"""Read-side queries: history, bests, advice, and the raw SQL they use."""

"""Games that exist only in the tests (registered through ``PLATFORM_EXTRA_GAMES``)."""

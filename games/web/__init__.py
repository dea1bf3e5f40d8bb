"""HTTP and pages: the views, the public API, the replay and fairness pages."""

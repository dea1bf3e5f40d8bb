from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Clubs and tournaments"

    def ready(self) -> None:
        from . import receivers  # noqa: F401  (connects them)

from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        from config import request_connections
        from games.play import review  # noqa: F401 - its receiver asks for game reviews

        request_connections.connect()

from django.apps import AppConfig


class OfflineConfig(AppConfig):
    name = "rulesref.offline"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from rulesref.reference.signals import book_loaded

        from .index import build_on_load

        book_loaded.connect(build_on_load, dispatch_uid="rulesref.offline.index")

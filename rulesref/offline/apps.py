from django.apps import AppConfig


class OfflineConfig(AppConfig):
    name = "rulesref.offline"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.models.signals import post_migrate

        from rulesref.reference.signals import book_loaded, content_changed

        from . import copies

        book_loaded.connect(copies.book_loaded, dispatch_uid="rulesref.offline.loaded")
        content_changed.connect(copies.content_changed, dispatch_uid="rulesref.offline.changed")
        post_migrate.connect(copies.after_migrate, sender=self, dispatch_uid="rulesref.offline.migrated")

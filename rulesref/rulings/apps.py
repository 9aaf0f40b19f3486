from django.apps import AppConfig


class RulingsConfig(AppConfig):
    name = "rulesref.rulings"
    verbose_name = "Rulings and FAQ"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from rulesref.offline.index import index_extras

        from . import offline

        # The published rulings in the offline copy's search index.
        index_extras.connect(offline.index_rows, dispatch_uid="rulesref.rulings.offline_index")

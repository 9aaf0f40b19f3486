from django.apps import AppConfig
from django.db.backends.signals import connection_created
from django.db.models.signals import post_migrate, post_save


class ReferenceConfig(AppConfig):
    name = "rulesref.reference"
    verbose_name = "Rules reference"

    def ready(self):
        # Imported here, once the models are loaded: the search index's hooks into every connection and migrate.
        from . import searchindex
        from .models import SectionText

        connection_created.connect(searchindex.on_connection_created, dispatch_uid="rulesref-sqlite-stems")
        post_migrate.connect(searchindex.install_after_migrate, sender=self, dispatch_uid="rulesref-search-install")
        post_save.connect(searchindex.text_saved, sender=SectionText, dispatch_uid="rulesref-search-words")

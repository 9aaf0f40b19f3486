from django.apps import AppConfig


class ReferenceConfig(AppConfig):
    name = "rulesref.reference"
    verbose_name = "Rules reference"

from django.apps import AppConfig


class TranslationConfig(AppConfig):
    name = "rulesref.translation"
    verbose_name = "Translation workspace"

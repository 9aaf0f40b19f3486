from django.apps import AppConfig


class TranslationConfig(AppConfig):
    name = "rulesref.translation"
    verbose_name = "Translation workspace"

    def ready(self) -> None:
        from . import signals  # noqa: F401  (connects the receivers)

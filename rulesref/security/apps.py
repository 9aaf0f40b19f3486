from django.apps import AppConfig


class SecurityConfig(AppConfig):
    name = "rulesref.security"
    label = "security"
    verbose_name = "Security"

    def ready(self):
        from . import checks  # noqa: F401  (registers the system checks; importing it earlier would load settings)

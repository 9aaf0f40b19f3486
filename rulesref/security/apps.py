from django.apps import AppConfig


class SecurityConfig(AppConfig):
    name = "rulesref.security"
    label = "security"
    verbose_name = "Security"

from django.apps import AppConfig


class CheckerConfig(AppConfig):
    name = "rulesref.checker"
    verbose_name = "Scenario checker"

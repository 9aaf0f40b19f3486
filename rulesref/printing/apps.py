from django.apps import AppConfig


class PrintingConfig(AppConfig):
    name = "rulesref.printing"
    verbose_name = "Print and quick reference"

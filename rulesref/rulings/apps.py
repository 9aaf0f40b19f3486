from django.apps import AppConfig


class RulingsConfig(AppConfig):
    name = "rulesref.rulings"
    verbose_name = "Rulings and FAQ"
    default_auto_field = "django.db.models.BigAutoField"

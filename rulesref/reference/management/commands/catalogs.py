from django.core.management.base import BaseCommand, CommandError

from rulesref import catalogs


class Command(BaseCommand):
    help = "UI message catalogs with Babel: 'update' extracts from code and templates into locale/*/django.po, " \
           "'compile' writes the .mo files, 'check' lists messages lacking a Russian translation."

    def add_arguments(self, parser):
        parser.add_argument("action", choices=["update", "compile", "check"])

    def handle(self, action, **options):
        if action == "update":
            for path in catalogs.update():
                self.stdout.write(f"updated {path}")
        elif action == "compile":
            for path in catalogs.compile_all():
                self.stdout.write(f"compiled {path}")
        else:
            missing = catalogs.untranslated("ru")
            for msgid in missing:
                self.stdout.write(f"untranslated: {msgid}")
            if missing:
                raise CommandError(f"{len(missing)} UI messages lack a Russian translation")
            self.stdout.write("every UI message has its Russian translation")

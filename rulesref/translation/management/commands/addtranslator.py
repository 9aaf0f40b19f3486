import getpass
import os
import sys

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from ...permissions import reviewers_group, translators_group


class Command(BaseCommand):
    help = ("Create a translator's account (or add an existing user to the translators), optionally as a reviewer. "
            "The password is asked for, or read from the environment variable named by --password-env.")

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--reviewer", action="store_true", help="also let this user approve translations")
        parser.add_argument("--rules-editor", action="store_true",
                            help="also let this user write, publish and confirm rulings (rulesref/rulings)")
        parser.add_argument("--email", default="")
        parser.add_argument("--password-env", help="read the password from this environment variable")

    def handle(self, *args, username, reviewer=False, rules_editor=False, email="", password_env=None, **options):
        User = get_user_model()
        user = User.objects.filter(username=username).first()
        created = user is None
        if created:
            if password_env:
                password = os.environ.get(password_env)
                if not password:
                    raise CommandError(f"the environment variable {password_env} is empty or not set")
            else:
                password = self._ask_password()
            user = User(username=username, email=email)
            try:
                validate_password(password, user)
            except ValidationError as exc:
                raise CommandError("; ".join(exc.messages)) from None
            user.set_password(password)
            user.save()
        groups = [translators_group()] + ([reviewers_group()] if reviewer else []) + (
            [getattr(settings, "RULINGS_EDITORS_GROUP", "rules-editors")] if rules_editor else [])
        for name in groups:
            group, _ = Group.objects.get_or_create(name=name)
            user.groups.add(group)
        self.stdout.write(f"{username}: {'created, ' if created else ''}member of {', '.join(groups)}")

    def _ask_password(self) -> str:
        no_terminal = ("there is no terminal to ask for the password: put it in an environment variable and name it "
                       "with --password-env (e.g. TRANSLATOR_PASSWORD=… manage.py addtranslator NAME "
                       "--password-env TRANSLATOR_PASSWORD)")
        if sys.stdin is None or not sys.stdin.isatty():
            raise CommandError(no_terminal)
        try:
            password = getpass.getpass("Password: ")
            again = getpass.getpass("Password (again): ")
        except EOFError:
            raise CommandError(no_terminal) from None
        if password != again:
            raise CommandError("the two passwords differ")
        return password

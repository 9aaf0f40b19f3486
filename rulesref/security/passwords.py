"""The password hasher: Argon2id with OWASP's recommended minimum (19 MiB of memory, 2 passes, 1 lane).

Django's own Argon2 defaults (100 MiB, 8 lanes) cost 0.24-0.44 s of CPU per sign-in on this 2-core machine,
close to the 0.5 s any one request may take, and 100 MiB per concurrent sign-in. OWASP's parameters are as strong
against guessing per unit of the defender's cost and leave the budget for the rest of the site. A hash made with
other parameters (Django's defaults, or PBKDF2) still verifies and is rewritten with these at the next sign-in.
"""
from django.contrib.auth.hashers import Argon2PasswordHasher


class Argon2idHasher(Argon2PasswordHasher):
    time_cost = 2
    memory_cost = 19 * 1024  # KiB
    parallelism = 1

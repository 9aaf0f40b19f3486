from django.contrib.auth.forms import AuthenticationForm


class SignInForm(AuthenticationForm):
    """The stock sign-in form; the username field gets the autocomplete hint password managers look for."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["username"].widget.attrs.update({"autocomplete": "username", "autocapitalize": "none"})
        self.fields["password"].widget.attrs.update({"autocomplete": "current-password"})

"""/<lang>/accounts/…: sign in and out (django.contrib.auth views, the form and template of security/signin.py)."""
from django.contrib.auth import views as auth_views
from django.urls import path

from .signin import TEMPLATE, SignInForm

urlpatterns = [
    path("login/", auth_views.LoginView.as_view(template_name=TEMPLATE,
                                                authentication_form=SignInForm,
                                                redirect_authenticated_user=True), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
]

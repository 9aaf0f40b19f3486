"""/<lang>/accounts/…: sign in and out (django.contrib.auth views with the workspace's templates)."""
from django.contrib.auth import views as auth_views
from django.urls import path

from .forms_auth import SignInForm

urlpatterns = [
    path("login/", auth_views.LoginView.as_view(template_name="translation/login.html",
                                                authentication_form=SignInForm,
                                                redirect_authenticated_user=True), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
]

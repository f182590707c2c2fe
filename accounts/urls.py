"""The accounts URLs: our sign-up and account pages, and Django's auth views under our names.

The names are namespaced (``accounts:…``), so every Django view is told its templates and where
to go next; its defaults point at the un-namespaced names of ``django.contrib.auth.urls``.
"""

from django.contrib.auth import views as auth_views
from django.urls import path, reverse_lazy

from accounts import mail_views, views
from accounts.forms import NewPasswordForm, ResetRequestForm

app_name = "accounts"

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("confirm/<uidb64>/<token>/", views.confirm_email, name="confirm_email"),
    path("confirm/again/", views.resend_confirmation, name="resend_confirmation"),
    path(
        "login/",
        auth_views.LoginView.as_view(
            template_name="accounts/login.html", redirect_authenticated_user=True
        ),
        name="login",
    ),
    # POST only: Django's LogoutView answers GET with 405, so a link or prefetch cannot log out.
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("", views.account, name="account"),
    path("serial/", views.serial, name="serial"),
    path("serial/get/", views.get_serial, name="get_serial"),
    path("options/", views.options, name="options"),
    path("mail/unsubscribe/<str:token>/", mail_views.unsubscribe, name="unsubscribe"),
    path("mail/bounced/", mail_views.bounced, name="mail_bounced"),
    path(
        "password/change/",
        auth_views.PasswordChangeView.as_view(
            template_name="accounts/password_change_form.html",
            success_url=reverse_lazy("accounts:password_change_done"),
        ),
        name="password_change",
    ),
    path(
        "password/change/done/",
        auth_views.PasswordChangeDoneView.as_view(
            template_name="accounts/password_change_done.html"
        ),
        name="password_change_done",
    ),
    path(
        "password/reset/",
        auth_views.PasswordResetView.as_view(
            form_class=ResetRequestForm,
            template_name="accounts/password_reset_form.html",
            email_template_name="registration/password_reset_email.txt",
            subject_template_name="registration/password_reset_subject.txt",
            success_url=reverse_lazy("accounts:password_reset_done"),
        ),
        name="password_reset",
    ),
    path(
        "password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(template_name="accounts/password_reset_done.html"),
        name="password_reset_done",
    ),
    path(
        "password/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(
            form_class=NewPasswordForm,
            template_name="accounts/password_reset_confirm.html",
            success_url=reverse_lazy("accounts:password_reset_complete"),
        ),
        name="password_reset_confirm",
    ),
    path(
        "password/reset/complete/",
        auth_views.PasswordResetCompleteView.as_view(
            template_name="accounts/password_reset_complete.html"
        ),
        name="password_reset_complete",
    ),
]

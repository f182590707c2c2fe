"""The accounts pages we write ourselves: sign-up and the account page.

Log in, log out and the password pages are Django's own views, configured in ``accounts.urls``.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods

from accounts.forms import DisplayNameForm, SignUpForm
from accounts.models import User


@require_http_methods(["GET", "POST"])
@sensitive_post_parameters("password1", "password2")
def signup(request: HttpRequest) -> HttpResponse:
    """Create an account, log its owner in and send them to their games."""
    if request.user.is_authenticated:
        return redirect("games:dashboard")
    form = SignUpForm(request.POST if request.method == "POST" else None)
    if form.is_valid():
        user = form.save()
        login(request, user)
        messages.success(request, f"Welcome, {user.display_name}! Your account is ready.")
        return redirect("games:dashboard")
    return render(request, "accounts/signup.html", {"form": form})


@require_http_methods(["GET", "POST"])
@login_required
def account(request: HttpRequest) -> HttpResponse:
    """Show who the player is, and let them change the name other players see."""
    user = request.user
    assert isinstance(user, User)  # login_required guarantees a real account
    form = DisplayNameForm(request.POST if request.method == "POST" else None, instance=user)
    if form.is_valid():
        form.save()
        messages.success(request, f"Your display name is now {user.display_name}.")
        return redirect("accounts:account")
    return render(request, "accounts/account.html", {"form": form})

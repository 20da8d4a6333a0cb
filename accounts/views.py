from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.models import User
from django.core.exceptions import NON_FIELD_ERRORS
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.views.decorators.http import require_POST

from socialsite import ratelimit

from . import devices, services
from .auth import keep_session, logged_in_uid, logged_in_user
from .forms import (
    USERNAME_MAX_LENGTH,
    DeleteAccountForm,
    LoginForm,
    PasswordForm,
    SettingsForm,
    SignupForm,
)


def render_form(request: HttpRequest, template: str, form) -> HttpResponse:
    """The page with its form; 400 when the form was sent with errors."""
    return render(request, template, {"form": form}, status=400 if form.errors else 200)


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    # Signups are counted when an account is made; refused before the form at the limit.
    signups = ratelimit.address(request)
    if request.method == "POST":
        try:
            ratelimit.enforce("signups_per_ip", signups, record=False)
        except ratelimit.RateLimited as error:
            return ratelimit.too_many_requests(request, error)
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            user = services.sign_up(data["login"], data["password1"], data["name"])
        except services.LoginTaken as error:
            # Someone took it between the form's check and now.
            form.add_error("login", str(error))
        else:
            ratelimit.wait_seconds("signups_per_ip", signups)
            login(request, user)
            welcome = 'Welcome, @{}! <a href="{}">Find people to follow</a>.'
            messages.success(request, format_html(welcome, user.username, reverse("directory")))
            return redirect("home")
    return render_form(request, "accounts/signup.html", form)


class LoginView(auth_views.LoginView):
    template_name = "accounts/login.html"
    authentication_form = LoginForm
    redirect_authenticated_user = True

    def post(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        """Refused before the password is checked (hashing it is the costly part) once
        the client's address has failed too often, or the login typed has: from this
        browser if it logged in as that login before (its device cookie), else from
        any browser without one (accounts.devices). A refused try counts against its
        address: one that keeps trying a held-back login is soon refused before it
        reaches Django (socialsite.ratelimit.refuse_early)."""
        try:
            for limit, subject in self._failure_limits():
                ratelimit.enforce(limit, subject, record=False)
        except ratelimit.RateLimited as error:
            ratelimit.wait_seconds("login_failures_per_ip", ratelimit.address(request))
            return ratelimit.too_many_requests(request, error)
        return super().post(request, *args, **kwargs)

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        # The limit this browser's tries counted against starts afresh: its device
        # cookie's (which the new cookie replaces), or the login's for strangers.
        ratelimit.forget(*self._login_limit())
        response = super().form_valid(form)
        devices.remember_device(self.request, response, form.get_user().get_username())
        return response

    def form_invalid(self, form: AuthenticationForm) -> HttpResponse:
        if form.has_error(NON_FIELD_ERRORS, "invalid_login"):
            for limit, subject in self._failure_limits():
                ratelimit.wait_seconds(limit, subject)
        return self.render_to_response(self.get_context_data(form=form), status=400)

    def _login_limit(self) -> tuple[str, str]:
        typed = self.request.POST.get("username", "")[:USERNAME_MAX_LENGTH]
        return devices.login_limit(self.request, typed)

    def _failure_limits(self) -> list[tuple[str, str]]:
        return [("login_failures_per_ip", ratelimit.address(self.request)), self._login_limit()]


class LogoutView(auth_views.LogoutView):
    def post(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        response = super().post(request, *args, **kwargs)
        messages.info(request, "You are logged out.")
        return response


def render_settings(
    request: HttpRequest,
    form: SettingsForm | None = None,
    password_form: PasswordForm | None = None,
    **section_forms,
) -> HttpResponse:
    """The settings page; 400 when one of its forms was sent with errors. A section's
    form sent with errors comes in `section_forms` (e.g. profile_form=...)."""
    person = services.get_user(logged_in_uid(request))
    # A logged-in user has a profile (ensure_profile, at login).
    assert person is not None
    form = form or SettingsForm(initial={"name": person["name"]})
    password_form = password_form or PasswordForm(logged_in_user(request))
    section_forms.setdefault("delete_form", DeleteAccountForm(logged_in_user(request)))
    forms = {"form": form, "password_form": password_form, **section_forms}
    # The section shown without a #section in the address: the one with the errors.
    wrong = [name for name, shown in forms.items() if shown is not None and shown.errors]
    section = SECTION_OF_FORM.get(wrong[0], "profile") if wrong else "profile"
    return render(
        request,
        "accounts/settings.html",
        {**forms, "person": person, "section": section},
        status=400 if wrong else 200,
    )


# The settings page's sections (jinja2/accounts/settings.html), by the forms in them.
SECTION_OF_FORM = {
    "form": "profile",
    "profile_form": "profile",
    "avatar_form": "profile",
    "password_form": "account",
    "delete_form": "account",
}


def save_settings_section(
    request: HttpRequest,
    form_name: str,
    form,
    save: Callable[[dict], object],
    saved: str,
    *,
    field: str | None = None,
) -> HttpResponse:
    """Saves a section of the settings page with `save(form.cleaned_data)`: back to the
    page saying `saved`, or the page again (400) with the form as `form_name`, showing
    the ValueError `save` raised on its `field` (an error naming its own field wins)."""
    if form.is_valid():
        try:
            save(form.cleaned_data)
        except ValueError as error:
            form.add_error(getattr(error, "field", field), str(error))
        else:
            messages.success(request, saved)
            return redirect("accounts:settings")
    return render_settings(request, **{form_name: form})


@login_required
@ratelimit.rate_limited("profile_changes")
def settings(request: HttpRequest) -> HttpResponse:
    if request.method != "POST":
        return render_settings(request)
    uid = logged_in_uid(request)
    return save_settings_section(
        request,
        "form",
        SettingsForm(request.POST),
        lambda data: services.update_name(uid, data["name"]),
        "Your display name is saved.",
        field="name",
    )


@require_POST
@login_required
@ratelimit.rate_limited("password_changes")
def change_password(request: HttpRequest) -> HttpResponse:
    """Changes the password and logs out every other session; this one goes on."""
    # The row itself, not the cached user: the current password is checked against it.
    form = PasswordForm(User.objects.get(pk=logged_in_user(request).pk), request.POST)
    if not form.is_valid():
        return render_settings(request, password_form=form)
    password = form.cleaned_data["new_password1"]
    generation = services.change_password(logged_in_uid(request), form.user, password)
    request.session.cycle_key()  # as Django does on a password change
    keep_session(request, form.user, generation)
    messages.success(request, "Your password is changed. Your other sessions are logged out.")
    return redirect(reverse("accounts:settings") + "#settings-account")


@require_POST
@login_required
@ratelimit.rate_limited("settings_changes")
def logout_everywhere(request: HttpRequest) -> HttpResponse:
    """Ends every session of the user, this one too (as Retwis's logout)."""
    services.end_sessions(logged_in_uid(request))
    logout(request)
    messages.info(request, "You are logged out everywhere.")
    return redirect("home")


@require_POST
@login_required
@ratelimit.rate_limited("account_deletions")
def delete_account(request: HttpRequest) -> HttpResponse:
    """Deletes the account, confirmed by its password: at once the user is logged out
    everywhere, can't be found, their statuses are hidden and their login is free; the
    worker's purge then removes everything of theirs (services.close_account). A wrong
    password is a form error that changes nothing."""
    # The row itself, not the cached user: the password is checked against it.
    form = DeleteAccountForm(User.objects.get(pk=logged_in_user(request).pk), request.POST)
    if not form.is_valid():
        return render_settings(request, delete_form=form)
    login = request.user.username
    services.close_account(logged_in_uid(request))
    logout(request)
    messages.info(request, f"The account @{login} is deleted. Its statuses are being removed.")
    return redirect("home")

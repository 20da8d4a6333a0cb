from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import NON_FIELD_ERRORS
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from socialsite import ratelimit

from . import services
from .auth import current_uid
from .forms import USERNAME_MAX_LENGTH, LoginForm, SettingsForm, SignupForm

# What the login limits say is limited (the ASGI application refuses early with them too).
FAILED_LOGINS = "failed logins"


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
            ratelimit.enforce("signups_per_ip", signups, "signups", record=False)
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
            messages.success(request, f"Welcome, @{user.username}! Find people to follow.")
            return redirect("home")
    return render_form(request, "accounts/signup.html", form)


class LoginView(auth_views.LoginView):
    template_name = "accounts/login.html"
    authentication_form = LoginForm
    redirect_authenticated_user = True

    def post(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        """Refused before the password is checked (hashing it is the costly part) once
        the login typed or the client's address has failed too often. A refused try
        counts against its address: one that keeps trying a held-back login is soon
        refused before it reaches Django (socialsite.ratelimit.refuse_early)."""
        try:
            for limit, subject in self._failure_limits():
                ratelimit.enforce(limit, subject, FAILED_LOGINS, record=False)
        except ratelimit.RateLimited as error:
            ratelimit.wait_seconds("login_failures_per_ip", ratelimit.address(request))
            return ratelimit.too_many_requests(request, error)
        return super().post(request, *args, **kwargs)

    def form_valid(self, form: LoginForm) -> HttpResponse:
        ratelimit.forget("login_failures_per_login", self._login_subject())
        return super().form_valid(form)

    def form_invalid(self, form: LoginForm) -> HttpResponse:
        if form.has_error(NON_FIELD_ERRORS, "invalid_login"):
            for limit, subject in self._failure_limits():
                ratelimit.wait_seconds(limit, subject)
        return self.render_to_response(self.get_context_data(form=form), status=400)

    def _login_subject(self) -> str:
        typed = self.request.POST.get("username", "")[:USERNAME_MAX_LENGTH]
        return f"login:{typed.strip().casefold()}"

    def _failure_limits(self) -> list[tuple[str, str]]:
        return [
            ("login_failures_per_ip", ratelimit.address(self.request)),
            ("login_failures_per_login", self._login_subject()),
        ]


class LogoutView(auth_views.LogoutView):
    def post(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        response = super().post(request, *args, **kwargs)
        messages.info(request, "You are logged out.")
        return response


@login_required
def settings(request: HttpRequest) -> HttpResponse:
    uid = current_uid(request)
    if request.method == "POST":
        form = SettingsForm(request.POST)
        if form.is_valid():
            try:
                services.update_name(uid, form.cleaned_data["name"])
            except ValueError as error:
                form.add_error("name", str(error))
            else:
                messages.success(request, "Your display name is saved.")
                return redirect("accounts:settings")
    else:
        form = SettingsForm(initial={"name": services.get_user(uid)["name"]})
    return render_form(request, "accounts/settings.html", form)

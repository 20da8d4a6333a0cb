from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from . import services
from .auth import current_uid
from .forms import LoginForm, SettingsForm, SignupForm


def render_form(request: HttpRequest, template: str, form) -> HttpResponse:
    """The page with its form; 400 when the form was sent with errors."""
    return render(request, template, {"form": form}, status=400 if form.errors else 200)


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            user = services.sign_up(data["login"], data["password1"], data["name"])
        except services.LoginTaken as error:
            # Someone took it between the form's check and now.
            form.add_error("login", str(error))
        else:
            login(request, user)
            messages.success(request, f"Welcome, @{user.username}! Find people to follow.")
            return redirect("home")
    return render_form(request, "accounts/signup.html", form)


class LoginView(auth_views.LoginView):
    template_name = "accounts/login.html"
    authentication_form = LoginForm
    redirect_authenticated_user = True

    def form_invalid(self, form: LoginForm) -> HttpResponse:
        return self.render_to_response(self.get_context_data(form=form), status=400)


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

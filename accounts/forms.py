from django import forms
from django.contrib.auth import password_validation
from django.contrib.auth.forms import AuthenticationForm, PasswordChangeForm, UsernameField
from django.contrib.auth.models import User
from django.http import QueryDict

from socialsite.text import check_display_text

from . import services

# Django's own limit for a username; a password longer than this is nobody's.
USERNAME_MAX_LENGTH = 150
PASSWORD_MAX_LENGTH = 1024


def current_password_field(label: str) -> forms.CharField:
    """A password the user has (bounded, unstripped)."""
    return forms.CharField(
        label=label,
        strip=False,
        max_length=PASSWORD_MAX_LENGTH,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )


def new_password_field(label: str, *, with_rules: bool = False) -> forms.CharField:
    """A password being chosen (bounded, unstripped), saying the validators' rules if asked."""
    rules = password_validation.password_validators_help_text_html() if with_rules else ""
    return forms.CharField(
        label=label,
        strip=False,
        max_length=PASSWORD_MAX_LENGTH,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=rules,
    )


class SignupForm(forms.Form):
    login = forms.CharField(
        max_length=30,
        help_text="1 to 30 letters, digits or underscores. People will @mention you by it.",
        widget=forms.TextInput(attrs={"autocomplete": "username", "autofocus": True}),
    )
    name = forms.CharField(
        label="Display name",
        max_length=services.NAME_MAX_LENGTH,
        required=False,
        help_text="Optional; your login if left blank.",
    )
    password1 = new_password_field("Password", with_rules=True)
    password2 = new_password_field("Password again")

    def clean_login(self) -> str:
        login = self.cleaned_data["login"]
        try:
            services.check_login(login)
        except ValueError as error:
            raise forms.ValidationError(str(error)) from None
        if services.uid_for_login(login) is not None:
            raise forms.ValidationError("That login is taken.")
        return login

    def clean_name(self) -> str:
        try:
            return check_display_text(self.cleaned_data["name"])
        except ValueError as error:
            raise forms.ValidationError(str(error)) from None

    def clean(self) -> dict:
        super().clean()
        data = self.cleaned_data
        password1, password2 = data.get("password1"), data.get("password2")
        if password1 and password2 and password1 != password2:
            self.add_error("password2", "The two passwords differ.")
        elif password1:
            candidate = User(username=data.get("login", ""), first_name=data.get("name", ""))
            try:
                password_validation.validate_password(password1, candidate)
            except forms.ValidationError as error:
                self.add_error("password1", error)
        return data


class LoginForm(AuthenticationForm):
    """Logins are unique whatever their case, so any case logs in.

    Both fields are bounded here: AuthenticationForm only sets the username's limit on
    the widget, so a 50,000-character login reached SQLite's LIKE (and failed there)."""

    username = UsernameField(
        label="Login",
        max_length=USERNAME_MAX_LENGTH,
        widget=forms.TextInput(attrs={"autofocus": True, "autocomplete": "username"}),
    )
    password = current_password_field("Password")

    error_messages = {
        **AuthenticationForm.error_messages,
        "suspended": "This account is suspended: it can't log in until a moderator lifts "
        "the suspension.",
    }

    def clean(self) -> dict:
        typed = self.cleaned_data.get("username")
        if typed:
            stored = User.objects.filter(username__iexact=typed).values_list("username", flat=True)
            self.cleaned_data["username"] = stored.first() or typed
        try:
            return super().clean()
        except forms.ValidationError as error:
            if error.code == "invalid_login" and self._suspended_with_right_password():
                raise forms.ValidationError(
                    self.error_messages["suspended"], code="suspended"
                ) from None
            raise

    def _suspended_with_right_password(self) -> bool:
        """Django refuses a suspended (inactive) user as if the password were wrong; the
        right password earns the truth (a wrong one learns nothing of the account)."""
        user = User.objects.filter(username=self.cleaned_data.get("username")).first()
        password = self.cleaned_data.get("password")
        return bool(user and not user.is_active and password and user.check_password(password))


class SettingsForm(forms.Form):
    # Checked by accounts.services.update_name, which says what is wrong; the field's
    # own bound (far above the name's) only keeps a huge post from going further.
    name = forms.CharField(
        label="Display name",
        required=False,
        max_length=USERNAME_MAX_LENGTH,
        widget=forms.TextInput(attrs={"maxlength": services.NAME_MAX_LENGTH}),
    )


class PasswordForm(PasswordChangeForm):
    """Django's: the current password, the new one twice, Django's validators; every
    field bounded."""

    old_password = current_password_field("Current password")
    new_password1 = new_password_field("New password", with_rules=True)
    new_password2 = new_password_field("New password again")


class DeleteAccountForm(forms.Form):
    """Deleting your account: your password, as the one confirmation that it is you."""

    password = current_password_field("Your password")

    def __init__(self, user: User, data: QueryDict | None = None, **kwargs) -> None:
        super().__init__(data, prefix="delete", **kwargs)
        self.user = user

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError("That is not your password: nothing was deleted.")
        return password

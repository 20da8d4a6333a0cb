"""The settings page's profile section: bio, website, location and avatar."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from socialsite import offslot
from socialsite.ratelimit import rate_limited

from . import avatars, profiles
from .auth import logged_in_uid
from .records import UserProfile
from .views import save_settings_section


class ProfileForm(forms.Form):
    bio = forms.CharField(
        required=False,
        max_length=profiles.BIO_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=f"Up to {profiles.BIO_MAX_LENGTH} characters; links and @mentions are linked.",
    )
    website = forms.CharField(
        required=False,
        max_length=profiles.WEBSITE_MAX_LENGTH,
        help_text="An http:// or https:// address.",
    )
    location = forms.CharField(required=False, max_length=profiles.LOCATION_MAX_LENGTH)


class AvatarForm(forms.Form):
    avatar = forms.FileField(
        label="Avatar",
        help_text=f"JPEG, PNG or WebP, up to {avatars.AVATAR_MAX_BYTES // (1024 * 1024)} MB.",
        widget=forms.ClearableFileInput(attrs={"accept": "image/jpeg,image/png,image/webp"}),
    )


def profile_form_for(person: UserProfile) -> ProfileForm:
    """The profile form showing what `person` says about themselves now."""
    return ProfileForm(initial={name: person.get(name, "") for name in profiles.PROFILE_FIELDS})


@require_POST
@login_required
@rate_limited("profile_changes")
def update_profile(request: HttpRequest) -> HttpResponse:
    uid = logged_in_uid(request)
    return save_settings_section(
        request,
        "profile_form",
        ProfileForm(request.POST),
        lambda data: profiles.update_profile(uid, **data),
        "Your profile is saved.",
    )


@require_POST
@login_required
@rate_limited("avatar_changes")
def upload_avatar(request: HttpRequest) -> HttpResponse:
    uid = logged_in_uid(request)

    def save(data: dict) -> None:
        upload = data["avatar"]
        if upload.size > avatars.AVATAR_MAX_BYTES:
            raise avatars.BadAvatar(
                f"A picture is at most {avatars.AVATAR_MAX_BYTES // (1024 * 1024)} MB."
            )
        try:
            profiles.set_avatar(uid, upload.read())
        except offslot.Busy as busy:
            raise avatars.BadAvatar(f"{busy} Try again in a minute.") from None

    return save_settings_section(
        request,
        "avatar_form",
        AvatarForm(request.POST, request.FILES),
        save,
        "Your avatar is saved.",
        field="avatar",
    )


@require_POST
@login_required
@rate_limited("avatar_changes")
def remove_avatar(request: HttpRequest) -> HttpResponse:
    if profiles.remove_avatar(logged_in_uid(request)):
        messages.success(request, "Your avatar is removed.")
    else:
        messages.info(request, "You had no avatar.")
    return redirect("accounts:settings")

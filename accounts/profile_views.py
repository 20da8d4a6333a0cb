"""The settings page's profile section: bio, website, location and avatar."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.files.uploadedfile import UploadedFile
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from socialsite import offslot
from socialsite.ratelimit import (
    RateLimited,
    account,
    enforce,
    rate_limited,
    too_many_requests,
)

from . import avatars, profiles, services
from .auth import logged_in_uid
from .forms import SettingsForm
from .records import UserProfile
from .views import render_settings, save_settings_section


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
        help_text="A web address, e.g. alice.example (https:// is added).",
    )
    location = forms.CharField(required=False, max_length=profiles.LOCATION_MAX_LENGTH)


class AvatarForm(forms.Form):
    avatar = forms.FileField(
        label="Avatar",
        help_text=f"JPEG, PNG or WebP, up to {avatars.AVATAR_MAX_BYTES // (1024 * 1024)} MB.",
        widget=forms.FileInput(attrs={"accept": "image/jpeg,image/png,image/webp"}),
    )


def profile_form_for(person: UserProfile) -> ProfileForm:
    """The profile form showing what `person` says about themselves now."""
    return ProfileForm(initial={name: person.get(name, "") for name in profiles.PROFILE_FIELDS})


@require_POST
@login_required
@rate_limited("profile_changes")
def update_profile(request: HttpRequest) -> HttpResponse:
    """The settings page's "Save profile": the display name, bio, website and location,
    and the avatar if one was chosen, saved together; each only if sent (the first-run
    panel sends the name and the avatar alone). Everything is checked before anything is
    saved, the avatar last (decoding it is the costly part). Back to `next` (this site's)
    or the settings page; or the page again (400) saying what is wrong."""
    uid = logged_in_uid(request)
    sent = request.POST
    name_form = SettingsForm(sent) if "name" in sent else None
    profile_form = ProfileForm(sent) if any(f in sent for f in profiles.PROFILE_FIELDS) else None
    upload = request.FILES.get("avatar")
    avatar_form = AvatarForm(sent, request.FILES) if upload else None
    shown = [form for form in (name_form, profile_form, avatar_form) if form is not None]
    if all(form.is_valid() for form in shown):
        try:
            _save_profile(request, uid, name_form, profile_form, avatar_form)
        except RateLimited as error:
            return too_many_requests(request, error)
        except ValueError as error:
            _say_where(error, name_form, profile_form, avatar_form)
        else:
            messages.success(request, "Your profile is saved.")
            target = sent.get("next", "")
            if not url_has_allowed_host_and_scheme(
                target, {request.get_host()}, request.is_secure()
            ):
                target = reverse("accounts:settings")
            return redirect(target)
    return render_settings(request, name_form, profile_form=profile_form, avatar_form=avatar_form)


def _save_profile(
    request: HttpRequest,
    uid: int,
    name_form: SettingsForm | None,
    profile_form: "ProfileForm | None",
    avatar_form: "AvatarForm | None",
) -> None:
    """Saves what `update_profile`'s forms hold, checked first; ValueError (naming its
    field, or a BadAvatar) for the first thing wrong."""
    name = fields = None
    if name_form is not None:
        name = services.check_name(name_form.cleaned_data["name"])
    if profile_form is not None:
        fields = profiles.check_profile(**profile_form.cleaned_data)
    if avatar_form is not None:
        # The avatar's own limit, as its own form counts it.
        enforce("avatar_changes", account(request))
        _set_avatar(uid, avatar_form.cleaned_data["avatar"])
    if name is not None:
        services.update_name(uid, name)
    if fields is not None:
        profiles.update_profile(uid, **fields)


def _say_where(
    error: ValueError,
    name_form: SettingsForm | None,
    profile_form: "ProfileForm | None",
    avatar_form: "AvatarForm | None",
) -> None:
    """Puts `error` on the field it is about: a bad picture on the avatar, a profile
    field's on it, else the display name."""
    if isinstance(error, avatars.BadAvatar) and avatar_form is not None:
        avatar_form.add_error("avatar", str(error))
    elif getattr(error, "field", None) and profile_form is not None:
        profile_form.add_error(error.field, str(error))  # type: ignore[attr-defined]
    elif name_form is not None:
        name_form.add_error("name", str(error))
    else:
        raise error


def _set_avatar(uid: int, upload: UploadedFile) -> None:
    """Makes the uploaded file `uid`'s avatar; BadAvatar saying why not."""
    if (upload.size or 0) > avatars.AVATAR_MAX_BYTES:
        raise avatars.BadAvatar(
            f"A picture is at most {avatars.AVATAR_MAX_BYTES // (1024 * 1024)} MB."
        )
    try:
        profiles.set_avatar(uid, upload.read())
    except offslot.Busy as busy:
        raise avatars.BadAvatar(f"{busy} Try again in a minute.") from None


@require_POST
@login_required
@rate_limited("avatar_changes")
def upload_avatar(request: HttpRequest) -> HttpResponse:
    uid = logged_in_uid(request)

    def save(data: dict) -> None:
        _set_avatar(uid, data["avatar"])

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


@require_POST
@login_required
@rate_limited("settings_changes")
def dismiss_first_run(request: HttpRequest) -> HttpResponse:
    """Hides the first-run panel on home for good."""
    profiles.dismiss_first_run(logged_in_uid(request))
    return redirect("home")

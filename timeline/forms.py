from functools import cache
from typing import cast

from django import forms
from django.conf import settings
from django.forms.boundfield import BoundField

from timeline.lists.records import TimelineList

from .lists.services import NAME_MAX_LENGTH as LIST_NAME_MAX_LENGTH
from .lists.services import check_name
from .polls import services as polls
from .statuses import visibility
from .statuses.services import check_message

# Polls: how long the composer offers to keep a poll open (seconds, label).
POLL_DURATIONS = [
    (300, "5 minutes"),
    (1800, "30 minutes"),
    (3600, "1 hour"),
    (6 * 3600, "6 hours"),
    (86400, "1 day"),
    (3 * 86400, "3 days"),
    (7 * 86400, "7 days"),
]

# A bound far above any valid value, so a huge post is refused by the form before any
# check or store sees it, while the checks below still say what is wrong with a value
# merely too long.
FIELD_MAX_LENGTH = 4096
LOCATION_MAX_LENGTH = 64


class KeptBoundField(BoundField):
    """A field drawn once per process while its form is unbound and its value is the
    field's own (no initial given to the form, none computed): the same HTML every time.
    The post box's fields were ~0.3 ms of a home page's ~3.5 ms of CPU (Django draws a
    widget through its template each time)."""

    def as_widget(self, widget=None, attrs=None, only_initial=False):
        varies = self.name in self.form.initial or callable(self.field.initial)
        if widget or attrs or only_initial or self.form.is_bound or varies:
            return super().as_widget(widget, attrs, only_initial)
        key = (type(self.form), self.html_name, self.auto_id)
        drawn = KEPT_FIELDS.get(key)
        if drawn is None:
            drawn = KEPT_FIELDS[key] = super().as_widget()
        return drawn


# The fields KeptBoundField drew: (form class, field's HTML name, its id) -> HTML.
KEPT_FIELDS: dict[tuple, str] = {}


class StatusForm(forms.Form):
    bound_field_class = KeptBoundField

    # Not stripped here, and bounded only by FIELD_MAX_LENGTH: check_message says what is
    # wrong.
    message = forms.CharField(
        required=False,
        strip=False,
        max_length=FIELD_MAX_LENGTH,
        widget=forms.Textarea(
            attrs={
                "rows": 3,
                # The composer counts as the server does (code points), so no maxlength:
                # a browser counts UTF-16 units, and would stop 140 emoji short.
                "data-max-length": settings.STATUS_MAX_LENGTH,
                "placeholder": "What's happening?",
                "aria-label": "Your status",
            }
        ),
    )
    location = forms.CharField(
        required=False,
        max_length=LOCATION_MAX_LENGTH,
        label="Location",
        help_text="Latitude,longitude in degrees, e.g. 38.7223,-9.1393",
        widget=forms.TextInput(attrs={"placeholder": "38.7223,-9.1393"}),
    )

    # Visibility and content warning (vis): the composer draws the picker itself, as it
    # starts at the reader's default (timeline/_post_form.html).
    visibility = forms.ChoiceField(
        required=False, choices=[("", "Default"), *visibility.LABELS.items()]
    )
    spoiler_text = forms.CharField(
        required=False,
        max_length=FIELD_MAX_LENGTH,
        label="Content warning",
        widget=forms.TextInput(attrs={"placeholder": "What the status is about"}),
    )
    sensitive = forms.BooleanField(required=False, label="Sensitive")

    def clean_message(self) -> str:
        try:
            return check_message(self.cleaned_data["message"].strip())
        except ValueError as error:
            raise forms.ValidationError(str(error)) from None

    def post_data(self) -> dict:
        """The cleaned visibility, warning and flag as post_status's extra data."""
        data = self.cleaned_data
        return {
            "visibility": data.get("visibility") or None,
            "spoiler_text": data.get("spoiler_text") or None,
            "sensitive": "1" if data.get("sensitive") else None,
        }

    def clean_location(self) -> str | None:
        """ "lat,lon" in degrees, stored as two plain numbers; None when left blank."""
        location = self.cleaned_data["location"]
        if not location:
            return None
        try:
            lat, lon = (float(part) for part in location.split(","))
        except ValueError:
            said = 'A location is "latitude,longitude" in degrees, e.g. 38.7223,-9.1393.'
            if any(char.isalpha() for char in location):
                # Someone typed a place: say why it isn't taken rather than just "bad".
                said += (
                    f' Places aren\'t looked up by name: for "{location}", take its'
                    " coordinates from a map, or leave the box empty."
                )
            raise forms.ValidationError(said) from None
        # float() accepts "nan" and "inf": both fail these comparisons.
        if not -90 <= lat <= 90:
            raise forms.ValidationError("Latitude is between -90 and 90.")
        if not -180 <= lon <= 180:
            raise forms.ValidationError("Longitude is between -180 and 180.")
        return f"{lat},{lon}"

    # Polls: `poll_options` (repeated: the boxes left blank don't count), how long it
    # stays open, single or several choices, counts hidden until it closes. The checked
    # poll is cleaned_data["poll"] (None without options).
    poll_expires_in = forms.TypedChoiceField(
        required=False, choices=POLL_DURATIONS, coerce=int, initial=86400, label="Closes in"
    )
    poll_multiple = forms.BooleanField(required=False, label="Several choices")
    poll_hide_totals = forms.BooleanField(required=False, label="Hide results until it closes")

    def clean(self) -> dict:
        cleaned = super().clean() or {}
        # The warning counts with the message (vis).
        try:
            cleaned["spoiler_text"] = visibility.check_spoiler(
                cleaned.get("spoiler_text"), cleaned.get("message") or ""
            )
        except ValueError as error:
            self.add_error("spoiler_text", str(error))
        given = self.data.getlist("poll_options") if hasattr(self.data, "getlist") else []
        options = [option for option in given if option.strip()]
        cleaned["poll"] = None
        if options:
            try:
                cleaned["poll"] = polls.check_poll(
                    options,
                    cleaned.get("poll_expires_in") or 86400,
                    multiple=bool(cleaned.get("poll_multiple")),
                    hide_totals=bool(cleaned.get("poll_hide_totals")),
                )
            except polls.PollError as error:
                self.add_error(None, str(error))
        return cleaned


@cache
def blank_status_form() -> StatusForm:
    """The home page's post box before anything is typed: one form for the process, as
    a blank form never changes (making one copies its fields deeply, ~70 µs of a page).
    Never to be changed: a page that fills it in for its reader (the reply box's
    mentions) makes its own."""
    return StatusForm()


class ListNameForm(forms.Form):
    # Bounded only by FIELD_MAX_LENGTH: check_name says what is wrong.
    name = forms.CharField(
        required=False,
        max_length=FIELD_MAX_LENGTH,
        widget=forms.TextInput(
            attrs={"maxlength": LIST_NAME_MAX_LENGTH, "aria-label": "List name"}
        ),
    )

    def clean_name(self) -> str:
        try:
            return check_name(self.cleaned_data["name"])
        except ValueError as error:
            raise forms.ValidationError(str(error)) from None


class ListForm(ListNameForm):
    """A new list: its name, and whether only its owner sees it."""

    private = forms.BooleanField(required=False, label="Private: only you see it")


PICK_A_LIST = "Pick one of your lists."


class ListMembershipForm(forms.Form):
    """The "add to list" control on a profile: one of the viewer's `lists` (from
    lists.selectors.lists_for_member), and whether to add the person to it or remove them."""

    list_id = forms.TypedChoiceField(
        coerce=int,
        error_messages={"required": PICK_A_LIST, "invalid_choice": PICK_A_LIST},
        widget=forms.Select(attrs={"aria-label": "Your list"}),
    )
    action = forms.ChoiceField(
        choices=[("add", "Add"), ("remove", "Remove")],
        error_messages={"required": "Say add or remove.", "invalid_choice": "Say add or remove."},
    )

    def __init__(self, *args, lists: list[TimelineList], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.names = {the_list["id"]: the_list["name"] for the_list in lists}
        # Declared a ChoiceField above; django-stubs types a form's fields as Field.
        cast(forms.ChoiceField, self.fields["list_id"]).choices = [
            (the_list["id"], the_list["name"] + (" (on it)" if the_list["has_member"] else ""))
            for the_list in lists
        ]


@cache
def listless_membership_form() -> ListMembershipForm:
    """The "add to list" control of a viewer who has no lists (it says to make one): one
    form for the process, as it is the same for everyone and never changes."""
    return ListMembershipForm(lists=[])

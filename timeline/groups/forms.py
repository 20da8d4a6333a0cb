"""The group pages' forms: a new group, editing one, a member's role. Each field is only
bounded here (FIELD_MAX_LENGTH, the choices); the services say what else is wrong, as a
GroupError the view puts on the form."""

from django import forms

from ..forms import FIELD_MAX_LENGTH

KINDS = [
    ("public", "Public: anyone reads and joins"),
    ("private", "Private: members only read; a moderator approves each member"),
    ("announcement", "Announcement: anyone joins; only moderators post"),
]
ROLES = [("moderator", "Moderator"), ("member", "Member")]
ORDERS = ("members", "newest")
QUERY_MAX_LENGTH = 60


def _text(label: str, *, rows: int = 0, required: bool = False, **attrs) -> forms.CharField:
    widget = forms.Textarea(attrs={"rows": rows, **attrs}) if rows else forms.TextInput(attrs=attrs)
    return forms.CharField(
        label=label, required=required, max_length=FIELD_MAX_LENGTH, widget=widget
    )


class GroupEditForm(forms.Form):
    """What a moderator may change: its name, its description, and (announcement groups)
    whether members may reply."""

    name = _text("Name", maxlength=50)
    description = _text("Description", rows=3)
    replies = forms.BooleanField(required=False, label="Members may reply (announcement groups)")


class GroupForm(GroupEditForm):
    """A new group: its handle (its address, /g/<handle>/), name, description and kind."""

    handle = _text("Handle", maxlength=30, placeholder="letters, digits and _")
    kind = forms.ChoiceField(
        choices=KINDS,
        initial="public",
        required=False,
        widget=forms.RadioSelect,
        error_messages={"invalid_choice": "Pick public, private or announcement."},
    )
    field_order = ["handle", "name", "description", "kind", "replies"]

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["replies"].initial = True

    def clean_kind(self) -> str:
        return self.cleaned_data["kind"] or "public"


class RoleForm(forms.Form):
    role = forms.ChoiceField(
        choices=ROLES,
        error_messages={
            "required": "Say moderator or member.",
            "invalid_choice": "Say moderator or member.",
        },
    )

from django import forms

from .services import KEY_NAME_MAX_LENGTH


class StreamKeyForm(forms.Form):
    # The settings page has another form with a name field.
    prefix = "key"

    name = forms.CharField(
        label="Key name",
        max_length=KEY_NAME_MAX_LENGTH,
        required=False,
        help_text="What the key is for, so you know which one to revoke.",
    )

"""The Jinja2 environment's own globals and filters (socialsite/jinja2.py)."""

from datetime import UTC, datetime

import pytest
from django.template import engines
from django.urls import reverse
from django.utils import timezone


def render(source: str, **context) -> str:
    return engines["jinja2"].from_string(source).render(context)


@pytest.mark.parametrize(
    ("name", "args"),
    [("global", []), ("accounts:settings", []), ("profile", ["Bob_1"]), ("status", [7])],
)
def test_url_is_reverse(name, args):
    call = ", ".join(map(repr, [name, *args]))
    assert render(f"{{{{ url({call}) }}}}") == reverse(name, args=args)


def test_url_with_keyword_arguments_is_reverse():
    assert render("{{ url('status', status_id=7) }}") == reverse("status", args=[7])


def test_date_is_in_the_current_time_zone():
    moment = datetime(2024, 3, 9, 23, 30, tzinfo=UTC)
    with timezone.override("Europe/Paris"):
        assert render("{{ moment|date('j M Y, H:i') }}", moment=moment) == "10 Mar 2024, 00:30"


def test_pluralize_reads_like_djangos():
    source = "{{ n }} {{ n|pluralize('status,statuses') }}, follower{{ n|pluralize }}"
    assert render(source, n=1) == "1 status, follower"
    assert render(source, n=2) == "2 statuses, followers"


def test_site_form_fields_are_drawn_with_jinja2_and_admin_widgets_with_django_templates():
    from django.template.backends.django import Template as DjangoTemplate
    from jinja2 import Template as Jinja2Template

    from socialsite.jinja2 import FormRenderer

    renderer = FormRenderer()
    textarea = renderer.get_template("django/forms/widgets/textarea.html")
    assert isinstance(textarea.template, Jinja2Template)
    related = renderer.get_template("admin/widgets/related_widget_wrapper.html")
    assert isinstance(related, DjangoTemplate)


@pytest.mark.django_db
def test_the_admins_forms_with_their_own_widgets_still_render(admin_client):
    from django.contrib.auth.models import User

    user = User.objects.create_user("bob")
    response = admin_client.get(reverse("admin:auth_user_change", args=[user.pk]))
    assert response.status_code == 200
    assert 'name="username"' in response.content.decode()
    assert "related-widget-wrapper" in response.content.decode()

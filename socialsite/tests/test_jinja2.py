"""The Jinja2 environment's own globals and filters (socialsite/jinja2.py)."""

from datetime import UTC, datetime

import pytest
from django.conf import settings
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


def test_a_dicts_keys_come_before_its_attributes_and_the_rest_is_as_jinja2_has_it():
    assert render("{{ d.values }}", d={"values": "the key"}) == "the key"
    assert render("{{ d.get('x') }}", d={"x": 1}) == "1"
    assert render("{{ d.missing is defined }}", d={}) == "False"
    assert render("{{ moment.year }}", moment=datetime(2024, 1, 1, tzinfo=UTC)) == "2024"


@pytest.mark.django_db
def test_a_page_masks_its_csrf_token_once_and_every_form_takes_it(make_user):
    import re

    from django.test import Client

    alice = make_user("alice")
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice.user)
    page = client.get("/").content.decode()
    tokens = set(re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', page))
    assert len(re.findall(r'name="csrfmiddlewaretoken"', page)) >= 3
    assert len(tokens) == 1
    assert client.get("/").content.decode().count(tokens.pop()) == 0  # a new mask a page
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)[1]
    posted = client.post("/statuses/", {"message": "hello", "csrfmiddlewaretoken": token})
    assert posted.status_code == 302
    refused = client.post("/statuses/", {"message": "hello", "csrfmiddlewaretoken": "x" * 64})
    assert refused.status_code == 403


def test_the_pages_own_text_is_ascii():
    # Non-ASCII text (an arrow, a middle dot) in any part of a page makes Python hold the
    # whole page as 2 or 4 bytes a character and encode it to UTF-8 character by
    # character: ~25 us a 36 KB home page, against a copy for ASCII. Entities instead.
    for template in (settings.BASE_DIR / "jinja2").rglob("*.html"):
        text = template.read_text()
        assert text.isascii(), f"{template}: {[c for c in text if not c.isascii()][:5]}"

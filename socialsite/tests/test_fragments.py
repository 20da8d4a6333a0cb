"""socialsite.fragments: a kept fragment's key tells apart everything it shows."""

import pytest
from django.template import engines

from socialsite.fragments import frozen, kept_fragments


def test_values_that_render_differently_get_different_keys():
    assert len({frozen(1), frozen(True), frozen(1.0), frozen("1")}) == 4
    assert frozen({"name": "Alice", "posts": 1}) != frozen({"name": "Alice", "posts": 2})
    assert frozen([{"login": "a"}]) != frozen([{"login": "b"}])
    assert frozen({"trends": [("tag", 3)]}) == frozen({"trends": [("tag", 3)]})


def test_a_value_that_cant_be_a_key_is_refused():
    with pytest.raises(TypeError):
        frozen({"person": {1, 2}})


def test_a_fragment_sees_only_what_it_is_given_and_the_pages_csrf_field():
    page = engines["jinja2"].from_string(
        '{{ kept("_nav_links.html", login=login, notifications=0, messages=2) }}'
    )
    before = kept_fragments()
    html = page.render({"login": "alice", "csrf_input": "<CSRF>", "viewer_uid": 7})
    assert 'href="/u/alice/"' in html and "<CSRF>" in html and "csrf-" not in html
    again = page.render({"login": "alice", "csrf_input": "<OTHER>"})
    assert again == html.replace("<CSRF>", "<OTHER>") and kept_fragments() == before + 1

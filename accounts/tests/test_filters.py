"""Filters (accounts.filters) against a real Redis: the store, its checks, the muted
words as one filter, the one rule, and the upgrade that moves old muted words."""

import importlib
import time
from io import StringIO

import pytest
from django.core.management import call_command

from accounts import filters
from socialsite import jobs
from timeline import keys
from timeline.feeds import selectors as feeds
from timeline.graph.services import follow_user
from timeline.posting.services import post_status
from timeline.safety import services as safety
from timeline.tests.pages import ids

pytestmark = pytest.mark.django_db
upgrade = importlib.import_module("timeline.data_migrations.0009_muted_words_filters")


def test_a_filter_is_made_read_changed_and_deleted(alice):
    made = filters.create_filter(
        alice.uid, title="Spoilers", context=["home", "public"], keywords=[("finale", True)]
    )
    assert filters.get_filter(alice.uid, made["id"]) == made
    assert made["filter_action"] == "warn" and made["expires_at"] is None
    keyword = filters.add_keyword(alice.uid, made["id"], "ending", False)
    changed = filters.update_filter(alice.uid, made["id"], changes={"filter_action": "hide"})
    assert [k["keyword"] for k in changed["keywords"]] == ["finale", "ending"]
    filters.delete_part(alice.uid, "keywords", keyword["id"])
    assert [k["keyword"] for k in filters.list_filters(alice.uid)[0]["keywords"]] == ["finale"]
    filters.delete_filter(alice.uid, made["id"])
    assert filters.list_filters(alice.uid) == []
    with pytest.raises(filters.NoSuchFilter):
        filters.get_filter(alice.uid, made["id"])


@pytest.mark.parametrize(
    "bad",
    [
        {"title": ""},
        {"context": ["everywhere"]},
        {"context": []},
        {"filter_action": "blur"},
        {"expires_in": "-5"},
        {"keywords": [("x" * 61, True)]},
        {"keywords": [("...", True)]},
    ],
)
def test_bad_filters_are_refused_and_store_nothing(alice, bad):
    given = {"title": "t", "context": ["home"], **bad}
    with pytest.raises(ValueError):
        filters.create_filter(alice.uid, **given)
    assert filters.list_filters(alice.uid) == []


def test_another_users_filter_is_not_found(alice, bob):
    made = filters.create_filter(alice.uid, title="mine", context=["home"])
    with pytest.raises(filters.NoSuchFilter):
        filters.delete_filter(bob.uid, made["id"])
    assert filters.list_filters(alice.uid) == [made]


def test_muted_words_are_a_hiding_home_filter_one_rule_for_both(alice, bob):
    follow_user(alice.uid, bob.uid)
    safety.set_muted_words(alice.uid, "cats\nred dogs")
    (muted,) = filters.list_filters(alice.uid)
    assert muted["title"] == "Muted words" and muted["filter_action"] == "hide"
    assert muted["context"] == ["home"]
    hidden = post_status(bob.uid, "Cats! again")
    also = post_status(bob.uid, "dogs that are red")
    shown = post_status(bob.uid, "a red fox")
    jobs.work(burst=True)
    assert ids(feeds.get_status_messages(alice.uid)) == [shown]
    assert {hidden, also} <= set(ids(feeds.get_status_messages(bob.uid)))  # his own
    safety.set_muted_words(alice.uid, "red dogs")
    assert ids(feeds.get_status_messages(alice.uid)) == [shown, hidden]
    safety.set_muted_words(alice.uid, "")
    assert filters.list_filters(alice.uid) == []


def test_a_hiding_filter_hides_by_part_of_a_word_and_by_status_and_ends(alice, bob):
    follow_user(alice.uid, bob.uid)
    partly = post_status(bob.uid, "unbelievable")
    chosen = post_status(bob.uid, "this one")
    kept = post_status(bob.uid, "something else")
    made = filters.create_filter(
        alice.uid,
        title="soon over",
        context=["home"],
        filter_action="hide",
        expires_in=60,
        keywords=[("believ", False)],
    )
    filters.add_status(alice.uid, made["id"], chosen)
    assert ids(feeds.get_status_messages(alice.uid)) == [kept]
    # A warning filter, or one for elsewhere, hides nothing from home.
    filters.update_filter(alice.uid, made["id"], changes={"filter_action": "warn"})
    assert len(ids(feeds.get_status_messages(alice.uid))) == 3
    filters.update_filter(
        alice.uid, made["id"], changes={"filter_action": "hide", "context": ["public"]}
    )
    assert len(ids(feeds.get_status_messages(alice.uid))) == 3
    assert partly


def test_matches_names_the_keywords_and_statuses_and_skips_ended_filters(alice):
    made = filters.create_filter(
        alice.uid, title="w", context=["thread"], keywords=[("red fox", True), ("zz", False)]
    )
    status = {"id": "5", "uid": 2, "message": "A fox, red as ever", "spoiler_text": ""}
    (result,) = filters.matches(status, [made])
    assert result["keyword_matches"] == ["red fox"] and result["status_matches"] == []
    ended = {**made, "expires_at": time.time() - 1}
    assert filters.matches(status, [ended]) == []
    repost = {"id": "9", "uid": 3, "message": "", "original": {**status, "message": "zzz"}}
    assert filters.matches(repost, [made])[0]["keyword_matches"] == ["zz"]


def test_the_upgrade_moves_old_muted_words_into_the_filter(alice, redis_conn):
    redis_conn.sadd(keys.muted_words_key(alice.uid), "cats", "red dogs")
    redis_conn.set(keys.DATA_VERSION, 8)
    out = StringIO()
    call_command("migrate", verbosity=0, stdout=out)
    assert "  Moved the muted words of 1 users into filters." in out.getvalue()
    assert safety.muted_words(alice.uid) == ["cats", "red dogs"]
    assert not redis_conn.exists(keys.muted_words_key(alice.uid))
    upgrade.apply(lambda line: None)  # again: nothing to move, nothing changes
    assert safety.muted_words(alice.uid) == ["cats", "red dogs"]

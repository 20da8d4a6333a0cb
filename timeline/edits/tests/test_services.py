import pytest
from django.test import override_settings

from socialsite import jobs
from timeline import keys
from timeline.conversations import selectors as conversations
from timeline.edits import selectors, services
from timeline.feeds.selectors import shown_status
from timeline.graph import services as graph
from timeline.notifications.selectors import notifications_page
from timeline.posting import services as posting
from timeline.reactions import services as reactions
from timeline.search.selectors import search_statuses
from timeline.statuses import selectors as status_selectors
from timeline.statuses.selectors import StatusGone


def _updates(uid: int) -> list:
    page = notifications_page(uid, 1, 30)
    return [n for n in page.notifications if n.kind == "update"]


def test_an_edit_changes_the_text_and_keeps_the_version_it_replaces(alice):
    status_id = posting.post_status(alice.uid, "helo world")
    before = status_selectors.get_status(status_id)
    edited = services.edit_status(alice.uid, status_id, "hello world")
    assert edited["message"] == "hello world" and edited["edited"] >= before["posted"]
    stored = status_selectors.get_status(status_id)
    assert stored["message"] == "hello world" and stored["edited"] == edited["edited"]
    versions = selectors.history(stored)
    assert [v.message for v in versions] == ["helo world", "hello world"]
    assert versions[0].at == before["posted"] and versions[1].at == edited["edited"]


def test_each_edit_adds_a_version_and_the_warning_and_sensitive_flag_are_kept(alice):
    status_id = posting.post_status(alice.uid, "one")
    services.edit_status(alice.uid, status_id, "two", spoiler_text="spoilers", sensitive=True)
    services.edit_status(alice.uid, status_id, "three")
    stored = status_selectors.get_status(status_id)
    assert stored["spoiler_text"] == "spoilers" and stored["sensitive"] == "1"
    versions = selectors.history(stored)
    assert [(v.message, v.spoiler_text, v.sensitive) for v in versions] == [
        ("one", "", False),
        ("two", "spoilers", True),
        ("three", "spoilers", True),
    ]
    services.edit_status(alice.uid, status_id, "three", spoiler_text="", sensitive=False)
    stored = status_selectors.get_status(status_id)
    assert "spoiler_text" not in stored and "sensitive" not in stored
    assert len(selectors.history(stored)) == 4


def test_an_edit_that_changes_nothing_keeps_no_version(alice):
    status_id = posting.post_status(alice.uid, "same")
    services.edit_status(alice.uid, status_id, "same")
    stored = status_selectors.get_status(status_id)
    assert "edited" not in stored and len(selectors.history(stored)) == 1


def test_only_the_author_edits_and_nothing_changes_otherwise(alice, bob):
    status_id = posting.post_status(alice.uid, "mine")
    with pytest.raises(services.NotYours):
        services.edit_status(bob.uid, status_id, "yours now")
    assert status_selectors.get_status(status_id)["message"] == "mine"
    with pytest.raises(StatusGone):
        services.edit_status(alice.uid, 10**9, "nothing there")


def test_a_repost_and_a_bad_text_are_refused(alice, bob):
    status_id = posting.post_status(alice.uid, "original")
    repost = reactions.repost(bob.uid, status_id)
    with pytest.raises(services.EditRefused):
        services.edit_status(bob.uid, repost, "changed")
    for bad in ("", "   ", "x" * 281, "bad\x00text"):
        with pytest.raises(ValueError):
            services.edit_status(alice.uid, status_id, bad)
    with pytest.raises(ValueError):
        services.edit_status(alice.uid, status_id, "fine", spoiler_text="w" * 280)
    assert status_selectors.get_status(status_id)["message"] == "original"


@override_settings(STATUS_VERSIONS_KEPT=2)
def test_a_status_is_edited_at_most_so_many_times(alice):
    status_id = posting.post_status(alice.uid, "v0")
    services.edit_status(alice.uid, status_id, "v1")
    services.edit_status(alice.uid, status_id, "v2")
    with pytest.raises(services.EditRefused):
        services.edit_status(alice.uid, status_id, "v3")
    assert status_selectors.get_status(status_id)["message"] == "v2"


def test_the_kept_status_is_forgotten_and_the_change_published(alice, redis_conn):
    status_id = posting.post_status(alice.uid, "before")
    assert shown_status(status_id)["message"] == "before"
    # Other processes forget their copy by the key published on the changes channel.
    changes = redis_conn.pubsub(ignore_subscribe_messages=True)
    changes.subscribe(keys.STATUS_CHANGES_CHANNEL)
    changes.get_message(timeout=1)
    services.edit_status(alice.uid, status_id, "after")
    published = []
    while message := changes.get_message(timeout=0.2):
        published.append(message["data"])
    changes.close()
    assert keys.status_key(status_id) in published
    assert shown_status(status_id)["message"] == "after"


def test_an_edit_publishes_an_update_event(alice, events):
    status_id = posting.post_status(alice.uid, "draft")
    events()
    services.edit_status(alice.uid, status_id, "final")
    (event,) = events()
    assert event["id"] == status_id and event["updated"] is True
    assert event["message"] == "final" and event["edited"]


def test_search_and_tags_follow_the_new_text(alice):
    status_id = posting.post_status(alice.uid, "about #cats and kittens")
    services.edit_status(alice.uid, status_id, "about #dogs and puppies")
    assert [s["id"] for s in search_statuses("puppies").statuses] == [status_id]
    assert search_statuses("kittens").statuses == []
    assert conversations.tag_ids("dogs") == [status_id]
    assert conversations.tag_ids("cats") == []
    # Words both versions have stay found.
    assert [s["id"] for s in search_statuses("about").statuses] == [status_id]


def test_reposters_likers_repliers_and_quoters_are_told_but_not_the_author(alice, make_user):
    liker, reposter, replier, quoter, other = (make_user().uid for _ in range(5))
    status_id = posting.post_status(alice.uid, "first")
    reactions.like(liker, status_id)
    reactions.repost(reposter, status_id)
    posting.post_status(replier, "an answer", in_reply_to=status_id)
    posting.post_status(quoter, "look at this", quote_id=status_id)
    posting.post_status(alice.uid, "my own answer", in_reply_to=status_id)
    services.edit_status(alice.uid, status_id, "second")
    for uid in (liker, reposter, replier, quoter):
        (update,) = _updates(uid)
        assert update.status["id"] == status_id and update.logins == [alice.login]
    assert _updates(other) == [] and _updates(alice.uid) == []


def test_a_second_edit_tells_them_again_once(alice, bob):
    status_id = posting.post_status(alice.uid, "first")
    reactions.like(bob.uid, status_id)
    services.edit_status(alice.uid, status_id, "second")
    services.edit_status(alice.uid, status_id, "third")
    assert len(_updates(bob.uid)) == 1


@override_settings(POSTS_PER_PASS=2, EDIT_NOTIFICATIONS_INLINE=3)
def test_a_big_audience_is_told_by_jobs_a_pass_at_a_time(alice, make_user, redis_conn):
    likers = [make_user().uid for _ in range(5)]
    status_id = posting.post_status(alice.uid, "popular")
    for liker in likers:
        reactions.like(liker, status_id)
    services.edit_status(alice.uid, status_id, "popular, edited")
    assert not any(_updates(uid) for uid in likers)
    assert jobs.unfinished_jobs("notify_edit")
    jobs.work(burst=True)
    assert all(len(_updates(uid)) == 1 for uid in likers)


@override_settings(EDIT_NOTIFICATIONS_INLINE=0)
def test_a_job_for_an_edit_made_stale_by_the_next_one_tells_nobody(alice, bob):
    status_id = posting.post_status(alice.uid, "first")
    reactions.like(bob.uid, status_id)
    first = services.edit_status(alice.uid, status_id, "second")
    services.edit_status(alice.uid, status_id, "third")
    assert services.notify_edit_batch(services.notify_job(first, 0)[1]) == []
    jobs.work(burst=True)
    assert len(_updates(bob.uid)) == 1


def test_a_deleted_status_takes_its_versions_along(alice, redis_conn):
    status_id = posting.post_status(alice.uid, "soon gone")
    services.edit_status(alice.uid, status_id, "soon gone, edited")
    assert redis_conn.exists(keys.status_versions_key(status_id))
    posting.delete_status(alice.uid, status_id)
    assert not redis_conn.exists(keys.status_versions_key(status_id))


def test_a_private_accounts_edit_tells_only_its_followers(make_user):
    from timeline.safety import services as safety

    author, fan = make_user(), make_user()
    graph.follow_user(fan.uid, author.uid)
    status_id = posting.post_status(author.uid, "public at first")
    reactions.like(fan.uid, status_id)
    safety.set_private(author.uid, True)
    services.edit_status(author.uid, status_id, "private now")
    assert len(_updates(fan.uid)) == 1


def test_an_edit_is_2_round_trips_and_3_with_replies(alice, bob, round_trips):
    status_id = posting.post_status(alice.uid, "count me")
    reactions.like(bob.uid, status_id)
    assert round_trips(lambda: services.edit_status(alice.uid, status_id, "counted")) == 2
    posting.post_status(bob.uid, "an answer", in_reply_to=status_id)
    assert round_trips(lambda: services.edit_status(alice.uid, status_id, "recounted")) == 3

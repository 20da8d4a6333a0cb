import pytest
from django.test import override_settings

from accounts.services import set_suspended
from socialsite import jobs
from timeline.conversations import selectors as conversation_selectors
from timeline.feeds import selectors as feeds
from timeline.graph import services as graph
from timeline.posting import services as posting
from timeline.reactions import services as reactions
from timeline.statuses import selectors as status_selectors
from timeline.tests.pages import ids

# Mentions


def test_a_mention_reaches_the_mentioned_users_mentions_timeline(make_user):
    alice, bob = make_user("alice").uid, make_user("bob").uid
    sid = posting.post_status(alice, "hello @Bob, meet @nobody")
    assert ids(conversation_selectors.mentions_page(bob).statuses) == [sid]


def test_only_mentions_of_existing_users_are_recorded_on_the_status(make_user):
    alice = make_user("alice").uid
    make_user("Bob")
    sid = posting.post_status(alice, "hi @BOB and @nobody and @alice")
    status = status_selectors.get_status(sid)
    assert status["mentions"] == "bob alice"
    assert conversation_selectors.mentions_page(alice).statuses == []  # not your own mention


def test_a_status_without_known_mentions_records_none(make_user):
    sid = posting.post_status(make_user().uid, "hi @nobody")
    assert "mentions" not in status_selectors.get_status(sid)


def test_mentions_timeline_is_newest_first_and_paginated(make_user):
    alice, bob = make_user("alice").uid, make_user("bob").uid
    sids = [posting.post_status(alice, f"@bob #{i}") for i in range(5)]
    first = conversation_selectors.mentions_page(bob, page=1, count=2)
    assert ids(first.statuses) == sids[::-1][:2] and first.has_older
    assert ids(conversation_selectors.mentions_page(bob, page=3, count=2).statuses) == [sids[0]]


def test_the_published_status_carries_its_mentions(make_user, events):
    alice = make_user("alice").uid
    make_user("bob")
    posting.post_status(alice, "hey @bob")
    (event,) = events()
    assert event["mentions"] == "bob"


def test_deleting_a_status_takes_it_out_of_the_mentions_timeline(make_user):
    alice, bob = make_user("alice").uid, make_user("bob").uid
    sid = posting.post_status(alice, "hey @bob")
    posting.delete_status(alice, sid)
    assert conversation_selectors.mention_ids(bob) == []


# Tags


def test_tags_are_case_insensitive(make_user):
    uid = make_user().uid
    first = posting.post_status(uid, "learning #Redis")
    second = posting.post_status(uid, "more #REDIS and #python")
    assert ids(conversation_selectors.tag_page("redis").statuses) == [second, first]
    assert ids(conversation_selectors.tag_page("#ReDiS").statuses) == [second, first]
    assert ids(conversation_selectors.tag_page("python").statuses) == [second]


@pytest.mark.parametrize("tag", ["", "#", "two words", "a-b", "x" * 101, None])
def test_a_bad_tag_is_refused(tag):
    with pytest.raises(ValueError):
        conversation_selectors.tag_page(tag)


def test_deleting_a_status_takes_it_out_of_its_tag_timelines(make_user):
    uid = make_user().uid
    sid = posting.post_status(uid, "#gone soon")
    posting.delete_status(uid, sid)
    assert conversation_selectors.tag_ids("gone") == []


# Replies


def test_a_reply_records_what_it_answers_and_counts_on_the_parent(make_user):
    alice, bob = make_user("alice").uid, make_user("bob").uid
    parent = posting.post_status(alice, "question?")
    reply = posting.post_status(bob, "answer", in_reply_to=parent)
    status = status_selectors.get_status(reply)
    assert (status["in_reply_to"], status["in_reply_to_uid"]) == (parent, alice)
    assert status["in_reply_to_login"] == "alice"
    assert status_selectors.get_status(parent)["replies"] == 1


def test_a_reply_count_equals_the_reply_set(make_user):
    alice, bob = make_user().uid, make_user().uid
    parent = posting.post_status(alice, "q")
    replies = [posting.post_status(bob, f"a{i}", in_reply_to=parent) for i in range(3)]
    posting.delete_status(bob, replies[1])
    assert status_selectors.get_status(parent)["replies"] == 2
    assert len(conversation_selectors.reply_ids(parent)) == 2


@pytest.mark.parametrize("parent", [424242, "x", "", -1])
def test_replying_to_an_unknown_status_is_refused_and_stores_nothing(make_user, parent):
    uid = make_user().uid
    with pytest.raises(ValueError, match="doesn't exist or was deleted"):
        posting.post_status(uid, "hello?", in_reply_to=parent)
    assert feeds.get_status_messages(uid, "profile") == []


def test_replying_to_a_deleted_status_is_refused_and_stores_nothing(make_user):
    alice, bob = make_user().uid, make_user().uid
    parent = posting.post_status(alice, "soon gone")
    posting.delete_status(alice, parent)
    with pytest.raises(ValueError, match="doesn't exist or was deleted"):
        posting.post_status(bob, "too late", in_reply_to=parent)
    assert feeds.get_status_messages(bob, "profile") == []


@pytest.mark.parametrize("field", ["in_reply_to_uid", "replies", "repost_of", "mentions"])
def test_reserved_fields_cant_be_set_as_extra_data(make_user, field):
    uid = make_user().uid
    with pytest.raises(ValueError, match=field):
        posting.post_status(uid, "sneaky", **{field: "1"})
    assert feeds.get_status_messages(uid, "profile") == []


def test_a_reply_reaches_followers_of_its_author_who_follow_the_answered_user(make_user):
    author, answered = make_user("author").uid, make_user("answered").uid
    both, author_only = make_user("both").uid, make_user("author_only").uid
    for follower in (both, author_only):
        graph.follow_user(follower, author)
    graph.follow_user(both, answered)
    graph.follow_user(answered, author)
    parent = posting.post_status(answered, "what do you think?")
    reply = posting.post_status(author, "I think so", in_reply_to=parent)
    assert reply in ids(feeds.get_status_messages(both))
    assert reply in ids(feeds.get_status_messages(answered))  # it answers them
    assert reply not in ids(feeds.get_status_messages(author_only))
    assert reply in ids(feeds.get_status_messages(author))


def test_the_answered_user_doesnt_get_a_reply_from_someone_they_dont_follow(make_user):
    author, answered = make_user().uid, make_user().uid
    parent = posting.post_status(answered, "hi")
    reply = posting.post_status(author, "hello", in_reply_to=parent)
    assert reply not in ids(feeds.get_status_messages(answered))


def test_a_reply_to_yourself_reaches_all_your_followers(make_user, followers_of):
    author = make_user().uid
    fans = followers_of(author, 3)
    first = posting.post_status(author, "a thread 1/2")
    second = posting.post_status(author, "2/2", in_reply_to=first)
    for fan in fans:
        assert ids(feeds.get_status_messages(fan)) == [second, first]


@override_settings(POSTS_PER_PASS=2, FAN_OUT_JOB_SIZE=2)
def test_the_reply_rule_holds_for_followers_reached_by_the_worker(make_user, followers_of):
    author, answered = make_user().uid, make_user().uid
    fans = followers_of(author, 6)
    for fan in fans[::2]:
        graph.follow_user(fan, answered)
    parent = posting.post_status(answered, "q")
    reply = posting.post_status(author, "a", in_reply_to=parent)
    jobs.work(burst=True)
    reached = [fan for fan in fans if reply in ids(feeds.get_status_messages(fan))]
    assert reached == fans[::2]


def test_replying_to_a_repost_answers_its_original(make_user):
    alice, bob, carol = make_user().uid, make_user().uid, make_user().uid
    original = posting.post_status(alice, "original")
    repost = reactions.repost(bob, original)
    reply = posting.post_status(carol, "re", in_reply_to=repost)
    assert status_selectors.get_status(reply)["in_reply_to"] == original
    assert status_selectors.get_status(original)["replies"] == 1


def test_the_conversation_shows_the_chain_above_and_the_replies_below(make_user):
    alice, bob = make_user().uid, make_user().uid
    root = posting.post_status(alice, "root")
    middle = posting.post_status(bob, "middle", in_reply_to=root)
    leaf = posting.post_status(alice, "leaf", in_reply_to=middle)
    other = posting.post_status(alice, "other branch", in_reply_to=middle)
    view = conversation_selectors.conversation(middle)
    assert ids(view.ancestors) == [root]
    assert view.status["id"] == middle
    assert ids(view.replies) == [leaf, other]
    assert ids(conversation_selectors.conversation(leaf).ancestors) == [root, middle]


def test_a_deleted_status_in_the_chain_is_a_gap(make_user):
    alice = make_user().uid
    root = posting.post_status(alice, "root")
    middle = posting.post_status(alice, "middle", in_reply_to=root)
    leaf = posting.post_status(alice, "leaf", in_reply_to=middle)
    posting.delete_status(alice, middle)
    view = conversation_selectors.conversation(leaf)
    assert view.ancestors[0]["id"] == root and view.ancestors[1] is None


def test_there_is_no_conversation_for_an_unknown_status():
    assert conversation_selectors.conversation(424242) is None


def test_a_reply_event_says_what_it_answers(make_user, events):
    alice, bob = make_user().uid, make_user().uid
    parent = posting.post_status(alice, "q")
    events()
    reply = posting.post_status(bob, "a", in_reply_to=parent)
    (event,) = events()
    assert (event["id"], event["in_reply_to"]) == (reply, str(parent))


# Suspended authors: their statuses read as deleted in conversations too


@pytest.mark.django_db
def test_there_is_no_conversation_for_a_suspended_users_status_or_a_repost_of_it(make_user):
    author, reposter = make_user().uid, make_user().uid
    theirs = posting.post_status(author, "soon hidden")
    repost = reactions.repost(reposter, theirs)
    set_suspended(author, True)
    assert conversation_selectors.conversation(theirs) is None
    assert conversation_selectors.conversation(repost) is None
    set_suspended(author, False)
    assert conversation_selectors.conversation(theirs).status["id"] == theirs


@pytest.mark.django_db
def test_a_suspended_users_repost_has_no_conversation(make_user):
    author, reposter = make_user().uid, make_user().uid
    original = posting.post_status(author, "fine")
    repost = reactions.repost(reposter, original)
    set_suspended(reposter, True)
    assert conversation_selectors.conversation(repost) is None
    assert conversation_selectors.conversation(original).status["id"] == original


@pytest.mark.django_db
def test_a_suspended_users_status_in_the_chain_is_a_gap_and_their_replies_are_left_out(
    make_user,
):
    alice, bob = make_user().uid, make_user().uid
    root = posting.post_status(bob, "root")
    middle = posting.post_status(alice, "middle", in_reply_to=root)
    leaf = posting.post_status(bob, "leaf", in_reply_to=middle)
    bobs_reply = posting.post_status(bob, "bob answers", in_reply_to=middle)
    alices_reply = posting.post_status(alice, "alice answers", in_reply_to=middle)
    set_suspended(bob, True)
    view = conversation_selectors.conversation(middle)
    assert view.ancestors == [None]
    assert ids(view.replies) == [alices_reply]
    assert conversation_selectors.conversation(alices_reply).ancestors[0] is None
    assert conversation_selectors.conversation(leaf) is None
    assert conversation_selectors.conversation(bobs_reply) is None


@pytest.mark.django_db
def test_replying_to_a_suspended_users_status_is_refused_and_stores_nothing(make_user):
    author, replier = make_user().uid, make_user().uid
    parent = posting.post_status(author, "q")
    repost = reactions.repost(make_user().uid, parent)
    set_suspended(author, True)
    for target in (parent, repost):
        with pytest.raises(status_selectors.StatusGone, match="doesn't exist or was deleted"):
            posting.post_status(replier, "a", in_reply_to=target)
    assert status_selectors.get_status(parent)["replies"] == 0
    assert feeds.get_status_messages(replier, "profile") == []

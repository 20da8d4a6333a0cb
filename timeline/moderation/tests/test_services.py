import pytest
from django.core.management import call_command

from accounts import services as account_services
from accounts.services import AccountSuspended, get_user, set_suspended, uid_for_login
from timeline import keys
from timeline.conversations import selectors as conversation_selectors
from timeline.feeds import selectors as feeds
from timeline.graph import services as graph
from timeline.lists import selectors as list_selectors
from timeline.lists import services as lists
from timeline.moderation import selectors as moderation_selectors
from timeline.moderation import services as moderation
from timeline.ops import maintenance
from timeline.posting import services as posting
from timeline.reactions import selectors as reaction_selectors
from timeline.reactions import services as reactions
from timeline.statuses import selectors as status_selectors
from timeline.statuses import services as statuses
from timeline.tests.pages import ids


@pytest.mark.django_db
def test_a_suspended_users_statuses_are_hidden_from_every_timeline(make_user):
    author, reader = make_user().uid, make_user().uid
    graph.follow_user(reader, author)
    theirs = posting.post_status(author, "soon hidden")
    mine = posting.post_status(reader, "still shown")
    set_suspended(author, True)
    assert ids(feeds.get_status_messages(reader)) == [mine]
    assert feeds.get_status_messages(author, "profile") == []
    assert ids(feeds.global_timeline_page().statuses) == [mine]
    assert ids(moderation_selectors.statuses_by(author).statuses) == [theirs]
    set_suspended(author, False)
    assert ids(feeds.get_status_messages(reader)) == [mine, theirs]


@pytest.mark.django_db
def test_a_suspended_user_cannot_post_and_nothing_is_stored(make_user):
    uid = make_user().uid
    set_suspended(uid, True)
    with pytest.raises(AccountSuspended, match="suspended"):
        posting.post_status(uid, "let me in")
    with pytest.raises(AccountSuspended):
        statuses.create_status(uid, "let me in")
    assert get_user(uid)["posts"] == 0
    assert feeds.global_timeline_page().statuses == []


@pytest.mark.django_db
def test_deleting_a_user_with_many_followers_works_through_batches(
    make_user, followers_of, monkeypatch
):
    monkeypatch.setattr(moderation, "PURGE_BATCH", 3)
    author, followed = make_user("leaving").uid, make_user().uid
    fans = followers_of(author, 8)
    for other in [followed, *fans[:4]]:
        graph.follow_user(author, other)
    posted = [posting.post_status(author, f"status {i}") for i in range(7)]
    kept = posting.post_status(fans[0], "a fan's own")

    account_services.close_account(author)
    call_command("worker", burst=True)

    assert get_user(author) is None and uid_for_login("leaving") is None
    assert all(status_selectors.get_status(sid) is None for sid in posted)
    for fan in fans:
        assert get_user(fan)["following"] == 0
        assert posted[0] not in ids(feeds.get_status_messages(fan))
    assert [get_user(f)["followers"] for f in [followed, *fans[:4]]] == [0] * 5
    assert ids(feeds.get_status_messages(fans[0])) == [kept]
    assert maintenance.repair().findings == []


def test_deleting_an_unknown_user_is_refused():
    with pytest.raises(ValueError):
        account_services.close_account(12345)


def test_latest_statuses_walks_back_by_id_skipping_deleted_ones(make_user):
    uid = make_user().uid
    posted = [posting.post_status(uid, f"s{i}") for i in range(7)]
    posting.delete_status(uid, posted[5])
    posting.delete_status(uid, posted[4])
    page, cursor = moderation_selectors.latest_statuses(count=3)
    assert ids(page) == [posted[6], posted[3], posted[2]]
    page, cursor = moderation_selectors.latest_statuses(before=cursor, count=3)
    assert ids(page) == [posted[1], posted[0]]
    assert cursor == 0


def test_latest_statuses_refuses_a_negative_cursor():
    with pytest.raises(ValueError):
        moderation_selectors.latest_statuses(before=-1)


# Deleting a user leaves nothing of theirs behind: likes, lists, list memberships,
# mentions and tags, with everyone else's counts right.


@pytest.fixture
def ids_apart_from_uids(redis_conn):
    """Status and list ids start far above the uids, so no status or list key shares
    a user's hash tag (keys_tagged)."""
    redis_conn.set(keys.STATUS_ID_COUNTER, 1_000_000)
    redis_conn.set(keys.LIST_ID_COUNTER, 2_000_000)


def keys_tagged(redis_conn, tag: int) -> list[str]:
    """Every key whose hash tag is `tag`: for a uid, every key of that user's own data
    (so a key added to a user later needs no change here)."""
    return sorted(redis_conn.scan_iter(match=f"*{{{tag}}}*", count=1000))


@pytest.fixture
def leaving_network(make_user, ids_apart_from_uids):
    """`leaving` likes, reposts, replies, mentions, tags, owns a list and is on one;
    `ann`, `ben` and `cat` are the others."""
    leaving, ann, ben, cat = (
        make_user("leaving").uid,
        make_user("ann").uid,
        make_user("ben").uid,
        make_user().uid,
    )
    graph.follow_user(ann, leaving)
    anns = posting.post_status(ann, "ann's, liked by two")
    bens = posting.post_status(ben, "ben's, liked by one")
    reactions.like(cat, anns)
    reactions.like(leaving, anns)
    reactions.like(leaving, bens)
    theirs = lists.create_list(leaving, "theirs")
    lists.add_member(leaving, theirs, ann)
    lists.add_member(leaving, theirs, ben)
    anns_list = lists.create_list(ann, "ann's")
    lists.add_member(ann, anns_list, ben)
    lists.add_member(ann, anns_list, leaving)
    tagged = posting.post_status(leaving, "hi @ann #farewell")
    reply = posting.post_status(leaving, "a reply", in_reply_to=bens)
    repost = reactions.repost(leaving, anns)
    mention = posting.post_status(ben, "bye @leaving")
    return {
        "leaving": leaving,
        "ann": ann,
        "ben": ben,
        "cat": cat,
        "anns": anns,
        "bens": bens,
        "theirs": theirs,
        "anns_list": anns_list,
        "posted": [tagged, reply, repost],
        "mention": mention,
    }


@pytest.mark.django_db
def test_deleting_a_user_takes_back_their_likes_lists_and_memberships(leaving_network, redis_conn):
    n = leaving_network
    leaving, ann, ben, cat = n["leaving"], n["ann"], n["ben"], n["cat"]
    on_anns_list = list_selectors.timeline_ids(n["anns_list"])
    assert set(n["posted"]) <= set(on_anns_list)
    assert conversation_selectors.mention_ids(ann) == [n["posted"][0]]
    assert len(keys_tagged(redis_conn, leaving)) > 5

    account_services.close_account(leaving)
    call_command("worker", burst=True)

    assert keys_tagged(redis_conn, leaving) == []
    # Likes: the counts and likers lose exactly their like.
    anns, bens = status_selectors.get_status(n["anns"]), status_selectors.get_status(n["bens"])
    assert (anns["likes"], bens["likes"]) == (1, 0)
    assert reaction_selectors.liker_uids(n["anns"]) == [cat]
    assert reaction_selectors.liker_uids(n["bens"]) == []
    # Their reply and repost are uncounted with the statuses.
    assert (anns["reposts"], bens["replies"]) == (0, 0)
    # Their list is gone, and its members aren't "listed in" it any more.
    assert keys_tagged(redis_conn, n["theirs"]) == []  # every key of the list
    assert list_selectors.get_list(n["theirs"]) is None
    for member in (ann, ben):
        assert n["theirs"] not in list_selectors.listed_in(member)
    assert list_selectors.listed_in(ben) == [n["anns_list"]]
    # They are off ann's list, with their statuses, and its count is right.
    assert list_selectors.member_uids(n["anns_list"]) == [ben]
    assert list_selectors.get_list(n["anns_list"])["members"] == 1
    timeline = list_selectors.timeline_ids(n["anns_list"])
    assert timeline == [n["mention"], n["bens"]]  # ben's own stay
    # Mentions and tags: theirs are out of others' timelines; their own mentions go.
    assert conversation_selectors.mention_ids(ann) == []
    assert conversation_selectors.tag_ids("farewell") == []
    assert status_selectors.get_status(n["mention"])  # others' statuses stay
    assert maintenance.repair().findings == []


@pytest.mark.django_db
def test_a_deleted_users_data_goes_in_batches_when_there_is_a_lot(
    make_user, monkeypatch, redis_conn, ids_apart_from_uids
):
    monkeypatch.setattr(moderation, "PURGE_BATCH", 2)
    leaving = make_user("leaving").uid
    others = [make_user().uid for _ in range(5)]
    liked = [posting.post_status(other, "like me") for other in others]
    for status_id in liked:
        reactions.like(leaving, status_id)
    owned = [lists.create_list(leaving, f"list {i}") for i in range(3)]
    for list_id in owned:
        for other in others:
            lists.add_member(leaving, list_id, other)
    theirs = [lists.create_list(other, "with leaving") for other in others]
    for other, list_id in zip(others, theirs, strict=True):
        lists.add_member(other, list_id, leaving)

    account_services.close_account(leaving)
    call_command("worker", burst=True)

    assert keys_tagged(redis_conn, leaving) == []
    assert [status_selectors.get_status(s)["likes"] for s in liked] == [0] * 5
    for list_id in owned:
        assert keys_tagged(redis_conn, list_id) == []  # every key of the list
    for other, list_id in zip(others, theirs, strict=True):
        assert list_selectors.listed_in(other) == []  # only ever on theirs
        assert list_selectors.member_uids(list_id) == []
        assert list_selectors.get_list(list_id)["members"] == 0


@pytest.mark.django_db
def test_redoing_a_purge_step_cut_short_counts_nothing_twice(make_user, redis_conn):
    leaving, owner, fan = make_user("leaving").uid, make_user().uid, make_user().uid
    status_id = posting.post_status(owner, "liked")
    reactions.like(fan, status_id)
    reactions.like(leaving, status_id)
    list_id = lists.create_list(owner, "l")
    lists.add_member(owner, list_id, fan)
    lists.add_member(owner, list_id, leaving)
    set_suspended(leaving, True)

    assert reactions.take_back_likes(leaving, count=10)
    assert lists.leave_every_list(leaving, count=10)
    # As if each batch died before its last write: the user's side still names them.
    redis_conn.zadd(keys.likes_key(leaving), {status_id: 1})
    redis_conn.zadd(keys.listed_in_key(leaving), {list_id: 1})
    assert reactions.take_back_likes(leaving, count=10)
    assert lists.leave_every_list(leaving, count=10)
    assert not reactions.take_back_likes(leaving, count=10)
    assert not lists.leave_every_list(leaving, count=10)

    assert status_selectors.get_status(status_id)["likes"] == 1
    assert list_selectors.get_list(list_id)["members"] == 1
    assert list_selectors.member_uids(list_id) == [fan]


@pytest.mark.django_db
def test_a_list_membership_added_while_the_purge_runs_is_undone_too(
    make_user, redis_conn, ids_apart_from_uids
):
    leaving, owner = make_user("leaving").uid, make_user().uid
    list_id = lists.create_list(owner, "late")
    # An add that checked the member before their purge suspended them, and wrote after
    # the memberships phase: the profile phase still finds it.
    lists.add_member(owner, list_id, leaving)
    set_suspended(leaving, True)
    args = {"uid": leaving, "phase": "profile"}
    while follow_ups := moderation.purge_user_batch(args):
        ((_, args),) = follow_ups
    assert keys_tagged(redis_conn, leaving) == []
    assert list_selectors.member_uids(list_id) == []
    assert list_selectors.get_list(list_id)["members"] == 0

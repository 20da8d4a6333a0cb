import pytest
from django.test import override_settings

from accounts.services import set_suspended
from socialsite import jobs
from timeline import keys
from timeline.graph import selectors as graph_selectors
from timeline.lists import selectors as list_selectors
from timeline.lists import services as lists
from timeline.posting import services as posting
from timeline.reactions import services as reactions
from timeline.tests.pages import ids


def timeline(list_id):
    return ids(list_selectors.list_timeline_page(list_id).statuses)


def test_creating_a_list_lists_it_for_its_owner(make_user):
    owner = make_user().uid
    first = lists.create_list(owner, "  Friends ")
    second = lists.create_list(owner, "Redis people")
    assert [(x["id"], x["name"], x["members"]) for x in list_selectors.lists_of(owner)] == [
        (second, "Redis people", 0),
        (first, "Friends", 0),
    ]
    assert list_selectors.get_list(first)["owner"] == owner


@pytest.mark.parametrize("name", ["", "   ", "x" * 26, None])
def test_a_bad_list_name_is_refused_and_creates_nothing(make_user, name):
    owner = make_user().uid
    with pytest.raises(ValueError, match="1 to 25 characters"):
        lists.create_list(owner, name)
    assert list_selectors.lists_of(owner) == []


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("Fr\u202eiends", "a bidi override"),
        ("Fr\u200biends", "a zero-width character"),
        ("Fr\niends", "a control character"),
        ("Fr\tiends", "a control character"),
    ],
)
def test_a_list_name_with_invisible_characters_is_refused_and_changes_nothing(
    make_user, name, kind
):
    owner = make_user().uid
    with pytest.raises(ValueError, match=kind):
        lists.create_list(owner, name)
    assert list_selectors.lists_of(owner) == []
    list_id = lists.create_list(owner, "mine")
    with pytest.raises(ValueError, match=kind):
        lists.rename_list(owner, list_id, name)
    assert list_selectors.get_list(list_id)["name"] == "mine"


def test_a_25_character_name_is_fine(make_user):
    assert lists.create_list(make_user().uid, "x" * 25)


def test_renaming_a_list(make_user):
    owner = make_user().uid
    list_id = lists.create_list(owner, "old")
    lists.rename_list(owner, list_id, "new")
    assert list_selectors.get_list(list_id)["name"] == "new"


def test_renaming_with_a_bad_name_or_someone_elses_list_is_refused(make_user):
    owner, other = make_user().uid, make_user().uid
    list_id = lists.create_list(owner, "mine")
    with pytest.raises(ValueError, match="1 to 25"):
        lists.rename_list(owner, list_id, "x" * 26)
    with pytest.raises(PermissionError, match="isn't yours"):
        lists.rename_list(other, list_id, "theirs")
    with pytest.raises(ValueError, match="No such list"):
        lists.rename_list(owner, 424242, "ghost")
    assert list_selectors.get_list(list_id)["name"] == "mine"


def test_deleting_a_list_forgets_it_everywhere(make_user):
    owner, member = make_user().uid, make_user().uid
    posting.post_status(member, "hi")
    list_id = lists.create_list(owner, "doomed")
    lists.add_member(owner, list_id, member)
    lists.delete_list(owner, list_id)
    assert list_selectors.get_list(list_id) is None
    assert list_selectors.lists_of(owner) == []
    assert list_selectors.listed_in(member) == []
    assert list_selectors.timeline_ids(list_id) == []
    posting.post_status(member, "after")
    assert list_selectors.timeline_ids(list_id) == []


def test_deleting_someone_elses_list_or_none_is_refused(make_user):
    owner, other = make_user().uid, make_user().uid
    list_id = lists.create_list(owner, "mine")
    with pytest.raises(PermissionError, match="isn't yours"):
        lists.delete_list(other, list_id)
    with pytest.raises(ValueError, match="No such list"):
        lists.delete_list(owner, "nope")
    assert list_selectors.get_list(list_id)["name"] == "mine"


def test_adding_a_member_backfills_the_timeline_without_following(make_user):
    owner, member = make_user().uid, make_user().uid
    older = [posting.post_status(member, f"s{i}") for i in range(3)]
    list_id = lists.create_list(owner, "watch")
    lists.add_member(owner, list_id, member)
    assert timeline(list_id) == older[::-1]
    assert list_selectors.get_list(list_id)["members"] == 1
    assert not graph_selectors.is_following(owner, member)
    people, more = list_selectors.members_page(list_id)
    assert [p["id"] for p in people] == [member] and not more


def test_new_posts_of_members_reach_the_list_timeline(make_user):
    owner, alice, bob, outsider = make_user().uid, make_user().uid, make_user().uid, make_user().uid
    list_id = lists.create_list(owner, "two")
    lists.add_member(owner, list_id, alice)
    lists.add_member(owner, list_id, bob)
    first = posting.post_status(alice, "a")
    posting.post_status(outsider, "not listed")
    second = posting.post_status(bob, "b")
    assert timeline(list_id) == [second, first]


def test_reposts_by_members_reach_the_list_timeline(make_user):
    owner, member, author = make_user().uid, make_user().uid, make_user().uid
    list_id = lists.create_list(owner, "l")
    lists.add_member(owner, list_id, member)
    original = posting.post_status(author, "share me")
    repost = reactions.repost(member, original)
    assert timeline(list_id) == [repost]


@override_settings(POSTS_PER_PASS=2, FAN_OUT_JOB_SIZE=2)
def test_fan_out_past_the_first_pass_reaches_every_list(make_user):
    author = make_user().uid
    owners = [make_user().uid for _ in range(5)]
    list_ids = [lists.create_list(owner, "mine") for owner in owners]
    for owner, list_id in zip(owners, list_ids, strict=True):
        lists.add_member(owner, list_id, author)
    sid = posting.post_status(author, "to every list")
    reached = [list_id for list_id in list_ids if timeline(list_id) == [sid]]
    assert len(reached) == 2
    jobs.work(burst=True)
    assert all(timeline(list_id) == [sid] for list_id in list_ids)


@override_settings(POSTS_PER_PASS=2, FAN_OUT_JOB_SIZE=2)
def test_deleting_a_status_cleans_its_id_out_of_every_list_timeline(make_user):
    author = make_user().uid
    owners = [make_user().uid for _ in range(5)]
    list_ids = [lists.create_list(owner, "mine") for owner in owners]
    for owner, list_id in zip(owners, list_ids, strict=True):
        lists.add_member(owner, list_id, author)
    sid = posting.post_status(author, "soon gone")
    jobs.work(burst=True)
    posting.delete_status(author, sid)
    jobs.work(burst=True)
    for list_id in list_ids:
        assert sid not in list_selectors.timeline_ids(list_id)


def test_removing_a_member_empties_the_timeline_of_their_statuses(make_user):
    owner, alice, bob = make_user().uid, make_user().uid, make_user().uid
    list_id = lists.create_list(owner, "l")
    lists.add_member(owner, list_id, alice)
    lists.add_member(owner, list_id, bob)
    posting.post_status(alice, "a")
    kept = posting.post_status(bob, "b")
    lists.remove_member(owner, list_id, alice)
    assert timeline(list_id) == [kept]
    assert list_selectors.get_list(list_id)["members"] == 1
    assert len(list_selectors.member_uids(list_id)) == 1
    posting.post_status(alice, "after")
    assert timeline(list_id) == [kept]


@override_settings(HOME_TIMELINE_SIZE=5, REFILL_FOLLOWEES_PER_PASS=1)
def test_removing_a_member_refills_the_timeline_from_the_others(make_user):
    owner, bob, carol, dan = (make_user().uid for _ in range(4))
    list_id = lists.create_list(owner, "l")
    for member in (carol, dan, bob):
        lists.add_member(owner, list_id, member)
    carols = [posting.post_status(carol, f"c{i}") for i in range(4)]
    dans = [posting.post_status(dan, f"d{i}") for i in range(2)]
    bobs = [posting.post_status(bob, f"b{i}") for i in range(5)]
    assert timeline(list_id) == bobs[::-1]  # bob's newer statuses pushed the others out
    lists.remove_member(owner, list_id, bob)
    jobs.work(burst=True)
    assert timeline(list_id) == sorted([*carols, *dans], reverse=True)[:5]
    assert len(list_selectors.timeline_ids(list_id)) == 5


def test_a_refill_brings_back_only_members_still_on_the_list(make_user):
    owner, bob, carol = make_user().uid, make_user().uid, make_user().uid
    list_id = lists.create_list(owner, "l")
    lists.add_member(owner, list_id, bob)
    lists.add_member(owner, list_id, carol)
    posting.post_status(bob, "b")
    posting.post_status(carol, "c")
    lists.remove_member(owner, list_id, bob)
    lists.remove_member(owner, list_id, carol)
    jobs.work(burst=True)
    assert timeline(list_id) == []


def test_a_refill_of_a_deleted_list_does_not_recreate_it(make_user, redis_conn):
    owner, bob, carol = make_user().uid, make_user().uid, make_user().uid
    list_id = lists.create_list(owner, "l")
    lists.add_member(owner, list_id, bob)
    lists.add_member(owner, list_id, carol)
    posting.post_status(carol, "c")
    lists.remove_member(owner, list_id, bob)
    lists.delete_list(owner, list_id)
    # carol is back on the members set only if a crash left it behind: the hash decides.
    redis_conn.zadd(keys.list_members_key(list_id), {carol: 1.0})
    jobs.work(burst=True)
    assert list_selectors.timeline_ids(list_id) == []


def test_adding_an_unknown_user_is_refused_and_changes_nothing(make_user):
    owner = make_user().uid
    list_id = lists.create_list(owner, "l")
    for nobody in (424242, "x"):
        with pytest.raises(ValueError, match="No such user"):
            lists.add_member(owner, list_id, nobody)
    assert list_selectors.get_list(list_id)["members"] == 0
    assert list_selectors.member_uids(list_id) == []


@pytest.mark.django_db
def test_adding_a_suspended_user_is_refused_but_removing_one_is_not(make_user):
    owner, member, later = make_user().uid, make_user().uid, make_user().uid
    list_id = lists.create_list(owner, "l")
    lists.add_member(owner, list_id, later)
    set_suspended(member, True)
    set_suspended(later, True)
    with pytest.raises(ValueError, match="No such user"):
        lists.add_member(owner, list_id, member)
    assert list_selectors.listed_in(member) == []
    lists.remove_member(owner, list_id, later)
    assert list_selectors.get_list(list_id)["members"] == 0


def test_adding_to_someone_elses_list_is_refused_and_changes_nothing(make_user):
    owner, intruder, member = make_user().uid, make_user().uid, make_user().uid
    list_id = lists.create_list(owner, "l")
    with pytest.raises(PermissionError, match="isn't yours"):
        lists.add_member(intruder, list_id, member)
    with pytest.raises(ValueError, match="No such list"):
        lists.add_member(owner, 424242, member)
    assert list_selectors.listed_in(member) == list_selectors.member_uids(list_id) == []


def test_removing_from_someone_elses_list_is_refused_and_changes_nothing(make_user):
    owner, intruder, member = make_user().uid, make_user().uid, make_user().uid
    list_id = lists.create_list(owner, "l")
    lists.add_member(owner, list_id, member)
    with pytest.raises(PermissionError, match="isn't yours"):
        lists.remove_member(intruder, list_id, member)
    assert list_selectors.get_list(list_id)["members"] == 1


def test_adding_twice_or_removing_a_non_member_is_refused(make_user):
    owner, member = make_user().uid, make_user("member").uid
    list_id = lists.create_list(owner, "l")
    lists.add_member(owner, list_id, member)
    with pytest.raises(ValueError, match="member is already on this list"):
        lists.add_member(owner, list_id, member)
    lists.remove_member(owner, list_id, member)
    with pytest.raises(ValueError, match="member isn't on this list"):
        lists.remove_member(owner, list_id, member)
    assert list_selectors.get_list(list_id)["members"] == 0


def test_membership_changes_are_published(make_user, events):
    owner, member = make_user("owner").uid, make_user("member").uid
    list_id = lists.create_list(owner, "pals")
    events()
    lists.add_member(owner, list_id, member)
    lists.remove_member(owner, list_id, member)
    added, removed = events()
    assert (added["event"], added["source"]["login"], added["target"]["login"]) == (
        "list_member_added",
        "owner",
        "member",
    )
    assert added["target_object"] == {"id": list_id, "name": "pals"}
    assert removed["event"] == "list_member_removed"


def test_a_private_list_is_seen_only_by_its_owner(make_user):
    owner, other = make_user().uid, make_user().uid
    public = lists.create_list(owner, "open")
    private = lists.create_list(owner, "closed", private=True)
    assert list_selectors.get_list(private, owner)["private"]
    assert list_selectors.get_list(private, other) is None
    assert list_selectors.get_list(private) is None  # a visitor
    assert not list_selectors.get_list(public, other)["private"]
    assert [x["id"] for x in list_selectors.lists_of(owner, owner)] == [private, public]
    assert [x["id"] for x in list_selectors.lists_of(owner, other)] == [public]
    assert [x["id"] for x in list_selectors.lists_of(owner)] == [public]


def test_a_private_list_still_gets_its_members_statuses(make_user):
    owner, member = make_user().uid, make_user().uid
    private = lists.create_list(owner, "closed", private=True)
    lists.add_member(owner, private, member)
    sid = posting.post_status(member, "hello")
    assert timeline(private) == [sid]


def test_only_the_owner_makes_a_list_private_or_public(make_user):
    owner, other = make_user().uid, make_user().uid
    list_id = lists.create_list(owner, "l")
    with pytest.raises(PermissionError):
        lists.set_private(other, list_id, True)
    lists.set_private(owner, list_id, True)
    assert list_selectors.get_list(list_id, owner)["private"]
    # Someone else's private list reads as none at all, whatever they try.
    for attempt in (
        lambda: lists.set_private(other, list_id, False),
        lambda: lists.rename_list(other, list_id, "mine"),
        lambda: lists.add_member(other, list_id, other),
        lambda: lists.delete_list(other, list_id),
    ):
        with pytest.raises(list_selectors.NoSuchList):
            attempt()
    with pytest.raises(list_selectors.NoSuchList):
        lists.set_private(owner, 424242, False)
    lists.set_private(owner, list_id, False)
    assert list_selectors.get_list(list_id, other)["name"] == "l"


def test_lists_for_member_says_which_of_your_lists_they_are_on(make_user):
    owner, member = make_user().uid, make_user().uid
    on, off = lists.create_list(owner, "on"), lists.create_list(owner, "off", private=True)
    lists.add_member(owner, on, member)
    found = list_selectors.lists_for_member(owner, member)
    assert [(x["id"], x["has_member"]) for x in found] == [(off, False), (on, True)]
    assert list_selectors.lists_for_member(member, owner) == []

import pytest
from django.core.management import call_command

from accounts.services import get_user
from socialsite.redis import get_redis
from timeline import keys
from timeline.audience import selectors as safety
from timeline.feeds import selectors as feeds
from timeline.graph import services as graph
from timeline.graph.selectors import followers_page, following_page, is_following
from timeline.lists import selectors as list_selectors
from timeline.lists import services as lists
from timeline.posting import selectors as posting_selectors
from timeline.posting import services as posting
from timeline.safety import services
from timeline.safety.people import blocks_page, follow_requests_page, mutes_page


def run_jobs():
    call_command("worker", burst=True)


def home_messages(uid):
    return [s["message"] for s in feeds.home_page(uid).page.statuses]


def followers(uid):
    return [u["id"] for u in followers_page(uid, 1, 1000, viewer=uid)[0]]


def counts_match_sets(uid):
    user = get_user(uid)
    return (user["followers"], user["following"]) == (
        len(followers(uid)),
        len(following_page(uid, 1, 1000, viewer=uid)[0]),
    )


def test_following_a_private_account_asks_and_approving_makes_the_follow(alice, bob):
    services.set_private(alice.uid, True)
    posting.post_status(alice.uid, "for friends")
    assert graph.follow_user(bob.uid, alice.uid) is False
    assert not is_following(bob.uid, alice.uid)
    assert [u["login"] for u in follow_requests_page(alice.uid)[0]] == ["bob"]
    services.approve_request(alice.uid, bob.uid)
    assert is_following(bob.uid, alice.uid)
    assert home_messages(bob.uid) == ["for friends"]
    assert follow_requests_page(alice.uid)[0] == []
    assert not safety.relations(bob.uid, [alice.uid])[0].requested
    assert counts_match_sets(alice.uid) and counts_match_sets(bob.uid)


def test_a_request_can_be_rejected_or_cancelled_and_approving_none_is_an_error(alice, bob):
    services.set_private(alice.uid, True)
    graph.follow_user(bob.uid, alice.uid)
    services.reject_request(alice.uid, bob.uid)
    assert follow_requests_page(alice.uid)[0] == []
    with pytest.raises(ValueError, match="no such follow request"):
        services.approve_request(alice.uid, bob.uid)
    assert not is_following(bob.uid, alice.uid)
    graph.follow_user(bob.uid, alice.uid)
    assert graph.cancel_request(bob.uid, alice.uid) is True
    assert graph.cancel_request(bob.uid, alice.uid) is False
    with pytest.raises(ValueError):
        services.reject_request(alice.uid, bob.uid)


def test_going_private_hides_old_statuses_and_going_public_approves_requests(alice, bob, make_user):
    carol = make_user("carol")
    old = posting.post_status(alice.uid, "said in public")
    graph.follow_user(carol.uid, alice.uid)
    services.set_private(alice.uid, True)
    run_jobs()
    assert safety.is_private(feeds.shown_status(old, viewer=alice.uid))
    assert feeds.shown_status(old, viewer=bob.uid) is None
    assert feeds.shown_status(old) is None
    assert feeds.shown_status(old, viewer=carol.uid)["id"] == old  # a follower still sees it
    assert feeds.global_timeline_page().statuses == []
    graph.follow_user(bob.uid, alice.uid)
    assert services.set_private(alice.uid, False) is True
    assert services.set_private(alice.uid, False) is False
    run_jobs()
    assert is_following(bob.uid, alice.uid)
    assert feeds.shown_status(old)["id"] == old
    assert [s["id"] for s in feeds.global_timeline_page().statuses] == [old]


def test_a_private_status_never_goes_on_the_global_timeline_and_cant_be_reposted(alice, bob):
    services.set_private(alice.uid, True)
    graph.follow_user(bob.uid, alice.uid)
    services.approve_request(alice.uid, bob.uid)
    status_id = posting.post_status(alice.uid, "only followers")
    assert status_id not in posting_selectors.global_timeline_ids()
    assert feeds.global_timeline_page(viewer=bob.uid).statuses == []
    from timeline.reactions import services as reactions

    with pytest.raises(ValueError, match="can't be reposted"):
        reactions.repost(bob.uid, status_id)


def test_extra_data_cant_make_a_status_private(alice):
    with pytest.raises(ValueError, match="private"):
        posting.post_status(alice.uid, "hi", private="1")


def test_removing_a_follower_takes_the_authors_statuses_out_of_their_home(alice, bob):
    graph.follow_user(bob.uid, alice.uid)
    posting.post_status(alice.uid, "hello")
    assert services.remove_follower(alice.uid, bob.uid) is True
    assert services.remove_follower(alice.uid, bob.uid) is False
    assert home_messages(bob.uid) == []
    assert counts_match_sets(alice.uid) and counts_match_sets(bob.uid)


def test_a_block_removes_the_follows_both_ways_and_the_statuses(alice, bob):
    graph.follow_user(alice.uid, bob.uid)
    graph.follow_user(bob.uid, alice.uid)
    posting.post_status(alice.uid, "from alice")
    posting.post_status(bob.uid, "from bob")
    assert services.block(alice.uid, bob.uid) is True
    assert services.block(alice.uid, bob.uid) is False  # idempotent
    assert not is_following(alice.uid, bob.uid) and not is_following(bob.uid, alice.uid)
    assert counts_match_sets(alice.uid) and counts_match_sets(bob.uid)
    assert home_messages(alice.uid) == ["from alice"]
    assert home_messages(bob.uid) == ["from bob"]
    assert [u["login"] for u in blocks_page(alice.uid)[0]] == ["bob"]
    with pytest.raises(safety.Blocked):
        graph.follow_user(bob.uid, alice.uid)
    with pytest.raises(safety.Blocked):
        graph.follow_user(alice.uid, bob.uid)
    assert services.unblock(alice.uid, bob.uid) is True
    assert services.unblock(alice.uid, bob.uid) is False
    assert graph.follow_user(bob.uid, alice.uid) is True


@pytest.mark.parametrize("side", ["blocks", "blocked_by"])
def test_a_block_landing_between_a_follows_two_steps_refuses_the_second(alice, bob, side):
    # The follow's first step (in alice's slot) passed before the block reached it; the
    # block's side in bob's slot is there by the second: bob blocks alice ("blocks"),
    # or alice's block of bob has written both sides ("blocked_by").
    posting.post_status(alice.uid, "not for bob")
    key = keys.blocks_key(bob.uid) if side == "blocks" else keys.blocked_by_key(bob.uid)
    get_redis().zadd(key, {alice.uid: 1})
    with pytest.raises(safety.Blocked):
        graph.follow_user(bob.uid, alice.uid)
    assert not is_following(bob.uid, alice.uid)
    assert bob.uid not in followers(alice.uid)
    assert counts_match_sets(alice.uid) and counts_match_sets(bob.uid)
    assert home_messages(bob.uid) == []


def test_a_block_takes_each_off_the_others_lists(alice, bob):
    alices = lists.create_list(alice.uid, "Friends")
    bobs = lists.create_list(bob.uid, "Pals")
    lists.add_member(alice.uid, alices, bob.uid)
    lists.add_member(bob.uid, bobs, alice.uid)
    posting.post_status(bob.uid, "bob on a list")
    services.block(alice.uid, bob.uid)
    run_jobs()
    assert list_selectors.list_timeline_page(alices, viewer=alice.uid).statuses == []
    assert list_selectors.get_list(alices, alice.uid)["members"] == 0
    assert list_selectors.get_list(bobs, bob.uid)["members"] == 0
    with pytest.raises(safety.Blocked):
        lists.add_member(bob.uid, bobs, alice.uid)


@pytest.mark.parametrize("who", ["self", "nobody"])
def test_blocking_or_muting_yourself_or_nobody_is_refused(alice, who):
    other = alice.uid if who == "self" else 999_999
    for action in (services.block, services.mute):
        with pytest.raises(ValueError):
            action(alice.uid, other)
    relation = safety.relations(alice.uid, [other])[0]
    assert not relation.blocking and not relation.muting
    assert blocks_page(alice.uid) == mutes_page(alice.uid) == ([], False)


def test_a_mute_hides_from_home_only_and_ends(alice, bob, make_user):
    carol = make_user("carol")
    graph.follow_user(alice.uid, bob.uid)
    graph.follow_user(alice.uid, carol.uid)
    from timeline.reactions import services as reactions

    bobs = posting.post_status(bob.uid, "bob speaks")
    reactions.repost(carol.uid, bobs)
    services.mute(alice.uid, bob.uid)
    assert home_messages(alice.uid) == []  # bob's status and carol's repost of it
    assert is_following(alice.uid, bob.uid)
    assert feeds.shown_status(bobs, viewer=alice.uid)["id"] == bobs  # seen on his page
    assert [u["login"] for u in mutes_page(alice.uid)[0]] == ["bob"]
    assert services.unmute(alice.uid, bob.uid) is True
    assert home_messages(alice.uid) == ["bob speaks"]  # the repost rule keeps one
    with pytest.raises(ValueError, match="how long"):
        services.mute(alice.uid, bob.uid, 12)
    get_redis().zadd(keys.mutes_key(alice.uid), {bob.uid: 1})  # a mute that ended
    assert home_messages(alice.uid) == ["bob speaks"]  # the repost rule keeps one


def test_muted_words_hide_matching_statuses_from_home_as_track_matches(alice, bob):
    graph.follow_user(alice.uid, bob.uid)
    posting.post_status(bob.uid, "Spoilers: the END is near!")
    posting.post_status(bob.uid, "the end")
    posting.post_status(bob.uid, "nothing here")
    assert services.set_muted_words(alice.uid, "spoilers end\n\nspoilers end\n") == ["spoilers end"]
    assert home_messages(alice.uid) == ["nothing here", "the end"]


@pytest.mark.parametrize(
    "text,error",
    [
        ("x" * 61, "longer than 60 bytes"),
        ("!!!", "has no words"),
        ("\n".join(f"w{i}" for i in range(101)), "at most 100"),
    ],
)
def test_bad_muted_words_are_refused_and_change_nothing(alice, text, error):
    services.set_muted_words(alice.uid, "kept")
    with pytest.raises(ValueError, match=error):
        services.set_muted_words(alice.uid, text)
    assert services.muted_words(alice.uid) == ["kept"]


def test_going_private_empties_the_profile_for_others_before_the_job_runs(alice, bob):
    posting.post_status(alice.uid, "said in public")
    services.set_private(alice.uid, True)
    from timeline.graph.selectors import profile_page

    assert profile_page("alice", bob.uid).page.statuses == []
    assert profile_page("alice").page.statuses == []
    assert [s["message"] for s in profile_page("alice", alice.uid).page.statuses] == [
        "said in public"
    ]

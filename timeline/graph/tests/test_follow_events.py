"""Follow and unfollow events mark each side whose account is private (the streams show
a private account's follows, either way, only to whom timeline.audience lets see them),
whoever publishes them: a follow, an unfollow, a block's unfollows, a closed account's
purge."""

from django.core.management import call_command

from accounts.services import close_account, create_user
from timeline.graph.services import follow_user, unfollow_user
from timeline.safety import services as safety


def follow_events(published: list[dict]) -> list[tuple]:
    return [
        (e["event"], e["source"]["login"], e["source"].get("private"), e["target"].get("private"))
        for e in published
        if e.get("event") in ("follow", "unfollow")
    ]


def test_a_private_accounts_follows_are_marked_private_on_either_side(events):
    pia, carl, ned = (create_user(login, login) for login in ("pia", "carl", "ned"))
    safety.set_private(pia, True)
    events()
    follow_user(pia, carl)
    unfollow_user(pia, carl)
    follow_user(ned, pia)
    safety.approve_request(pia, ned)
    follow_user(carl, ned)
    assert follow_events(events()) == [
        ("follow", "pia", "1", None),
        ("unfollow", "pia", "1", None),
        ("follow", "ned", None, "1"),
        ("follow", "carl", None, None),
    ]


def test_a_block_and_a_purge_mark_a_private_accounts_unfollows_private(events, db):
    pia, carl, ned = (create_user(login, login) for login in ("pia", "carl", "ned"))
    safety.set_private(pia, True)
    follow_user(pia, carl)
    follow_user(pia, ned)
    follow_user(ned, pia)
    safety.approve_request(pia, ned)
    events()
    safety.block(carl, pia)
    assert follow_events(events()) == [("unfollow", "pia", "1", None)]
    close_account(pia)
    call_command("worker", burst=True)
    assert sorted(follow_events(events())) == [
        ("unfollow", "ned", None, "1"),
        ("unfollow", "pia", "1", None),
    ]

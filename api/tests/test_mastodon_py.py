"""The API as the Mastodon.py library uses it, against a real daphne: registering an
app, the code flow, posting, reading home, following, favouriting, reblogging and
paging."""

import pytest
from mastodon import MastodonAPIError, MastodonNotFoundError, MastodonUnauthorizedError


def test_an_app_signs_in_with_the_code_flow_and_reads_who_it_is(mastodon_as):
    api = mastodon_as("alice")
    me = api.account_verify_credentials()
    assert me.username == "alice"
    assert me.display_name == "Alice"
    assert me.acct == "alice"


def test_a_status_posted_is_read_back_deleted_and_then_gone(mastodon_as):
    api = mastodon_as("alice")
    posted = api.status_post("Hello from #mastodon, @nobody")
    assert "Hello from" in posted.content
    assert posted.account.username == "alice"
    assert api.status(posted.id).id == posted.id
    assert [s.id for s in api.timeline_home()] == [posted.id]
    deleted = api.status_delete(posted.id)
    assert deleted.text == "Hello from #mastodon, @nobody"
    with pytest.raises(MastodonNotFoundError):
        api.status(posted.id)


def test_following_someone_brings_their_statuses_home(mastodon_as):
    alice, bob = mastodon_as("alice"), mastodon_as("bob")
    first = bob.status_post("before the follow")
    bob_account = alice.account_lookup("bob")
    relationship = alice.account_follow(bob_account.id)
    assert relationship.following is True
    second = bob.status_post("after the follow")
    assert [s.id for s in alice.timeline_home()] == [second.id, first.id]
    assert alice.account_relationships([bob_account.id])[0].following is True
    assert [a.username for a in bob.account_followers(bob_account.id)] == ["alice"]
    alice.account_unfollow(bob_account.id)
    assert alice.timeline_home() == []


def test_favourites_and_reblogs_count_and_show_on_the_status(mastodon_as):
    alice, bob = mastodon_as("alice"), mastodon_as("bob")
    status = bob.status_post("worth sharing")
    liked = alice.status_favourite(status.id)
    assert liked.favourited is True and liked.favourites_count == 1
    # Mastodon's favourite is idempotent.
    assert alice.status_favourite(status.id).favourites_count == 1
    assert [s.id for s in alice.favourites()] == [status.id]
    reblog = alice.status_reblog(status.id)
    assert reblog.reblog.id == status.id
    assert reblog.reblog.reblogged is True
    assert bob.status(status.id).reblogs_count == 1
    alice.status_unreblog(status.id)
    alice.status_unfavourite(status.id)
    seen = bob.status(status.id)
    assert (seen.reblogs_count, seen.favourites_count) == (0, 0)
    kinds = sorted(n.type for n in bob.notifications())
    assert kinds == []


def test_a_reply_is_in_its_statuses_context(mastodon_as):
    api = mastodon_as("alice")
    question = api.status_post("a question")
    answer = api.status_post("an answer", in_reply_to_id=question.id)
    assert answer.in_reply_to_id == question.id
    context = api.status_context(answer.id)
    assert [s.id for s in context.ancestors] == [question.id]
    assert [s.id for s in api.status_context(question.id).descendants] == [answer.id]


def test_pages_of_home_follow_the_link_headers_to_the_end(mastodon_as):
    api = mastodon_as("alice")
    posted = [api.status_post(f"status {n}").id for n in range(7)]
    page = api.timeline_home(limit=3)
    seen = [s.id for s in page]
    while page := api.fetch_next(page):
        seen += [s.id for s in page]
    assert seen == posted[::-1]
    newer = api.timeline_home(min_id=posted[2], limit=2)
    assert [s.id for s in newer] == [posted[4], posted[3]]
    assert [s.id for s in api.timeline_home(since_id=posted[4])] == posted[:4:-1]


def test_notifications_say_who_followed_and_favourited(mastodon_as):
    alice, bob = mastodon_as("alice"), mastodon_as("bob")
    status = bob.status_post("notice me")
    alice.account_follow(alice.account_lookup("bob").id)
    alice.status_favourite(status.id)
    found = {(n.type, n.account.username) for n in bob.notifications()}
    assert found == {("follow", "alice"), ("favourite", "alice")}


def test_lists_collect_their_members_statuses(mastodon_as):
    alice, bob = mastodon_as("alice"), mastodon_as("bob")
    bob_id = alice.account_lookup("bob").id
    friends = alice.list_create("friends")
    alice.list_accounts_add(friends.id, [bob_id])
    assert [a.username for a in alice.list_accounts(friends.id)] == ["bob"]
    status = bob.status_post("for my listeners")
    assert [s.id for s in alice.timeline_list(friends.id)] == [status.id]
    assert [found.title for found in alice.lists()] == ["friends"]


def test_a_token_without_write_can_read_but_not_post(mastodon_as):
    api = mastodon_as("alice", scopes=("read",))
    assert api.timeline_home() == []
    with pytest.raises(MastodonAPIError, match="outside the authorized scopes"):
        api.status_post("not allowed")


def test_a_revoked_token_is_refused(mastodon_as):
    api = mastodon_as("alice")
    api.revoke_access_token()
    with pytest.raises(MastodonUnauthorizedError):
        api.account_verify_credentials()

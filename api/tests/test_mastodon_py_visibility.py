"""Visibility per post and content warnings as the Mastodon.py library uses them against
a real daphne: `status_post(visibility=..., spoiler_text=..., sensitive=...)`, and who
then sees each status through the API."""

import pytest
from mastodon import MastodonAPIError, MastodonNotFoundError


def test_mastodon_py_posts_each_visibility_and_a_warning(mastodon_as):
    alice, bob, carol = mastodon_as("alice"), mastodon_as("bob"), mastodon_as("carol")
    alice_id = alice.me().id
    bob.account_follow(alice_id)
    public = alice.status_post("public #tagged")
    unlisted = alice.status_post("unlisted #tagged", visibility="unlisted")
    private = alice.status_post("followers #tagged", visibility="private")
    direct = alice.status_post("psst @carol #tagged", visibility="direct")
    warned = alice.status_post("the butler", spoiler_text="Mystery ending", sensitive=True)
    assert [s.visibility for s in (public, unlisted, private, direct)] == [
        "public",
        "unlisted",
        "private",
        "direct",
    ]
    assert (warned.spoiler_text, warned.sensitive, public.spoiler_text) == (
        "Mystery ending",
        True,
        "",
    )
    assert [s.id for s in bob.timeline_home()] == [warned.id, private.id, unlisted.id, public.id]
    assert [s.id for s in carol.timeline_public()] == [warned.id, public.id]
    assert [s.id for s in bob.timeline_hashtag("tagged")] == [private.id, public.id]
    assert [s.id for s in carol.account_statuses(alice_id)] == [
        warned.id,
        direct.id,
        unlisted.id,
        public.id,
    ]
    with pytest.raises(MastodonNotFoundError):
        bob.status(direct.id)
    with pytest.raises(MastodonNotFoundError):
        carol.status(private.id)
    assert carol.status(direct.id).visibility == "direct"
    # Neither a followers-only nor a direct status can be reblogged.
    with pytest.raises(MastodonAPIError):
        bob.status_reblog(private.id)
    assert bob.status_reblog(unlisted.id).reblog.id == unlisted.id
    with pytest.raises(MastodonAPIError, match="content warning"):
        alice.status_post("hm", spoiler_text="x" * 280)
    with pytest.raises(MastodonAPIError, match="mention"):
        alice.status_post("to no one", visibility="direct")

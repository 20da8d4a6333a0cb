import pytest

from accounts.services import set_suspended
from timeline.conversations import selectors
from timeline.feeds import selectors as feeds
from timeline.graph import services as graph
from timeline.posting import services as posting
from timeline.reactions import selectors as reaction_selectors
from timeline.reactions import services as reactions
from timeline.statuses import selectors as status_selectors
from timeline.tests.pages import page_text, shows, status_ids

# The status page: the conversation and the reply box


def test_the_status_page_shows_the_chain_above_and_the_replies(client, alice, bob):
    root = posting.post_status(alice.uid, "root")
    middle = posting.post_status(bob.uid, "middle", in_reply_to=root)
    leaf = posting.post_status(alice.uid, "leaf", in_reply_to=middle)
    response = client.get(f"/statuses/{middle}/")
    assert response.status_code == 200
    assert status_ids(response) == [root, middle, leaf]
    assert shows(response, "Replying to @alice")
    assert shows(response, "1 reply")


def test_a_deleted_status_in_the_chain_says_so(client, alice):
    root = posting.post_status(alice.uid, "root")
    leaf = posting.post_status(alice.uid, "leaf", in_reply_to=root)
    posting.delete_status(alice.uid, root)
    response = client.get(f"/statuses/{leaf}/")
    assert shows(response, "This status was deleted.")


def test_replying_from_the_status_page(alice, bob):
    parent = posting.post_status(alice.uid, "question?")
    response = bob.client.post(f"/statuses/{parent}/reply/", {"message": "answer"}, follow=True)
    assert response.status_code == 200
    assert shows(response, "Replied.")
    (reply,) = feeds.get_status_messages(bob.uid, "profile")
    assert reply["in_reply_to"] == parent
    assert reply["id"] in status_ids(response)


def test_a_visitor_sees_no_reply_box_and_is_sent_to_log_in(client, alice):
    parent = posting.post_status(alice.uid, "question?")
    assert 'id="reply"' not in page_text(client.get(f"/statuses/{parent}/"))
    response = client.post(f"/statuses/{parent}/reply/", {"message": "hi"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_an_empty_reply_is_refused_on_the_status_page(alice, bob):
    parent = posting.post_status(alice.uid, "question?")
    response = bob.client.post(f"/statuses/{parent}/reply/", {"message": "  "})
    assert response.status_code == 400
    assert shows(response, "A status can't be empty.")
    assert status_selectors.get_status(parent)["replies"] == 0


def test_replying_to_a_deleted_status_is_not_found_and_stores_nothing(alice, bob):
    parent = posting.post_status(alice.uid, "soon gone")
    posting.delete_status(alice.uid, parent)
    response = bob.client.post(f"/statuses/{parent}/reply/", {"message": "too late"})
    assert response.status_code == 404
    assert shows(response, "That status doesn't exist or was deleted.")
    assert feeds.get_status_messages(bob.uid, "profile") == []


# Suspended authors: their statuses read as deleted on the status page too


def test_a_suspended_users_status_page_is_not_found_for_visitors_and_users(client, alice, bob):
    theirs = posting.post_status(alice.uid, "soon hidden")
    set_suspended(alice.uid, True)
    for reader in (client, bob.client):
        response = reader.get(f"/statuses/{theirs}/")
        assert response.status_code == 404
        assert shows(response, f"There is no status {theirs}: it may have been deleted.")
        assert not shows(response, "soon hidden")


def test_a_suspended_users_statuses_in_a_conversation_read_as_deleted(
    client, make_user, alice, bob
):
    carol = make_user("carol")
    root = posting.post_status(alice.uid, "alice asks")
    middle = posting.post_status(bob.uid, "bob answers", in_reply_to=root)
    alices_reply = posting.post_status(alice.uid, "alice again", in_reply_to=middle)
    carols_reply = posting.post_status(carol.uid, "carol too", in_reply_to=middle)
    set_suspended(alice.uid, True)
    for reader in (client, carol.client):
        response = reader.get(f"/statuses/{middle}/")
        assert response.status_code == 200
        assert status_ids(response) == [middle, carols_reply]
        assert shows(response, "This status was deleted.")
        assert not shows(response, "alice asks") and not shows(response, "alice again")
    assert reader.get(f"/statuses/{alices_reply}/").status_code == 404


@pytest.mark.parametrize("action", ["reply", "repost", "like"])
def test_reacting_to_a_suspended_users_status_is_not_found_and_changes_nothing(alice, bob, action):
    sid = posting.post_status(alice.uid, "soon hidden")
    set_suspended(alice.uid, True)
    before = status_selectors.get_status(sid)
    response = bob.client.post(f"/statuses/{sid}/{action}/", {"message": "hello?"})
    assert response.status_code == 404
    assert shows(response, "That status doesn't exist or was deleted.")
    assert status_selectors.get_status(sid) == before
    assert feeds.get_status_messages(bob.uid, "profile") == []
    assert reaction_selectors.liked_ids(bob.uid) == reaction_selectors.liker_uids(sid) == []


# Reposts


def test_a_follower_sees_reposted_by_on_home(make_user, alice, bob):
    carol = make_user("carol")
    graph.follow_user(carol.uid, bob.uid)
    original = posting.post_status(alice.uid, "worth sharing")
    response = bob.client.post(f"/statuses/{original}/repost/", follow=True)
    assert shows(response, "Reposted.")
    home = carol.client.get("/")
    assert shows(home, "Reposted by @bob Alice @alice")
    assert shows(home, "worth sharing")
    assert shows(home, "1 repost")


def test_the_repost_button_becomes_undo_and_undoes(alice, bob):
    original = posting.post_status(alice.uid, "hi")
    bob.client.post(f"/statuses/{original}/repost/")
    page = bob.client.get(f"/statuses/{original}/")
    assert f'action="/statuses/{original}/unrepost/"' in page_text(page)
    response = bob.client.post(f"/statuses/{original}/unrepost/", follow=True)
    assert shows(response, "Your repost is undone.")
    assert status_selectors.get_status(original)["reposts"] == 0


def test_reposting_twice_is_a_no_op_that_says_so(alice, bob):
    original = posting.post_status(alice.uid, "hi")
    bob.client.post(f"/statuses/{original}/repost/")
    response = bob.client.post(f"/statuses/{original}/repost/", {"next": "/timeline/"})
    assert response.status_code == 302 and response["Location"] == "/timeline/"
    response = bob.client.get("/timeline/")
    assert shows(response, "Nothing to do: You already reposted that status.")
    assert status_selectors.get_status(original)["reposts"] == 1
    response = alice.client.post(f"/statuses/{original}/unrepost/", follow=True)
    assert shows(response, "Nothing to do: You haven't reposted that status.")


def test_reposting_an_unknown_status_is_not_found(alice):
    response = alice.client.post("/statuses/424242/repost/")
    assert response.status_code == 404
    assert shows(response, "That status doesn't exist or was deleted.")


def test_the_status_page_of_a_repost_shows_it_as_a_repost(client, alice, bob):
    original = posting.post_status(alice.uid, "hi")
    repost = reactions.repost(bob.uid, original)
    response = client.get(f"/statuses/{repost}/")
    assert response.status_code == 200
    assert status_ids(response) == [repost]
    assert shows(response, "Reposted by @bob Alice @alice")


# Likes


def test_liking_and_unliking_from_a_page(alice, bob):
    sid = posting.post_status(alice.uid, "like me")
    response = bob.client.post(f"/statuses/{sid}/like/", {"next": "/timeline/"}, follow=True)
    assert shows(response, "Liked.") and shows(response, "1 like")
    assert f'action="/statuses/{sid}/unlike/"' in page_text(response)
    response = bob.client.post(f"/statuses/{sid}/unlike/", follow=True)
    assert shows(response, "Like taken back.") and shows(response, "0 likes")


def test_liking_twice_or_unliking_unliked_is_a_no_op_that_says_so(alice, bob):
    # As from two tabs: the second like finds the status liked already.
    sid = posting.post_status(alice.uid, "like me")
    bob.client.post(f"/statuses/{sid}/like/")
    response = bob.client.post(f"/statuses/{sid}/like/", {"next": "/timeline/"}, follow=True)
    assert response.status_code == 200 and response.redirect_chain == [("/timeline/", 302)]
    assert shows(response, "Nothing to do: You already like that status.")
    assert shows(response, "1 like")
    response = alice.client.post(f"/statuses/{sid}/unlike/", follow=True)
    assert response.status_code == 200
    assert shows(response, "Nothing to do: You don't like that status.")
    assert status_selectors.get_status(sid)["likes"] == 1


def test_liking_a_deleted_status_is_not_found(alice, bob):
    sid = posting.post_status(alice.uid, "gone")
    posting.delete_status(alice.uid, sid)
    response = bob.client.post(f"/statuses/{sid}/like/")
    assert response.status_code == 404
    assert reaction_selectors.liked_ids(bob.uid) == []


def test_the_likes_page_shows_your_likes_only_to_you(client, alice, bob):
    sid = posting.post_status(alice.uid, "liked by bob")
    reactions.like(bob.uid, sid)
    assert status_ids(bob.client.get("/likes/")) == [sid]
    assert status_ids(alice.client.get("/likes/")) == []
    response = client.get("/likes/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_reacting_needs_a_post_and_a_login(client, alice):
    sid = posting.post_status(alice.uid, "hi")
    assert alice.client.get(f"/statuses/{sid}/like/").status_code == 405
    response = client.post(f"/statuses/{sid}/like/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert status_selectors.get_status(sid)["likes"] == 0


# Mentions and tags


def test_the_mentions_page_lists_who_mentions_a_user(client, alice, bob):
    sid = posting.post_status(alice.uid, "hey @bob")
    posting.post_status(alice.uid, "nobody here")
    response = client.get("/u/bob/mentions/")
    assert response.status_code == 200
    assert status_ids(response) == [sid]
    assert 'href="/u/bob/"' in page_text(response)


def test_the_mentions_page_of_an_unknown_user_is_not_found(client):
    assert client.get("/u/nobody/mentions/").status_code == 404


def test_an_unknown_mention_stays_plain_text(client, alice):
    posting.post_status(alice.uid, "hey @nobody")
    text = page_text(client.get("/timeline/"))
    assert "hey @nobody" in text and 'href="/u/nobody/"' not in text


def test_a_tag_links_to_its_page_of_statuses_in_any_case(client, alice):
    sid = posting.post_status(alice.uid, "I like #Redis")
    other = posting.post_status(alice.uid, "and #REDIS")
    assert 'href="/tags/redis/"' in page_text(client.get(f"/statuses/{sid}/"))
    response = client.get("/tags/redis/")
    assert response.status_code == 200
    assert status_ids(response) == [other, sid]
    assert status_ids(client.get("/tags/ReDiS/")) == [other, sid]


@pytest.mark.parametrize("tag", ["a-b", "x" * 101])
def test_a_bad_tag_page_is_not_found(client, tag):
    response = client.get(f"/tags/{tag}/")
    assert response.status_code == 404
    assert shows(response, "A tag is up to 100 letters")


def test_the_reply_box_starts_with_the_author_and_the_others_mentioned(alice, bob, make_user):
    make_user("carol")
    sid = posting.post_status(alice.uid, "lunch with @carol and @Bob?")
    page = page_text(bob.client.get(f"/statuses/{sid}/"))
    # (The newline after <textarea> is the markup's: a browser drops it.)
    assert 'id="id_message">\n@alice @carol </textarea>' in page
    page = page_text(alice.client.get(f"/statuses/{sid}/"))
    assert 'id="id_message">\n@carol @bob </textarea>' in page


def test_reply_mentions_name_each_once_and_never_the_one_replying():
    status = {"login": "alice", "mentions": "bob carol alice"}
    assert selectors.reply_mentions(status, "dave") == "@alice @bob @carol "
    assert selectors.reply_mentions(status, "Bob") == "@alice @carol "
    assert selectors.reply_mentions({"login": "alice"}, "alice") == ""

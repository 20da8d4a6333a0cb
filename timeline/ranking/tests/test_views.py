"""The home page's two orders: tabs, `?order=`, the order remembered per user."""

from django.test import Client

from timeline.graph import services as graph
from timeline.posting import services as posting
from timeline.reactions import services as reactions


def reader_of_two(make_user):
    """A reader who follows two authors and engages with the one who posted first."""
    reader, friend, other = make_user("reader"), make_user("friend"), make_user("other")
    graph.follow_user(reader.uid, friend.uid)
    graph.follow_user(reader.uid, other.uid)
    reactions.like(reader.uid, posting.post_status(friend.uid, "friend liked"))
    posting.post_status(friend.uid, "friend earlier")
    posting.post_status(other.uid, "other later")
    return reader


def order_of(text: str, *messages: str) -> list[str]:
    return sorted(messages, key=text.index)


def test_the_home_page_has_latest_and_top_tabs_latest_first(make_user):
    reader = reader_of_two(make_user)
    text = reader.client.get("/").content.decode()
    assert '<a href="/?order=latest" aria-current="page">Latest</a>' in text
    assert '<a href="/?order=top">Top</a>' in text
    assert order_of(text, "friend earlier", "other later") == ["other later", "friend earlier"]
    assert "status-why" not in text
    assert 'data-stream-url="/statuses/home.json"' in text  # live


def test_order_top_ranks_the_home_and_each_card_says_why(make_user):
    reader = reader_of_two(make_user)
    text = reader.client.get("/?order=top").content.decode()
    assert '<a href="/?order=top" aria-current="page">Top</a>' in text
    assert order_of(text, "friend earlier", "other later") == ["friend earlier", "other later"]
    assert text.count('class="status-why"') == 3
    assert "you often like @friend&#39;s posts" in text
    # Ranked as read: no live insertion of new statuses on top.
    assert 'data-stream-url="/statuses/home.json"' not in text


def test_the_order_chosen_is_remembered_for_the_next_visit_anywhere(make_user):
    reader = reader_of_two(make_user)
    reader.client.get("/?order=top")
    assert (
        '<a href="/?order=top" aria-current="page">Top</a>'
        in reader.client.get("/").content.decode()
    )

    elsewhere = Client()
    elsewhere.force_login(reader.user)
    assert 'aria-current="page">Top</a>' in elsewhere.get("/").content.decode()
    reader.client.get("/?order=latest")
    assert 'aria-current="page">Latest</a>' in reader.client.get("/").content.decode()


def test_an_unknown_order_is_a_clear_400(make_user):
    response = make_user().client.get("/?order=best")
    assert response.status_code == 400
    assert "A home is ordered latest or top, not &#39;best&#39;." in response.content.decode()


def test_visitors_get_the_welcome_page_whatever_the_order(client):
    assert client.get("/?order=top").status_code == 200


def test_a_wrong_guess_of_the_order_still_serves_the_remembered_one(make_user):
    from timeline.ranking import views

    reader = reader_of_two(make_user)
    reader.client.get("/?order=top")
    views.ORDER_GUESSES[reader.uid] = "latest"  # as if changed in another process
    text = reader.client.get("/").content.decode()
    assert 'aria-current="page">Top</a>' in text
    assert order_of(text, "friend earlier", "other later") == ["friend earlier", "other later"]
    reader.client.get("/?order=latest")
    views.ORDER_GUESSES[reader.uid] = "top"
    text = reader.client.get("/").content.decode()
    assert order_of(text, "friend earlier", "other later") == ["other later", "friend earlier"]


def test_the_next_page_of_top_goes_on_in_rank_order(make_user, settings):
    settings.STATUSES_PER_PAGE = 2
    reader = reader_of_two(make_user)
    first = reader.client.get("/?order=top").content.decode()
    second = reader.client.get("/?page=2").content.decode()  # the order remembered
    # Liked (by the reader), so engaged with: above the friend's later one.
    assert order_of(first, "friend liked", "friend earlier") == ["friend liked", "friend earlier"]
    assert "other later" not in first and "other later" in second
    assert reader.client.get("/?page=3").status_code == 404

from accounts.services import create_user
from timeline.graph import selectors as graph_selectors
from timeline.graph import services as graph
from timeline.posting import services as posting


def test_a_profile_page_has_the_user_their_statuses_and_the_viewers_relation(make_user):
    me, star, friend, stranger = (
        make_user(n).uid for n in ("viewer", "star", "friend", "stranger")
    )
    graph.follow_user(me, friend)
    graph.follow_user(me, stranger)
    graph.follow_user(friend, star)
    graph.follow_user(me, star)
    sids = [posting.post_status(star, f"post {n}") for n in range(3)]

    view = graph_selectors.profile_page("STAR", me, page=1, count=2)
    assert view.user["login"] == "star"
    assert view.user["followers"] == 2
    assert [s["id"] for s in view.page.statuses] == sids[:0:-1]
    assert view.page.has_older
    assert view.is_following
    assert [u["login"] for u in view.followers_in_common] == ["friend"]
    assert [s["id"] for s in graph_selectors.profile_page("star", me, 2, 2).page.statuses] == sids[
        :1
    ]


def test_a_profile_page_for_a_visitor_or_yourself_has_no_relation(make_user):
    star = make_user("star").uid
    fan = make_user("fan").uid
    graph.follow_user(fan, star)
    for viewer in (None, star):
        view = graph_selectors.profile_page("star", viewer)
        assert not view.is_following
        assert view.followers_in_common == []
        assert view.page.statuses == []


def test_a_profile_page_of_someone_you_do_not_follow(make_user):
    viewer = make_user("viewer").uid
    make_user("star")
    view = graph_selectors.profile_page("star", viewer)
    assert not view.is_following
    assert view.followers_in_common == []


def test_an_unknown_login_has_no_profile_page(make_user):
    assert graph_selectors.profile_page("nobody", make_user().uid) is None


def test_a_remembered_login_that_now_names_another_account_is_looked_up_again(redis_conn):
    old_star = create_user("star", "Star")
    assert graph_selectors.profile_page("star").user["id"] == old_star  # now remembered
    redis_conn.flushdb()  # the store emptied: uids are given out again
    assert create_user("other", "Other") == old_star
    star = create_user("star", "Star")
    view = graph_selectors.profile_page("Star")
    assert (view.user["id"], view.user["login"]) == (star, "star")
    redis_conn.flushdb()
    create_user("other", "Other")
    assert graph_selectors.profile_page("star") is None

"""Home ordered by importance: what Top ranks first, what it leaves out, and why."""

import time

from django.test import override_settings

from timeline.graph import selectors as graph_selectors
from timeline.graph import services as graph
from timeline.posting import services as posting
from timeline.ranking import selectors as ranking
from timeline.reactions import services as reactions
from timeline.safety import services as safety


def top(reader: int, count: int = 30) -> list[dict]:
    return ranking.top_statuses(reader, count=count)[0]


def messages(statuses: list[dict]) -> list[str]:
    return [s["message"] for s in statuses]


def test_top_puts_the_author_the_reader_engages_with_first(make_user):
    reader, friend, other = (make_user(login) for login in ("reader", "friend", "other"))
    for author in (friend, other):
        graph.follow_user(reader.uid, author.uid)
    older = posting.post_status(friend.uid, "from a friend, earlier")
    posting.post_status(other.uid, "from someone else, later")
    reactions.like(reader.uid, posting.post_status(friend.uid, "liked before"))
    posting.post_status(reader.uid, "a reply", in_reply_to=older)
    shown = top(reader.uid)
    assert shown[0]["uid"] == friend.uid
    assert messages(shown).index("from a friend, earlier") < messages(shown).index(
        "from someone else, later"
    )
    assert shown[0]["why"] == "you often reply to @friend"


def test_top_puts_a_much_liked_status_above_newer_quiet_ones(make_user):
    reader, author = make_user("reader"), make_user("author")
    graph.follow_user(reader.uid, author.uid)
    popular = posting.post_status(author.uid, "much liked")
    for _ in range(8):
        reactions.like(make_user().uid, popular)
    for n in range(3):
        posting.post_status(author.uid, f"quiet {n}")
    shown = top(reader.uid)
    assert shown[0]["message"] == "much liked"
    assert shown[0]["why"] == "popular"
    assert messages(shown[1:]) == ["quiet 2", "quiet 1", "quiet 0"]


def test_a_card_says_how_many_people_you_follow_liked_it(make_user):
    reader, author = make_user("reader"), make_user("author")
    fans = [make_user() for _ in range(3)]
    graph.follow_user(reader.uid, author.uid)
    liked = posting.post_status(author.uid, "liked by friends")
    for fan in fans[:2]:
        graph.follow_user(reader.uid, fan.uid)
    for fan in fans:
        reactions.like(fan.uid, liked)
    posting.post_status(author.uid, "newer")
    shown = {s["message"]: s for s in top(reader.uid)}
    assert shown["liked by friends"]["why"] == "liked by 2 people you follow"
    assert shown["newer"]["why"] == "new from @author"


def test_top_leaves_out_statuses_older_than_its_window(make_user):
    reader, author = make_user("reader"), make_user("author")
    graph.follow_user(reader.uid, author.uid)
    posting.post_status(author.uid, "old")
    time.sleep(1.1)
    posting.post_status(author.uid, "new")
    with override_settings(TOP_WINDOW_HOURS=1 / 3600):
        assert messages(top(reader.uid)) == ["new"]
    assert sorted(messages(top(reader.uid))) == ["new", "old"]


def test_muted_users_muted_words_and_blocks_still_apply_in_top(make_user):
    reader = make_user("reader")
    kept, muted, blocked, wordy = (make_user() for _ in range(4))
    for author in (kept, muted, blocked, wordy):
        graph.follow_user(reader.uid, author.uid)
        # Engaged with, so each would rank high.
        reactions.like(reader.uid, posting.post_status(author.uid, f"by {author.login}"))
    posting.post_status(wordy.uid, "all about spoilers")
    safety.mute(reader.uid, muted.uid)
    safety.set_muted_words(reader.uid, "spoilers")
    safety.block(blocked.uid, reader.uid)
    assert sorted(messages(top(reader.uid))) == sorted([f"by {kept.login}", f"by {wordy.login}"])


def test_a_repost_shows_once_with_its_original_and_its_marks(make_user):
    reader, author, sharer, stranger = (make_user() for _ in range(4))
    graph.follow_user(reader.uid, author.uid)
    graph.follow_user(reader.uid, sharer.uid)
    shared = posting.post_status(stranger.uid, "worth sharing")
    reactions.like(reader.uid, shared)
    reactions.repost(sharer.uid, shared)
    reactions.repost(author.uid, shared)
    shown = top(reader.uid)
    reposts = [s for s in shown if s.get("repost_of")]
    assert len(reposts) == 1
    assert reposts[0]["original"]["message"] == "worth sharing"
    assert reposts[0]["original"]["liked"] is True


def test_a_private_status_in_top_is_for_its_followers(make_user):
    reader, author = make_user("reader"), make_user("author")
    graph.follow_user(reader.uid, author.uid)
    safety.set_private(author.uid, True)
    posting.post_status(author.uid, "for followers")
    assert messages(top(reader.uid)) == ["for followers"]


def test_top_pages_follow_on_in_rank_order(make_user):
    reader, author = make_user("reader"), make_user("author")
    graph.follow_user(reader.uid, author.uid)
    for n in range(5):
        posting.post_status(author.uid, f"status {n}")
    first, more = ranking.top_statuses(reader.uid, count=3)
    second, no_more = ranking.top_statuses(reader.uid, offset=3, count=3)
    assert more and not no_more
    assert messages(first + second) == [f"status {n}" for n in range(4, -1, -1)]


def test_a_profile_visit_lifts_that_author_in_top(make_user):
    reader, visited, other = make_user("reader"), make_user("visited"), make_user("other")
    for author in (visited, other):
        graph.follow_user(reader.uid, author.uid)
    posting.post_status(visited.uid, "from the visited")
    posting.post_status(other.uid, "from the other")
    graph_selectors.profile_page("visited", reader.uid)
    shown = top(reader.uid)
    assert shown[0]["message"] == "from the visited"


def test_likes_by_people_you_follow_are_counted_when_your_follows_are_in_buckets(make_user):
    reader, author = make_user("reader"), make_user("author")
    fans = [make_user() for _ in range(4)]
    with override_settings(FOLLOWING_SPLIT=2):
        for followed in (author, *fans):
            graph.follow_user(reader.uid, followed.uid)
    liked = posting.post_status(author.uid, "liked by friends")
    for fan in fans:
        reactions.like(fan.uid, liked)
    assert top(reader.uid)[0]["why"] == "liked by 4 people you follow"


def test_a_private_groups_post_is_in_top_for_its_members_only(make_user):
    from timeline.groups import moderation
    from timeline.groups import services as groups

    owner, member, follower = make_user("owner"), make_user("member"), make_user("follower")
    group = groups.create_group(owner.uid, "club", "Club", kind="private")
    groups.join_group(group, member.uid)
    moderation.approve_request(group, owner.uid, member.uid)
    graph.follow_user(follower.uid, owner.uid)
    posting.post_status(owner.uid, "members only", group=group)
    posting.post_status(owner.uid, "for everyone")
    assert messages(top(member.uid)) == ["members only"]
    assert messages(top(follower.uid)) == ["for everyone"]

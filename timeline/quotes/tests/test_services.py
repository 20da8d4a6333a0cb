import pytest
from django.core.management import call_command

from accounts.services import set_suspended
from socialsite.redis import get_redis
from timeline.conversations.selectors import conversation
from timeline.feeds import selectors as feeds
from timeline.graph import services as graph
from timeline.notifications.selectors import notifications_page
from timeline.posting import services as posting
from timeline.quotes import selectors as quote_reads
from timeline.quotes import services as quotes
from timeline.quotes.keys import quotes_key
from timeline.reactions import services as reactions
from timeline.safety import services as safety
from timeline.statuses.selectors import AlreadyDone, StatusGone, get_status


@pytest.fixture
def pair(make_user):
    return make_user("author").uid, make_user("quoter").uid


def shown(status_id, viewer):
    return feeds.shown_status(status_id, viewer=viewer)


def test_a_quote_carries_the_quoted_status_and_counts_on_it(pair):
    author, quoter = pair
    quoted = posting.post_status(author, "worth quoting")
    quote = posting.post_status(quoter, "so true", quote_id=quoted)
    status = get_status(quote)
    assert status["quote_of"] == quoted and status["quote_of_uid"] == author
    assert status["quote_of_login"] == "author"
    assert get_status(quoted)["quotes"] == 1
    assert quote_reads.quote_ids(quoted) == [quote]
    found = shown(quote, quoter)
    assert found["quoted"]["id"] == quoted and found["quoted"]["message"] == "worth quoting"


def test_quoting_a_repost_quotes_its_original(pair, make_user):
    author, quoter = pair
    original = posting.post_status(author, "first")
    repost = reactions.repost(make_user().uid, original)
    quote = posting.post_status(quoter, "on it", quote_id=repost)
    assert get_status(quote)["quote_of"] == original


def test_quoting_a_missing_status_is_refused_and_changes_nothing(pair):
    author, quoter = pair
    with pytest.raises(StatusGone):
        posting.post_status(quoter, "nothing", quote_id=999_999)
    with pytest.raises(StatusGone):
        posting.post_status(quoter, "nothing", quote_id="abc")
    assert feeds.get_status_messages(quoter, "profile") == []


def test_the_quoted_authors_policy_decides_who_may_quote(pair, make_user):
    author, quoter = pair
    quotes.set_default_policy(author, "followers")
    guarded = posting.post_status(author, "followers only quote")
    with pytest.raises(quotes.QuoteRefused, match="their followers"):
        posting.post_status(quoter, "nope", quote_id=guarded)
    graph.follow_user(quoter, author)
    assert posting.post_status(quoter, "now yes", quote_id=guarded)
    quotes.set_default_policy(author, "nobody")
    closed = posting.post_status(author, "no quotes")
    with pytest.raises(quotes.QuoteRefused, match="no one"):
        posting.post_status(quoter, "nope", quote_id=closed)
    # Its author may always quote it; older statuses keep the policy they were posted with.
    assert posting.post_status(author, "myself", quote_id=closed)
    assert posting.post_status(quoter, "still fine", quote_id=guarded)
    assert get_status(closed)["quotes"] == 1


def test_a_post_may_ask_its_own_quote_policy(pair):
    author, quoter = pair
    closed = posting.post_status(author, "mine", quote_policy="nobody")
    with pytest.raises(quotes.QuoteRefused):
        posting.post_status(quoter, "nope", quote_id=closed)
    with pytest.raises(ValueError, match="quote policy"):
        posting.post_status(author, "bad", quote_policy="friends")
    with pytest.raises(ValueError):
        quotes.set_default_policy(author, "friends")
    assert quotes.default_policy(author) == "public"


def test_a_private_accounts_status_is_quoted_by_no_one_but_its_author(pair):
    author, quoter = pair
    safety.set_private(author, True)
    status = posting.post_status(author, "for my followers")
    # Not a follower: it reads as deleted to them.
    with pytest.raises(StatusGone):
        posting.post_status(quoter, "peek", quote_id=status)
    assert posting.post_status(author, "self", quote_id=status)


def test_a_quote_of_a_status_hidden_by_a_block_is_refused(pair):
    author, quoter = pair
    status = posting.post_status(author, "hi")
    safety.block(author, quoter)
    with pytest.raises(StatusGone):
        posting.post_status(quoter, "hey", quote_id=status)


def test_the_quoted_author_is_notified_and_the_deletion_takes_it_back(pair):
    author, quoter = pair
    quoted = posting.post_status(author, "hear me")
    quote = posting.post_status(quoter, "heard", quote_id=quoted)
    (note,) = notifications_page(author, 1, 20).notifications
    assert note.kind == "quote" and note.status["id"] == quote
    assert note.status["quoted"]["id"] == quoted
    posting.delete_status(quoter, quote)
    assert notifications_page(author, 1, 20).notifications == []
    assert get_status(quoted)["quotes"] == 0
    assert quote_reads.quote_ids(quoted) == []


def test_a_quote_of_a_deleted_status_shows_it_unavailable(pair):
    author, quoter = pair
    quoted = posting.post_status(author, "soon gone")
    quote = posting.post_status(quoter, "look", quote_id=quoted)
    posting.delete_status(author, quoted)
    call_command("worker", burst=True)
    found = shown(quote, quoter)
    assert "quoted" not in found and found["quote_unavailable"] == "deleted"
    assert not get_redis().exists(quotes_key(quoted))


def test_a_quote_shows_its_quoted_status_only_to_who_may_see_it(pair, make_user):
    author, quoter = pair
    stranger = make_user().uid
    quoted = posting.post_status(author, "public at first")
    quote = posting.post_status(quoter, "look", quote_id=quoted)
    safety.block(author, stranger)
    assert shown(quote, stranger)["quote_unavailable"] == "unauthorized"
    assert shown(quote, quoter)["quoted"]["id"] == quoted
    # Going private later hides it from those who don't follow, at read time.
    safety.set_private(author, True)
    call_command("worker", burst=True)
    assert shown(quote, quoter)["quote_unavailable"] == "unauthorized"
    assert shown(quote, author)["quoted"]["id"] == quoted
    assert shown(quote, None)["quote_unavailable"] == "unauthorized"


def test_a_suspended_authors_status_is_unavailable_in_quotes(pair):
    author, quoter = pair
    quoted = posting.post_status(author, "x")
    quote = posting.post_status(quoter, "y", quote_id=quoted)
    set_suspended(author, True)
    assert shown(quote, quoter)["quote_unavailable"] == "deleted"


def test_the_quoted_author_detaches_their_status_from_a_quote(pair, make_user):
    author, quoter = pair
    quoted = posting.post_status(author, "mine")
    quote = posting.post_status(quoter, "theirs", quote_id=quoted)
    with pytest.raises(PermissionError):
        quotes.revoke(quoter, quoted, quote)
    quotes.revoke(author, quoted, quote)
    assert get_status(quoted)["quotes"] == 0
    assert get_status(quote)["quote_state"] == "revoked"
    assert shown(quote, quoter)["quote_unavailable"] == "revoked"
    with pytest.raises(AlreadyDone):
        quotes.revoke(author, quoted, quote)
    other = posting.post_status(author, "other")
    with pytest.raises(StatusGone):
        quotes.revoke(author, other, quote)
    # Deleting a detached quote counts nothing off again.
    again = posting.post_status(make_user().uid, "again", quote_id=quoted)
    posting.delete_status(quoter, quote)
    assert get_status(quoted)["quotes"] == 1 and quote_reads.quote_ids(quoted) == [again]


def test_a_quote_shows_in_timelines_and_its_conversation_with_the_quoted_status(pair):
    author, quoter = pair
    graph.follow_user(author, quoter)
    quoted = posting.post_status(author, "origin")
    quote = posting.post_status(quoter, "echo", quote_id=quoted)
    (first, _) = feeds.get_status_messages(author)
    assert first["id"] == quote and first["quoted"]["id"] == quoted
    assert conversation(quote, author).status["quoted"]["id"] == quoted
    repost = reactions.repost(author, quote)
    found = shown(repost, quoter)
    assert found["original"]["quoted"]["id"] == quoted


def test_top_shows_quotes_and_reposted_quotes_with_their_quoted_status(pair, make_user):
    from timeline.ranking.selectors import top_statuses

    author, quoter = pair
    reader = make_user().uid
    reposter = make_user().uid
    graph.follow_user(reader, quoter)
    graph.follow_user(reader, reposter)
    quoted = posting.post_status(author, "origin")
    quote = posting.post_status(quoter, "echo", quote_id=quoted)
    other_quote = posting.post_status(author, "self echo", quote_id=quoted)
    repost = reactions.repost(reposter, other_quote)
    found, _ = top_statuses(reader)
    by_id = {s["id"]: s for s in found}
    assert by_id[quote]["quoted"]["id"] == quoted
    assert by_id[repost]["original"]["quoted"]["id"] == quoted

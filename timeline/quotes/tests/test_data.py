"""Quotes' data: the repair command's checks of a status's quotes and their count, the
export, and what a closed account's purge leaves."""

import json

from django.core.management import call_command

from accounts import services as account_services
from timeline import keys
from timeline.ops import maintenance
from timeline.posting import services as posting
from timeline.quotes import services as quotes
from timeline.quotes.keys import quotes_key
from timeline.quotes.selectors import quote_ids
from timeline.statuses.selectors import get_status


def test_repair_fixes_a_quotes_count_and_quotes_of_deleted_statuses(make_user, redis_conn):
    author, quoter = make_user().uid, make_user().uid
    quoted = posting.post_status(author, "quoted")
    quote = posting.post_status(quoter, "quote", quote_id=quoted)
    redis_conn.hset(keys.status_key(quoted), "quotes", 4)
    # A quote deleted whose quoted status's set still lists it (a step that never ran).
    redis_conn.zadd(quotes_key(quoted), {999_999: 1.0})
    redis_conn.set(keys.STATUS_ID_COUNTER, 1_000_000)
    report = maintenance.repair()
    problems = {finding.check: finding.problem for finding in report.findings}
    assert "1 deleted statuses listed: 999999" in problems["timelines"]
    assert get_status(quoted)["quotes"] == 4
    maintenance.repair(fix=True)
    assert get_status(quoted)["quotes"] == 1 and quote_ids(quoted) == [quote]
    assert maintenance.repair().findings == []


def test_the_export_says_what_each_status_quotes_and_the_quote_policy(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    quoted = posting.post_status(bob.uid, "quoted")
    quotes.set_default_policy(alice.uid, "followers")
    quote = posting.post_status(alice.uid, "mine", quote_id=quoted)
    data = json.loads(b"".join(alice.client.post("/export/")))
    (status,) = data["statuses"]
    assert status["id"] == quote
    assert (status["quote_of"], status["quote_of_login"]) == (quoted, "bob")
    assert status["quote_policy"] == "followers"
    assert data["profile"]["quote_policy"] == "followers"


def test_a_closed_accounts_quotes_and_quoted_statuses_go_with_it(make_user, redis_conn):
    leaving, other = make_user("leaving"), make_user("other")
    theirs = posting.post_status(leaving.uid, "quoted by other")
    others = posting.post_status(other.uid, "quoted by leaving")
    by_other = posting.post_status(other.uid, "quoting", quote_id=theirs)
    posting.post_status(leaving.uid, "quoting", quote_id=others)
    assert get_status(others)["quotes"] == 1
    account_services.close_account(leaving.uid)
    call_command("worker", burst=True)
    assert get_status(others)["quotes"] == 0 and quote_ids(others) == []
    assert not redis_conn.exists(quotes_key(theirs))
    assert get_status(by_other)["quote_of"] == theirs

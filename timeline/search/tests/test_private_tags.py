"""A #tag used only in private (followers-only) statuses is nobody's to find: tag
search leaves it out, and a tag's recent count is of its public uses only."""

import importlib
import io

from django.core.management import call_command

from timeline import keys
from timeline.posting import services as posting
from timeline.safety import services as safety
from timeline.search import selectors
from timeline.tests.pages import shows


def found(query: str) -> list[tuple[str, int]]:
    return [(tag.name, tag.recent) for tag in selectors.search_tags(query)[0]]


def test_a_tag_used_only_in_private_statuses_is_not_found(alice, bob):
    safety.set_private(alice.uid, True)
    posting.post_status(alice.uid, "plans for the #surprise party")
    assert found("surp") == []
    response = bob.client.get("/search/", {"q": "#surp", "type": "tags"})
    assert response.status_code == 200
    assert shows(response, "No tags start with that.")
    assert "surprise" not in response.content.decode()
    # Once someone uses it in public, it is found, counted for that use alone.
    posting.post_status(bob.uid, "a #surprise in public")
    assert found("surp") == [("surprise", 1)]


def test_a_tags_count_is_of_its_public_statuses(alice, bob):
    safety.set_private(alice.uid, True)
    posting.post_status(bob.uid, "#mixed in public")
    for n in range(3):
        posting.post_status(alice.uid, f"#mixed for my followers {n}")
    assert found("mix") == [("mixed", 1)]
    again = posting.post_status(bob.uid, "#mixed again")
    assert found("mix") == [("mixed", 2)]
    posting.delete_status(bob.uid, again)
    assert found("mix") == [("mixed", 1)]


def test_reindexing_leaves_private_tags_out_and_drops_those_named_before(alice, bob, redis_conn):
    safety.set_private(alice.uid, True)
    posting.post_status(alice.uid, "#hidden from the index")
    posting.post_status(bob.uid, "#shown to all")
    # A store written before private tags were left out names it, with no public use.
    redis_conn.zadd(keys.TAG_NAMES, {"hidden": 0})
    redis_conn.delete(keys.tag_public_uses_key("shown"))
    call_command("reindex_search", stdout=io.StringIO())
    assert found("hid") == []
    assert found("sho") == [("shown", 1)]


def test_the_upgrade_drops_private_tags_named_before_and_counts_public_uses(alice, bob, redis_conn):
    safety.set_private(alice.uid, True)
    posting.post_status(alice.uid, "#hidden from the index")
    posting.post_status(bob.uid, "#shown to all")
    redis_conn.zadd(keys.TAG_NAMES, {"hidden": 0})
    redis_conn.delete(keys.tag_public_uses_key("shown"))
    said: list[str] = []
    importlib.import_module("timeline.data_migrations.0008_public_tag_names").apply(said.append)
    assert said[-1] == "  Dropped 1 tag names no public status uses."
    assert (found("hid"), found("sho")) == ([], [("shown", 1)])

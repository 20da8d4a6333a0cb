from timeline.statuses import text


def test_mentions_are_lower_cased_unique_and_skip_email_addresses():
    assert text.mentions("@Alice hi @bob and @alice, mail me@example.com") == ["alice", "bob"]


def test_tags_are_lower_cased_and_unique():
    assert text.tags("#Redis rocks #redis #python3! not&#39;") == ["redis", "python3"]


def test_links_stop_before_trailing_punctuation():
    assert text.LINK.findall("see https://example.com/a?b=1. ok") == ["https://example.com/a?b=1"]

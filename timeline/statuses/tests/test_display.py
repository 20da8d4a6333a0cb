import time
from datetime import timedelta

import pytest
from django.utils import timezone

from timeline.statuses.display import ago, linkify, posted_at


def test_linkify_escapes_html():
    assert linkify("<b>bold</b> & 'quotes'") == "&lt;b&gt;bold&lt;/b&gt; &amp; &#39;quotes&#39;"


def test_linkify_links_mentions_to_profiles():
    assert linkify("hi @Bob_1!") == 'hi <a class="mention" href="/u/Bob_1/">@Bob_1</a>!'


def test_linkify_leaves_email_addresses_alone():
    assert linkify("mail me@example.com") == "mail me@example.com"


def test_linkify_makes_links_clickable_without_trailing_punctuation():
    assert linkify("see https://example.org/x?a=1&b=2.") == (
        'see <a href="https://example.org/x?a=1&amp;b=2" rel="nofollow noopener noreferrer">'
        "https://example.org/x?a=1&amp;b=2</a>."
    )


def test_linkify_keeps_a_fragment_or_at_sign_inside_a_link():
    text = linkify("https://example.org/@bob#top")
    assert text.count("<a ") == 1
    assert 'class="mention"' not in text
    assert 'class="tag"' not in text


def test_linkify_links_tags_to_their_page_in_lower_case():
    assert linkify("#Redis rocks") == '<a class="tag" href="/tags/redis/">#Redis</a> rocks'


def test_linkify_given_the_known_mentions_leaves_the_others_plain():
    assert linkify("@Bob and @nobody", "bob") == (
        '<a class="mention" href="/u/Bob/">@Bob</a> and @nobody'
    )
    assert linkify("@nobody", "") == "@nobody"


def test_a_link_cannot_break_out_of_its_attribute():
    assert linkify('https://example.org/"onclick="x') == (
        '<a href="https://example.org/" rel="nofollow noopener noreferrer">https://example.org/</a>'
        "&#34;onclick=&#34;x"
    )


@pytest.mark.parametrize(
    ("seconds", "shown"),
    [
        (5, "just now"),
        (3 * 60 + 5, "3\xa0minutes ago"),
        (2 * 3600 + 60, "2\xa0hours ago"),
        (3 * 86400 + 60, "3\xa0days ago"),
    ],
)
def test_times_read_as_how_long_ago(seconds, shown):
    assert ago(timezone.now() - timedelta(seconds=seconds)) == shown


def test_a_time_from_a_clock_slightly_ahead_is_just_now():
    assert ago(posted_at(time.time() + 30)) == "just now"


def test_posted_at_is_an_aware_utc_datetime():
    moment = posted_at(0.0)
    assert moment.year == 1970
    assert moment.utcoffset() == timedelta(0)

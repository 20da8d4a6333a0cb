"""The read side of attachments: a record decoded from its hash, a status's attachments
and a page's in one round trip."""

from timeline.media import keys, layout, selectors
from timeline.media.records import Attachment, media_field, media_ids_of


def stored(conn, uid, media_id, **fields):
    base = {layout.KIND: "image", layout.TOKEN: f"tok{media_id}", layout.EXTENSION: "jpg"}
    conn.hset(keys.attachment_key(uid, media_id), mapping={**base, **fields})


def test_a_status_media_field_round_trips_its_ids_in_order():
    assert media_ids_of({"media": media_field([12, 3, 7])}) == [12, 3, 7]
    assert media_ids_of({}) == []


def test_an_attachment_is_read_as_its_record(redis_conn):
    stored(redis_conn, 5, 9, w=800, h=600, v=640, u=480, b="LEHV6nWB2y", d="A cat", x="0.5,-0.25")
    found = selectors.get_attachment(5, 9)
    assert isinstance(found, Attachment)
    assert (found.id, found.uid, found.kind, found.state) == (9, 5, "image", "ready")
    assert found.url.endswith("attachments/tok9.jpg")
    assert found.preview_url.endswith("attachments/tok9-small.webp")
    assert (found.width, found.height, found.preview_width, found.preview_height) == (
        800,
        600,
        640,
        480,
    )
    assert (found.blurhash, found.description, found.focus) == ("LEHV6nWB2y", "A cat", (0.5, -0.25))
    assert found.status_id is None


def test_a_processing_attachment_has_no_urls_yet(redis_conn):
    stored(redis_conn, 5, 10, k="video", s="processing")
    found = selectors.get_attachment(5, 10)
    assert found is not None and found.processing and not found.ready
    assert (found.url, found.preview_url) == ("", "")


def test_another_users_attachment_reads_as_none(redis_conn):
    stored(redis_conn, 5, 11)
    assert selectors.get_attachment(6, 11) is None


def test_a_page_of_statuses_reads_all_their_attachments_in_one_round_trip(redis_conn, round_trips):
    for media_id in (1, 2, 3):
        stored(redis_conn, 7, media_id)
    stored(redis_conn, 8, 4)
    original = {"id": 50, "uid": 8, "media": "4"}
    statuses = [
        {"id": 100, "uid": 7, "media": "2,1"},
        {"id": 101, "uid": 7},
        {"id": 102, "uid": 9, "repost_of": 50, "original": original},
        {"id": 103, "uid": 7, "media": "3,99"},
    ]
    assert round_trips(lambda: selectors.with_attachments(statuses)) == 1
    assert [a.id for a in statuses[0]["attachments"]] == [2, 1]
    assert "attachments" not in statuses[1]
    assert [a.id for a in original["attachments"]] == [4]
    # An attachment gone (its status's deletion under way) is left out.
    assert [a.id for a in statuses[3]["attachments"]] == [3]


def test_statuses_without_media_cost_no_round_trip(round_trips):
    assert round_trips(lambda: selectors.with_attachments([{"id": 1, "uid": 1}])) == 0

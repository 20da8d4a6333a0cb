"""`manage.py repair`'s check of attachments (timeline.media.repair)."""

from django.conf import settings
from django.core.files.storage import default_storage

from timeline import keys as timeline_keys
from timeline.media import keys, layout, selectors, services
from timeline.ops import maintenance
from timeline.posting import services as posting

from . import files


def media_findings(fix=False):
    return [(f.key, f.problem) for f in maintenance.repair(fix=fix).findings if f.check == "media"]


def test_sound_attachments_have_no_findings(alice):
    media_id = services.upload_media(alice.uid, files.png()).id
    posting.post_status(alice.uid, "Fine", media_ids=[media_id])
    services.upload_media(alice.uid, files.png())
    assert media_findings() == []


def test_an_attachment_left_by_a_status_gone_is_found_and_deleted(alice, redis_conn):
    found = services.upload_media(alice.uid, files.png())
    status_id = posting.post_status(alice.uid, "Soon gone", media_ids=[found.id])
    # The status's hash went without its deletion's job (a crash between).
    redis_conn.delete(timeline_keys.status_key(status_id))
    key = keys.attachment_key(alice.uid, found.id)
    assert media_findings() == [(key, "attached to a status that is gone")]
    assert media_findings(fix=True) == [(key, "attached to a status that is gone")]
    assert selectors.get_attachment(alice.uid, found.id) is None
    assert not default_storage.exists(found.url.removeprefix(settings.MEDIA_URL))
    assert media_findings() == []


def test_an_upload_past_its_time_and_wrong_bytes_are_found_and_fixed(alice, redis_conn):
    found = services.upload_media(alice.uid, files.png())
    redis_conn.hset(keys.attachment_key(alice.uid, found.id), layout.CREATED, 1)
    redis_conn.incrby(keys.media_bytes_key(alice.uid), 5)
    findings = media_findings(fix=True)
    assert (keys.attachment_key(alice.uid, found.id), "never attached, past its time") in findings
    assert selectors.get_attachment(alice.uid, found.id) is None
    assert media_findings() == []
    assert selectors.media_bytes(alice.uid) == 0


def test_an_index_entry_without_its_attachment_is_dropped(alice, redis_conn):
    kept = services.upload_media(alice.uid, files.png())
    redis_conn.zadd(keys.user_media_key(alice.uid), {"999": 1})
    assert media_findings(fix=True) == [
        (keys.attachment_key(alice.uid, 999), "in the index, but gone")
    ]
    assert selectors.user_media_ids(alice.uid) == [kept.id]
    assert media_findings() == []

"""19. Media: an upload of a 4 MB JPEG through timeline.media (its checks on the request,
the redraw in a process of its own, storage and Redis) beside Pillow's own decode and
encode of the same file, wall and CPU; and what a status with media adds in Redis (its
`media` field, the attachment's hash, its place in its uploader's index), projected for
1,000,000 users with 20 statuses each and 20% of them with media."""

import io
import statistics
import time

from PIL import Image

from timeline import keys as timeline_keys
from timeline.media import keys, pipeline, services
from timeline.posting import services as posting
from timeline.statuses import services as statuses

from . import seed
from .context import Context
from .measure import Row, Size, latency_of

TARGET_MB = 4.0
SITE_USERS = 1_000_000
STATUSES_EACH = 20
MEDIA_SHARE = 0.20


def photo(megabytes: float = TARGET_MB) -> bytes:
    """A photo-like JPEG of about `megabytes` (a 12-megapixel camera's, gradients and grain)."""
    width, height = 4000, 3000
    base = Image.linear_gradient("L").resize((width, height))
    grain = [Image.effect_noise((width, height), sigma) for sigma in (30, 40, 50)]
    picture = Image.merge("RGB", [Image.blend(base, g, 0.5) for g in grain])
    quality, data = 95, b""
    while quality > 40:
        out = io.BytesIO()
        picture.save(out, "JPEG", quality=quality)
        data = out.getvalue()
        if len(data) <= megabytes * 1024 * 1024:
            break
        quality -= 5
    return data


def pillow_round_trip(data: bytes) -> None:
    """Pillow's own decode of `data` and encode as JPEG, as it comes (the baseline)."""
    with Image.open(io.BytesIO(data)) as picture:
        picture.load()
        picture.save(io.BytesIO(), "JPEG", quality=pipeline.JPEG_QUALITY)


def ours_in_process(data: bytes) -> None:
    """The media pipeline's work on `data` in this process (for its CPU): the check, and
    the redraw (upright, at most 8.3 megapixels, preview, blurhash)."""
    pipeline.check_picture(data, media_type="image/jpeg", extension="jpg")
    pipeline.redraw(data)


def timed(run, samples: int) -> tuple[list[float], list[float]]:
    walls, cpus = [], []
    for _ in range(samples):
        wall, cpu = time.perf_counter(), time.process_time()
        run()
        cpus.append(time.process_time() - cpu)
        walls.append(time.perf_counter() - wall)
    return walls, cpus


def run(ctx: Context) -> list[Row]:
    samples = max(3, min(20, ctx.plan.post_samples // 10))
    data = photo()
    uid = seed.user("uploader")
    calls = {
        "upload": lambda: services.upload_media(uid, data, media_type="image/jpeg"),
        "pillow": lambda: pillow_round_trip(data),
        "in_process": lambda: ours_in_process(data),
    }
    for call in calls.values():
        call()  # off the clock: imports, the redraw processes' start
    found: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name in calls}
    for _ in range(samples):
        for name, call in calls.items():
            wall, cpu = timed(call, 1)
            found[name][0].extend(wall)
            found[name][1].extend(cpu)
    cpu_ms = {name: statistics.median(cpus) * 1000 for name, (_, cpus) in found.items()}
    upload = latency_of(found["upload"][0])
    pillow = latency_of(found["pillow"][0])
    rows = [
        Row(
            "media",
            f"upload of a {len(data) / 1024 / 1024:.1f} MB JPEG (4000 x 3000)",
            upload,
            "Pillow's decode + encode of it",
            pillow,
            notes={
                "cpu_ms_pipeline_in_process": cpu_ms["in_process"],
                "cpu_ms_pillow": cpu_ms["pillow"],
                "wall_ms_pipeline_in_process_p50": latency_of(found["in_process"][0]).p50_ms,
                "cpu_ms_upload_request_side": cpu_ms["upload"],
                "bytes": len(data),
                "samples": samples,
            },
        )
    ]
    return rows + memory_rows(ctx, uid)


def memory_rows(ctx: Context, uid: int) -> list[Row]:
    """What a status with one attachment adds to one without, in Redis (MEMORY USAGE)."""
    conn = ctx.conn
    plain_id = statuses.create_status(uid, "x" * 140)
    attachment = services.upload_media(
        uid, photo(0.05), media_type="image/jpeg", description="A field at dusk, a tree on the left"
    )
    with_id = posting.post_status(uid, "x" * 140, media_ids=[attachment.id])

    def usage(key: str) -> int:
        return int(conn.memory_usage(key, samples=0) or 0)

    plain = usage(timeline_keys.status_key(plain_id))
    with_media = usage(timeline_keys.status_key(with_id))
    record = usage(keys.attachment_key(uid, attachment.id))
    # The uploader's index and quota: an entry each (~12 B in a listpack) and one key
    # a user who uploads at all.
    index_entry = 12
    added = with_media - plain + record + index_entry
    projected = SITE_USERS * STATUSES_EACH * MEDIA_SHARE * added
    return [
        Row(
            "media",
            f"a status with 1 attachment (140 chars; {plain} B without)",
            Size(plain + added, "B"),
            notes={
                "status_without_media_bytes": plain,
                "status_hash_bytes_added": with_media - plain,
                "attachment_hash_bytes": record,
                "index_entry_bytes": index_entry,
                "bytes_added": added,
            },
        ),
        Row(
            "media",
            f"{SITE_USERS:,} users, {STATUSES_EACH} statuses each,"
            f" {MEDIA_SHARE:.0%} with 1 attachment",
            Size(projected / 1e9, "GB"),
            notes={"bytes_added_per_status_with_media": added},
        ),
    ]

"""Consistency checks and repairs (`manage.py repair`) and the network's numbers
(`manage.py stats` and the admin dashboard, through socialsite.dashboard). Both walk
Redis with SCAN, HSCAN and ranges, never KEYS, so they can run beside live traffic."""

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from accounts import keys as account_keys
from socialsite.redis import get_redis

from .. import keys
from ..discovery import activity
from ..edits import repair as edit_repair
from ..feeds import home_list
from ..follow_sets import following as following_sets
from ..media import repair as media_repair
from ..polls import repair as polls_repair
from ..quotes.keys import QUOTES_PATTERN, quotes_key
from ..reactions import marks_sync
from ..statuses.selectors import COUNT_FIELDS, exist
from . import scripts
from .keeps import check_keeps
from .pairings import BOOKMARKS, FOLLOWS, LIKES, MEMBERSHIPS, check_pairs
from .report import CHUNK, Finding, Progress, RepairReport, chunks, ranges
from .visibility_check import check_visibility


def repair(*, fix: bool = False, progress: Progress = lambda _: None) -> RepairReport:
    """Checks every timeline (home, profile, global, list, mentions, tag, likes pages,
    replies, bookmarks) against existing statuses, that both sides of follows, list
    memberships, likes and bookmarks agree, the liked and reposted marks (statuses.marks),
    keep's marks, followed tags and pins (ops.keeps), polls (their counts, voters' copies
    and closing: polls.repair), attachments (media.repair), and the counters of
    users, statuses and lists against their sets; with `fix`, repairs what it finds, in
    that order (each fix can change what the next one counts).

    Suspects are read again just before they are reported, so an operation in flight
    (a status being stored, an unfollow between its two steps) isn't taken for damage."""
    report = RepairReport(fixed=fix)
    conn = get_redis()
    _check_timelines(conn, report, progress)
    for pairing in (FOLLOWS, MEMBERSHIPS, LIKES, BOOKMARKS):
        check_pairs(conn, pairing, report, progress)
    _check_marks(report, progress)
    _check_polls(report, progress)
    _check_media(report, progress)
    # Keep: bookmark marks, followed tags and pins (ops.keeps).
    report.findings.extend(
        Finding(*found) for found in check_keeps(conn, fix=fix, progress=progress)
    )
    _check_counters(conn, report, progress)
    _check_versions(conn, report, progress)
    check_visibility(conn, report, progress)
    return report


def _check_versions(conn, report: RepairReport, progress: Progress) -> None:
    """Edits: earlier versions kept for a status that is gone (timeline.edits)."""
    checked = 0
    for counted, gone in edit_repair.orphaned_versions(conn, CHUNK):
        checked += counted
        for key in gone:
            report.findings.append(Finding("versions", key, "versions of a deleted status"))
        if report.fixed and gone:
            # One key a DEL: they live in as many slots.
            pipe = conn.pipeline(transaction=False)
            for key in gone:
                pipe.delete(key)
            pipe.execute()
    report.checked["versions"] = checked
    progress(f"versions: {checked} checked")


# Every sorted set of status ids: profile, list, mentions and tag timelines, the likes
# pages, and each status's replies (whose count the counter check then follows). Homes
# are lists of ids (feeds.home_list).
TIMELINE_PATTERNS = (
    keys.REPLIES_PATTERN,
    keys.PROFILE_TIMELINE_PATTERN,
    keys.LIST_TIMELINE_PATTERN,
    keys.MENTIONS_TIMELINE_PATTERN,
    keys.TAG_TIMELINE_PATTERN,
    keys.LIKES_PATTERN,
    # Quotes: each status's quotes (whose count the counter check then follows).
    QUOTES_PATTERN,
    keys.BOOKMARKS_PATTERN,
)


def _timeline_keys(conn) -> Iterator[tuple[str, bool]]:
    """Each timeline's key, and whether it is a home."""
    yield keys.GLOBAL_TIMELINE, False
    for pattern in TIMELINE_PATTERNS:
        yield from (
            (key, False) for key in conn.scan_iter(match=pattern, count=CHUNK, _type="ZSET")
        )
    homes = conn.scan_iter(match=keys.HOME_TIMELINE_PATTERN, count=CHUNK, _type="LIST")
    yield from ((key, True) for key in homes)


def _check_timelines(conn, report: RepairReport, progress: Progress) -> None:
    """Timeline entries whose status hash is gone (a retract job that never ran)."""
    # One pass over the status hashes makes a bitmap of the ids that exist, so each
    # timeline entry is checked in memory instead of by a round trip.
    newest = int(conn.get(keys.STATUS_ID_COUNTER) or 0)
    exists = bytearray(newest + 1)
    for key in conn.scan_iter(match=keys.STATUS_PATTERN, count=CHUNK):
        status_id = account_keys.hash_tag_id(key)
        if status_id <= newest:
            exists[status_id] = 1
    progress(f"timelines: {sum(exists)} statuses exist")
    suspects: list[tuple[str, bool, list[str]]] = []
    checked = 0
    for checked, (key, home) in enumerate(_timeline_keys(conn), start=1):
        # Ids newer than the bitmap are statuses posted since: not suspects.
        missing = {
            status_id: None
            for ids in ranges(conn, key, home=home)
            for status_id in ids
            if int(status_id) <= newest and not exists[int(status_id)]
        }
        if missing:
            suspects.append((key, home, list(missing)))
        if checked % 10_000 == 0:
            progress(f"timelines: {checked} checked")
    report.checked["timelines"] = checked
    pipe = conn.pipeline(transaction=False)
    for key, home, listed in suspects:
        gone = [sid for sid, found in zip(listed, exist(conn, listed), strict=True) if not found]
        if not gone:
            continue
        report.findings.append(
            Finding("timelines", key, f"{len(gone)} deleted statuses listed: {_sample(gone)}")
        )
        if report.fixed and home:
            home_list.queue_remove(pipe, account_keys.hash_tag_id(key), gone)
        elif report.fixed:
            pipe.zrem(key, *gone)
    pipe.execute()  # empty unless fixing


def _check_marks(report: RepairReport, progress: Progress) -> None:
    """Liked and reposted marks that differ from the likes and reposts they mark (after
    the likes check, so they follow the likes pages as it left them)."""
    found = marks_sync.check_marks(fix=report.fixed, progress=progress)
    report.checked.update(found.checked)
    report.findings.extend(Finding("marks", key, problem) for key, problem in found.findings)


def _check_polls(report: RepairReport, progress: Progress) -> None:
    """Polls' counts, voters' copies and closing (timeline.polls.repair)."""
    found = polls_repair.check_polls(fix=report.fixed, progress=progress)
    report.checked.update(found.checked)
    report.findings.extend(Finding("polls", key, problem) for key, problem in found.findings)


def _check_media(report: RepairReport, progress: Progress) -> None:
    """Attachments: their uploaders' indexes and quotas, those left behind by a status
    gone or never attached (timeline.media.repair)."""
    found = media_repair.check_media(fix=report.fixed, chunk=CHUNK)
    report.checked["attachments"] = found.checked
    report.findings.extend(Finding("media", key, problem) for key, problem in found.findings)
    progress(f"attachments: {found.checked} checked")


@dataclass(frozen=True)
class Counted:
    """Hashes whose counters each count a set in the hash's slot."""

    name: str  # what report.checked counts them as
    pattern: str  # SCAN pattern of the hashes
    fields: tuple[str, ...]  # the counters...
    sets: tuple[Callable[[int], str], ...]  # ...and, by the hash's id, the sets they count
    # The field that counts a following set, kept in buckets past a size (follow_sets.following).
    following_field: str = ""


COUNTED = (
    Counted(
        "users",
        account_keys.USER_KEY_PATTERN,
        ("followers", "following", "posts"),
        (keys.followers_key, keys.following_key, keys.profile_timeline_key),
        following_field="following",
    ),
    Counted(
        "statuses",
        keys.STATUS_PATTERN,
        (*COUNT_FIELDS, "quotes"),  # replies, reposts, likes; quotes
        (keys.replies_key, keys.reposts_key, keys.likers_key, quotes_key),
    ),
    Counted("lists", keys.LIST_PATTERN, ("members",), (keys.list_members_key,)),
)


def _check_counters(conn, report: RepairReport, progress: Progress) -> None:
    """Counters (a user's follows and posts, a status's replies, reposts, likes and
    quotes, a list's members) that differ from the size of the set they count."""
    for counted in COUNTED:
        hashes = 0
        scan = conn.scan_iter(match=counted.pattern, count=CHUNK, _type="HASH")
        for hash_keys in chunks(scan):
            _check_counter_chunk(conn, report, counted, hash_keys)
            hashes += len(hash_keys)
            if hashes % 10_000 < len(hash_keys):
                progress(f"counters: {hashes} {counted.name} checked")
        report.checked[counted.name] = hashes


def _check_counter_chunk(conn, report: RepairReport, counted: Counted, hash_keys: list) -> None:
    pipe = conn.pipeline(transaction=False)
    for key in hash_keys:
        owner = account_keys.hash_tag_id(key)
        pipe.hmget(key, *counted.fields)
        for set_key in counted.sets:
            pipe.zcard(set_key(owner))
    suspects = [
        key
        for key, (counters, *sizes) in zip(
            hash_keys, chunks(pipe.execute(), 1 + len(counted.sets)), strict=True
        )
        if any(int(c or 0) != size for c, size in zip(counters, sizes, strict=True))
    ]
    # Read again, and fixed, in each hash's slot: a change in flight isn't damage.
    for key in suspects:
        owner = account_keys.hash_tag_id(key)
        set_keys = [set_key(owner) for set_key in counted.sets]
        scripts.check_counters(
            pipe,
            hash_key=key,
            set_keys=set_keys,
            fix=report.fixed,
            following_field=counted.following_field,
            following_buckets=following_sets.BUCKETS,
            fields=counted.fields,
        )
    for key, wrong in zip(suspects, pipe.execute(), strict=True):
        if wrong:
            problems = [
                f"{name} {counter} (the set has {size})" for name, counter, size in chunks(wrong, 3)
            ]
            report.findings.append(Finding("counters", key, ", ".join(problems)))


def _sample(items: list, shown: int = 5) -> str:
    more = f" and {len(items) - shown} more" if len(items) > shown else ""
    return ", ".join(map(str, items[:shown])) + more


def network_totals() -> dict[str, int]:
    """Users, statuses and follows, summed from the profile counters (one HSCAN pass)."""
    conn = get_redis()
    totals = {"users": 0, "statuses": 0, "follows": 0}
    logins = conn.hscan_iter(account_keys.LOGIN_INDEX, count=CHUNK)
    for chunk in chunks(uid for _, uid in logins):
        pipe = conn.pipeline(transaction=False)
        for uid in chunk:
            pipe.hmget(account_keys.user_key(uid), "posts", "following")
        for posts, following in pipe.execute():
            totals["users"] += 1
            totals["statuses"] += int(posts or 0)
            totals["follows"] += int(following or 0)
    totals["suspended"] = conn.scard(account_keys.SUSPENDED_USERS)
    return totals


def network_figures() -> dict:
    """The timeline's figures for the operators' dashboard (socialsite.dashboard)."""
    return {
        **network_totals(),
        "posts_per_hour": activity.posts_per_hour(),
        **activity.trending(),
    }

"""Redis key names for statuses, timelines, the follow graph, conversations, reactions,
lists and activity counts.

Per-user keys carry the hash tag {uid} (the same slot as the user's profile hash),
so each single-user step is one atomic, cluster-legal script or transaction."""

import zlib

from accounts.keys import user_key  # noqa: F401  (re-exported: the profile holds counters)

# The number of the newest data migration applied to this store (timeline.data_migrations):
# the version of the layout every key here is in.
DATA_VERSION = "data:version"
STATUS_ID_COUNTER = "statuses:next_id"
# Every change to a status hash publishes the hash's key here (statuses.cache).
STATUS_CHANGES_CHANNEL = "statuses:changed"
# A random token, set by the first home page read after the store was emptied: statuses
# kept in a process are served to homes only under the token they were kept under
# (statuses.cache).
STATUSES_EPOCH = "statuses:epoch"
GLOBAL_TIMELINE = "timeline:global"


def status_key(status_id: int | str) -> str:
    return f"status:{{{status_id}}}"


def status_id_in_key(key: str) -> str:
    """The status id (as text) in a key made by `status_key`."""
    return key.removeprefix("status:{").removesuffix("}")


def profile_timeline_key(uid: int | str) -> str:
    return f"profile:{{{uid}}}"


def media_timeline_key(uid: int | str) -> str:
    """Media (mediaweb): `uid`'s statuses with media, scored as the profile is (POSTED):
    their profile's media tab."""
    return f"profile_media:{{{uid}}}"


def home_timeline_key(uid: int | str) -> str:
    """A list of status ids, newest at the head (feeds.home_list)."""
    return f"feed:{{{uid}}}"


def followers_key(uid: int | str) -> str:
    return f"followers:{{{uid}}}"


def follower_pieces_key(uid: int) -> str:
    """Start time -> start time of each piece of `uid`'s followers past the first
    (timeline.follow_sets.followers); absent while they all fit in followers_key."""
    return f"{followers_key(uid)}:pieces"


def follower_piece_key(uid: int, start: str) -> str:
    """The piece of `uid`'s followers from follow time `start` on (the scripts in
    timeline/follow_sets/lua name it the same way: the followers key, ':', the start)."""
    return f"{followers_key(uid)}:{start}"


def following_key(uid: int | str) -> str:
    return f"following:{{{uid}}}"


def following_bucket_key(uid: int, bucket: int) -> str:
    """One of the buckets a big following set is kept in (timeline.follow_sets.following; its
    scripts name it the same way: the following key, ':', the bucket)."""
    return _bucket_of(following_key(uid), bucket)


def following_bucket_keys(uid: int, buckets: int) -> list[str]:
    """All `buckets` of `uid`'s bucket keys, the following key's text made once (a page
    asks for all of them)."""
    base = following_key(uid)
    return [_bucket_of(base, bucket) for bucket in range(buckets)]


def _bucket_of(following: str, bucket: int) -> str:
    return f"{following}:{bucket}"


# Uid -> when they last read their home (feeds.homes: inactive homes are dropped).
ACTIVE_HOMES = "homes:active"
# A bit a uid, set while their home is dropped (feeds.homes): fan-out skips them.
DROPPED_HOMES = "homes:dropped"


def shown_reposts_key(timeline_key: str) -> str:
    """Original id -> id of the repost that put it in the timeline (same slot as the timeline)."""
    return f"{timeline_key}:reposts"


# Conversations. A status's reply, repost and like sets share its slot, so each
# count changes in one script with the set it counts.
def mentions_timeline_key(uid: int | str) -> str:
    return f"mentions:{{{uid}}}"


def tag_timeline_key(tag: str) -> str:
    return f"tag:{{{tag}}}"


def tag_public_uses_key(tag: str) -> str:
    """Status id -> posted, of the public statuses that used #tag lately (search.services)."""
    return f"tag:{{{tag}}}:public"


def replies_key(status_id: int | str) -> str:
    """Reply id -> posted."""
    return f"replies:{{{status_id}}}"


def reposts_key(status_id: int | str) -> str:
    """Reposter uid -> id of their repost."""
    return f"reposts:{{{status_id}}}"


def likers_key(status_id: int | str) -> str:
    """Liker uid -> time liked."""
    return f"likers:{{{status_id}}}"


# Edits (timeline.edits): a status's earlier versions, oldest first, in its slot.
def status_versions_key(status_id: int | str) -> str:
    """The earlier versions of an edited status, oldest first: one JSON object each
    (timeline.edits.layout); absent for a status never edited."""
    return f"versions:{{{status_id}}}"


def likes_key(uid: int | str) -> str:
    """Status id -> time liked: the user's likes page."""
    return f"likes:{{{uid}}}"


# A page's liked and reposted marks (statuses.marks): sets of status ids, intsets
# (a binary search a lookup), in the viewer's slot beside likes:{uid}. A sorted set
# as compact as zset-max-ziplist-entries keeps it is walked entry by entry instead.
def liked_key(uid: int | str) -> str:
    """The ids of the statuses `uid` likes (as likes_key, unordered)."""
    return f"liked:{{{uid}}}"


def reposted_key(uid: int | str) -> str:
    """The ids of the statuses `uid` reposted (each an original: reposts_key's)."""
    return f"reposted:{{{uid}}}"


# Polls (timeline.polls): a page's poll marks, beside the liked and reposted ones.
def poll_votes_key(uid: int | str) -> str:
    """Status id -> the options `uid` chose in its poll ("0,2"): the voter's own copy of
    their votes (the poll's own is timeline.polls.keys.poll_voters_key), read with a page."""
    return f"poll_votes:{{{uid}}}"


# Lists. A list's hash, members and timeline share the list's own slot; the
# owner's index and each member's "listed in" set live in those users' slots.
LIST_ID_COUNTER = "lists:next_id"


def list_key(list_id: int | str) -> str:
    return f"list:{{{list_id}}}"


def list_members_key(list_id: int | str) -> str:
    """Member uid -> time added."""
    return f"list:{{{list_id}}}:members"


def list_timeline_key(list_id: int | str) -> str:
    return f"list:{{{list_id}}}:timeline"


def user_lists_key(uid: int) -> str:
    """List id -> time created: the lists `uid` owns."""
    return f"lists:{{{uid}}}"


def listed_in_key(uid: int | str) -> str:
    """List id -> time added: the lists `uid` is a member of, walked by fan-out."""
    return f"listed_in:{{{uid}}}"


# SCAN patterns for maintenance. Redis globs know no braces, and each pattern ends as
# its key does, so "list:{*}" matches a list's hash but not its members or timeline.
HOME_TIMELINE_PATTERN = home_timeline_key("*")
PROFILE_TIMELINE_PATTERN = profile_timeline_key("*")
MEDIA_TIMELINE_PATTERN = media_timeline_key("*")
MENTIONS_TIMELINE_PATTERN = mentions_timeline_key("*")
TAG_TIMELINE_PATTERN = tag_timeline_key("*")
LIST_TIMELINE_PATTERN = list_timeline_key("*")
LIKES_PATTERN = likes_key("*")
LIKERS_PATTERN = likers_key("*")
LIKED_PATTERN = liked_key("*")
REPOSTS_PATTERN = reposts_key("*")
REPOSTED_PATTERN = reposted_key("*")
REPLIES_PATTERN = replies_key("*")
STATUS_VERSIONS_PATTERN = status_versions_key("*")
FOLLOWERS_PATTERN = followers_key("*")
FOLLOWING_PATTERN = following_key("*")
STATUS_PATTERN = status_key("*")
LIST_PATTERN = list_key("*")
LIST_MEMBERS_PATTERN = list_members_key("*")
LISTED_IN_PATTERN = listed_in_key("*")

# Activity counted from the event stream. All of it shares one hash tag, so reading
# an hour of minute buckets (ZUNION) or a day of hour counters (MGET) is one slot.
ACTIVITY_COUNTED = "activity:{stats}:counted"


def activity_posts_key(hour: int) -> str:
    """Statuses posted in hour `hour` (Unix time // 3600)."""
    return f"activity:{{stats}}:posts:{hour}"


def activity_terms_key(kind: str, minute: int) -> str:
    """Counts of "tags" or "mentions" in minute `minute` (Unix time // 60)."""
    return f"activity:{{stats}}:{kind}:{minute}"


# Explore's trends, counted from the event stream (timeline.discovery.trending). All of
# it shares one hash tag, so a day of hour buckets is one ZUNIONSTORE in one slot.
TRENDS_COUNTED = "trends:{trends}:counted"
TRENDING_STATUSES = "trends:{trends}:statuses"
TRENDING_LINKS = "trends:{trends}:links"
# "uid url" -> when that author's use of that link was last counted (once a day each).
TREND_LINK_AUTHORS = "trends:{trends}:link_authors"


def trend_statuses_key(hour: int) -> str:
    """Engagement (weighted likes, reposts, replies) each status got in hour `hour`."""
    return f"trends:{{trends}}:statuses:{hour}"


def trend_links_key(hour: int) -> str:
    """New authors (each once a day) each link got in hour `hour`."""
    return f"trends:{{trends}}:links:{hour}"


def trend_link_day_key(kind: str, day: int) -> str:
    """Day `day`'s (Unix time // 86400) link "uses" or "accounts" (zsets: link -> count),
    or its "pairs" (the set of "uid url" counted in "accounts" that day)."""
    return f"trends:{{trends}}:link_{kind}:{day}"


# Notifications and direct messages: events for one person (a notification, a
# message, a changed unread count) go on their own channel, never on STATUS_CHANNEL,
# which the streaming API relays to anyone. Each carries the uids it is for.
PRIVATE_CHANNEL = "private:events:"
# The unread counts are fields of the user's profile hash (user:{uid}), so a page that
# reads the profile reads them too, and each change is one slot with the lists below.
UNREAD_NOTIFICATIONS = "unread_notifications"
UNREAD_MESSAGES = "unread_messages"
# Whole milliseconds, as notifications' scores (Unix seconds before data migration 0006).
NOTIFICATIONS_READ_AT = "notifications_read_at"


def notifications_key(uid: int) -> str:
    """notifications.services.notification_member -> time in whole ms: `uid`'s
    notifications, newest last."""
    return f"notifications:{{{uid}}}"


def mention_notifications_key(uid: int) -> str:
    """The mentions and replies among `uid`'s notifications (the "mentions" filter)."""
    return f"notifications:{{{uid}}}:mentions"


# Both of a user's notification sets.
NOTIFICATIONS_PATTERN = "notifications:{*"


# A conversation's keys share its own slot ({c<id>}); each member's inbox lives in
# theirs, so a message is one step in the conversation's slot, then one per member.
CONVERSATION_ID_COUNTER = "dm:next_id"


def conversation_key(conversation_id: int) -> str:
    """kind (direct|group), created, logins, last message (JSON), next message id."""
    return f"dm:{{c{conversation_id}}}"


def conversation_members_key(conversation_id: int) -> str:
    """Member uid -> time joined."""
    return f"dm:{{c{conversation_id}}}:members"


def conversation_messages_key(conversation_id: int) -> str:
    """Message id -> the message as JSON."""
    return f"dm:{{c{conversation_id}}}:messages"


def conversation_timeline_key(conversation_id: int) -> str:
    """Message id -> time sent, for paging."""
    return f"dm:{{c{conversation_id}}}:timeline"


def inbox_key(uid: int) -> str:
    """Conversation id -> time of its last message: `uid`'s inbox."""
    return f"inbox:{{{uid}}}"


def inbox_unread_key(uid: int) -> str:
    """Conversation id -> messages `uid` hasn't read there."""
    return f"inbox:{{{uid}}}:unread"


def direct_conversations_key(uid: int) -> str:
    """Other uid -> id of `uid`'s one-to-one conversation with them (reused, not remade)."""
    return f"direct:{{{uid}}}"


# Safety: private accounts, blocks, mutes and reports. Each user's sets share their
# slot, so the reader of a page reads them with the page's statuses, and each side of
# a two-user change (a block, an approved request) is one step in one slot.
PRIVATE_FIELD = "private"  # "1" in a private user's profile hash and on their statuses
# Quotes (timeline.quotes): on a profile hash, the account's default quote policy for new
# statuses; on a status, the one it was posted with (absent: anyone may quote it).
QUOTE_POLICY_FIELD = "quote_policy"


def follow_requests_key(uid: int) -> str:
    """Requester uid -> time asked: who asks to follow private `uid`."""
    return f"follow_requests:{{{uid}}}"


def requested_key(uid: int) -> str:
    """Private uid -> time asked: whom `uid` has asked to follow (their pending requests)."""
    return f"requested:{{{uid}}}"


def blocks_key(uid: int) -> str:
    """Blocked uid -> time blocked: whom `uid` blocks."""
    return f"blocks:{{{uid}}}"


def blocked_by_key(uid: int) -> str:
    """Blocker uid -> time blocked: who blocks `uid`."""
    return f"blocked_by:{{{uid}}}"


def mutes_key(uid: int) -> str:
    """Muted uid -> when the mute ends (inf: never): whom `uid` mutes."""
    return f"mutes:{{{uid}}}"


def muted_words_key(uid: int | str) -> str:
    """The phrases `uid` muted before muted words became a filter (accounts.filters):
    read only by data migration 0009, which moves them into one."""
    return f"muted_words:{{{uid}}}"


# Reports share one hash tag: the moderation queue reads them together.
REPORT_ID_COUNTER = "reports:{queue}:next_id"
OPEN_REPORTS = "reports:{queue}:open"  # report id -> time filed


def report_key(report_id: int) -> str:
    """reporter, target kind (status|user), target id, target uid, reason, comment, filed,
    state (open|dismissed|actioned), actions (JSON list of who/when/what)."""
    return f"reports:{{queue}}:report:{report_id}"


def open_report_key(reporter_uid: int, kind: str, target: int) -> str:
    """The open report `reporter_uid` filed on a target (one at a time), its id."""
    return f"reports:{{queue}}:by:{reporter_uid}:{kind}:{target}"


def target_reports_key(kind: str, target: int) -> str:
    """Report id -> time filed: the open reports on one status or user."""
    return f"reports:{{queue}}:on:{kind}:{target}"


def group_reports_key(group_id: int) -> str:
    """Report id -> time filed: the open reports on a group's posts that wait for its
    moderators (timeline.reports.groups), not yet the site's (OPEN_REPORTS)."""
    return f"reports:{{queue}}:group:{group_id}"


# Report id -> when it goes to the site's queue if the group's moderators leave it open.
GROUP_REPORTS_DUE = "reports:{queue}:group_due"
# The field of a status posted to a group naming the group's id.
GROUP_FIELD = "group"


def group_moderators_key(group_id: int | str) -> str:
    """Moderator uid -> time named (the owner is the group hash's): whom a request to
    join notifies, with the owner (timeline.groups.moderation)."""
    return f"group:{{g{group_id}}}:moderators"


# Search (timeline/search): an inverted index of statuses' words (Redis in Action 7.1),
# cut into shards of SEARCH_SHARD_STATUSES (<= 65,536) consecutive ids; a shard holds
# its statuses' offsets from its first id (0-65,535: 2 bytes each). A shard's keys share
# the tag {s<shard>}, so matching a query's words in one shard is one script in one slot,
# and the shards spread over a cluster. A word with few statuses in a shard (most words:
# half are used once) is a field of one of the shard's SEARCH_BUCKETS bucket hashes
# (word -> its offsets packed, 2 bytes each; a ziplist of ~50 words); a word past
# settings.SEARCH_BUCKET_IDS statuses moves to its own set (an intset), where it stays
# while it has any. A key costs ~80 bytes before its first id, a bucket's field ~4
# beyond the word and its ids.
SEARCH_BUCKETS = 1024


def search_ids_key(shard: int, word: str) -> str:
    """The set of `word`'s offsets in `shard`, once it has more than a bucket keeps."""
    return f"w:{{s{shard}}}:{word}"


def search_bucket_key(shard: int, word: str) -> str:
    """The hash holding `word`'s packed offsets in `shard` while they are few."""
    return f"wb:{{s{shard}}}:{zlib.crc32(word.encode()) % SEARCH_BUCKETS}"


# The index before this one, in two older shapes: one sorted set per word and shard
# (status id -> id), then one set of absolute ids per word and shard of 100,000.
# reindex_search indexes every status anew and deletes both.
OLD_SEARCH_WORD_PATTERN = "search:{s*}:w:*"
OLD_SEARCH_SET_PATTERN = "words:{s*}:*"


# Every #tag ever used in a public status, all scored 0: tag search by prefix with
# ZRANGEBYLEX. A tag used only in private statuses is not named here.
TAG_NAMES = "tags:names"


# Who to follow: `uid`'s suggestions (uid -> how many people they follow follow them),
# worked out now and then and kept a while; and whom they dismissed, never suggested again.
def suggestions_key(uid: int) -> str:
    return f"suggestions:{{{uid}}}"


def dismissed_suggestions_key(uid: int) -> str:
    return f"suggestions:{{{uid}}}:dismissed"


# uid -> followers, for the accounts suggested to people who follow nobody yet.
POPULAR_USERS = "users:popular"
# uid -> when they last posted (the newest ACTIVE_KEPT), the active accounts suggested to
# people who follow nobody yet beside the popular ones.
ACTIVE_USERS = "users:active"


# Groups (timeline.groups). A group's keys share its own hash tag ({g<id>}), distinct
# from users' ({<uid>}) and statuses'; each member's per-group state lives in their own
# slot (groups:{uid}), where their pages read it with their blocks. So joining, leaving
# and approving are two idempotent steps, one per slot (timeline.groups.services).
GROUP_ID_COUNTER = "groups:next_id"
# Lowercased handle -> group id: handles are unique in any case, as logins are.
GROUP_HANDLES = "group_handles"
# The directory (timeline.groups.selectors.directory): group id -> members, group id ->
# time created, and "<word>:<id>" entries scored 0 for search by prefix (ZRANGEBYLEX).
GROUPS_BY_MEMBERS = "groups_directory:members"
GROUPS_BY_CREATED = "groups_directory:newest"
GROUP_NAMES = "groups_directory:names"


def group_key(group_id: int | str) -> str:
    """handle, name, description, kind, owner, created, members, avatar, replies, pinned."""
    return f"group:{{g{group_id}}}"


def group_members_key(group_id: int | str) -> str:
    """Member uid -> time joined, in pieces past FOLLOWERS_PIECE_SIZE as followers are
    (timeline.follow_sets.members): the chunked fan-out walks it as it walks followers."""
    return f"group:{{g{group_id}}}:members"


def group_requests_key(group_id: int | str) -> str:
    """Uid -> time asked: who asks to join a private group."""
    return f"group:{{g{group_id}}}:requests"


def group_timeline_key(group_id: int | str) -> str:
    """Status id -> POSTED score: the group's posts."""
    return f"group:{{g{group_id}}}:timeline"


def group_quiet_key(group_id: int | str) -> str:
    """The members who turned "show in home" off (a set; their own groups hash says so
    too): fan-out reads it beside its walk of the members and passes them over."""
    return f"group:{{g{group_id}}}:quiet"


def group_banned_key(group_id: int | str) -> str:
    """Uid -> time banned: who may not join again."""
    return f"group:{{g{group_id}}}:banned"


def member_groups_key(uid: int | str) -> str:
    """Group id -> "<role> <show in home 1|0> <time joined or asked>": `uid`'s groups and
    requests (timeline.follow_sets.members), read with their blocks in a page's round trip."""
    return f"groups:{{{uid}}}"


GROUP_PATTERN = group_key("*")
MEMBER_GROUPS_PATTERN = member_groups_key("*")


# Home ordered by importance (timeline/ranking): what `uid` engages with, by author and
# kind ("<author uid>:<like|reply|repost|visit>" -> a decayed count: ranking.affinity).
def affinity_key(uid: int | str) -> str:
    return f"affinity:{{{uid}}}"


# Bookmarks, pins and followed tags (timeline/keeps). A user's own sets live in their
# slot; a status's bookmarkers in its slot; a tag's followers in the tag's slot.
def bookmarks_key(uid: int | str) -> str:
    """Status id -> time bookmarked: the user's bookmarks page (private)."""
    return f"bookmarks:{{{uid}}}"


def bookmarked_key(uid: int | str) -> str:
    """The ids of the statuses `uid` bookmarked (as bookmarks_key, unordered): the
    cards' bookmark marks, an intset beside liked:{uid} (statuses.marks)."""
    return f"bookmarked:{{{uid}}}"


def bookmarkers_key(status_id: int | str) -> str:
    """Uid -> time bookmarked: who to take a deleted status off (never shown)."""
    return f"bookmarkers:{{{status_id}}}"


def pins_key(uid: int | str) -> str:
    """Status id -> time pinned: up to PINS_MAX of `uid`'s statuses atop their profile."""
    return f"pins:{{{uid}}}"


def followed_tags_key(uid: int | str) -> str:
    """Tag -> time followed: the tags `uid` follows."""
    return f"followed_tags:{{{uid}}}"


def tag_followers_key(tag: str) -> str:
    """Uid -> time followed: who follows #tag, walked by fan-out (feeds.fanout), in the
    tag's slot beside its timeline."""
    return f"tag:{{{tag}}}:followers"


BOOKMARKS_PATTERN = bookmarks_key("*")
BOOKMARKERS_PATTERN = bookmarkers_key("*")
PINS_PATTERN = pins_key("*")
FOLLOWED_TAGS_PATTERN = followed_tags_key("*")
TAG_FOLLOWERS_PATTERN = tag_followers_key("*")


# Follow options (follow_sets.options; apinotif): each kept on both sides of the follow.
def hidden_reposters_key(uid: int | str) -> str:
    """Set of the uids whose reposts `uid` keeps out of their home (followed with
    reblogs off): read with `uid`'s audience (timeline.audience)."""
    return f"hidden_reposters:{{{uid}}}"


def reposts_hidden_from_key(uid: int | str) -> str:
    """Set of the followers of `uid` who keep `uid`'s reposts out of their home: read by
    a repost's fan-out (feeds.fanout.followers_reach)."""
    return f"reposts_hidden_from:{{{uid}}}"


def notified_of_key(uid: int | str) -> str:
    """Set of the uids `uid` asked to be notified about when they post (notify on)."""
    return f"notified_of:{{{uid}}}"


def subscribers_key(uid: int | str) -> str:
    """Sorted set: the followers of `uid` to notify when `uid` posts -> since when (Unix
    seconds): walked by the notify_subscribers job."""
    return f"subscribers:{{{uid}}}"

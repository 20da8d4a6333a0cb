"""The events the services publish on STATUS_CHANNEL, one JSON object each: the
streaming API and the live home timeline read them, the worker counts them.

A posted status is its own fields; a deletion is the full status plus
`"deleted": true` (so the filter that passed the post passes its deletion); an edit
is the new status plus `"updated": true`;
follows, unfollows, blocks and unblocks carry `"event"` and both users."""

import json
from collections.abc import Mapping
from typing import Any

import redis
from redis.cluster import ClusterPipeline

from .keys import STATUS_CHANNEL
from .redis import Client
from .scripts import LuaScripts

_lua = LuaScripts(__file__)


def status_posted(status: Mapping[str, Any]) -> str:
    return json.dumps(status)


def status_deleted(status: Mapping[str, Any]) -> str:
    return json.dumps({**status, "deleted": True})


def status_updated(status: Mapping[str, Any]) -> str:
    """An edited status: its new fields plus `"updated": true` (the streams pass it as
    they passed the post; timeline.edits)."""
    return json.dumps({**status, "updated": True})


def follow_changed(
    kind: str, source: dict, target: dict, created: float, *, private: bool = False
) -> str:
    """kind is "follow" or "unfollow"; source and target are {"id", "login"}, with
    "private": "1" for a private account, whose follows the streams show only to those
    timeline.audience lets see them. `private`: either side is a private account."""
    event = {"event": kind, "source": source, "target": target, "created": created}
    if private:
        event["private"] = "1"
    return json.dumps(event)


def block_changed(kind: str, source: int, target: int, created: float) -> str:
    """kind is "block" or "unblock": `source` blocked `target` (uids) or lifted it. No
    stream passes it on; it tells the open streams of either of them to apply it at once."""
    return json.dumps(
        {"event": kind, "source": {"id": source}, "target": {"id": target}, "created": created}
    )


def publishes_in_scripts(client: Client) -> bool:
    """Whether a script that changes something PUBLISHes its event itself, only if it did:
    yes on one server, and in pipelines (bulk work, a purge). Not on a cluster's
    connection: there the script runs on its keys' node, and a cluster orders each node's
    messages but not across nodes, so a follow could reach a stream after the statuses
    posted just after it. The caller publishes then, once the script says it changed
    something, from the channel's node like every other event (one more round trip)."""
    return not isinstance(client, redis.RedisCluster) or isinstance(client, ClusterPipeline)


def publish(client: Client, payload: str) -> None:
    """Publishes on `client` (a connection or a pipeline, to publish with the write)."""
    if isinstance(client, ClusterPipeline):
        # A cluster's pipeline refuses PUBLISH (no key to route it by); a script with no
        # keys can run anywhere. It runs where the channel's PUBLISHes go (the node of its
        # slot, as for a client's): the events of one node reach each subscriber in order.
        publish_by_script(client, channel=STATUS_CHANNEL, payload=payload)
    else:
        client.publish(STATUS_CHANNEL, payload)


def publish_by_script(client: Client, *, channel: str, payload: str) -> Any:
    """Runs lua/publish.lua (the only way to): PUBLISHes `payload` on `channel` from the
    node that serves the channel's slot."""
    return _lua.run(client, "publish", [], [channel, payload], slot_of=channel)


def activity(kind: str, source: dict, target: dict, target_object: dict, created: float) -> str:
    """What a user did to another's status or about another user, as Twitter's user streams
    told it: kind is "like", "unlike", "list_member_added" or "list_member_removed"; source
    and target are {"id", "login"}; target_object is the status or the list."""
    return json.dumps(
        {
            "event": kind,
            "source": source,
            "target": target,
            "target_object": target_object,
            "created": created,
        }
    )

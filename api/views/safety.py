"""Blocks, mutes, follow requests and removing a follower, through the services of the
pages' privacy and safety settings (timeline.safety), with their rate limits."""

from collections.abc import Callable
from functools import partial

from timeline.safety import people
from timeline.safety import services as safety

from ..http import ApiError, ApiRequest, ApiResult, caller_uid, endpoint, params
from .accounts import act
from .people import people_page


def mute_duration(found: dict) -> int:
    """`duration` in seconds (0: until unmuted), one of those the site offers."""
    value = str(found.get("duration") or 0)
    if not (value.isascii() and value.isdigit()) or int(value) not in safety.MUTE_DURATIONS:
        offered = ", ".join(str(seconds) for seconds in safety.MUTE_DURATIONS)
        raise ApiError(422, f"duration must be one of {offered} (seconds; 0: until unmuted).")
    return int(value)


@endpoint("POST", scope="write:blocks")
def block(request: ApiRequest, account_id: str) -> dict:
    return act(request, account_id, safety.block, "safety")


@endpoint("POST", scope="write:blocks")
def unblock(request: ApiRequest, account_id: str) -> dict:
    return act(request, account_id, safety.unblock, "safety")


@endpoint("POST", scope="write:mutes")
def mute(request: ApiRequest, account_id: str) -> dict:
    duration = mute_duration(params(request))
    return act(request, account_id, partial(safety.mute, duration=duration), "safety")


@endpoint("POST", scope="write:mutes")
def unmute(request: ApiRequest, account_id: str) -> dict:
    return act(request, account_id, safety.unmute, "safety")


@endpoint("POST", scope="write:follows")
def authorize(request: ApiRequest, account_id: str) -> dict:
    return act(request, account_id, safety.approve_request, "follows")


@endpoint("POST", scope="write:follows")
def reject(request: ApiRequest, account_id: str) -> dict:
    return act(request, account_id, safety.reject_request, "follows")


@endpoint("POST", scope="write:follows")
def remove_from_followers(request: ApiRequest, account_id: str) -> dict:
    return act(request, account_id, safety.remove_follower, "follows")


def own_people_page(
    request: ApiRequest, read_page: Callable[[int, int, int], tuple[list, bool]]
) -> ApiResult:
    uid = caller_uid(request)
    return people_page(request, lambda number, count: read_page(uid, number, count))


@endpoint("GET", scope="read:blocks")
def blocks(request: ApiRequest) -> ApiResult:
    return own_people_page(request, people.blocks_page)


@endpoint("GET", scope="read:mutes")
def mutes(request: ApiRequest) -> ApiResult:
    return own_people_page(request, people.mutes_page)


@endpoint("GET", scope="read:follows")
def follow_requests(request: ApiRequest) -> ApiResult:
    return own_people_page(request, people.follow_requests_page)

"""The reports' Lua scripts (`lua/` beside this module), one function each: the only way
any module runs them. Each takes its keys and arguments by name, in the order the
script's header comment gives them."""

from typing import Any

from socialsite.redis import Client, Pipe
from socialsite.scripts import LuaScripts

_lua = LuaScripts(__file__)


def file_report(
    client: Client | Pipe,
    *,
    open_report_key: str,
    report_key: str,
    open_reports_key: str,
    target_reports_key: str,
    report_id: int,
    filed: float,
    fields: list[Any],
) -> Any:
    """Files a report (`fields`: field, value, ...) unless its reporter has one open on
    its target: {1, its id}, or {0, the open report's id} and nothing filed."""
    return _lua.run(
        client,
        "file_report",
        [open_report_key, report_key, open_reports_key, target_reports_key],
        [report_id, filed, *fields],
    )


def close_report(
    client: Client | Pipe,
    *,
    report_key: str,
    open_reports_key: str,
    target_reports_key: str,
    open_report_key: str,
    report_id: int,
    state: str,
    action_json: str,
) -> Any:
    """Closes an open report with a moderator's action: 1, or 0 if it isn't open."""
    return _lua.run(
        client,
        "close_report",
        [report_key, open_reports_key, target_reports_key, open_report_key],
        [report_id, state, action_json],
    )


def file_group_report(
    client: Client | Pipe,
    *,
    open_report_key: str,
    report_key: str,
    group_reports_key: str,
    target_reports_key: str,
    due_key: str,
    report_id: int,
    filed: float,
    escalates_at: float,
    fields: list[Any],
) -> Any:
    """Files a report on a group's post into the group's queue, due to escalate at
    `escalates_at`, unless its reporter has one open on its target: as file_report."""
    return _lua.run(
        client,
        "file_group_report",
        [open_report_key, report_key, group_reports_key, target_reports_key, due_key],
        [report_id, filed, escalates_at, *fields],
    )


def escalate_reports(
    client: Client | Pipe,
    *,
    open_reports_key: str,
    due_key: str,
    report_keys: list[str],
    group_reports_keys: list[str],
    now: float,
    report_ids: list[int],
) -> Any:
    """Moves open reports from their group's queue to the site's: how many moved."""
    return _lua.run(
        client,
        "escalate_reports",
        [open_reports_key, due_key, *report_keys, *group_reports_keys],
        [now, *report_ids],
    )

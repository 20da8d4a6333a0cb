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

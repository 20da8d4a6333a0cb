"""Page chrome kept once rendered: the pages' `kept(template_name, **shown)` renders a
fragment (a signed-in user's nav links, home's sidebar) from `shown` and nothing else
of the page, and keeps the HTML under everything in `shown`. A user's next page with the
same nav (same login, same unread counts) or the same sidebar (same profile, counts,
suggestions and trends) takes the kept HTML: ~1-3 µs to look up against ~20-60 µs to
render. A fragment is a function of its key, so it can't be stale and can't be another
user's: whatever changes what it shows changes the key (a new unread count, a new name).

The page's CSRF field, different on every page, is the one thing a fragment may show
that isn't in its key: it is rendered as a marker no user can type, and the page's own
field is put in its place each time."""

import secrets

from django.core.signals import setting_changed
from django.dispatch import receiver
from jinja2 import pass_context
from markupsafe import Markup

from .kept import keep

# Up to this many fragments (a nav ~1.5 KB, a sidebar ~3 KB); emptied when full, as
# timeline.statuses.cards does (simpler than LRU bookkeeping on every hit).
FRAGMENTS_KEPT = 5_000

# Stands for the page's CSRF field in a kept fragment: random, so no name or bio holds it.
_CSRF_MARK = f"csrf-{secrets.token_hex(16)}"

_kept: dict[tuple, tuple[str, ...]] = {}


def frozen(value) -> object:
    """`value` (dicts, lists and tuples of plain values) as a hashable key, equal for two
    values only if they render the same: each plain value with its type (1, 1.0 and True
    are equal keys, not equal texts); a dict's items in their order."""
    kind = type(value)
    if kind is str:
        return value
    if kind is dict:
        return (dict, tuple((key, frozen(item)) for key, item in value.items()))
    if kind is list or kind is tuple:
        return (kind, tuple(map(frozen, value)))
    hash(value)  # a TypeError here, not a wrong key later, for anything else
    return (kind, value)


@pass_context
def kept(context, template_name: str, **shown) -> Markup:
    """The fragment `template_name` rendered with `shown` alone (and the environment's
    globals), and the page's CSRF field where it has one."""
    key = (template_name, frozen(shown))
    parts = _kept.get(key)
    if parts is None:
        template = context.environment.get_template(template_name)
        parts = tuple(template.render(shown, csrf_input=Markup(_CSRF_MARK)).split(_CSRF_MARK))
        keep(_kept, key, parts, FRAGMENTS_KEPT)
    if len(parts) == 1:
        return Markup(parts[0])
    return Markup(str(context["csrf_input"]).join(parts))


def only(value: dict, *names: str) -> dict:
    """The pages' `only` filter: `value` with just the fields `names` (None for a missing
    one), for a fragment's key to hold what it shows and not what changes unseen (a
    profile's unread counts change the nav's key, not the sidebar's)."""
    return {name: value.get(name) for name in names}


def kept_fragments() -> int:
    """How many fragments this process keeps (at most FRAGMENTS_KEPT)."""
    return len(_kept)


@receiver(setting_changed)
def _forget_fragments(*, setting: str, **kwargs) -> None:
    # Fragments hold URLs and static paths, reversed under these settings.
    if setting in ("ROOT_URLCONF", "FORCE_SCRIPT_NAME", "TEMPLATES", "STATIC_URL"):
        _kept.clear()

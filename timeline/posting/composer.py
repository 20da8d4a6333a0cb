"""The post box (home, a group's page, the quote page, a status's reply box), as the
pages' `composer(form, action=..., button=...)` draws it.

A blank box (the process's one blank form, `blank_status_form`) shows the same HTML to
everyone with the same choices: where it posts, its label, the groups offered and the
visibility it starts at. It is kept as a fragment (socialsite.fragments), the page's
CSRF field put in, rather than drawn again: drawing it was ~1.1 M of home's ~7.2 M
instructions a request (`make bench`, home page). A filled-in box (a refused post, with
its errors) is drawn each time."""

from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup

from socialsite.fragments import kept

from ..forms import StatusForm, blank_status_form
from .preferences import chosen_visibility

TEMPLATE = "timeline/_post_form.html"


@pass_context
def composer(context: Context, form: StatusForm, **shown: object) -> Markup:
    """The post box for `form` with `shown` (action, button; form_id, quote_id,
    group_handle, group_choices where the page has them), starting at the visibility
    the form holds or the reader's default."""
    picked = form["visibility"].value() or chosen_visibility(context["request"])
    if form is blank_status_form():
        return kept(context, TEMPLATE, form=form, picked=picked, **shown)
    template = context.environment.get_template(TEMPLATE)
    return Markup(template.render({**context.get_all(), **shown, "form": form, "picked": picked}))

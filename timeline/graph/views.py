"""Profiles, following and unfollowing, and the followers and following pages."""

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from accounts.auth import current_uid, logged_in_uid
from accounts.records import UserProfile
from socialsite.ratelimit import rate_limited
from socialsite.views import error_page, is_htmx

from ..forms import ListMembershipForm, listless_membership_form
from ..lists import selectors as list_selectors
from ..lists import services as list_services
from ..web import (
    login_first,
    next_url,
    other_user,
    page_number,
    refused,
    render_people,
    require_page,
)
from . import directory as people_directory
from . import selectors, services


@require_GET
def profile(request: HttpRequest, login: str) -> HttpResponse:
    """A user's statuses, counts, follow button and the followers you have in common."""
    return render_profile(request, login)


@require_GET
def profile_media(request: HttpRequest, login: str) -> HttpResponse:
    """A user's statuses with media: the profile's media tab (mediaweb)."""
    return render_profile(request, login, media=True)


def render_profile(
    request: HttpRequest,
    login: str,
    *,
    lists_form: ListMembershipForm | None = None,
    status=200,
    media: bool = False,
) -> HttpResponse:
    """The profile page, with the viewer's "add to list" control (`lists_form` when it
    is being shown again with errors); `media`: its media tab."""
    number, viewer = page_number(request), current_uid(request)
    view = selectors.profile_page(login, viewer, number, settings.STATUSES_PER_PAGE, media=media)
    if view is None:
        raise Http404(f"There is no user @{login}.")
    require_page(number, view.page.statuses, view.page.has_older)
    person = view.user["id"]
    if lists_form is None and viewer is not None and viewer != person:
        lists = list(view.viewer_lists)
        lists_form = ListMembershipForm(lists=lists) if lists else listless_membership_form()
    page = view.page
    context = {
        "view": view,
        "profile_card": profile_card(view),
        "page": page,
        "lists_form": lists_form,
        "media_tab": media,
    }
    return render(request, "timeline/profile.html", context, status=status)


def profile_card(view: selectors.ProfilePage) -> dict:
    """What the profile's card shows of `view` (timeline/_profile_card.html), and
    nothing else: the card is kept under it, so its statuses aren't in it."""
    return {
        "user": view.user,
        "relation": view.relation,
        "is_following": view.is_following,
        "follows_viewer": view.follows_viewer,
        "showing_reposts": view.showing_reposts,
        "notifying": view.notifying,
        "followers_in_common": view.followers_in_common,
    }


@require_POST
@login_first(lambda login: reverse("profile", args=[login]))
@rate_limited("follows")
def follow(request: HttpRequest, login: str) -> HttpResponse:
    other = other_user(login)
    try:
        followed = services.follow_user(logged_in_uid(request), other["id"])
    except ValueError as error:
        return refused(request, error)
    if is_htmx(request):
        return follow_control(
            request, other, following=followed is not False, requested=followed is False
        )
    if followed:
        messages.success(request, f"You now follow @{other['login']}.")
    elif followed is False:
        messages.info(request, f"You asked to follow @{other['login']}: they approve or decline.")
    else:
        messages.info(request, f"You already follow @{other['login']}.")
    return redirect(next_url(request, reverse("profile", args=[other["login"]])))


@require_POST
@login_first(lambda login: reverse("profile", args=[login]))
@rate_limited("follows")
def unfollow(request: HttpRequest, login: str) -> HttpResponse:
    other = other_user(login)
    unfollowed = services.unfollow_user(logged_in_uid(request), other["id"])
    cancelled = not unfollowed and services.cancel_request(logged_in_uid(request), other["id"])
    if is_htmx(request):
        return follow_control(request, other, following=False, requested=False)
    if unfollowed:
        messages.success(request, f"You no longer follow @{other['login']}.")
    elif cancelled:
        messages.success(request, f"You took back your request to follow @{other['login']}.")
    else:
        messages.info(request, f"You weren't following @{other['login']}.")
    return redirect(next_url(request, reverse("profile", args=[other["login"]])))


@require_POST
@login_first(lambda login: reverse("profile", args=[login]))
@rate_limited("follows")
def follow_options(request: HttpRequest, login: str) -> HttpResponse:
    """Sets your options on your follow of `login` (an unticked box is off): their
    reposts in your home, a notification when they post."""
    other = other_user(login)
    reposts, notify = "reposts" in request.POST, "notify" in request.POST
    if not services.set_follow_options(
        logged_in_uid(request), other["id"], reblogs=reposts, notify=notify
    ):
        return refused(request, ValueError(f"You don't follow @{other['login']}."))
    messages.success(request, f"Saved your options for following @{other['login']}.")
    return redirect(next_url(request, reverse("profile", args=[other["login"]])))


def follow_control(
    request: HttpRequest, other: UserProfile, *, following: bool, requested: bool
) -> HttpResponse:
    """A follow or unfollow done in place: the control again, as it now stands (a
    private account's pending request shows as one to cancel)."""
    context = {
        "other": other,
        "following": following,
        "requested": requested,
        "in_list": bool(request.POST.get("in_list")),
        "back": next_url(request, reverse("profile", args=[other["login"]])),
    }
    return render(request, "timeline/_follow_button.html", context)


def _people(request: HttpRequest, login: str, list_page, title: str) -> HttpResponse:
    """A page of someone's followers or follows, each with the viewer's follow button."""
    person, viewer = other_user(login), current_uid(request)
    followed: set[int] = set()

    def read_page(number: int, count: int) -> tuple[list[dict], bool]:
        people, has_more = list_page(person["id"], number, count, viewer)
        followed.update(selectors.following_among(viewer, [other["id"] for other in people]))
        return people, has_more

    context = {"title": title.format(login=person["login"]), "person": person}
    return render_people(
        request, read_page, "timeline/people.html", {**context, "followed": followed}
    )


@require_GET
def followers(request: HttpRequest, login: str) -> HttpResponse:
    return _people(request, login, selectors.followers_page, "People following @{login}")


@require_GET
def following(request: HttpRequest, login: str) -> HttpResponse:
    return _people(request, login, selectors.following_page, "People @{login} follows")


@require_POST
@login_first(lambda login: reverse("profile", args=[login]))
@rate_limited("list_changes")
def change_membership(request: HttpRequest, login: str) -> HttpResponse:
    """The "add to list" control on a profile: adds the person to one of your lists, or
    takes them off it; a bad choice is a form error on their profile."""
    person, uid = other_user(login), logged_in_uid(request)
    theirs = list_selectors.lists_for_member(uid, person["id"])
    form = ListMembershipForm(request.POST, lists=theirs)
    if form.is_valid():
        list_id, adding = form.cleaned_data["list_id"], form.cleaned_data["action"] == "add"
        change = list_services.add_member if adding else list_services.remove_member
        try:
            change(uid, list_id, person["id"])
        except (ValueError, PermissionError) as error:
            form.add_error("list_id", str(error))
    if form.errors:
        if is_htmx(request):
            context = {"person": person, "lists_form": form}
            return render(request, "timeline/_list_membership.html", context, status=400)
        return render_profile(request, login, lists_form=form, status=400)
    done = "Added @{} to {}." if adding else "Removed @{} from {}."
    news = done.format(person["login"], form.names[list_id])
    if is_htmx(request):
        # In place: the control again, its lists as they now stand, saying what was done.
        lists = list_selectors.lists_for_member(uid, person["id"])
        context = {"person": person, "lists_form": ListMembershipForm(lists=lists), "news": news}
        return render(request, "timeline/_list_membership.html", context)
    messages.success(request, news)
    return redirect(next_url(request, reverse("profile", args=[person["login"]])))


@require_GET
def directory(request: HttpRequest) -> HttpResponse:
    """The people directory: `?order=newest` (the default) or `followed` (most followed
    first), `?page=N`, each with the viewer's follow button."""
    order = request.GET.get("order", people_directory.NEWEST)
    number = page_number(request)
    try:
        page = people_directory.directory_page(order, number, current_uid(request))
    except ValueError as error:
        return error_page(request, 400, str(error))
    require_page(number, page.people, page.has_older)
    context = {
        "page": page,
        "order": order,
        "orders": {
            people_directory.NEWEST: "Newest",
            people_directory.MOST_FOLLOWED: "Most followed",
        },
        "people": page.people,
        "followed": page.followed,
        "number": number,
        "has_newer": number > 1,
        "has_older": page.has_older,
    }
    return render(request, "timeline/directory.html", context)

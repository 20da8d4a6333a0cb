"""The consent page (/oauth/authorize), its out-of-band answer, and the settings
page's list of authorised apps with their revoke buttons."""

import re
from urllib.parse import parse_qs, urlsplit

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST
from oauth2_provider.http import OAuth2ResponseRedirect
from oauth2_provider.views import AuthorizationView, RevokeTokenView

from socialsite.middleware import with_policy
from socialsite.ratelimit import rate_limited

from .. import oauth

# A host a policy may name: a DNS name or an IPv4 address (nothing that could end the
# directive or start another).
POLICY_HOST = re.compile(r"[a-z0-9.-]{1,253}")


def redirect_origin(uri: str) -> str:
    """The origin (scheme://host[:port]) of an http(s) redirect URI, "" for another."""
    parts = urlsplit(uri)
    try:
        port = parts.port
    except ValueError:
        return ""
    host = parts.hostname or ""
    if parts.scheme not in ("http", "https") or not POLICY_HOST.fullmatch(host):
        return ""
    return f"{parts.scheme}://{host}" + (f":{port}" if port else "")


class AuthorizeView(AuthorizationView):
    """django-oauth-toolkit's consent page in the site's layout. With the out-of-band
    redirect URI (urn:ietf:wg:oauth:2.0:oob) the code is shown on a page to copy into
    the app, as Mastodon does, rather than sent to a URL."""

    template_name = "api/authorize.html"

    def render_to_response(self, context, **kwargs):
        # An error's context names its redirect `url`, which would hide the pages' url().
        response = super().render_to_response(
            {name: value for name, value in context.items() if name != "url"}, **kwargs
        )
        # The consent form's answer redirects to the app: the policy's form-action, which
        # browsers apply to a form's redirects too, must let it (as Mastodon's does).
        origin = redirect_origin(str(context.get("redirect_uri") or ""))
        if not origin:
            # An app's own scheme (mobile sign-in): the policy names the scheme.
            scheme = urlsplit(str(context.get("redirect_uri") or "")).scheme.lower()
            application = context.get("application")
            if scheme in oauth.redirect_schemes(application) and scheme not in ("urn", ""):
                origin = f"{scheme}:"
        if origin:
            with_policy(response, form_action=f"'self' {origin}")
        return response

    def redirect(self, redirect_to, application):
        if redirect_to.startswith(oauth.OOB):
            query = parse_qs(urlsplit(redirect_to).query)
            context = {
                "application": application,
                "code": query.get("code", [""])[0],
                "error": query.get("error", [""])[0],
            }
            return render(self.request, "api/authorized_oob.html", context)
        # Mobile sign-in (apiprefs): the code goes to the app by its own scheme too.
        return OAuth2ResponseRedirect(redirect_to, oauth.redirect_schemes(application))


class RevokeView(RevokeTokenView):
    """RFC 7009's revocation, answered as Mastodon does: {} (django-oauth-toolkit's
    success is an empty body, which clients read as broken JSON)."""

    def post(self, request, *args, **kwargs):
        response = super().post(request, *args, **kwargs)
        return JsonResponse({}) if response.status_code == 200 else response


def authorised_apps_panel(request: HttpRequest) -> list[dict]:
    """The apps the logged-in user authorised, for the settings page."""
    return oauth.authorised_apps(request.user)


@require_POST
@login_required
@rate_limited("settings_changes")
def revoke_app(request: HttpRequest, application_id: int) -> HttpResponse:
    if not oauth.revoke_app(request.user, application_id):
        raise Http404("That app has no access to your account.")
    messages.success(request, "The app's access is revoked.")
    return redirect(reverse("accounts:settings") + "#settings-apps")

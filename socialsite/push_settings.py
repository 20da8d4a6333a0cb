"""Web Push's settings (api.push, timeline.push), imported by socialsite.settings.
Every environment variable here is listed in docs/operations.md."""

import os

# The site's VAPID private key (PEM, or the raw key in base64url), which signs every push
# message. Unset: one is made on first use and kept in var/vapid_private_key.pem, as the
# secret key is kept in var/secret_key; changing it breaks every app's subscription.
VAPID_PRIVATE_KEY = os.environ.get("VAPID_PRIVATE_KEY", "")
# Who push services may contact about this site's messages (VAPID's "sub" claim): a
# mailto: or https: URL. Unset: mailto:admin@ the site's domain.
VAPID_CONTACT = os.environ.get("VAPID_CONTACT", "")
# Push endpoints over plain http, and to loopback and private addresses: tests only (the
# push services apps use are https on the public internet).
PUSH_ALLOW_HTTP = os.environ.get("PUSH_ALLOW_HTTP", "") == "1"
# How long a process trusts its copy of who has a subscription before looking again
# (one GET); a change made in the same process is seen at once.
PUSH_SUBSCRIBERS_RECHECK_SECONDS = float(os.environ.get("PUSH_SUBSCRIBERS_RECHECK_SECONDS", 1))
# A push message's life at the push service (its TTL header) and one delivery's timeout.
PUSH_TTL_SECONDS = 48 * 3600
PUSH_TIMEOUT_SECONDS = 10

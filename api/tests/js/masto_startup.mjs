// masto.js (7.x): the calls apps make when they start (and the library itself), each
// answered with its status: none may be a 404 (or any error).
import { createRestAPIClient } from "masto";
import { config, run } from "./lib.mjs";

run(async () => {
  const { base, token } = config;
  const rest = createRestAPIClient({ url: base, accessToken: token });
  const calls = {
    "v1/instance": () => rest.v1.instance.fetch(),
    "v2/instance": () => rest.v2.instance.fetch(),
    "v1/accounts/verify_credentials": () => rest.v1.accounts.verifyCredentials(),
    "v1/preferences": () => rest.v1.preferences.fetch(),
    "v1/custom_emojis": () => rest.v1.customEmojis.list(),
    "v1/markers": () => rest.v1.markers.fetch({ timeline: ["home", "notifications"] }),
    "v1/bookmarks": () => rest.v1.bookmarks.list(),
    "v1/favourites": () => rest.v1.favourites.list(),
    "v1/followed_tags": () => rest.v1.followedTags.list(),
    "v1/lists": () => rest.v1.lists.list(),
    "v2/filters": () => rest.v2.filters.list(),
    "v1/notifications": () => rest.v1.notifications.list(),
    "v1/notifications/unread_count": () => rest.v1.notifications.unreadCount.fetch(),
    "v2/notifications": () => rest.v2.notifications.list(),
    "v2/notifications/unread_count": () => rest.v2.notifications.unreadCount.fetch(),
    "v1/conversations": () => rest.v1.conversations.list(),
    "v1/follow_requests": () => rest.v1.followRequests.list(),
    "v1/trends/statuses": () => rest.v1.trends.statuses.list(),
  };
  const failed = {};
  for (const [path, call] of Object.entries(calls)) {
    try {
      await call();
    } catch (error) {
      failed[path] = error?.statusCode ?? String(error);
    }
  }
  return { failed };
});

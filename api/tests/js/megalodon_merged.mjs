// megalodon (10.0.5): notifications without a type, markers, filters (its v1 calls), and
// the calls apps make on start-up: none may fail.
import megalodon from "megalodon";
import { config, run } from "./lib.mjs";

const generator = megalodon.default;

run(async () => {
  const { base, token } = config;
  const client = generator("mastodon", base, token);
  const noFavourites = (await client.getNotifications({ exclude_types: ["favourite"] })).data;
  const one = (await client.getNotification(noFavourites[0].id)).data;
  const home = (await client.getHomeTimeline({ limit: 5 })).data;
  await client.saveMarkers({ home: { last_read_id: home[0].id } });
  const markers = (await client.getMarkers(["home", "notifications"])).data;
  const calls = {
    "v1/preferences": () => client.getPreferences(),
    "v1/custom_emojis": () => client.getInstanceCustomEmojis(),
    "v1/bookmarks": () => client.getBookmarks(),
    "v1/filters": () => client.getFilters(),
    "v1/followed_tags": () => client.getFollowedTags(),
    "v1/lists": () => client.getLists(),
    "v1/instance": () => client.getInstance(),
  };
  const failed = {};
  for (const [path, call] of Object.entries(calls)) {
    try {
      await call();
    } catch (error) {
      failed[path] = error?.response?.status ?? String(error);
    }
  }
  return {
    noFavourites: noFavourites.map((n) => n.type),
    one: { id: one.id, type: one.type },
    markers: { home: markers.home?.last_read_id ?? null },
    homeFirst: home[0].id,
    failed,
  };
});

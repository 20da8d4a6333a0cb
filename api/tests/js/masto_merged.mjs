// masto.js (7.x): notifications with type filters, one by id, dismissed, counted and
// grouped (v2); markers; filters (v2) that warn and hide in home.
import { createRestAPIClient } from "masto";
import { config, run } from "./lib.mjs";

run(async () => {
  const { base, token } = config;
  const rest = createRestAPIClient({ url: base, accessToken: token });

  const all = await rest.v1.notifications.list({ limit: 40 });
  const mentions = await rest.v1.notifications.list({ types: ["mention"] });
  const noFavourites = await rest.v1.notifications.list({ excludeTypes: ["favourite"] });
  const one = await rest.v1.notifications.$select(all[0].id).fetch();
  const unread = await rest.v1.notifications.unreadCount.fetch();
  const grouped = await rest.v2.notifications.list();
  const group = grouped.notificationGroups[0];
  const oneGroup = await rest.v2.notifications.$select(group.groupKey).fetch();
  await rest.v1.notifications.$select(all[0].id).dismiss();
  const afterDismiss = await rest.v1.notifications.list({ limit: 40 });

  const home = await rest.v1.timelines.home.list({ limit: 40 });
  await rest.v1.markers.create({
    home: { lastReadId: home[0].id },
    notifications: { lastReadId: afterDismiss[0].id },
  });
  const markers = await rest.v1.markers.fetch({ timeline: ["home", "notifications"] });

  const warn = await rest.v2.filters.create({
    title: "spoilers",
    context: ["home"],
    filterAction: "warn",
    keywordsAttributes: [{ keyword: "spoiler", wholeWord: true }],
  });
  const hide = await rest.v2.filters.create({
    title: "hidden",
    context: ["home"],
    filterAction: "hide",
    keywordsAttributes: [{ keyword: "unwanted", wholeWord: true }],
  });
  const filters = await rest.v2.filters.list();
  const filteredHome = await rest.v1.timelines.home.list({ limit: 40 });
  return {
    all: all.map((n) => ({ id: n.id, type: n.type, groupKey: n.groupKey ?? null })),
    mentions: mentions.map((n) => n.type),
    noFavourites: noFavourites.map((n) => n.type),
    one: { id: one.id, type: one.type },
    unread: unread.count,
    groups: grouped.notificationGroups.map((g) => ({
      groupKey: g.groupKey,
      type: g.type,
      notificationsCount: g.notificationsCount,
      sampleAccountIds: g.sampleAccountIds,
    })),
    groupedAccounts: grouped.accounts.map((a) => a.username),
    oneGroup: oneGroup.notificationGroups.map((g) => g.groupKey),
    afterDismiss: afterDismiss.map((n) => n.id),
    markers: {
      home: markers.home?.lastReadId ?? null,
      notifications: markers.notifications?.lastReadId ?? null,
      version: markers.home?.version ?? null,
    },
    homeFirst: home[0].id,
    firstNotification: afterDismiss[0].id,
    filters: filters.map((f) => ({ id: f.id, title: f.title, action: f.filterAction })),
    made: [warn.id, hide.id],
    filteredHome: filteredHome.map((s) => ({
      content: s.content,
      filtered: (s.filtered ?? []).map((result) => result.filter.title),
    })),
  };
});

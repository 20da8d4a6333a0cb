// megalodon (10.0.5): sign in with the code flow, then what a client does first and most,
// and a push subscription.
import megalodon from "megalodon";
import { ask, config, run } from "./lib.mjs";

// A CommonJS package: its default export is the module's `default`.
const generator = megalodon.default;
const SCOPES = ["read", "write", "follow", "push"];

run(async () => {
  const { base, redirectUri, other, push } = config;
  const anonymous = generator("mastodon", base);
  const app = await anonymous.registerApp("megalodon tests", {
    scopes: SCOPES,
    redirect_uris: redirectUri,
  });
  const code = await ask({ url: app.url });
  const token = await anonymous.fetchAccessToken(app.client_id, app.client_secret, code, redirectUri);
  const client = generator("mastodon", base, token.access_token);
  const me = (await client.verifyAccountCredentials()).data;
  await client.verifyAppCredentials();

  const posted = [];
  for (let n = 0; n < 5; n++) {
    posted.push((await client.postStatus(`megalodon post ${n}`)).data.id);
  }
  // Home, older pages by max_id, then newer ones by min_id.
  const older = [];
  let page = (await client.getHomeTimeline({ limit: 2 })).data;
  while (page.length) {
    older.push(page.map((status) => status.id));
    page = (await client.getHomeTimeline({ limit: 2, max_id: page.at(-1).id })).data;
  }
  const newer = [];
  page = (await client.getHomeTimeline({ limit: 2, min_id: posted[0] })).data;
  while (page.length) {
    newer.push(page.map((status) => status.id));
    page = (await client.getHomeTimeline({ limit: 2, min_id: page[0].id })).data;
  }

  const theirs = (await client.getAccountStatuses(other.id, { limit: 1 })).data[0];
  const favourited = (await client.favouriteStatus(theirs.id)).data;
  const reblogged = (await client.reblogStatus(theirs.id)).data;
  const relationship = (await client.followAccount(other.id)).data;
  const found = (await client.search(other.username, { type: "accounts" })).data;
  const subscription = (
    await client.subscribePushNotification(
      { endpoint: push.endpoint, keys: push.keys },
      { alerts: { follow: true, mention: true } },
    )
  ).data;
  const instance = (await client.getInstance()).data;
  return {
    me: { id: me.id, username: me.username },
    posted,
    older,
    newer,
    favourited: favourited.favourited,
    reblogged: reblogged.reblog?.reblogged ?? reblogged.reblogged,
    following: relationship.following,
    found: found.accounts.map((account) => account.username),
    push: { serverKey: subscription.server_key, alerts: subscription.alerts },
    streamingUrl: instance.urls?.streaming_api ?? null,
  };
});

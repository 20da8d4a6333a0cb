// masto.js (7.x): sign in with the code flow, then what a client does first and most.
import { createOAuthAPIClient, createRestAPIClient } from "masto";
import { ask, authorizeUrl, config, run } from "./lib.mjs";

const SCOPES = "read write follow";

run(async () => {
  const { base, redirectUri, other } = config;
  const anonymous = createRestAPIClient({ url: base });
  const app = await anonymous.v1.apps.create({
    clientName: "masto.js tests",
    redirectUris: redirectUri,
    scopes: SCOPES,
  });
  const code = await ask({ url: authorizeUrl(base, app.clientId, redirectUri, SCOPES) });
  const token = await createOAuthAPIClient({ url: base }).token.create({
    grantType: "authorization_code",
    clientId: app.clientId,
    clientSecret: app.clientSecret,
    redirectUri,
    code,
    scope: SCOPES,
  });
  const rest = createRestAPIClient({ url: base, accessToken: token.accessToken });
  const me = await rest.v1.accounts.verifyCredentials();
  await rest.v1.apps.verifyCredentials();

  const posted = [];
  for (let n = 0; n < 5; n++) {
    posted.push((await rest.v1.statuses.create({ status: `masto post ${n}` })).id);
  }
  // Home, older pages by the Link header's next, then newer ones by its prev.
  const older = [];
  for await (const page of rest.v1.timelines.home.list({ limit: 2 })) {
    older.push(page.map((status) => status.id));
  }
  const newer = [];
  const oldest = posted[0];
  for await (const page of rest.v1.timelines.home.list({ limit: 2, minId: oldest }).setDirection("prev")) {
    newer.push(page.map((status) => status.id));
  }

  const theirs = (await rest.v1.accounts.$select(other.id).statuses.list({ limit: 1 }))[0];
  const favourited = await rest.v1.statuses.$select(theirs.id).favourite();
  const reblogged = await rest.v1.statuses.$select(theirs.id).reblog();
  const relationship = await rest.v1.accounts.$select(other.id).follow();
  const found = await rest.v2.search.list({ q: other.username, type: "accounts" });
  const favourites = await rest.v1.favourites.list();
  return {
    me: { id: me.id, username: me.username },
    posted,
    older,
    newer,
    favourited: favourited.favourited,
    reblogged: reblogged.reblog?.reblogged ?? reblogged.reblogged,
    following: relationship.following,
    found: found.accounts.map((account) => account.username),
    favourites: favourites.map((status) => status.id),
  };
});

// masto.js (7.x): the streams a client opens (config.streams: user, public, hashtag,
// user:notification, public:local...) on one WebSocket, until each has had the event
// it waits for (config.want: one for all, or one a stream; default update).
import { createRestAPIClient, createStreamingAPIClient } from "masto";
import { config, run, say, waitFor } from "./lib.mjs";

const OPEN = {
  user: (s) => s.user.subscribe(),
  "user:notification": (s) => s.user.notification.subscribe(),
  public: (s) => s.public.subscribe(),
  "public:local": (s) => s.public.local.subscribe(),
  hashtag: (s, tag) => s.hashtag.subscribe({ tag }),
  "hashtag:local": (s, tag) => s.hashtag.local.subscribe({ tag }),
};

run(async () => {
  const { base, token, streams, tag, want = "update" } = config;
  const rest = createRestAPIClient({ url: base, accessToken: token });
  const instance = await rest.v2.instance.fetch();
  const streaming = createStreamingAPIClient({
    streamingApiUrl: instance.configuration.urls.streaming,
    accessToken: token,
  });
  const got = Object.fromEntries(streams.map((name) => [name, []]));
  const errors = [];
  for (const name of streams) {
    const subscription = OPEN[name](streaming, tag);
    (async () => {
      try {
        for await (const event of subscription) {
          if (event.event === (typeof want === "object" ? want[name] : want)) {
            got[name].push(event.payload);
          }
        }
      } catch (error) {
        errors.push(`${name}: ${error}`);
      }
    })();
  }
  await streaming.prepare();
  say({ ready: true });
  await waitFor(() => errors.length || streams.every((name) => got[name].length));
  streaming.close();
  return {
    errors,
    events: Object.fromEntries(
      Object.entries(got).map(([name, events]) => [
        name,
        events.map((payload) => payload.content ?? payload.type ?? payload),
      ]),
    ),
    streams: Object.fromEntries(
      Object.entries(got).map(([name, events]) => [
        name,
        events.map((payload) => payload.status?.content ?? null),
      ]),
    ),
  };
});

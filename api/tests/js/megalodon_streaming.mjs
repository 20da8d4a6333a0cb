// megalodon (10.0.5): the user, public and hashtag streams (a socket each), until each
// has had an update.
import megalodon from "megalodon";
import { config, run, say, waitFor } from "./lib.mjs";

const generator = megalodon.default;
const OPEN = {
  user: (c) => c.userStreaming(),
  public: (c) => c.publicStreaming(),
  "public:local": (c) => c.localStreaming(),
  hashtag: (c, tag) => c.tagStreaming(tag),
  direct: (c) => c.directStreaming(),
};

run(async () => {
  const { base, token, streams, tag, want = "update" } = config;
  const client = generator("mastodon", base, token);
  const got = Object.fromEntries(streams.map((name) => [name, []]));
  const errors = [];
  const sockets = [];
  const connected = [];
  for (const name of streams) {
    const socket = await OPEN[name](client, tag);
    sockets.push(socket);
    connected.push(new Promise((resolve) => socket.once("connect", resolve)));
    socket.on(want, (payload) => got[name].push(payload));
    socket.on("error", (error) => errors.push(`${name}: ${error}`));
    socket.on("parser-error", (error) => errors.push(`${name} (parser): ${error}`));
  }
  await Promise.all(connected);
  say({ ready: true });
  await waitFor(() => errors.length || streams.every((name) => got[name].length));
  for (const socket of sockets) socket.stop();
  return {
    errors,
    events: Object.fromEntries(
      Object.entries(got).map(([name, events]) => [
        name,
        events.map((payload) => payload.content ?? payload.type ?? payload),
      ]),
    ),
  };
});

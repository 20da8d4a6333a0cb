// What every scenario shares: its configuration (argv's JSON), the lines it says to the
// pytest that runs it (JSON, one a line), and the answers it asks pytest for (stdin).
import { createInterface } from "node:readline";

export const config = JSON.parse(process.argv[2] ?? "{}");

const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();

export function say(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

// Asks pytest (e.g. for the code the consent page gives) and waits for its answer.
export async function ask(question) {
  say({ ask: question });
  const { value } = await lines.next();
  return value.trim();
}

export function finish(result) {
  say({ result });
  process.exit(0);
}

// Ends the scenario with a failure pytest shows, rather than an unhandled rejection.
export function run(scenario) {
  const deadline = setTimeout(() => {
    console.error("scenario timed out");
    process.exit(3);
  }, (config.timeout ?? 60) * 1000);
  deadline.unref();
  scenario().then(finish, (error) => {
    console.error(error?.stack ?? String(error));
    if (error?.response?.data) console.error(JSON.stringify(error.response.data));
    process.exit(2);
  });
}

// The authorize URL of the code flow, as an app opens it in a browser.
export function authorizeUrl(base, clientId, redirectUri, scopes) {
  const query = new URLSearchParams({
    client_id: clientId,
    redirect_uri: redirectUri,
    response_type: "code",
    scope: scopes,
  });
  return `${base}/oauth/authorize?${query}`;
}

// Collects events until `done(events)` or `seconds` pass; `start` subscribes.
export function waitFor(predicate, seconds = 20) {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const timer = setInterval(() => {
      if (predicate()) {
        clearInterval(timer);
        resolve();
      } else if (Date.now() - started > seconds * 1000) {
        clearInterval(timer);
        reject(new Error("timed out waiting for events"));
      }
    }, 50);
  });
}

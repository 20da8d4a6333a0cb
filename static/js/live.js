// A live timeline: home's, a group's, and every other timeline page's (global, a tag, a
// list, a profile, mentions, a status's replies: data-stream-url says which). New
// statuses appear at the top of #timeline as they are posted (at the bottom for
// replies, data-order="oldest"), counted by an "N new statuses" bar until you
// look; deleted ones disappear, edited ones are drawn again. Events come over a
// WebSocket opened with this page's session; each status's HTML is the server's own rendering (its card, alone, from
// /statuses/<id>/card/), so nothing from the event is ever put into the page as markup.
// The card, not the status page: a page would show, and so use up, the messages
// waiting for the next one ("Posted.").
(function () {
  "use strict";

  const script = document.currentScript;
  const timeline = document.getElementById("timeline");
  if (!timeline || !("WebSocket" in window)) {
    return;
  }
  const streamUrl = new URL(script.dataset.streamUrl, window.location.href);
  streamUrl.protocol = streamUrl.protocol === "https:" ? "wss:" : "ws:";
  // data-card-url is the URL of status 0's card.
  const cardUrl = (id) => script.dataset.cardUrl.replace(/\/0\/card\/$/, "/" + id + "/card/");
  // Refusals that reconnecting won't cure: bad request, logged out, suspended, no such path.
  const oldestFirst = script.dataset.order === "oldest";
  const FINAL_CLOSE_CODES = new Set([4400, 4401, 4403, 4404]);

  const bar = document.createElement("button");
  bar.type = "button";
  bar.className = "new-statuses";
  bar.hidden = true;
  bar.setAttribute("aria-live", "polite");
  timeline.before(bar);
  let unseen = new Set();
  // Deleted while its card was being fetched: the card must not appear after all.
  const deleted = new Set();

  function showCount() {
    const count = unseen.size;
    bar.textContent = count === 1 ? "1 new status" : count + " new statuses";
    bar.hidden = count === 0;
  }

  bar.addEventListener("click", () => {
    // The first new one: the top of the timeline, or the first new reply at its bottom.
    const first = timeline.querySelector(".status-new") || timeline;
    timeline.querySelectorAll(".status-new").forEach((el) => el.classList.remove("status-new"));
    unseen = new Set();
    showCount();
    first.scrollIntoView({ behavior: "smooth", block: "start" });
  });

  function find(id) {
    return timeline.querySelector('[data-status-id="' + id + '"]');
  }

  async function add(id) {
    // A logged-out session is sent to the login page: not followed, since that page
    // would use up the messages too.
    let html;
    try {
      const response = await fetch(cardUrl(id), { credentials: "same-origin", redirect: "manual" });
      if (!response.ok) {
        return; // deleted already (or hidden), or logged out
      }
      html = await response.text();
    } catch (error) {
      return; // offline for a moment: the status shows on the next reload
    }
    if (deleted.has(id) || find(id)) {
      return;
    }
    const card = new DOMParser().parseFromString(html, "text/html");
    const article = card.querySelector('[data-status-id="' + id + '"]');
    if (!article) {
      return;
    }
    const status = document.importNode(article, true);
    status.classList.add("status-new");
    // Newest first (or last, data-order="oldest"), even when two fetches finish out of order.
    const newer = Array.from(timeline.children).filter((el) => Number(el.dataset.statusId) > id);
    if (oldestFirst) {
      timeline.insertBefore(status, newer.length ? newer[0] : null);
    } else {
      const after = newer.length ? newer[newer.length - 1] : null;
      timeline.insertBefore(status, after ? after.nextSibling : timeline.firstChild);
    }
    if (window.htmx) {
      window.htmx.process(status); // a card's in-place actions, if the page has them
    }
    const empty = timeline.parentElement.querySelector(":scope > .empty");
    if (empty) {
      empty.remove();
    }
    unseen.add(id);
    showCount();
  }

  // An edited status: its card, if the page shows it, is drawn again as it now is.
  async function redraw(id) {
    if (!find(id)) {
      return;
    }
    let html;
    try {
      const response = await fetch(cardUrl(id), { credentials: "same-origin", redirect: "manual" });
      if (!response.ok) {
        return;
      }
      html = await response.text();
    } catch (error) {
      return;
    }
    const shown = find(id);
    const card = new DOMParser().parseFromString(html, "text/html");
    const article = card.querySelector('[data-status-id="' + id + '"]');
    if (!shown || !article || deleted.has(id)) {
      return;
    }
    const status = document.importNode(article, true);
    status.className = shown.className;
    shown.replaceWith(status);
    if (window.htmx) {
      window.htmx.process(status);
    }
  }

  function remove(id) {
    deleted.add(id);
    const status = find(id);
    if (status) {
      status.remove();
    }
    unseen.delete(id);
    showCount();
  }

  let retryDelay = 1000;

  function connect() {
    const socket = new WebSocket(streamUrl);
    socket.addEventListener("open", () => {
      retryDelay = 1000;
      timeline.dataset.live = "on";
    });
    socket.addEventListener("message", (message) => {
      const event = JSON.parse(message.data);
      if (typeof event.id !== "number") {
        return; // an error or disconnect notice: the close that follows says what to do
      }
      if (event.deleted) {
        remove(event.id);
      } else if (event.updated) {
        redraw(event.id);
      } else {
        add(event.id);
      }
    });
    socket.addEventListener("close", (close) => {
      timeline.dataset.live = "off";
      if (!FINAL_CLOSE_CODES.has(close.code)) {
        setTimeout(connect, retryDelay);
        retryDelay = Math.min(retryDelay * 2, 30000);
      }
    });
  }

  connect();
})();

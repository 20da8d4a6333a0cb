// The logged-in user's own events, on every page: the nav's unread counts, new
// notifications on the notifications page, new messages in an open conversation and
// in the inbox. They come over a WebSocket of their own (/live/), opened with this
// page's session, which never carries the public streams. Text from an event is only
// ever put into the page as text, never as markup.
(function () {
  "use strict";

  if (!("WebSocket" in window)) {
    return;
  }
  const script = document.currentScript;
  const liveUrl = new URL(script.dataset.liveUrl, window.location.href);
  liveUrl.protocol = liveUrl.protocol === "https:" ? "wss:" : "ws:";
  // Refusals that reconnecting won't cure: logged out; too many pages open (this one
  // stays without live updates).
  const FINAL_CLOSE_CODES = new Set([4400, 4401, 4403, 4404, 4429]);

  function setBadge(id, count) {
    const badge = document.getElementById(id);
    if (badge && typeof count === "number") {
      badge.textContent = String(count);
      badge.hidden = count === 0;
    }
  }

  function element(tag, className, text) {
    const el = document.createElement(tag);
    if (className) {
      el.className = className;
    }
    if (text !== undefined) {
      el.textContent = text;
    }
    return el;
  }

  function addNotification(event) {
    const list = document.getElementById("notifications");
    const notification = event.notification;
    if (!list || !notification) {
      return;
    }
    const mentions = notification.kind === "reply" || notification.kind === "mention";
    if (list.dataset.show === "mentions" && !mentions) {
      return;
    }
    const item = element("li", "notification notification-new notification-" + notification.kind);
    item.appendChild(element("p", "notification-text", notification.text));
    list.insertBefore(item, list.firstChild);
    const empty = list.parentElement.querySelector(":scope > .empty");
    if (empty) {
      empty.remove();
    }
    markRead(list.dataset.readUrl);
  }

  // Seen as it arrives on the open page: the server takes it off the unread count and
  // says so (the count comes back in the event that follows).
  function markRead(url) {
    fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "X-CSRFToken": csrfToken() },
    }).catch(() => {});
  }

  function csrfToken() {
    const input = document.querySelector('#status-actions input[name="csrfmiddlewaretoken"]');
    return input ? input.value : "";
  }

  function addMessage(event) {
    const conversation = document.getElementById("conversation");
    const message = event.message;
    if (!conversation || Number(conversation.dataset.conversationId) !== event.conversation) {
      return false;
    }
    if (conversation.dataset.live === "on" && !conversation.querySelector('[data-message-id="' + message.id + '"]')) {
      const item = element("li", "dm dm-new");
      item.dataset.messageId = String(message.id);
      // As the page draws one (conversation.html): the author, then the bubble.
      const body = element("div", "dm-body");
      const bubble = element("div", "dm-bubble");
      body.appendChild(element("span", "status-author dm-author", "@" + message.login));
      bubble.appendChild(element("p", "dm-text", message.text));
      body.appendChild(bubble);
      item.appendChild(body);
      conversation.appendChild(item);
      const empty = conversation.parentElement.querySelector(":scope > .empty");
      if (empty) {
        empty.remove();
      }
      item.scrollIntoView({ block: "nearest" });
    }
    if (event.unread > 0) {
      markRead(conversation.dataset.readUrl);
    }
    return true;
  }

  function updateInbox(event) {
    const inbox = document.getElementById("inbox");
    if (!inbox) {
      return;
    }
    let row = inbox.querySelector('[data-conversation-id="' + event.conversation + '"]');
    if (!row) {
      row = element("li");
      row.dataset.conversationId = String(event.conversation);
      const link = element("a");
      link.href = "/messages/" + event.conversation + "/";
      link.appendChild(element("strong", "", "@" + event.message.login));
      row.appendChild(link);
      row.appendChild(document.createTextNode(" "));
      row.appendChild(element("span", "dm-unread badge"));
      row.appendChild(element("p", "dm-preview"));
      const empty = inbox.parentElement.querySelector(":scope > .empty");
      if (empty) {
        empty.remove();
      }
    }
    row.querySelector(".dm-preview").textContent = "@" + event.message.login + ": " + event.message.text;
    const unread = row.querySelector(".dm-unread");
    unread.textContent = String(event.unread);
    unread.hidden = event.unread === 0;
    inbox.insertBefore(row, inbox.firstChild);
  }

  function removeMessage(event) {
    const conversation = document.getElementById("conversation");
    if (conversation && Number(conversation.dataset.conversationId) === event.conversation) {
      const item = conversation.querySelector('[data-message-id="' + event.id + '"]');
      if (item) {
        item.remove();
      }
    }
  }

  function handle(event) {
    setBadge("nav-unread-notifications", event.unread_notifications);
    setBadge("nav-unread-messages", event.unread_messages);
    if (event.type === "notification") {
      addNotification(event);
    } else if (event.type === "message") {
      addMessage(event);
      updateInbox(event);
    } else if (event.type === "message_deleted") {
      removeMessage(event);
    }
  }

  let retryDelay = 1000;

  function connect() {
    const socket = new WebSocket(liveUrl);
    socket.addEventListener("open", () => {
      retryDelay = 1000;
      document.body.dataset.live = "on";
    });
    socket.addEventListener("message", (message) => {
      const event = JSON.parse(message.data);
      if (typeof event.type === "string") {
        handle(event);
      }
    });
    socket.addEventListener("close", (close) => {
      document.body.dataset.live = "off";
      if (!FINAL_CLOSE_CODES.has(close.code)) {
        setTimeout(connect, retryDelay);
        retryDelay = Math.min(retryDelay * 2, 30000);
      }
    });
  }

  connect();
})();

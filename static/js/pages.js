// Small things every page does. Relative times ("3 minutes ago") in status cards tick
// on an open page, worded as the server words them (timeline.display.ago: "just now"
// under a minute, else Django's timesince to one unit). And a confirmation before what
// can't be undone: forms and buttons with data-confirm, and a status's Delete button
// (the card's buttons submit the page's one form, so the card needs no attribute).
(function () {
  "use strict";

  const DAY = 86400;
  const NBSP = "\u00a0";

  function unit(count, name) {
    return count + NBSP + name + (count === 1 ? "" : "s") + " ago";
  }

  function timeOfDay(date) {
    return date.getTime() - Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
  }

  // Django's timesince(posted, now, depth=1), in UTC as the site is: calendar years and
  // months first, then weeks, days, hours, minutes.
  function ago(postedMs, nowMs) {
    const since = Math.floor((nowMs - postedMs) / 1000);
    if (since < 60) return "just now";
    const posted = new Date(postedMs);
    const now = new Date(nowMs);
    let months = (now.getUTCFullYear() - posted.getUTCFullYear()) * 12 + (now.getUTCMonth() - posted.getUTCMonth());
    if (posted.getUTCDate() > now.getUTCDate() || (posted.getUTCDate() === now.getUTCDate() && timeOfDay(posted) > timeOfDay(now))) {
      months -= 1;
    }
    if (months >= 12) return unit(Math.floor(months / 12), "year");
    if (months >= 1) return unit(months, "month");
    const seconds = (nowMs - postedMs) / 1000;
    for (const [name, size] of [["week", 7 * DAY], ["day", DAY], ["hour", 3600], ["minute", 60]]) {
      const count = Math.floor(seconds / size);
      if (count >= 1) return unit(count, name);
    }
    return "just now";
  }

  function tick() {
    const now = Date.now();
    document.querySelectorAll(".status-time time[datetime]").forEach((time) => {
      const posted = Date.parse(time.getAttribute("datetime"));
      if (!Number.isNaN(posted)) time.textContent = ago(posted, now);
    });
  }
  tick();
  setInterval(tick, 15000);
  // The wording, for the browser test that holds it to the server's.
  window.socialsiteAgo = ago;

  function question(element) {
    if (element.dataset.confirm) return element.dataset.confirm;
    if (element.matches(".status-delete")) {
      return element.textContent.trim() === "Delete repost"
        ? "Delete your repost?"
        : "Delete this status? This can't be undone.";
    }
    return null;
  }

  // Asked while the click is captured, before it reaches the button: a "no" stops it
  // there, so an in-place button (htmx's, listening on the button) never sends either.
  document.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-confirm], .status-delete");
    const text = button && question(button);
    if (text && !window.confirm(text)) {
      event.preventDefault();
      event.stopPropagation();
    }
  }, true);
  document.addEventListener("submit", (event) => {
    // A form's own question; a button's was asked on its click.
    const text = event.target.dataset.confirm;
    if (text && !(event.submitter && event.submitter.matches("[data-confirm], .status-delete")) && !window.confirm(text)) {
      event.preventDefault();
    }
  });
})();

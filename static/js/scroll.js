// Infinite scroll: near the bottom of a timeline (role="feed"), its next page is
// fetched (the pager's own "Older" link, so the same cursor a click would follow) and
// its cards are added in place, once each; the pager then points past it. Without
// JavaScript, and for crawlers, the pager's links stay as they are.
(function () {
  "use strict";

  const feed = document.querySelector('.timeline[role="feed"]');
  if (!feed || !("IntersectionObserver" in window)) {
    return;
  }
  let loading = false;

  function pagerAfter(timeline) {
    const next = timeline.nextElementSibling;
    return next && next.matches("nav.pagination") ? next : null;
  }

  async function loadOlder(pager, observer) {
    const older = pager.querySelector('a[rel="next"]');
    if (loading || !older) {
      return;
    }
    loading = true;
    feed.setAttribute("aria-busy", "true");
    observer.unobserve(pager);
    let again = 0; // ms until the pager is watched again (0: at once; -1: never)
    try {
      const response = await fetch(older.href, { credentials: "same-origin", redirect: "manual" });
      if (!response.ok) {
        again = -1; // past the last page, or logged out: the link still works
        return;
      }
      const page = new DOMParser().parseFromString(await response.text(), "text/html");
      const timeline = page.querySelector('.timeline[role="feed"]');
      if (!timeline) {
        again = -1;
        return;
      }
      for (const card of Array.from(timeline.children)) {
        const id = card.dataset.statusId;
        // A status posted since moves the pages along: one already shown isn't shown twice.
        if (id && !feed.querySelector(':scope > [data-status-id="' + id + '"]')) {
          const added = feed.appendChild(document.importNode(card, true));
          if (window.htmx) {
            window.htmx.process(added); // a card's in-place actions, if the page has them
          }
        }
      }
      const next = pagerAfter(timeline);
      if (next) {
        const replacement = document.importNode(next, true);
        pager.replaceWith(replacement);
        pager = replacement;
      } else {
        pager.remove();
        pager = null;
      }
    } catch (error) {
      again = 5000; // offline for a moment: the link still works, and it is tried again
    } finally {
      loading = false;
      feed.removeAttribute("aria-busy");
      const watched = pager;
      if (watched && again >= 0) {
        setTimeout(() => watched.isConnected && observer.observe(watched), again);
      }
    }
  }

  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (entry.isIntersecting) {
          loadOlder(entry.target, observer);
        }
      }
    },
    { rootMargin: "0px 0px 600px 0px" }
  );
  const pager = pagerAfter(feed);
  if (pager) {
    observer.observe(pager);
  }
})();

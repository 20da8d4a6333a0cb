// In-place actions: htmx (static/js/vendor/) posts the forms and swaps in the server's
// partial. Two things it leaves to the page:
// - cards other scripts add later (the live timeline's new statuses, older pages loaded
//   in place) are wired as they arrive, so their buttons act in place too;
// - the keyboard's place: the button pressed is replaced with the card or control, so
//   focus moves to the same button of the new one (Like -> Unlike), not to the page's top.
(function () {
  "use strict";
  if (!window.htmx) return;
  const FOCUSABLE = "button, summary, a[href], select, input:not([type=hidden])";

  new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (node.nodeType === 1 && (node.matches("[hx-post]") || node.querySelector("[hx-post]"))) {
          window.htmx.process(node);
        }
      }
    }
  }).observe(document.body, { childList: true, subtree: true });

  let focused = -1;
  document.addEventListener("htmx:beforeSwap", (event) => {
    const target = event.detail.target;
    const active = document.activeElement;
    focused = -1;
    if (target && active && target.contains(active)) {
      focused = Array.from(target.querySelectorAll(FOCUSABLE)).indexOf(active);
    }
  });
  document.addEventListener("htmx:afterSwap", (event) => {
    if (focused < 0 || !(event.target instanceof Element) || !document.body.contains(event.target)) return;
    const within = Array.from(event.target.querySelectorAll(FOCUSABLE));
    const next = within[Math.min(focused, within.length - 1)];
    focused = -1;
    if (next) next.focus({ preventScroll: true });
  });
})();

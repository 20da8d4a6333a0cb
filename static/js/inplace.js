// In-place actions: htmx (static/js/vendor/) wires the buttons it finds when the page
// loads and in what it swaps in. Cards other scripts add later (the live timeline's new
// statuses, older pages loaded in place) are wired here as they arrive, so their buttons
// act in place too rather than post the whole page.
(function () {
  "use strict";
  if (!window.htmx || !window.MutationObserver) return;
  new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (node.nodeType === 1 && (node.matches("[hx-post]") || node.querySelector("[hx-post]"))) {
          window.htmx.process(node);
        }
      }
    }
  }).observe(document.body, { childList: true, subtree: true });
})();

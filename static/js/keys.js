// Keyboard shortcuts, as Mastodon's and X's web apps have them: j/k move between the
// page's status cards (the card gets the focus, and a visible ring), n writes a new
// status, r replies to the card, l likes it, b reposts it, / searches, ? shows the list
// and Escape closes it. None fires while typing in a text field, or with Ctrl, Alt or
// Meta held (the browser's own shortcuts).
(function () {
  "use strict";

  const SHORTCUTS = [
    ["j", "Next status"],
    ["k", "Previous status"],
    ["n", "New status"],
    ["r", "Reply to the status"],
    ["l", "Like or unlike the status"],
    ["b", "Repost or undo the repost"],
    ["/", "Search"],
    ["?", "Show these shortcuts"],
    ["Esc", "Close this list"],
  ];
  const COMPOSE_HASH = "#new-status";
  let help = null;

  function typing(target) {
    return target instanceof Element && target.closest("input, textarea, select, [contenteditable]:not([contenteditable='false'])");
  }

  function cards() {
    return Array.from(document.querySelectorAll("main article[data-status-id]"));
  }

  function current() {
    const active = document.activeElement;
    return active instanceof Element ? active.closest("main article[data-status-id]") : null;
  }

  function move(step) {
    const all = cards();
    if (!all.length) {
      return;
    }
    const at = all.indexOf(current());
    const next = all[at === -1 ? (step > 0 ? 0 : all.length - 1) : Math.min(Math.max(at + step, 0), all.length - 1)];
    if (!next.hasAttribute("tabindex")) {
      next.setAttribute("tabindex", "-1");
    }
    next.focus({ preventScroll: true });
    next.scrollIntoView({ block: "nearest" });
  }

  function press(selector) {
    const card = current();
    const control = card && card.querySelector(selector);
    if (control) {
      control.click();
    }
  }

  // The page's box for a new status (not a status page's reply box).
  function composer() {
    return document.querySelector("main form.post-form:not(#reply) textarea");
  }

  function compose() {
    const box = composer();
    if (box) {
      box.focus();
      box.scrollIntoView({ block: "nearest" });
    } else {
      // No composer here: home has one.
      const home = document.querySelector("a.brand");
      window.location.href = (home ? home.getAttribute("href") : "/") + COMPOSE_HASH;
    }
  }

  // The search box on screen (a narrow screen may keep it off): else the search page.
  function search() {
    const boxes = Array.from(document.querySelectorAll('form[role="search"] input[name="q"]'));
    const box = boxes.find((input) => input.getClientRects().length > 0);
    if (box) {
      box.focus();
    } else if (boxes.length) {
      window.location.href = boxes[0].form.action;
    }
  }

  function showHelp() {
    if (!help) {
      help = document.createElement("dialog");
      help.className = "shortcuts";
      help.setAttribute("aria-labelledby", "shortcuts-title");
      const title = document.createElement("h2");
      title.id = "shortcuts-title";
      title.textContent = "Keyboard shortcuts";
      const list = document.createElement("dl");
      for (const [key, what] of SHORTCUTS) {
        const term = document.createElement("dt");
        const kbd = document.createElement("kbd");
        kbd.textContent = key;
        term.appendChild(kbd);
        const description = document.createElement("dd");
        description.textContent = what;
        list.append(term, description);
      }
      const close = document.createElement("button");
      close.type = "button";
      close.className = "button secondary";
      close.textContent = "Close";
      close.addEventListener("click", () => help.close());
      help.append(title, list, close);
      document.body.appendChild(help);
    }
    if (!help.open) {
      help.showModal();
    }
  }

  const ACTIONS = {
    j: () => move(1),
    k: () => move(-1),
    n: compose,
    r: () => press('a.status-reply, a[href$="#reply"]'),
    l: () => press('button[formaction$="/like/"], button[formaction$="/unlike/"]'),
    b: () => press('button[formaction$="/repost/"], button[formaction$="/unrepost/"]'),
    "/": search,
    "?": showHelp,
  };

  document.addEventListener("keydown", (event) => {
    if (event.defaultPrevented || event.isComposing || event.ctrlKey || event.altKey || event.metaKey) {
      return;
    }
    if (help && help.open) {
      if (event.key === "?" || event.key === "Escape") {
        event.preventDefault();
        help.close();
      }
      return;
    }
    const action = ACTIONS[event.key];
    if (!action || typing(event.target)) {
      return;
    }
    event.preventDefault();
    action();
  });

  if (window.location.hash === COMPOSE_HASH) {
    const box = composer();
    if (box) {
      box.focus();
    }
  }
})();

// The status composer: every textarea with data-max-length (the post box, the reply
// box). A live counter counts the message as the server does (timeline.statuses
// check_message): leading and trailing whitespace stripped (Python's str.strip set),
// CRLF and CR as LF, then code points, not UTF-16 units, so an emoji counts 1 and
// "e" plus a combining accent counts 2, with no normalization. Over the limit the
// counter says so and the button waits. Ctrl+Enter (Cmd+Enter) posts. A reply box
// starts with "@author ": the caret goes after it.
(function () {
  "use strict";

  // What Python's str.isspace() calls whitespace (JavaScript's \s differs: it has
  // U+FEFF and lacks U+001C-U+001F and U+0085).
  const SPACE = "\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
  const STRIP = new RegExp("^[" + SPACE + "]+|[" + SPACE + "]+$", "g");

  function serverLength(text) {
    const stored = text.replace(STRIP, "").replace(/\r\n?/g, "\n");
    let count = 0;
    for (const _ of stored) count += 1; // iterates code points
    return count;
  }

  function enhance(textarea) {
    const max = Number(textarea.dataset.maxLength);
    const form = textarea.form;
    const button = form.querySelector('button[type="submit"]');
    const counter = document.createElement("output");
    counter.className = "char-count";
    counter.setAttribute("aria-live", "polite");
    counter.setAttribute("for", textarea.id);
    (button || textarea).before(counter);

    function update() {
      const length = serverLength(textarea.value);
      counter.textContent = length + "/" + max;
      counter.title = length > max ? (length - max) + " characters too many" : (max - length) + " characters left";
      counter.classList.toggle("over", length > max);
      if (button) button.disabled = length > max;
    }
    textarea.addEventListener("input", update);
    textarea.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        if (!button || !button.disabled) form.requestSubmit(button || undefined);
      }
    });
    textarea.addEventListener("focus", () => {
      // A prefilled reply ("@author "): write after the mentions, not before them.
      if (textarea.selectionStart === 0 && textarea.selectionEnd === 0 && textarea.value) {
        textarea.setSelectionRange(textarea.value.length, textarea.value.length);
      }
    });
    update();
  }

  document.querySelectorAll("textarea[data-max-length]").forEach(enhance);
})();

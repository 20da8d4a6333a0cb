// Media on statuses: draws each attachment's blurhash placeholder (canvas.media-blurhash,
// data-blurhash), opens a picture in a lightbox with its alt text (a.media-link), and in
// the composer (input.post-media-files) shows one alt-text field per chosen file, with a
// badge on each still missing its alt text. Without JavaScript the placeholder is a grey
// box, a picture opens as its file and the composer shows its four alt-text fields.
// A card with media still processing is drawn again once it is ready. Cards added later
// (live timelines, in-place actions) are handled as they arrive.
(function () {
  "use strict";

  // Blurhash (https://blurha.sh), decoded as its reference decoder does.
  const CHARS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#$%*+,-.:;=?@[]^_{|}~";
  function decode83(text) {
    let value = 0;
    for (const c of text) {
      const digit = CHARS.indexOf(c);
      if (digit < 0) throw new Error("not a blurhash");
      value = value * 83 + digit;
    }
    return value;
  }
  function toLinear(value) {
    const v = value / 255;
    return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
  }
  function toSrgb(value) {
    const v = Math.max(0, Math.min(1, value));
    return v <= 0.0031308 ? Math.round(v * 12.92 * 255 + 0.5) : Math.round((1.055 * Math.pow(v, 1 / 2.4) - 0.055) * 255 + 0.5);
  }
  function signPow(value, exp) {
    return Math.sign(value) * Math.pow(Math.abs(value), exp);
  }
  function decodeBlurhash(hash, width, height) {
    const size = decode83(hash[0]);
    const ny = Math.floor(size / 9) + 1;
    const nx = (size % 9) + 1;
    if (hash.length !== 4 + 2 * nx * ny) throw new Error("bad blurhash length");
    const maximum = (decode83(hash[1]) + 1) / 166;
    const colors = [];
    const dc = decode83(hash.substring(2, 6));
    colors.push([toLinear(dc >> 16), toLinear((dc >> 8) & 255), toLinear(dc & 255)]);
    for (let i = 1; i < nx * ny; i++) {
      const ac = decode83(hash.substring(4 + i * 2, 6 + i * 2));
      const r = Math.floor(ac / (19 * 19));
      const g = Math.floor(ac / 19) % 19;
      const b = ac % 19;
      colors.push([signPow((r - 9) / 9, 2) * maximum, signPow((g - 9) / 9, 2) * maximum, signPow((b - 9) / 9, 2) * maximum]);
    }
    const pixels = new Uint8ClampedArray(width * height * 4);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        let r = 0, g = 0, b = 0;
        for (let j = 0; j < ny; j++) {
          for (let i = 0; i < nx; i++) {
            const basis = Math.cos((Math.PI * x * i) / width) * Math.cos((Math.PI * y * j) / height);
            const color = colors[i + j * nx];
            r += color[0] * basis;
            g += color[1] * basis;
            b += color[2] * basis;
          }
        }
        const at = 4 * (x + y * width);
        pixels[at] = toSrgb(r);
        pixels[at + 1] = toSrgb(g);
        pixels[at + 2] = toSrgb(b);
        pixels[at + 3] = 255;
      }
    }
    return pixels;
  }

  function draw(canvas) {
    if (canvas.dataset.drawn) return;
    canvas.dataset.drawn = "1";
    try {
      const pixels = decodeBlurhash(canvas.dataset.blurhash, canvas.width, canvas.height);
      canvas.getContext("2d").putImageData(new ImageData(pixels, canvas.width, canvas.height), 0, 0);
      canvas.classList.add("media-blurhash-drawn");
    } catch (error) {
      // A hash that doesn't decode leaves the grey box.
    }
  }

  // The lightbox: one <dialog> for the page, its picture and its alt text set as text.
  let dialog = null;
  function lightbox() {
    if (dialog) return dialog;
    dialog = document.createElement("dialog");
    dialog.className = "media-lightbox";
    const close = document.createElement("button");
    close.type = "button";
    close.className = "media-lightbox-close button secondary";
    close.textContent = "Close";
    close.addEventListener("click", () => dialog.close());
    const picture = document.createElement("img");
    picture.className = "media-lightbox-image";
    const caption = document.createElement("p");
    caption.className = "media-lightbox-alt";
    dialog.append(close, picture, caption);
    // A click on the backdrop (the dialog itself, outside its content) closes it.
    dialog.addEventListener("click", (event) => {
      if (event.target === dialog) dialog.close();
    });
    dialog.addEventListener("close", () => picture.removeAttribute("src"));
    document.body.append(dialog);
    return dialog;
  }

  function open(link) {
    const box = lightbox();
    const shown = link.querySelector("img");
    const picture = box.querySelector(".media-lightbox-image");
    const alt = shown ? shown.alt : "";
    picture.src = link.href;
    picture.alt = alt;
    if (link.dataset.width) picture.width = Number(link.dataset.width);
    if (link.dataset.height) picture.height = Number(link.dataset.height);
    const caption = box.querySelector(".media-lightbox-alt");
    caption.textContent = alt || "No description.";
    caption.classList.toggle("media-lightbox-no-alt", !alt);
    box.showModal();
  }

  document.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest("a.media-link");
    if (!link || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    open(link);
  });

  // The composer: a row per chosen file (its name, its alt text, a badge while that is
  // empty); the four plain fields are what the form posts, in the files' order.
  function enhanceComposer(input) {
    if (input.dataset.enhanced) return;
    input.dataset.enhanced = "1";
    const fieldset = input.closest(".post-media");
    const rows = fieldset.querySelectorAll(".post-media-alt");
    const note = fieldset.querySelector(".post-media-count");
    function update() {
      const files = Array.from(input.files || []);
      rows.forEach((row, index) => {
        const file = files[index];
        row.hidden = !file;
        const name = row.querySelector(".post-media-name");
        if (name) name.textContent = file ? file.name : "";
        const text = row.querySelector("textarea, input");
        const badge = row.querySelector(".post-media-missing");
        if (badge) badge.hidden = !file || (text && text.value.trim() !== "");
      });
      if (note) {
        note.textContent = files.length > rows.length ? "Up to " + rows.length + " files: the rest won't be posted." : "";
      }
    }
    input.addEventListener("change", update);
    rows.forEach((row) => {
      const text = row.querySelector("textarea, input");
      if (text) text.addEventListener("input", update);
    });
    update();
  }

  // A card whose video or animation is still being transcoded is asked for again every
  // few seconds (for up to ten minutes) and drawn anew once it is no longer processing.
  const PROCESSING_POLL_MS = 5000;
  const PROCESSING_POLLS = 120;
  function watchProcessing(grid, polls) {
    if (grid.dataset.watched) return;
    grid.dataset.watched = "1";
    setTimeout(async () => {
      const shown = grid.closest("article.status");
      if (!shown || !document.contains(shown)) return;
      let html;
      try {
        const response = await fetch(grid.dataset.processingCard, { credentials: "same-origin", redirect: "manual" });
        if (!response.ok) return;
        html = await response.text();
      } catch (error) {
        html = "";
      }
      const card = html && new DOMParser().parseFromString(html, "text/html").querySelector("article.status");
      const still = !card || card.querySelector(".status-media[data-processing-card]");
      if (card && !still) {
        const status = document.importNode(card, true);
        status.className = shown.className;
        shown.replaceWith(status);
        if (window.htmx) window.htmx.process(status);
      } else if (polls > 1) {
        delete grid.dataset.watched;
        watchProcessing(grid, polls - 1);
      }
    }, PROCESSING_POLL_MS);
  }

  function scan(root) {
    root.querySelectorAll(".status-media[data-processing-card]").forEach((grid) => watchProcessing(grid, PROCESSING_POLLS));
    root.querySelectorAll("canvas.media-blurhash[data-blurhash]").forEach(draw);
    root.querySelectorAll("input.post-media-files").forEach(enhanceComposer);
  }

  scan(document);
  new MutationObserver((changes) => {
    for (const change of changes) {
      change.addedNodes.forEach((node) => {
        if (node.nodeType === Node.ELEMENT_NODE) scan(node);
      });
    }
  }).observe(document.body, { childList: true, subtree: true });
})();

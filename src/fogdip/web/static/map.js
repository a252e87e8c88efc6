// The game page's map: the board (land, sea, borders, names and a clickable target per
// province) drawn inline from its own URL, which never changes for a map and which the browser
// keeps for good; this phase's overlay (fog, centres, orders, units) comes with the page.
// Without this script the board shows as an image under the overlay.
//
// Pan and zoom: the mouse wheel, a drag, a pinch (pointer events), the keys + − arrows 0
// while the map has focus, and the buttons beside it. A drag never ends in a click, so a
// click on a province or a unit (`[data-province]`, `[data-unit]`) is always meant.
// History: ← and → (when not typing) and the Earlier/Later links step through past phases
// by reading the board partial again, without reloading the page.
//
// When the board is drawn inline, the figure gets `data-ready` and a `map:ready` event
// bubbles from it: the provinces' targets are in the page from then on.

const NS = "http://www.w3.org/2000/svg";
const boards = new Map(); // board URL -> Promise of its parsed <svg>, read once per page
const DRAG = 6; // px a pointer moves before a press becomes a drag
const ZOOM_STEP = 1.25;
const PAN_STEP = 0.15; // of the view's width, per arrow key

let kept = null; // the view the player moved to, kept across a new phase or a past one
let swallowNextClick = false;

function board(url) {
  if (!boards.has(url)) {
    const read = fetch(url, { credentials: "same-origin" })
      .then((response) => {
        if (!response.ok) throw new Error(`the board ${url}: ${response.status}`);
        return response.text();
      })
      .then((text) => new DOMParser().parseFromString(text, "image/svg+xml").documentElement);
    read.catch(() => boards.delete(url)); // a failed read is tried again next time
    boards.set(url, read);
  }
  return boards.get(url);
}

function box(text) {
  const [x, y, w, h] = text.split(" ").map(Number);
  return { x, y, w, h };
}

class MapView {
  constructor(figure) {
    this.figure = figure;
    this.svg = figure.querySelector("svg.map-view");
    this.full = box(figure.dataset.full);
    this.frame = box(figure.dataset.frame);
    let start = kept || this.frame;
    if (!kept && window.matchMedia("(max-width: 48rem)").matches && start.w > start.h) {
      // On a phone the map is as tall as it is wide: the frame grows to a square around itself.
      const h = Math.min(start.w, this.full.h);
      start = { x: start.x, y: Math.max(0, start.y - (h - start.h) / 2), w: start.w, h };
      start.y = Math.min(start.y, this.full.h - h);
    }
    this.aspect = start.w / start.h;
    this.svg.style.aspectRatio = `${start.w} / ${start.h}`;
    this.view = { ...start };
    this.pointers = new Map();
    this.show();
    this.listen();
    this.inline();
  }

  async inline() {
    const image = this.svg.querySelector("image.map-board");
    if (!image) return;
    let root;
    try {
      root = await board(this.figure.dataset.board);
    } catch (error) {
      return; // the image stays: the map still shows, without its targets
    }
    if (!image.isConnected) return;
    const group = document.createElementNS(NS, "g");
    group.setAttribute("class", "map-board");
    for (const child of root.children) group.append(document.importNode(child, true));
    // The fog lies on the ground and under the names, as on the map drawn whole.
    const fog = this.svg.querySelector("g.map-fog");
    const names = group.querySelector("g.names");
    if (fog && names) group.insertBefore(fog, names);
    image.replaceWith(group);
    this.figure.dataset.ready = "true";
    this.figure.dispatchEvent(new CustomEvent("map:ready", { bubbles: true }));
  }

  show() {
    const { x, y, w, h } = this.view;
    this.svg.setAttribute("viewBox", `${x.toFixed(1)} ${y.toFixed(1)} ${w.toFixed(1)} ${h.toFixed(1)}`);
  }

  set(view, moved = true) {
    const full = this.full;
    const w = Math.min(Math.max(view.w, 120), full.w * 1.5);
    const h = w / this.aspect;
    // The view's centre stays on the board: it can be panned to every edge, not beyond.
    const cx = Math.min(Math.max(view.x + view.w / 2, 0), full.w);
    const cy = Math.min(Math.max(view.y + view.h / 2, 0), full.h);
    this.view = { x: cx - w / 2, y: cy - h / 2, w, h };
    this.show();
    if (moved) kept = { ...this.view };
  }

  zoom(factor, at) {
    const v = this.view;
    const point = at || { x: v.x + v.w / 2, y: v.y + v.h / 2 };
    const w = v.w / factor;
    const scale = w / v.w;
    this.set({ x: point.x - (point.x - v.x) * scale, y: point.y - (point.y - v.y) * scale, w, h: w / this.aspect });
  }

  pan(dx, dy) {
    this.set({ ...this.view, x: this.view.x + dx, y: this.view.y + dy });
  }

  fit(target) {
    // The whole of `target` in view, centred, at the map's proportions.
    const w = Math.max(target.w, target.h * this.aspect);
    const h = w / this.aspect;
    this.set({ x: target.x + target.w / 2 - w / 2, y: target.y + target.h / 2 - h / 2, w, h });
  }

  // The screen's pixels in map units, through the drawing's own transform (right however the
  // map is fitted in its box).
  toMap(clientX, clientY) {
    const matrix = this.svg.getScreenCTM();
    if (!matrix) return { x: this.view.x + this.view.w / 2, y: this.view.y + this.view.h / 2 };
    const point = new DOMPoint(clientX, clientY).matrixTransform(matrix.inverse());
    return { x: point.x, y: point.y };
  }

  perPixel() {
    const matrix = this.svg.getScreenCTM();
    return matrix && matrix.a ? 1 / matrix.a : this.view.w / this.svg.getBoundingClientRect().width;
  }

  listen() {
    const svg = this.svg;
    svg.addEventListener(
      "wheel",
      (event) => {
        event.preventDefault();
        const factor = Math.exp(-Math.max(-200, Math.min(200, event.deltaY)) / 300);
        this.zoom(factor, this.toMap(event.clientX, event.clientY));
      },
      { passive: false },
    );
    svg.addEventListener("pointerdown", (event) => {
      if (event.pointerType === "mouse" && event.button !== 0) return;
      this.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY, startX: event.clientX, startY: event.clientY });
      if (this.pointers.size === 1) this.dragging = false;
    });
    svg.addEventListener("pointermove", (event) => {
      const was = this.pointers.get(event.pointerId);
      if (!was) return;
      if (this.pointers.size === 2) {
        const [a, b] = [...this.pointers.values()];
        const before = Math.hypot(a.x - b.x, a.y - b.y);
        was.x = event.clientX;
        was.y = event.clientY;
        const after = Math.hypot(a.x - b.x, a.y - b.y);
        if (before > 0 && after > 0) this.zoom(after / before, this.toMap((a.x + b.x) / 2, (a.y + b.y) / 2));
        this.dragging = true;
        return;
      }
      if (!this.dragging && Math.hypot(event.clientX - was.startX, event.clientY - was.startY) < DRAG) return;
      if (!this.dragging) {
        this.dragging = true;
        svg.setPointerCapture(event.pointerId);
      }
      const scale = this.perPixel();
      this.pan((was.x - event.clientX) * scale, (was.y - event.clientY) * scale);
      was.x = event.clientX;
      was.y = event.clientY;
    });
    const up = (event) => {
      if (!this.pointers.delete(event.pointerId)) return;
      if (this.dragging && event.type === "pointerup") swallowNextClick = true;
      if (this.pointers.size === 0) setTimeout(() => (this.dragging = false), 0);
    };
    svg.addEventListener("pointerup", up);
    svg.addEventListener("pointercancel", up);
    svg.addEventListener("keydown", (event) => {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      const step = this.view.w * PAN_STEP;
      const keys = {
        "+": () => this.zoom(ZOOM_STEP),
        "=": () => this.zoom(ZOOM_STEP),
        "-": () => this.zoom(1 / ZOOM_STEP),
        _: () => this.zoom(1 / ZOOM_STEP),
        "0": () => this.fit(this.full),
        ArrowLeft: () => this.pan(-step, 0),
        ArrowRight: () => this.pan(step, 0),
        ArrowUp: () => this.pan(0, -step),
        ArrowDown: () => this.pan(0, step),
      };
      const act = keys[event.key];
      if (!act) return;
      event.preventDefault();
      event.stopPropagation(); // the arrows move the map here, not through the phases
      act();
    });
    for (const button of this.figure.querySelectorAll("[data-zoom]")) {
      button.addEventListener("click", () => {
        const what = button.dataset.zoom;
        if (what === "in") this.zoom(ZOOM_STEP);
        else if (what === "out") this.zoom(1 / ZOOM_STEP);
        else if (what === "fit") this.fit(this.full);
        else if (what === "frame") this.fit(this.frame);
      });
    }
  }
}

// A drag ends in no click: the first listener of all (the window, capturing) drops it.
window.addEventListener(
  "click",
  (event) => {
    if (!swallowNextClick) return;
    swallowNextClick = false;
    if (event.target.closest && event.target.closest("svg.map-view")) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  },
  true,
);
// A click that never comes (the pointer left the map) must not swallow a later one.
window.addEventListener("pointerdown", () => (swallowNextClick = false), true);

function mountAll() {
  for (const figure of document.querySelectorAll("figure.map[data-board]")) {
    if (!figure.mapView) figure.mapView = new MapView(figure);
  }
}

// -- history ----------------------------------------------------------------------------

function boardUrl(href) {
  const url = new URL(href, location.href);
  return `${url.pathname}/board${url.search}`;
}

function step(href, push = true) {
  if (!window.htmx) {
    location.href = href;
    return;
  }
  if (push) history.pushState({ fogdipStep: true }, "", href);
  window.htmx.ajax("GET", boardUrl(href), { target: "#board", swap: "outerHTML" });
}

document.addEventListener("click", (event) => {
  const link = event.target.closest && event.target.closest("nav[data-history] a[href], a[data-now]");
  if (!link || event.defaultPrevented || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) return;
  event.preventDefault();
  step(link.getAttribute("href"));
});

window.addEventListener("popstate", () => {
  if (document.getElementById("board")) step(location.href, false);
});

function typing(element) {
  if (!element) return false;
  const tag = element.tagName;
  return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || element.isContentEditable;
}

document.addEventListener("keydown", (event) => {
  if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || typing(event.target)) return;
  if (event.target.closest && event.target.closest("svg.map-view")) return;
  const link = document.querySelector(`nav[data-history] a[data-step="${event.key === "ArrowLeft" ? "prev" : "next"}"]`);
  if (!link) return;
  event.preventDefault();
  step(link.getAttribute("href"));
});

document.addEventListener("htmx:afterSettle", mountAll);
mountAll();

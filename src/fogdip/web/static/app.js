// The game page's live part. It listens on the game's stream (a WebSocket to this server,
// signed in by the session's cookie) and, when something changes, asks the server again for
// only the part that changed: a new phase, the board (#board), and every other part; a
// deadline or a ready count, the head; a message, the press threads; a vote, the seats. A
// part is put in place keeping what the player is writing, has ticked or opened there (never
// the other way round: the server's answer is what the page shows). A dropped connection
// reconnects, and every part is read again then: nothing that happened meanwhile is missed.
//
// Also: the press threads are marked read when opened, the console's copy button, and the
// console's import (the file sent to the API's import, whose size limit is a game file's).

const stream = document.body.dataset.stream;
const game = document.body.dataset.game;

// What each event changes: the parts read again (by their ids, each from its own route).
// (The board holds its own head; a player's seats show only its own ready mark.)
const CHANGES = {
  phase: ["board", "seats", "press", "console", "ending"],
  deadline: ["head", "console"],
  ready: ["head", "console"],
  votes: ["seats", "console"],
  message: ["press-threads", "console"],
};

// Each part: its route, and where it is.
const PARTS = {
  head: { url: "head", find: () => document.getElementById("game-head") || document.querySelector("#board .game-head") },
  seats: { url: "seats", find: () => document.getElementById("seats") },
  press: { url: "press", find: () => document.getElementById("press") },
  "press-threads": { url: "press?part=threads", find: () => document.getElementById("press-threads") },
  console: { url: "console", find: () => document.getElementById("console") },
  ending: { url: "ending", find: () => document.getElementById("ending") },
};

function pastPhase() {
  return new URLSearchParams(location.search).get("phase") !== null;
}

// The values a player changed in a part (by id), its open details, and where the caret is.
function kept(old) {
  const values = new Map();
  for (const field of old.querySelectorAll("input[id], textarea[id], select[id]")) {
    if (field.type === "hidden") continue;
    if (field.type === "checkbox" || field.type === "radio") {
      if (field.checked !== field.defaultChecked) values.set(field.id, { checked: field.checked });
    } else if (field.tagName === "SELECT") {
      const chosen = Array.from(field.options).filter((o) => o.selected !== o.defaultSelected);
      if (chosen.length) values.set(field.id, { selected: Array.from(field.selectedOptions).map((o) => o.value) });
    } else if (field.value !== field.defaultValue) {
      values.set(field.id, { value: field.value });
    }
  }
  const open = new Set(Array.from(old.querySelectorAll("details[id]")).filter((d) => d.open).map((d) => d.id));
  if (old.tagName === "DETAILS" && old.open) open.add(old.id);
  const active = document.activeElement;
  const focus = active && old.contains(active) && active.id ? active : null;
  return { values, open, focus: focus && focus.id, caret: focus && "selectionStart" in focus ? [focus.selectionStart, focus.selectionEnd] : null };
}

function restore(fresh, was) {
  for (const [id, value] of was.values) {
    const field = fresh.querySelector(`#${CSS.escape(id)}`);
    if (!field) continue;
    if ("checked" in value) field.checked = value.checked;
    else if ("selected" in value) for (const option of field.options) option.selected = value.selected.includes(option.value);
    else field.value = value.value;
  }
  for (const id of was.open) {
    const details = fresh.id === id ? fresh : fresh.querySelector(`#${CSS.escape(id)}`);
    if (details) details.open = true;
  }
  if (was.focus) {
    const field = document.getElementById(was.focus);
    if (field) {
      field.focus();
      if (was.caret && field.setSelectionRange) {
        try { field.setSelectionRange(was.caret[0], was.caret[1]); } catch { /* not a text field */ }
      }
    }
  }
}

// Put `html` (one element) in place of `old`, keeping what the player did there (but what
// it wrote, where `values` is false: a form just sent).
function swapKeeping(old, html, values = true) {
  const holder = document.createElement("template");
  holder.innerHTML = html.trim();
  const fresh = holder.content.firstElementChild;
  if (!fresh) return;
  const was = kept(old);
  if (!values) was.values.clear();
  old.replaceWith(fresh);
  restore(fresh, was);
  if (window.htmx) window.htmx.process(fresh);
  // For the page's other scripts (a countdown on the head's deadline, say): a part is new.
  document.dispatchEvent(new CustomEvent("fogdip:part", { detail: { element: fresh } }));
}

async function refreshPart(name) {
  const part = PARTS[name];
  const old = part && part.find();
  if (!old) return;
  const answer = await fetch(`/games/${game}/${part.url}`, { headers: { "HX-Request": "true" }, credentials: "same-origin" });
  if (!answer.ok) return;
  const html = await answer.text();
  const now = part.find(); // the page may have changed while the answer came
  if (now) swapKeeping(now, html);
}

// The turn a board read is on its way for: a ready mark that played the turn and the stream's
// word of the same phase ask for one board, not two (a click between two reads would meet a
// board about to go).
let boardComing = null;

function refreshBoard(turn) {
  const board = document.getElementById("board");
  if (!window.htmx || !board || pastPhase()) return;
  if (turn && (board.dataset.turn === turn || boardComing === turn)) return;
  boardComing = turn || null;
  window.htmx.ajax("GET", `/games/${game}/board`, { target: "#board", swap: "outerHTML" }).finally(() => {
    boardComing = null;
  });
}

function refresh(kind, turn) {
  for (const name of CHANGES[kind] || []) {
    if (name === "board") refreshBoard(turn);
    else refreshPart(name);
  }
}

// After a drop: every part again, and the board if a phase was played meanwhile.
async function catchUp() {
  const board = document.getElementById("board");
  const turn = board && board.dataset.turn;
  for (const name of ["seats", "press", "console", "ending"]) refreshPart(name);
  const answer = await fetch(`/games/${game}/head`, { headers: { "HX-Request": "true" } });
  if (!answer.ok) return;
  const html = await answer.text();
  const told = /data-turn="([^"]*)"/.exec(html);
  if (told && turn && told[1] !== turn) refreshBoard();
  else {
    const head = PARTS.head.find();
    if (head) swapKeeping(head, html);
  }
}

function listen(delay, dropped) {
  if (!stream) return;
  const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${stream}`;
  const socket = new WebSocket(url);
  let opened = false;
  socket.addEventListener("open", () => {
    opened = true;
    document.body.dataset.live = "open";
    if (dropped) catchUp();
  });
  socket.addEventListener("message", (event) => {
    let told;
    try { told = JSON.parse(event.data); } catch { return; }
    if (told && told.type in CHANGES) refresh(told.type, told.type === "phase" ? told.turn : undefined);
  });
  socket.addEventListener("close", (event) => {
    document.body.dataset.live = "closed";
    if (event.code === 4401 || event.code === 4404) return; // not ours to hear: no retry
    // 4429: too many streams open (other tabs): try again later, not at once.
    const slow = event.code === 4429;
    const wait = opened && !slow ? 500 : Math.min(Math.max(delay, slow ? 5000 : 0) * 2, 30000);
    setTimeout(() => listen(wait, true), wait);
  });
}

// A ready mark that played the turn: show the next one.
document.addEventListener("htmx:afterSwap", (event) => {
  const target = event.detail.target;
  const played = target && target.id === "ready-note" && target.querySelector("[data-played]");
  if (played) refresh("phase", played.dataset.played || undefined);
});

// A form of a part (press, read marks, draw votes: `data-swap` names the part it answers
// with): sent here, and its answer put in place keeping the rest of what the player did.
async function sendPart(form) {
  const target = document.getElementById(form.dataset.swap);
  const answer = await fetch(form.action, {
    method: "POST",
    body: new URLSearchParams(new FormData(form)),
    headers: { "HX-Request": "true" },
    credentials: "same-origin",
  });
  const html = await answer.text();
  const now = document.getElementById(form.dataset.swap) || target;
  if (now && html.includes(`id="${form.dataset.swap}"`)) {
    swapKeeping(now, html, form.dataset.fresh === undefined);
    return;
  }
  // Not the part again (signed out meanwhile, say): say why beside the form, keep the rest.
  const holder = document.createElement("template");
  holder.innerHTML = html;
  let told = form.querySelector("p.error.refused");
  if (!told) {
    told = document.createElement("p");
    told.className = "error refused";
    told.setAttribute("role", "alert");
    form.append(told);
  }
  told.textContent = holder.content.textContent.trim().slice(0, 300) || `Not done (${answer.status}): reload the page.`;
}

document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.dataset.swap) return;
  event.preventDefault();
  sendPart(form);
});

// A press thread opened with unread messages in it: it is read now.
document.addEventListener("toggle", (event) => {
  const thread = event.target;
  if (!(thread instanceof HTMLDetailsElement) || !thread.classList.contains("thread") || !thread.open) return;
  if (Number(thread.dataset.unread || 0) === 0) return;
  const form = thread.querySelector("form[data-swap]");
  if (form) sendPart(form);
}, true);

// A thread's reply button: its correspondents ticked in the form, and the message box ready.
document.addEventListener("click", (event) => {
  const button = event.target.closest && event.target.closest("button[data-reply]");
  if (!button) return;
  const form = document.getElementById("press-compose");
  if (!form) return;
  const wanted = button.dataset.reply.split("+");
  for (const box of form.querySelectorAll("input[name=to]")) box.checked = wanted.includes(box.value);
  document.getElementById("press-body").focus();
});

// The console's copy button (the invitation link).
document.addEventListener("click", async (event) => {
  const button = event.target.closest && event.target.closest("button[data-copy]");
  if (!button) return;
  const field = document.getElementById(button.dataset.copy);
  if (!field) return;
  const told = button.parentElement.querySelector(".copied");
  try {
    await navigator.clipboard.writeText(field.value);
  } catch {
    field.select();
    document.execCommand("copy");
  }
  if (told) told.textContent = "Copied.";
});

// The console's import: the file, read here, sent to the API's import as JSON.
document.addEventListener("submit", async (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.matches("form[data-import]")) return;
  event.preventDefault();
  const told = form.querySelector(".import-note");
  const file = form.querySelector("input[type=file]").files[0];
  const say = (text) => { if (told) told.textContent = text; };
  if (!file) return say("Choose a game file first.");
  let parsed;
  try { parsed = JSON.parse(await file.text()); } catch { return say("That file is not JSON: choose a game file 'fogdip gm' wrote, or one exported here."); }
  const name = form.querySelector("[name=name]").value;
  const answer = await fetch("/api/v1/games/import", {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": form.querySelector("[name=csrf_token]").value },
    body: JSON.stringify({ game: parsed, name, private: true }),
  });
  const body = await answer.json().catch(() => ({}));
  if (!answer.ok) return say(`Not imported: ${body.message || body.detail || answer.status}`);
  location.assign(`/games/${body.id}`);
});

listen(1000, false);

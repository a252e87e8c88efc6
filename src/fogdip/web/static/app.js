// The game page's live part: it listens on the game's stream (a WebSocket to this server,
// signed in by the session's cookie) and, when a phase is played, a deadline moves, a
// message comes or a ready count changes, asks the server for the board again (the page's
// head, map, report, orders and press). A dropped connection reconnects, and the board is
// read again then: nothing that happened meanwhile is missed.

const stream = document.body.dataset.stream;
const game = document.body.dataset.game;

function refresh(kind) {
  if (!window.htmx || !document.getElementById("board")) return;
  if (new URLSearchParams(location.search).get("phase")) return; // a past phase never changes
  const writing = document.activeElement && ["lines", "body"].includes(document.activeElement.id);
  if (kind !== "phase" && writing) return; // what is being written is not lost to a message
  window.htmx.ajax("GET", `/games/${game}/board`, { target: "#board", swap: "outerHTML" });
}

function listen(delay) {
  if (!stream) return;
  const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${stream}`;
  const socket = new WebSocket(url);
  let opened = false;
  socket.addEventListener("open", () => {
    if (delay > 1000) refresh("phase"); // back after a drop: catch up
    opened = true;
  });
  socket.addEventListener("message", (event) => {
    const told = JSON.parse(event.data);
    if (["phase", "deadline", "message", "ready", "votes"].includes(told.type)) refresh(told.type);
  });
  socket.addEventListener("close", (event) => {
    if (event.code === 4401 || event.code === 4404) return; // not ours to hear: no retry
    const wait = opened ? 2000 : Math.min(delay * 2, 30000);
    setTimeout(() => listen(wait), wait);
  });
}

// A ready mark that played the turn: show the next one.
document.addEventListener("htmx:afterSwap", (event) => {
  const target = event.detail.target;
  if (target && target.id === "ready-note" && target.querySelector("[data-played]")) refresh("phase");
});

listen(1000);

// The turn's clock and the ready button. The deadline counts down, and in the last tenth of
// the turn's time says "hurry" in words as well as in red. Ready files a draft first (the
// orders panel, orders.js, marks the panel `data-draft`), and asks in a <dialog> when units
// have no order yet (`data-missing`); nothing is marked ready until the answer is yes.

let ticking = null; // the countdown's timer, one for the board shown

function countdown() {
  if (ticking) clearInterval(ticking);
  ticking = null;
  const time = document.getElementById("countdown");
  const left = document.getElementById("countdown-left");
  if (!time || !left) return;
  const deadline = Date.parse(time.getAttribute("datetime"));
  const length = Number(time.dataset.length || 0) * 1000;
  const tick = () => {
    const ms = deadline - Date.now();
    if (ms <= 0) {
      left.textContent = "— time is up: the turn is being played";
      time.parentElement.classList.add("late");
      return;
    }
    const s = Math.floor(ms / 1000);
    const days = Math.floor(s / 86400);
    const parts = [
      days ? `${days}d` : "",
      `${Math.floor((s % 86400) / 3600)}h`,
      `${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`,
      `${String(s % 60).padStart(2, "0")}s`,
    ];
    const late = length > 0 && ms <= length / 10;
    left.textContent = `— ${parts.filter(Boolean).join(" ")} left${late ? " (hurry: the last tenth of the time)" : ""}`;
    time.parentElement.classList.toggle("late", late);
  };
  tick();
  ticking = setInterval(tick, 1000);
}

function ask(text) {
  const dialog = document.getElementById("ready-ask");
  document.getElementById("ready-ask-text").textContent = text;
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "yes"), { once: true });
    dialog.returnValue = "";
    dialog.showModal();
  });
}

async function beforeReady(event) {
  const panel = document.querySelector(".orders-panel");
  if (!panel || event.detail.elt.id !== "ready-button") return;
  event.preventDefault();
  if (panel.dataset.draft === "true") {
    const form = document.getElementById("lines").form;
    await window.htmx.ajax("POST", form.getAttribute("hx-post"), { source: form, target: "#verdicts", swap: "innerHTML" });
    const note = document.querySelector("#verdicts [data-filed]");
    if (!note || note.dataset.filed !== "true") return; // the verdicts say what to fix
  }
  const missing = Number(panel.dataset.missing || 0);
  if (missing > 0) {
    const phase = panel.dataset.phase;
    const what = phase === "A" || phase === "S" ? "choices" : "units";
    const then = phase === "M" ? "they hold" : "they take the game's default";
    const told = `${missing} of your ${what} ${missing === 1 ? "has" : "have"} no order yet: ${then}. Mark ready anyway?`;
    if (!(await ask(told))) return;
  }
  event.detail.issueRequest(true);
}

document.addEventListener("htmx:confirm", (event) => {
  beforeReady(event);
});

document.addEventListener("htmx:afterSwap", (event) => {
  if (event.detail.target && event.detail.target.id === "board") countdown();
});

countdown();

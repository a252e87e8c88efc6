// Orders by clicking on the map, by the keyboard, and by typing, kept in step.
//
// The server gives the page the power's choices as data (a JSON block, #choices): the
// engine's own legal orders for what the power may know, each written as the filing check
// reads it. This script holds no rule of the game: it lights up what the data offers, writes
// the chosen line into the text box (#lines), and reads the text box back to show which units
// have an order. Filing is the form's, and every line's verdict is the server's. The
// deadline and the ready button are turn.js's.

const KEYS = { h: "H", m: "M", s: "S", c: "C", r: "R", d: "D", g: "G" };
const NS = "http://www.w3.org/2000/svg";
// A line of the text box as a drawing: the unit's place, and a move's, retreat's, support's or
// convoy's places (only the words a line has; whether it is legal is the server's to say).
const DRAWN = /^([AF]) ([A-Z]{3})(?:\/[A-Z]{2})?(?: (H)| (?:-|R) ([A-Z]{3})(?:\/[A-Z]{2})?| S [AF] ([A-Z]{3})(?:\/[A-Z]{2})?(?: - ([A-Z]{3})(?:\/[A-Z]{2})?)?| C A ([A-Z]{3}) - ([A-Z]{3}))$/;

let view = null; // the current board's orders panel, rebuilt whenever the board is
let kept = null; // a draft carried over a board refreshed by the live stream

// --- reading the text box ----------------------------------------------------------------------

function norm(line) {
  return line.toUpperCase().replace(/\s*-\s*/g, " - ").replace(/\s+/g, " ").trim();
}

function provinceOf(location) {
  return location.split("/")[0];
}

// A button of the side panel that does ``act`` (a target, a coast, an extra order).
function choiceButton(label, act, className) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = className;
  button.textContent = label;
  button.addEventListener("click", act);
  return button;
}

class Panel {
  constructor(root) {
    this.root = root;
    this.data = JSON.parse(document.getElementById("choices").textContent);
    this.lines = document.getElementById("lines");
    this.map = document.querySelector("#board figure.map"); // its provinces come with map:ready
    this.units = new Map(this.data.units.map((unit) => [unit.province, unit]));
    this.index = new Map(); // a choice's words -> what it is about
    this.selected = null;
    this.verb = null;
    this.stage = null; // the province picked first for a support or a convoy
    this.coast = null; // the texts to choose among when a target has two coasts
    this.build();
  }

  build() {
    const add = (text, about) => this.index.set(norm(text), about);
    for (const unit of this.data.units) {
      const p = unit.province;
      if (unit.hold) add(unit.hold, { kind: "order", province: p });
      for (const texts of Object.values(unit.moves)) texts.forEach((t) => add(t, { kind: "order", province: p }));
      for (const [, , text] of unit.supports) add(text, { kind: "order", province: p });
      for (const [, , text] of unit.convoys) add(text, { kind: "order", province: p });
      for (const [, text] of unit.extras) add(text, { kind: "order", province: p });
      if (unit.disband) add(unit.disband, { kind: "order", province: p });
      for (const texts of Object.values(unit.guesses)) texts.forEach((t) => add(t, { kind: "guess", province: p }));
    }
    const adjust = this.data.adjust;
    if (adjust) {
      for (const [site, texts] of Object.entries(adjust.sites)) texts.forEach((t) => add(t, { kind: "build", province: site }));
      for (const [site, text] of Object.entries(adjust.removals)) add(text, { kind: "removal", province: site });
      if (adjust.waive) add(adjust.waive, { kind: "waive", province: null });
    }
    for (const [centre, texts] of Object.entries(this.data.setup)) texts.forEach((t) => add(t, { kind: "setup", province: centre }));
    for (const province of this.data.peek) add(`PAS ${province}`, { kind: "peek", province: null });
  }

  // What a line is about: a choice offered, or else the unit it names (by its first words;
  // whether the order is legal is the server's to say).
  about(line) {
    const words = norm(line);
    if (!words) return null;
    const known = this.index.get(words);
    if (known) return known;
    if (/^IF\b/.test(words)) return { kind: "conditional", province: null };
    const named = /^(?:RETREAT:\s*|MOVE:\s*|MOVEMENT:\s*)?([AF])\s+([A-Z]{3})(?:\/[A-Z]{2})?\b(.*)$/.exec(words);
    if (!named) return { kind: "other", province: null };
    const rest = named[3];
    if (this.data.kinds.length > 1 && /^\s+R\b/.test(rest) && this.data.phase === "M") return { kind: "guess", province: named[2] };
    if (this.data.adjust && /^\s+B$/.test(rest)) return { kind: "build", province: named[2] };
    if (this.data.adjust && /^\s+D$/.test(rest)) return { kind: "removal", province: named[2] };
    if (this.data.phase === "S") return { kind: "setup", province: named[2] };
    return { kind: "order", province: named[2] };
  }

  texts() {
    return this.lines.value.split("\n").map((line) => line.trim()).filter((line) => line);
  }

  // A click wrote the text box: show what it says now, and what the next click may be.
  write(lines) {
    this.lines.value = lines.join("\n");
    this.update();
    this.stage = null;
    this.coast = null;
    if (this.verb === "S" || this.verb === "C") this.verb = this.data.phase === "R" ? "R" : "M";
    this.show();
  }

  orderOf(province) {
    return this.texts().find((line) => {
      const about = this.about(line);
      return about && about.kind === "order" && about.province === province;
    });
  }

  // A unit's order (or a site's build, a centre's setup): replace its line, or add one.
  put(kind, province, text) {
    const lines = this.texts();
    const at = lines.findIndex((line) => {
      const about = this.about(line);
      return about && about.kind === kind && about.province === province;
    });
    if (text === null) {
      if (at >= 0) lines.splice(at, 1);
    } else if (at >= 0) {
      lines[at] = text;
    } else {
      lines.push(text);
    }
    this.write(lines);
  }

  toggle(text) {
    const lines = this.texts();
    const at = lines.findIndex((line) => norm(line) === norm(text));
    if (at >= 0) lines.splice(at, 1);
    else lines.push(text);
    this.write(lines);
  }

  // --- the map -----------------------------------------------------------------------------

  unitElements() {
    if (!this.map) return [];
    const dislodged = this.data.phase === "R";
    return [...this.map.querySelectorAll("[data-unit]")].filter((el) => {
      if (el.dataset.ghost) return false;
      if (el.dataset.power && el.dataset.power !== this.root.dataset.power) return false;
      return (el.dataset.dislodged === "true") === dislodged;
    });
  }

  regions(province) {
    return this.map ? [...this.map.querySelectorAll(`[data-province="${province}"]`)] : [];
  }

  markUnits() {
    const clickable = this.data.phase === "M" || this.data.phase === "R" || (this.data.adjust && this.data.adjust.due < 0);
    for (const el of this.unitElements()) {
      const province = provinceOf(el.dataset.unit);
      const mine = this.units.has(province) || (this.data.adjust && province in this.data.adjust.removals);
      if (!mine || !clickable) continue;
      el.classList.add("orderable");
      el.setAttribute("tabindex", "0");
      el.setAttribute("role", "button");
      const unit = this.units.get(province);
      el.setAttribute("aria-label", `${unit ? unit.unit : province}: choose its order`);
    }
  }

  // Light up the provinces that answer the next click, each with a label for the keyboard.
  light(targets) {
    if (!this.map) return;
    for (const el of this.map.querySelectorAll(".lit")) {
      el.classList.remove("lit");
      el.removeAttribute("tabindex");
      el.removeAttribute("role");
      el.removeAttribute("aria-label");
    }
    for (const [province, label] of targets) {
      for (const el of this.regions(province)) {
        el.classList.add("lit");
        el.setAttribute("tabindex", "0");
        el.setAttribute("role", "button");
        el.setAttribute("aria-label", label);
      }
    }
  }

  // --- choosing ----------------------------------------------------------------------------

  select(province) {
    this.selected = this.units.has(province) ? province : null;
    this.stage = null;
    this.coast = null;
    this.verb = this.selected ? (this.data.phase === "R" ? "R" : "M") : null;
    this.show();
  }

  setVerb(verb) {
    if (verb === "X") {
      if (this.selected) this.put("order", this.selected, null);
      return;
    }
    if (!this.selected) {
      this.say("Choose a unit first: click it on the map, or pick it in the list.");
      return;
    }
    const unit = this.units.get(this.selected);
    if (verb === "H" && unit.hold) {
      this.put("order", this.selected, unit.hold);
      return;
    }
    if (verb === "D" && unit.disband) {
      this.put("order", this.selected, unit.disband);
      return;
    }
    this.verb = verb;
    this.stage = null;
    this.coast = null;
    this.show();
  }

  // What the next click may be, as [province, label, action] triples.
  targets() {
    const out = [];
    const adjust = this.data.adjust;
    if (this.coast) return out;
    if (!this.selected) {
      if (adjust && adjust.due > 0) {
        for (const [site, texts] of Object.entries(adjust.sites)) out.push([site, `build in ${site}`, () => this.pickBuild(site, texts)]);
      }
      if (adjust && adjust.due < 0 && !this.units.size) {
        for (const [site, text] of Object.entries(adjust.removals)) out.push([site, `remove ${text.slice(0, -2)}`, () => this.toggle(text)]);
      }
      for (const [centre, texts] of Object.entries(this.data.setup)) {
        out.push([centre, `choose the unit in ${centre}`, () => this.pickSetup(centre, texts)]);
      }
      return out;
    }
    const unit = this.units.get(this.selected);
    const here = this.selected;
    if (this.verb === "M" || this.verb === "R") {
      for (const [target, texts] of Object.entries(unit.moves)) {
        out.push([target, `${unit.unit} to ${target}`, () => this.pickMove(here, texts)]);
      }
    } else if (this.verb === "G") {
      for (const [target, texts] of Object.entries(unit.guesses)) {
        out.push([target, `retreat guess ${unit.unit} to ${target}`, () => this.pickGuess(texts)]);
      }
    } else if (this.verb === "S" || this.verb === "C") {
      const listed = this.verb === "S" ? unit.supports : unit.convoys;
      if (this.stage === null) {
        const seen = new Set();
        for (const [other] of listed) {
          if (seen.has(other)) continue;
          seen.add(other);
          const what = this.verb === "S" ? "support the unit in" : "convoy the army in";
          out.push([other, `${what} ${other}`, () => this.pickStage(other)]);
        }
      } else {
        for (const [other, to, text] of listed) {
          if (other !== this.stage) continue;
          out.push([to === null ? other : to, text, () => this.put("order", here, text)]);
        }
      }
    }
    return out;
  }

  pickMove(here, texts) {
    if (texts.length === 1) {
      this.put("order", here, texts[0]);
      return;
    }
    this.asking = texts.some((text) => / VIA$/.test(text)) ? "Overland, or by convoy? Choose one:" : "Which coast? Choose one:";
    this.coast = texts.map((text) => [text, () => { this.coast = null; this.put("order", here, text); }]);
    this.show();
  }

  pickGuess(texts) {
    if (texts.length === 1) {
      this.toggle(texts[0]);
      return;
    }
    this.asking = "Which coast? Choose one:";
    this.coast = texts.map((text) => [text, () => { this.coast = null; this.toggle(text); }]);
    this.show();
  }

  pickBuild(site, texts) {
    const current = this.texts().find((line) => norm(line) === norm(texts[0]) || texts.some((t) => norm(t) === norm(line)));
    if (texts.length === 1) {
      this.put("build", site, current ? null : texts[0]);
      return;
    }
    this.asking = `Build in ${site}: choose the unit.`;
    const choices = texts.map((text) => [text, () => { this.coast = null; this.put("build", site, text); }]);
    if (current) choices.push([`no build in ${site}`, () => { this.coast = null; this.put("build", site, null); }]);
    this.coast = choices;
    this.show();
  }

  pickSetup(centre, texts) {
    if (texts.length === 1) {
      this.put("setup", centre, texts[0]);
      return;
    }
    this.asking = `The unit that starts in ${centre}:`;
    this.coast = texts.map((text) => [text, () => { this.coast = null; this.put("setup", centre, text); }]);
    this.show();
  }

  pickStage(province) {
    this.stage = province;
    this.show();
  }

  say(text) {
    document.getElementById("pick-help").textContent = text;
  }

  // --- showing -----------------------------------------------------------------------------

  show() {
    const targets = this.targets();
    this.light(targets.map(([province, label]) => [province, label]));
    this.actions = new Map(targets.map(([province, , action]) => [province, action]));
    for (const el of this.unitElements()) {
      el.classList.toggle("selected", provinceOf(el.dataset.unit) === this.selected);
    }
    const select = document.getElementById("pick-unit");
    select.value = this.selected || "";
    const box = document.getElementById("pick-targets");
    box.replaceChildren();
    const buttons = this.coast ? this.coast.map(([text, act]) => [text, act]) : targets.map(([, label, act]) => [label, act]);
    for (const [label, act] of buttons) box.append(choiceButton(label, act, "secondary choice"));
    for (const tool of this.root.querySelectorAll(".pick-tools [data-verb]")) {
      tool.hidden = !this.offers(tool.dataset.verb);
      tool.setAttribute("aria-pressed", String(tool.dataset.verb === this.verb));
    }
    this.showExtras();
    this.say(this.helpText());
  }

  offers(verb) {
    const unit = this.selected ? this.units.get(this.selected) : null;
    if (verb === "X") return Boolean(unit);
    if (!unit) return false;
    if (verb === "H") return Boolean(unit.hold);
    if (verb === "M") return this.data.phase !== "R" && Object.keys(unit.moves).length > 0;
    if (verb === "R") return this.data.phase === "R";
    if (verb === "D") return Boolean(unit.disband);
    if (verb === "S") return unit.supports.length > 0;
    if (verb === "C") return unit.convoys.length > 0;
    if (verb === "G") return Object.keys(unit.guesses).length > 0;
    return false;
  }

  showExtras() {
    const box = document.getElementById("pick-extras");
    box.replaceChildren();
    const unit = this.selected ? this.units.get(this.selected) : null;
    const adjust = this.data.adjust;
    const add = (label, act) => box.append(choiceButton(label, act, "secondary"));
    if (unit) for (const [label, text] of unit.extras) add(label, () => this.put("order", this.selected, text));
    if (!unit && adjust && adjust.due < 0) {
      for (const [site, text] of Object.entries(adjust.removals)) add(`Remove ${text.slice(0, -2)}`, () => this.toggle(text));
    }
    if (!unit && adjust && adjust.waive) add("Waive a build", () => this.toggle(adjust.waive));
    if (unit && this.data.adjust) add("Back to the Winter", () => this.select(null));
  }

  helpText() {
    const unit = this.selected ? this.units.get(this.selected) : null;
    const adjust = this.data.adjust;
    if (this.coast) return this.asking || "Choose one:";
    if (!unit) {
      if (adjust && adjust.due > 0) return `You may build ${adjust.due}: click a lit centre (or a button below), then army or fleet.`;
      if (adjust && adjust.due < 0) return `You must remove ${-adjust.due}: choose the units to remove.`;
      if (Object.keys(this.data.setup).length) return "Choose the unit each lit centre starts with.";
      if (this.data.phase === "R") {
        if (!this.units.size) return "None of your units was dislodged: there is nothing to order. Mark ready when you are.";
        return "Click your dislodged unit to retreat or disband it.";
      }
      if (adjust && !this.units.size) return "You neither build nor remove this Winter: mark ready when you are.";
      return "Click one of your units on the map (or choose it here) to give it an order.";
    }
    const order = this.orderOf(this.selected);
    const now = order ? ` Now: ${order}.` : " No order yet.";
    if (this.verb === "S") return this.stage ? `${unit.unit} supports the unit in ${this.stage}: click where it goes (or its own place, to hold).${now}` : `${unit.unit} supports: click the unit to support.${now}`;
    if (this.verb === "C") return this.stage ? `${unit.unit} convoys the army in ${this.stage}: click where to.${now}` : `${unit.unit} convoys: click the army.${now}`;
    if (this.verb === "G") return `${unit.unit}: click a place to add or drop a retreat guess.${now}`;
    if (this.verb === "R") return `${unit.unit} retreats: click where to, or Disband.${now}`;
    return `${unit.unit}: click where it moves, or Hold, Support, Convoy.${now}`;
  }

  fillUnits() {
    const select = document.getElementById("pick-unit");
    const first = document.createElement("option");
    first.value = "";
    first.textContent = this.data.adjust || Object.keys(this.data.setup).length ? "— the Winter's builds —" : "— choose a unit —";
    const options = [first];
    for (const unit of this.data.units) {
      const option = document.createElement("option");
      option.value = unit.province;
      options.push(option);
    }
    select.replaceChildren(...options);
    select.closest(".pick-row").hidden = !this.data.units.length;
    select.addEventListener("change", () => this.select(select.value || null));
    const peek = document.getElementById("pick-peek");
    if (this.data.peek.length) {
      peek.hidden = false;
      const chooser = document.getElementById("peek-province");
      chooser.replaceChildren(...this.data.peek.map((p) => Object.assign(document.createElement("option"), { value: p, textContent: p })));
      document.getElementById("peek-add").addEventListener("click", () => {
        const lines = this.texts().filter((line) => this.about(line).kind !== "peek");
        lines.push(`PAS ${chooser.value}`);
        this.write(lines);
      });
    }
  }

  // The counts, each unit's mark, and the state, from the text box as it stands.
  update() {
    const lines = this.texts();
    const abouts = lines.map((line) => this.about(line));
    const ordered = new Set(abouts.filter((a) => a && a.kind === "order").map((a) => a.province));
    let count;
    const adjust = this.data.adjust;
    if (this.data.phase === "S") {
      const chosen = new Set(abouts.filter((a) => a && a.kind === "setup").map((a) => a.province));
      const all = Object.keys(this.data.setup).length;
      count = `${chosen.size} of ${all} centres chosen`;
      this.missing = all - chosen.size;
    } else if (this.data.phase === "A" && adjust) {
      const made = abouts.filter((a) => a && (adjust.due > 0 ? ["build", "waive"] : ["removal"]).includes(a.kind)).length;
      if (adjust.due > 0) count = `you may build ${adjust.due}: ${made} chosen`;
      else if (adjust.due < 0) count = `you must remove ${-adjust.due}: ${made} chosen`;
      else count = "you neither build nor remove";
      this.missing = Math.max(Math.abs(adjust.due) - made, 0);
      if (this.units.size) {
        const spring = this.data.units.filter((u) => ordered.has(u.province)).length;
        count += `; ${spring} of ${this.units.size} units ordered for the Spring`;
        this.missing += this.units.size - spring;
      }
    } else {
      const mine = this.data.units.filter((u) => ordered.has(u.province)).length;
      const noun = this.data.phase === "R" ? "dislodged units" : "units";
      count = `${mine} of ${this.units.size} ${noun} ordered`;
      this.missing = this.units.size - mine;
    }
    document.getElementById("ordered-count").textContent = count;
    for (const el of this.unitElements()) {
      el.classList.toggle("ordered", ordered.has(provinceOf(el.dataset.unit)));
    }
    const select = document.getElementById("pick-unit");
    for (const option of select.options) {
      if (!option.value) continue;
      const unit = this.units.get(option.value);
      const order = this.orderOf(option.value);
      option.textContent = order ? `${unit.unit} ✓ ${order}` : `${unit.unit} (no order)`;
    }
    this.showState();
    this.drawDrafts(lines);
    for (const item of document.querySelectorAll("#verdicts li[data-line]")) {
      item.classList.toggle("stale", !lines.some((line) => norm(line) === norm(item.dataset.line)));
    }
    if (this.actions) this.say(this.helpText());
  }

  // Where a province's unit stands on the map, else the middle of the province.
  spot(province) {
    const unit = this.map.querySelector(`[data-unit^="${province}"]:not([data-ghost])`);
    const region = this.regions(province)[0];
    const shape = unit || region;
    if (!shape || !shape.getBBox) return null;
    const box = shape.getBBox();
    return box.width || box.height ? { x: box.x + box.width / 2, y: box.y + box.height / 2 } : null;
  }

  // The text box's orders drawn over the map as they stand (moves and retreats as arrows,
  // supports and convoys dashed, holds as rings), so a player sees what it has written before
  // filing; the server's map draws them for good once the turn is played.
  drawDrafts(lines) {
    const svg = this.map && this.map.querySelector("svg.map-view");
    if (!svg) return;
    let layer = svg.querySelector("g.drafts");
    if (!layer) {
      layer = document.createElementNS(NS, "g");
      layer.setAttribute("class", "drafts");
      layer.setAttribute("pointer-events", "none");
      layer.setAttribute("aria-hidden", "true");
      const defs = document.createElementNS(NS, "defs");
      const marker = document.createElementNS(NS, "marker");
      for (const [name, value] of Object.entries({ id: "draft-head", viewBox: "0 0 10 10", refX: "8", refY: "5", markerWidth: "5", markerHeight: "5", orient: "auto-start-reverse" })) {
        marker.setAttribute(name, value);
      }
      const head = document.createElementNS(NS, "path");
      head.setAttribute("d", "M0 0L10 5L0 10Z");
      head.setAttribute("class", "draft-head");
      marker.append(head);
      defs.append(marker);
      layer.append(defs);
      svg.append(layer);
    }
    for (const old of layer.querySelectorAll(":scope > :not(defs)")) old.remove();
    const segment = (from, to, kind) => {
      const a = this.spot(from);
      const b = this.spot(to);
      if (!a || !b) return;
      const line = document.createElementNS(NS, "line");
      // Stop short of the target's middle, so the head does not hide its unit or name.
      const dx = b.x - a.x;
      const dy = b.y - a.y;
      const length = Math.hypot(dx, dy) || 1;
      const short = Math.min(14, length / 3);
      line.setAttribute("x1", a.x.toFixed(1));
      line.setAttribute("y1", a.y.toFixed(1));
      line.setAttribute("x2", (b.x - (dx / length) * short).toFixed(1));
      line.setAttribute("y2", (b.y - (dy / length) * short).toFixed(1));
      line.setAttribute("class", `draft draft-${kind}`);
      if (kind === "move") line.setAttribute("marker-end", "url(#draft-head)");
      layer.append(line);
    };
    for (const text of lines) {
      const m = DRAWN.exec(norm(text));
      if (!m) continue;
      const [, , at, hold, to, supported, supportedTo, army, armyTo] = m;
      if (hold) {
        const a = this.spot(at);
        if (!a) continue;
        const ring = document.createElementNS(NS, "circle");
        ring.setAttribute("cx", a.x.toFixed(1));
        ring.setAttribute("cy", a.y.toFixed(1));
        ring.setAttribute("r", "20");
        ring.setAttribute("class", "draft draft-hold");
        layer.append(ring);
      } else if (to) segment(at, to, "move");
      else if (supported) segment(at, supportedTo || supported, "support");
      else if (army) {
        segment(at, army, "support");
        segment(army, armyTo, "convoy");
      }
    }
  }

  draft() {
    return this.texts().join("\n") !== (this.lines.dataset.filed || "").split("\n").map((l) => l.trim()).filter((l) => l).join("\n");
  }

  showState() {
    const state = document.getElementById("order-state");
    const ready = this.root.dataset.ready === "true";
    let word;
    let key;
    if (this.draft()) [word, key] = ["✎ draft: changed, not filed", "draft"];
    else if (ready) [word, key] = ["✔ ready", "ready"];
    else if (this.lines.dataset.filed || this.root.dataset.filedOnce) [word, key] = ["✓ filed", "filed"];
    else [word, key] = ["not filed yet", "empty"];
    state.textContent = word;
    state.dataset.state = key;
    // For the ready button (turn.js): whether to file first, and what to ask.
    this.root.dataset.draft = String(key === "draft");
    this.root.dataset.missing = String(this.missing || 0);
    this.root.dataset.phase = this.data.phase;
  }

  // --- events ------------------------------------------------------------------------------

  listen() {
    this.lines.addEventListener("input", () => this.update());
    for (const tool of this.root.querySelectorAll(".pick-tools [data-verb]")) {
      tool.addEventListener("click", () => this.setVerb(tool.dataset.verb));
    }
    if (this.map) {
      this.map.addEventListener("click", (event) => this.clicked(event));
      // The arrows step among the lit places (or one's units) while one of them has the
      // focus; elsewhere on the map they pan it (map.js), so this listens first.
      this.map.addEventListener("keydown", (event) => this.arrow(event), { capture: true });
      this.map.addEventListener("keydown", (event) => {
        if (event.key !== "Enter" && event.key !== " ") return;
        if (this.clicked(event)) {
          event.preventDefault();
          this.refocus();
        }
      });
    }
  }

  clicked(event) {
    if (view !== this) return false; // a board replaced since: its panel is gone
    const unitEl = event.target.closest("[data-unit]");
    const regionEl = event.target.closest("[data-province]");
    const province = unitEl ? provinceOf(unitEl.dataset.unit) : regionEl ? regionEl.dataset.province : null;
    if (!province) return false;
    const action = this.actions && this.actions.get(province);
    const own = Boolean(unitEl) && this.units.has(province);
    // A lit place answers the click, but a click on one's own unit while moving chooses that
    // unit instead (a move into its place is a click beside it, on the province).
    if (action && (!own || !this.selected || ["S", "C", "G"].includes(this.verb))) {
      action();
      return true;
    }
    if (own) {
      this.select(province === this.selected ? null : province);
      return true;
    }
    if (unitEl && this.data.adjust && province in this.data.adjust.removals) {
      this.toggle(this.data.adjust.removals[province]);
      return true;
    }
    return false;
  }

  arrow(event) {
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
    const here = event.target;
    if (!step || event.altKey || event.ctrlKey || event.metaKey || !here.classList) return;
    const kind = here.classList.contains("lit") ? ".lit" : here.classList.contains("orderable") ? ".orderable" : null;
    if (!kind) return;
    const all = [...this.map.querySelectorAll(kind)];
    const next = all[(all.indexOf(here) + step + all.length) % all.length];
    event.preventDefault();
    event.stopPropagation();
    if (next) next.focus();
  }

  // After a choice by the keyboard: on to the lit places, or back to the unit.
  refocus() {
    const lit = this.map.querySelector(".lit");
    if (lit) {
      lit.focus();
      return;
    }
    const unit = this.unitElements().find((el) => provinceOf(el.dataset.unit) === this.selected);
    if (unit) unit.focus();
  }

  key(event) {
    if (event.key === "Escape") {
      this.select(null);
      return;
    }
    const verb = KEYS[event.key.toLowerCase()];
    if (verb && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      this.setVerb(verb);
    }
  }
}

// --- setting up, and keeping up with the live board ---------------------------------------------

function start() {
  const root = document.querySelector(".orders-panel");
  view = null;
  if (!root || !document.getElementById("choices")) return;
  view = new Panel(root);
  document.getElementById("picker").hidden = false;
  const same = kept && kept.turn === root.dataset.turn;
  if (same && kept.text !== null && kept.text !== view.lines.value) view.lines.value = kept.text;
  view.fillUnits();
  view.markUnits();
  view.listen();
  view.update();
  view.select(same ? kept.selected : null);
  kept = null;
}

document.addEventListener("keydown", (event) => {
  if (!view) return;
  const there = event.target;
  if (there.closest && there.closest("textarea, input, select, dialog")) return;
  view.key(event);
});

// The board's provinces are drawn inline once read (map.js): light them up then.
document.addEventListener("map:ready", () => {
  if (!view) return;
  view.markUnits();
  view.update();
  view.show();
});

document.addEventListener("htmx:beforeSwap", (event) => {
  const target = event.detail.target;
  // The live stream reads the board again: what is being written, and the unit chosen, stay.
  if (view && target && target.id === "board") {
    kept = { turn: view.root.dataset.turn, text: view.draft() ? view.lines.value : null, selected: view.selected };
  }
});

document.addEventListener("htmx:afterSwap", (event) => {
  const target = event.detail.target;
  if (!target) return;
  if (target.id === "board") start();
  if (view && target.id === "verdicts") {
    const note = target.querySelector("[data-filed]");
    if (note && note.dataset.filed === "true") {
      view.lines.dataset.filed = view.texts().join("\n");
      view.root.dataset.filedOnce = "true";
    }
    view.update();
  }
  if (view && target.id === "ready-note") {
    const note = target.querySelector("[data-ready]");
    if (note) view.root.dataset.ready = note.dataset.ready;
    view.update();
  }
});

start();

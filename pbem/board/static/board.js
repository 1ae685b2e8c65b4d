// The board's page: it draws the view the server sends and sends clicks back (docs/board.md).
// It never decides legality: destinations and the check come from the server, computed by the
// same validation the referee runs. No framework, nothing from the network.
"use strict";

const TOKEN = location.pathname.split("/")[1];
const API = (name) => `/${TOKEN}/api/${name}`;
let view = null;
let selected = [];
let dests = [];

function el(tag, attrs, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

function showError(message) {
  const box = document.getElementById("error");
  box.hidden = !message;
  box.textContent = message || "";
}

async function call(name, body) {
  const init = body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Pbem-Token": TOKEN },
    body: JSON.stringify(body),
  };
  const answer = await fetch(API(name), init);
  const data = await answer.json();
  if (!answer.ok) {
    showError(data.error + (data.rule ? ` (rule ${data.rule})` : ""));
    return null;
  }
  showError("");
  return data;
}

async function change(name, body) {
  const data = await call(name, body || {});
  if (data) { selected = []; dests = []; show(data); }
}

function areaOf(piece) {
  const p = view.pieces.find((x) => x.id === piece);
  return p ? p.area : null;
}

async function toggle(piece) {
  if (!areaOf(piece)) return;
  if (selected.length && areaOf(selected[0]) !== areaOf(piece)) selected = [];
  selected = selected.includes(piece) ? selected.filter((x) => x !== piece) : [...selected, piece];
  await refreshDests();
}

async function moveTo(area) {
  if (!selected.length) return;
  const action = { type: "move", pieces: selected, target: area };
  if (dests.includes(area)) { change("act", action); return; }
  const check = await call("why", action);  // not lit: say which rule forbids it; the draft is unchanged
  if (!check) return;
  const box = document.getElementById("error");
  box.hidden = false;
  box.replaceChildren(el("strong", {}, `${selected.join(", ")} to ${area}: refused. `),
    document.createTextNode(check.message + " "));
  if (check.rule) box.append(el("span", { class: "rule", id: "refusal-rule" }, `Rule ${check.rule}.`));
}

function drawSelection() {
  const map = document.getElementById("map");
  map.querySelectorAll("[data-block]").forEach((n) => n.classList.toggle("selected", selected.includes(n.dataset.block)));
  map.querySelectorAll("[data-blocks]").forEach((n) => n.classList.toggle("selected",
    blocksOf(n).some((b) => selected.includes(b))));
  map.querySelectorAll("path[data-area]").forEach((n) => n.classList.toggle("dest", dests.includes(n.dataset.area)));
  document.querySelectorAll("#pieces button").forEach((b) =>
    b.setAttribute("aria-pressed", String(selected.includes(b.dataset.piece))));
  const box = document.getElementById("dests");
  box.replaceChildren();
  if (selected.length) {
    box.append(el("p", { class: "hint" }, dests.length
      ? `${selected.join(", ")} may move to:` : `${selected.join(", ")}: no legal destination now.`));
    for (const area of dests) {
      const b = el("button", { type: "button", "data-dest": area }, area);
      b.addEventListener("click", () => moveTo(area));
      box.append(b);
    }
  }
}

function drawMap() {
  const map = document.getElementById("map");
  map.innerHTML = view.svg;
  const movable = new Set(view.pieces.map((p) => p.id));
  map.querySelectorAll("[data-block]").forEach((n) => {
    if (movable.has(n.dataset.block)) {
      n.classList.add("movable");
      n.addEventListener("click", (e) => { e.stopPropagation(); toggle(n.dataset.block); });
    }
  });
  // A stack too big for its area is a count badge (data-blocks: its blocks' ids): a click selects
  // them all, or clears them when all are selected; the side panel lists each one to pick singly.
  map.querySelectorAll("[data-blocks]").forEach((n) => {
    const ids = blocksOf(n).filter((b) => movable.has(b));
    if (!ids.length) return;
    n.classList.add("movable");
    n.addEventListener("click", (e) => { e.stopPropagation(); toggleAll(ids); });
  });
  // An area (its shape, the stack drawn inside it, or its name with its castle, cathedral and home
  // marks) is a destination.
  const target = (n, area) => n.addEventListener("click", (e) => { e.stopPropagation(); moveTo(area); });
  map.querySelectorAll("[data-area]").forEach((n) => target(n, n.dataset.area));
  map.querySelectorAll("g[id^='label-']").forEach((n) => target(n, n.id.slice("label-".length)));
}

function blocksOf(node) {
  return node.dataset.blocks ? node.dataset.blocks.split(",") : [];
}

async function toggleAll(ids) {
  const all = ids.every((b) => selected.includes(b));
  if (selected.length && areaOf(selected[0]) !== areaOf(ids[0])) selected = [];
  selected = all ? selected.filter((x) => !ids.includes(x)) : [...selected, ...ids.filter((b) => !selected.includes(b))];
  await refreshDests();
}

async function refreshDests() {
  dests = [];
  if (selected.length) {
    const data = await call("dests", { pieces: selected });
    dests = data ? data.dests : [];
  }
  drawSelection();
}

// The draft's moves as arrows from area name to area name, as chessground draws its shapes.
function drawArrows() {
  const svg = document.querySelector("#map svg");
  if (!svg || !view.arrows.length) return;
  const NS = "http://www.w3.org/2000/svg";
  const defs = document.createElementNS(NS, "defs");
  defs.innerHTML = '<marker id="board-head" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" ' +
    'markerHeight="5" orient="auto-start-reverse"><path d="M0 0 L10 5 L0 10 Z" fill="#0b6e4f"/></marker>';
  svg.append(defs);
  const centre = (area) => {
    const label = svg.getElementById ? svg.getElementById(`label-${area}`) : null;
    if (!label) return null;
    const b = label.getBBox();
    return [b.x + b.width / 2, b.y + b.height / 2];
  };
  for (const [from, to] of view.arrows) {
    const a = centre(from);
    const b = centre(to);
    if (!a || !b) continue;
    const line = document.createElementNS(NS, "line");
    for (const [k, v] of [["x1", a[0]], ["y1", a[1]], ["x2", b[0]], ["y2", b[1]]]) line.setAttribute(k, v);
    line.setAttribute("class", "planned");
    line.setAttribute("data-arrow", `${from}>${to}`);
    line.setAttribute("marker-end", "url(#board-head)");
    svg.append(line);
  }
}

function drawCheck() {
  const box = document.getElementById("check");
  const c = view.check;
  box.className = c.ok ? "ok" : "refused";
  box.replaceChildren();
  if (c.ok) {
    box.append(el("strong", {}, "Check: ok. "), document.createTextNode("The referee's check accepts these orders."));
  } else {
    box.append(el("strong", {}, "Check: refused. "), document.createTextNode(c.message + " "));
    if (c.rule) box.append(el("span", { class: "rule", id: "check-rule" }, `Rule ${c.rule}.`));
  }
  for (const note of c.notes) box.append(el("p", { class: "hint" }, "Note: " + note));
}

function drawLists() {
  const pieces = document.getElementById("pieces");
  pieces.replaceChildren();
  for (const p of view.pieces) {
    const b = el("button", { type: "button", "data-piece": p.id, "aria-pressed": "false", title: p.area },
      `${p.label} (${p.area})`);
    b.addEventListener("click", () => toggle(p.id));
    pieces.append(b);
  }
  if (!view.pieces.length) pieces.append(el("p", { class: "hint" }, "Nothing to move at this step."));
  const orders = document.getElementById("orders");
  orders.replaceChildren();
  view.orders.forEach((text, i) => {
    const li = el("li", {}, text + " ");
    const b = el("button", { type: "button", "data-remove": String(i), "aria-label": `take back: ${text}` }, "take back");
    b.addEventListener("click", () => change("act", { type: "remove", index: i }));
    li.append(b);
    orders.append(li);
  });
  if (!view.orders.length) orders.append(el("li", { class: "hint" }, "none yet"));
  const choices = document.getElementById("choices");
  choices.replaceChildren();
  let group = null;
  let row = null;
  for (const c of view.choices) {
    if (c.group !== group) {
      group = c.group;
      choices.append(el("h2", {}, group));
      row = el("div", { role: "group", "aria-label": group });
      choices.append(row);
    }
    const b = el("button", { type: "button", "data-choice": c.id, "aria-pressed": String(c.chosen) }, c.label);
    b.addEventListener("click", () => change("act", { type: "choose", choice: c.id }));
    row.append(b);
  }
  const panels = document.getElementById("panels");
  panels.replaceChildren();
  for (const p of view.panels) {
    const d = el("details", { class: "panel", open: "" });
    d.append(el("summary", {}, p.title));
    const ul = el("ul");
    for (const line of p.lines) ul.append(el("li", {}, line.trim()));
    d.append(ul);
    panels.append(d);
  }
  document.getElementById("draft").textContent = view.draft;
}

function show(data) {
  view = data;
  document.title = `pbem board - ${view.title}`;
  document.getElementById("title").textContent = view.title;
  document.getElementById("asks").textContent = view.asks ? `you owe: ${view.asks} orders` : "you owe nothing now";
  document.getElementById("undo").disabled = !view.can_undo;
  document.getElementById("redo").disabled = !view.can_redo;
  document.getElementById("seal").disabled = !view.check.ok || !view.asks;
  const sealed = document.getElementById("sealed");
  sealed.hidden = !view.sealed;
  sealed.textContent = view.sealed;
  const submit = document.getElementById("submit");
  submit.hidden = !view.can_submit;
  submit.title = view.submit_to ? `Send the sealed orders to ${view.submit_to}` : "";
  submit.disabled = !view.sealed || Boolean(view.submitted);
  const submitted = document.getElementById("submitted");
  submitted.hidden = !view.submitted;
  submitted.textContent = view.submitted;
  drawMap();
  drawArrows();
  drawCheck();
  drawLists();
  drawSelection();
}

document.getElementById("undo").addEventListener("click", () => change("undo"));
document.getElementById("redo").addEventListener("click", () => change("redo"));
document.getElementById("seal").addEventListener("click", () => change("seal"));
document.getElementById("submit").addEventListener("click", () => change("submit"));
document.addEventListener("keydown", (e) => {
  if (e.key === "Escape") { selected = []; dests = []; drawSelection(); }
  else if ((e.ctrlKey || e.metaKey) && e.key === "z" && view && view.can_undo) { e.preventDefault(); change("undo"); }
  else if ((e.ctrlKey || e.metaKey) && e.key === "y" && view && view.can_redo) { e.preventDefault(); change("redo"); }
});
call("view").then((data) => { if (data) show(data); });

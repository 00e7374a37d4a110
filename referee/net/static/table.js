// The browser table of `referee serve --http`: plain JavaScript, no build step.
// Lobby (no ?game=): create a game, get the seat links, or join one.
// Table (?game=ID[&token=SEAT]): the board drawn from the referee's SVG, the pieces
// from figures(), click a figure and its move_targets() light up, click one to play.
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";
const params = new URLSearchParams(location.search);
const gameId = params.get("game");
const token = params.get("token");
const $ = (id) => document.getElementById(id);

function api(path, options = {}) {
  const headers = Object.assign({ "Content-Type": "application/json" }, options.headers || {});
  if (token) headers.Authorization = "Bearer " + token;
  return fetch(path, Object.assign({}, options, { headers })).then(async (r) => {
    let body = null;
    try { body = await r.json(); } catch (e) { body = { error: { code: "bad_answer", message: r.statusText } }; }
    return { status: r.status, body };
  });
}

function setStatus(text) { $("status").textContent = text; }
function el(tag, attrs = {}, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}
function svgEl(tag, attrs = {}) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}
function eventText(e) {
  if (e.text) return e.text;
  const kind = e.type || e.event || "event";
  const rest = Object.assign({}, e);
  delete rest.type; delete rest.event;
  return kind + " " + JSON.stringify(rest);
}

// ===================================================================== lobby
async function lobby() {
  $("lobby").hidden = false;
  if (params.get("admin")) {
    // the link the server prints (?admin=TOKEN): keep the token, drop it from the address bar
    $("admin-token").value = params.get("admin");
    history.replaceState(null, "", "/");
  }
  const [rules, projects] = await Promise.all([api("/api/rules"), api("/api/projects")]);
  const rulesSel = $("rules");
  for (const r of rules.body.rules) rulesSel.append(el("option", { value: r.rules }, r.title || r.rules));
  const projSel = $("project");
  for (const p of projects.body.projects) {
    if (p.error) continue;
    const o = el("option", { value: p.name }, p.title ? `${p.name} — ${p.title}` : p.name);
    o.dataset.rules = p.rules || "";
    projSel.append(o);
  }
  const byRules = Object.fromEntries(rules.body.rules.map((r) => [r.rules, r]));
  const syncPlayers = () => {
    const span = byRules[rulesSel.value] && byRules[rulesSel.value].players;
    if (!span) return;
    const input = $("players");
    input.min = span.min;
    input.max = span.max;
    input.value = Math.min(span.max, Math.max(span.min, Number(input.value)));
  };
  const syncRules = () => {
    const r = projSel.selectedOptions[0] && projSel.selectedOptions[0].dataset.rules;
    if (r) rulesSel.value = r;
    syncPlayers();
  };
  projSel.addEventListener("change", syncRules);
  rulesSel.addEventListener("change", syncPlayers);
  syncRules();
  $("new-game").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const body = { rules: rulesSel.value, project: projSel.value, players: Number($("players").value) };
    const admin = $("admin-token").value.trim();
    const auth = admin ? { Authorization: "Bearer " + admin } : {};
    const r = await api("/api/games", { method: "POST", body: JSON.stringify(body), headers: auth });
    if (r.status !== 201) { setStatus(r.body.error.message); return; }
    const ul = $("seat-links");
    ul.textContent = "";
    for (const s of r.body.seats) {
      const li = el("li");
      li.append(el("strong", {}, s.player + ": "), el("a", { href: s.url, class: "seat-link", "data-player": s.player }, location.origin + s.url));
      ul.append(li);
    }
    const li = el("li");
    li.append(el("strong", {}, "spectators: "), el("a", { href: r.body.spectate, class: "spectate-link" }, location.origin + r.body.spectate));
    ul.append(li);
    $("owner-token").textContent = r.body.owner;
    $("created").hidden = false;
    setStatus(`game ${r.body.game} created`);
  });
  $("join").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = $("join-link").value.trim();
    location.href = text.includes("game=") ? text.slice(text.indexOf("?")) || text : "/?game=" + encodeURIComponent(text);
  });
}

// ===================================================================== table
const state = { zoom: 1, fitWidth: 0, snap: null, pic: null, selected: null, card: null, cardAt: -1, way: null, radius: 6, svg: null, layer: null, closedForGood: false };

async function loadBoard() {
  const r = await api(`/api/games/${gameId}/board`);
  if (r.status !== 200) { setStatus(r.body.error.message); return; }
  state.pic = r.body;
  const board = $("board");
  board.innerHTML = r.body.svg;
  const svg = board.querySelector("svg");
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  const vb = svg.viewBox.baseVal;
  state.radius = Math.max(vb.width, vb.height) / 85;
  state.svg = svg;
  applyZoom(state.zoom);
  state.layer = svgEl("g", { id: "pieces" });
  svg.append(state.layer);
  svg.addEventListener("click", (ev) => {
    if (ev.target.closest(".figure, .target")) return;
    if (state.card) { cancelPick(); return; }
    state.selected = null;
    draw();
    if (state.snap) showMoves(state.snap);
  });
}

// ------------------------------------------------------------------- zoom
// The board fits the window at 100 %; zoomed, it keeps its size in the page and
// scrolls, the point under the cursor (or the middle) staying put. A dense map (the
// Riddle's 300 spaces) reads its names zoomed in.
const ZOOMS = [1, 1.5, 2, 3, 4, 6, 8];

function applyZoom(z, at) {
  const board = $("board");
  const svg = state.svg;
  if (!svg) return;
  if (state.zoom === 1 || !state.fitWidth) {
    svg.style.width = "";
    board.classList.remove("zoomed");
    state.fitWidth = svg.getBoundingClientRect().width || state.fitWidth;
  }
  const r = board.getBoundingClientRect();
  const px = at ? at[0] - r.left : board.clientWidth / 2;
  const py = at ? at[1] - r.top : board.clientHeight / 2;
  const fx = (board.scrollLeft + px) / Math.max(1, svg.getBoundingClientRect().width);
  const fy = (board.scrollTop + py) / Math.max(1, svg.getBoundingClientRect().height);
  state.zoom = z;
  if (z === 1) {
    svg.style.width = "";
    board.classList.remove("zoomed");
    board.style.height = "";
  } else {
    board.style.height = board.style.height || Math.round(r.height) + "px";
    board.classList.add("zoomed");
    svg.style.width = Math.round(state.fitWidth * z) + "px";
  }
  const b = svg.getBoundingClientRect();
  board.scrollLeft = fx * b.width - px;
  board.scrollTop = fy * b.height - py;
  $("zoom-level").textContent = Math.round(z * 100) + " %";
}

function zoomStep(dir, at) {
  const i = ZOOMS.indexOf(state.zoom);
  const j = dir === "fit" ? 0 : Math.max(0, Math.min(ZOOMS.length - 1, (i < 0 ? 0 : i) + (dir === "in" ? 1 : -1)));
  if (ZOOMS[j] !== state.zoom) applyZoom(ZOOMS[j], at);
}

function setUpZoom() {
  for (const b of document.querySelectorAll("#zoom button")) {
    b.addEventListener("click", () => zoomStep(b.dataset.zoom));
  }
  $("board").addEventListener("wheel", (ev) => {
    if (!ev.ctrlKey) return;
    ev.preventDefault();
    zoomStep(ev.deltaY < 0 ? "in" : "out", [ev.clientX, ev.clientY]);
  }, { passive: false });
  window.addEventListener("resize", () => { if (state.zoom === 1 && state.svg) state.fitWidth = state.svg.getBoundingClientRect().width; });
}

async function refresh() {
  const r = await api(`/api/games/${gameId}`);
  if (r.status !== 200) { setStatus(r.body.error.message); return; }
  show(r.body);
}

function show(snap) {
  state.snap = snap;
  if (state.selected && !(snap.targets && snap.targets[state.selected])) state.selected = null;
  const mine = snap.you !== null && snap.to_move === snap.you;
  const turn = $("turn");
  if (snap.outcome) {
    turn.textContent = "Game over: " + (snap.outcome.result || "") + (snap.outcome.winners ? " — " + snap.outcome.winners.join(", ") : snap.outcome.winner ? " — " + snap.outcome.winner : "");
  } else {
    turn.textContent = mine ? "Your turn" : `${snap.to_move} to move`;
  }
  turn.classList.toggle("mine", mine);
  $("you").textContent = snap.you ? `You play ${snap.you} · ply ${snap.ply}` : `Watching · ply ${snap.ply}`;
  showHand(snap);
  showPlayers(snap);
  showTable(snap);
  showMoves(snap);
  showCardPanel();
  draw();
}

// ------------------------------------------------------------------- cards
// A view names the viewer's cards in `hand` and gives every face-up card's face in
// `cards` (title, kind, colour, value, text: referee/games/cards.py); a card without
// a face is shown by its id.
function faces() { return (state.snap && state.snap.view && state.snap.view.cards) || {}; }

function cardEl(id, face) {
  const f = face || { title: id, kind: "", colour: "", value: "", text: "" };
  const li = el("li", { class: "card", "data-card": id, role: "button", tabindex: "0", "aria-label": f.title + (f.text ? ": " + f.text : "") });
  if (f.colour) li.style.setProperty("--card-colour", CARD_COLOURS[f.colour] || f.colour);
  const head = el("div", { class: "card-head" });
  head.append(el("span", { class: "card-title" }, f.title));
  if (f.value) head.append(el("span", { class: "card-value" }, f.value));
  li.append(head);
  if (f.kind) li.append(el("div", { class: "card-kind" }, f.kind));
  if (f.text) li.append(el("div", { class: "card-text" }, f.text));
  return li;
}
const CARD_COLOURS = { white: "#f7f7f2", grey: "#b8b8b8", yellow: "#f1d35a", good: "#5b8fd6", evil: "#b33a3a", neutral: "#a08a5a" };

function showHand(snap) {
  const hand = $("hand");
  hand.textContent = "";
  const ids = (snap.view && Array.isArray(snap.view.hand) && snap.view.hand) || [];
  const fs = faces();
  if (state.card && !ids.includes(state.card)) { state.card = null; state.cardAt = -1; }
  const used = new Set((snap.moves || []).flatMap((m) => cardsOf(m).map((c) => c.id)));
  ids.forEach((id, i) => {
    const li = cardEl(id, fs[id]);
    li.classList.toggle("usable", used.has(id));
    // a card held twice is one card for the moves: the copy clicked is the one outlined
    const picked = state.card === id && (state.cardAt === i || ids.indexOf(id) === i && ids[state.cardAt] !== id);
    if (picked) li.classList.add("selected");
    li.setAttribute("aria-pressed", String(picked));
    const pick = () => pickCard(state.card === id ? null : id, i);
    li.addEventListener("click", (ev) => { ev.stopPropagation(); pick(); });
    li.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); pick(); } });
    hand.append(li);
  });
  $("hand-title").hidden = hand.childElementCount === 0;
}

// ------------------------------------------------------------ card, then target
// A card picked in the hand lights up the targets of the moves that use it: rings on
// the spaces those moves go to (the game's move_targets), the figures and players they
// name after the card; a click on a target plays the move (a small choice when several
// moves share card and target). The card's moves that need no target are offered in
// the card's panel. Esc, or a second click on the card, puts it back.
function seats() { return (state.snap && state.snap.seats) || []; }
function heldIds() { return (state.snap && state.snap.view && Array.isArray(state.snap.view.hand) && state.snap.view.hand) || []; }

// The cards a move uses, [{id, at}] (at: the word's index): words naming a held card,
// and "+cloak"-style flags naming one by its kind; a held card named like a seat right
// after another card is that card's target, not a card.
function cardsOf(m) {
  const held = heldIds();
  if (!held.length) return [];
  const out = [];
  m.split(" ").forEach((w, i) => {
    if (i === 0) return;
    if (w.startsWith("+")) {
      const k = w.slice(1);
      const id = held.find((h) => h === k || h.startsWith(k + "."));
      if (id) out.push({ id, at: i });
    } else if (held.includes(w) && !(out.length && seats().includes(w))) {
      out.push({ id: w, at: i });
    }
  });
  return out;
}

// move text -> [figure, node] for every move that puts a figure on a space
function destinations() {
  const out = {};
  for (const [fig, dests] of Object.entries((state.snap && state.snap.targets) || {})) {
    for (const [node, ms] of Object.entries(dests)) for (const m of ms) out[m] = [fig, node];
  }
  return out;
}

// What card `id` may be played on: {spaces: {node: [moves]}, figures: {fid: [moves]},
// players: {seat: [moves]}, loose: [moves without a target]}.
function cardPlays(id) {
  const plays = { spaces: {}, figures: {}, players: {}, loose: [] };
  if (!id || !state.snap) return plays;
  const dest = destinations();
  const figs = new Set((state.snap.figures || []).map((f) => f.id));
  const add = (box, key, m) => { (box[key] = box[key] || []).push(m); };
  for (const m of state.snap.moves || []) {
    const use = cardsOf(m).find((c) => c.id === id);
    if (!use) continue;
    if (dest[m]) { add(plays.spaces, dest[m][1], m); continue; }
    const ws = m.split(" ");
    const j = ws.findIndex((w, k) => k > use.at && (seats().includes(w) || figs.has(w)));
    if (j < 0) plays.loose.push(m);
    else if (seats().includes(ws[j])) add(plays.players, ws[j], m);
    else add(plays.figures, ws[j], m);
  }
  return plays;
}

function pickCard(id, at) {
  state.card = id;
  state.cardAt = id ? at : -1;
  if (id) state.selected = null;
  $("menu").hidden = true;
  redraw();
  showCardPanel();
}

function cancelPick() {
  state.card = null;
  state.cardAt = -1;
  state.selected = null;
  $("menu").hidden = true;
  $("card-panel").hidden = true;
  redraw();
}

function redraw() {
  if (!state.snap) return;
  showHand(state.snap);
  showPlayers(state.snap);
  showMoves(state.snap);
  draw();
}

// The picked card's panel: what to click, and its moves that need no target.
function showCardPanel() {
  const box = $("card-panel");
  box.textContent = "";
  if (!state.card) { box.hidden = true; return; }
  const plays = cardPlays(state.card);
  const f = faces()[state.card];
  const title = f ? f.title : state.card;
  const n = (o) => Object.keys(o).length;
  const parts = [];
  if (n(plays.spaces)) parts.push(`a ringed space (${n(plays.spaces)})`);
  if (n(plays.figures)) parts.push(`a lit figure (${n(plays.figures)})`);
  if (n(plays.players)) parts.push(`a player (${n(plays.players)})`);
  const say = parts.length ? `${title}: click ${parts.join(", or ")}` : `${title}: no target to click`;
  box.append(el("div", { class: "card-panel-say" }, say + (plays.loose.length ? "; or play it:" : "")));
  for (const m of plays.loose) {
    const b = el("button", { "data-move": m, title: m }, moveLabel(m));
    b.addEventListener("click", () => play(m));
    box.append(b);
  }
  const back = el("button", { class: "cancel", title: "Esc" }, "put the card back (Esc)");
  back.addEventListener("click", cancelPick);
  box.append(back);
  box.hidden = false;
}

// The seats, as chips: a picked card's player targets are lit and clickable.
function showPlayers(snap) {
  const box = $("seats");
  box.textContent = "";
  const plays = cardPlays(state.card);
  for (const p of snap.seats || []) {
    const ms = plays.players[p];
    const b = el("button", { class: "player" + (ms ? " card-target" : ""), "data-player": p }, p + (p === snap.you ? " (you)" : ""));
    b.disabled = !ms;
    if (ms) b.addEventListener("click", (ev) => { ev.stopPropagation(); playOrChoose(ms); });
    if (p === snap.to_move) b.classList.add("to-move");
    box.append(b);
  }
  box.hidden = (snap.seats || []).length === 0;
}

function playOrChoose(moves) {
  if (moves.length === 1) play(moves[0]);
  else chooseMove(moves);
}

// What lies beside the board (view.table): piles as backs with counts, dice as dice.
function showTable(snap) {
  const box = $("piles");
  box.textContent = "";
  const items = (snap.view && Array.isArray(snap.view.table) && snap.view.table) || [];
  for (const it of items) {
    const li = el("li", { class: "pile", "data-pile": it.name });
    li.append(el("span", { class: "pile-name" }, it.name));
    if (Array.isArray(it.dice)) {
      if (!it.dice.length) li.append(el("span", { class: "pile-empty" }, "empty"));
      for (const d of it.dice) {
        const label = (d.who ? d.who + " " : "") + (d.kind || "die") + " " + d.value + (d.done ? " (done)" : "");
        li.append(el("span", { class: "die " + (d.kind || "") + (d.done ? " done" : ""), title: label, "aria-label": label }, String(d.value)));
      }
    } else {
      li.append(el("span", { class: "back", "aria-label": `${it.count} face down` }, String(it.count)));
    }
    box.append(li);
  }
  $("piles-title").hidden = items.length === 0;
}

// ------------------------------------------------------------------- moves
// A move's words with card ids read as card titles (the move itself is sent as is).
function moveLabel(m) {
  const fs = faces();
  return m.split(" ").map((w) => (fs[w] ? fs[w].title : w)).join(" ");
}

// Moves are grouped by their first word (the kind of move), then, in a big group, by
// the figure or card they name next; a selected card or figure keeps only its moves.
function showMoves(snap) {
  const box = $("moves");
  box.textContent = "";
  let moves = snap.moves || [];
  const only = state.card || state.selected;
  if (state.selected && !state.card && snap.targets && snap.targets[state.selected]) {
    // a figure picked: its moves, the way shown on the board
    const mine = Object.values(snap.targets[state.selected]).flat().filter((m) => wayOf(m) === state.way);
    if (mine.length) moves = mine;
  } else if (state.card) {
    const mine = moves.filter((m) => cardsOf(m).some((c) => c.id === state.card));
    if (mine.length) moves = mine;
  } else if (only) {
    const mine = moves.filter((m) => m.split(" ").includes(only));
    if (mine.length) moves = mine;
  }
  if (only && moves !== snap.moves) {
    const clear = el("button", { class: "clear-pick" }, "show every move");
    clear.addEventListener("click", cancelPick);
    box.append(clear);
  }
  const button = (m, text) => {
    const b = el("button", { "data-move": m, title: m }, text);
    b.addEventListener("click", () => play(m));
    return b;
  };
  if (moves.length <= 12) {
    for (const m of moves) box.append(button(m, moveLabel(m)));
    return;
  }
  const groups = new Map();
  for (const m of moves) {
    const verb = m.split(" ")[0];
    if (!groups.has(verb)) groups.set(verb, []);
    groups.get(verb).push(m);
  }
  for (const [verb, ms] of groups) {
    const d = el("details", { class: "move-group", "data-group": verb });
    d.append(el("summary", {}, `${verb} (${ms.length})`));
    const sub = new Map();
    for (const m of ms) {
      const w = m.split(" ")[1] || "";
      if (!sub.has(w)) sub.set(w, []);
      sub.get(w).push(m);
    }
    if (ms.length > 8 && sub.size <= ms.length / 2) {
      // by the figure or card the moves name next
      for (const [w, sm] of sub) {
        const row = el("div", { class: "move-sub", "data-sub": w });
        row.append(el("span", { class: "move-sub-title" }, (faces()[w] ? faces()[w].title : w) + ":"));
        for (const m of sm) row.append(button(m, m.split(" ").slice(2).map((x) => (faces()[x] ? faces()[x].title : x)).join(" ") || moveLabel(m)));
        d.append(row);
      }
    } else {
      for (const m of ms) d.append(button(m, moveLabel(m)));
    }
    if (box.querySelector("details") === null || ms.length <= 4) d.open = true;
    box.append(d);
  }
}

function draw() {
  if (!state.layer || !state.snap || !state.pic) return;
  const layer = state.layer;
  layer.textContent = "";
  const r = state.radius;
  const nodes = state.pic.nodes;
  const snap = state.snap;
  const targets = snap.targets || {};
  const plays = cardPlays(state.card);
  // the figures as the referee draws them (the same elements as `referee render
  // --state`); each figure's element carries data-figure, its label follows it
  layer.innerHTML = snap.pieces || "";
  const onBoard = new Set(snap.figures.map((f) => f.id));
  for (const body of layer.querySelectorAll("[data-figure]")) {
    const fid = body.getAttribute("data-figure");
    body.classList.add("figure");
    // a picked card's target: the figure named by its moves, or a player's own marker
    const aimed = state.card ? plays.figures[fid] || plays.players[fid] : null;
    if (aimed) {
      body.classList.add("card-target");
      body.setAttribute("role", "button");
      body.setAttribute("aria-label", `play ${cardTitle(state.card)} on ${fid}`);
      body.setAttribute("tabindex", "0");
      body.addEventListener("click", (ev) => { ev.stopPropagation(); playOrChoose(aimed); });
      body.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); playOrChoose(aimed); } });
    } else if (targets[fid]) {
      body.classList.add("movable");
      body.addEventListener("click", (ev) => {
        ev.stopPropagation();
        state.selected = state.selected === fid ? null : fid;
        state.card = null;
        state.cardAt = -1;
        redraw();
        showCardPanel();
      });
    }
    if (state.selected === fid) body.classList.add("selected");
  }
  // rings: a picked card's spaces; else the selected figure's destinations, and moves
  // that bring a piece onto the board; the selected figure's moves are grouped by the
  // way they go (the move's kind and the card it uses: "move", "fly · Eagles"), and
  // only one way's destinations are ringed
  const ways = waysOf(state.selected ? targets[state.selected] || {} : {});
  showWays(ways);
  const rings = {};
  if (state.card) {
    for (const [node, ms] of Object.entries(plays.spaces)) rings[node] = { node, moves: ms, place: false, card: true };
  } else {
    for (const [fig, dests] of Object.entries(targets)) {
      const place = fig === "" || !onBoard.has(fig);
      if (!place && fig !== state.selected) continue;
      for (const [node, all] of Object.entries(dests)) {
        const ms = place ? all : all.filter((m) => wayOf(m) === state.way);
        if (!ms.length) continue;
        rings[node] = rings[node] || { node, moves: [], place };
        rings[node].moves.push(...ms);
      }
    }
  }
  for (const ring of Object.values(rings)) {
    const xy = nodes[ring.node];
    if (!xy) continue;
    const cls = "target" + (ring.place ? " place" : "") + (ring.card ? " card-target" : "");
    const c = svgEl("circle", { class: cls, cx: xy[0], cy: xy[1], r: r * 1.25, "data-target": ring.node, role: "button", "aria-label": `${ring.node}: ${ring.moves.length} move(s)` });
    const title = svgEl("title");
    title.textContent = ring.moves.map(moveLabel).join("\n");
    c.append(title);
    c.setAttribute("tabindex", "0");
    c.addEventListener("click", (ev) => {
      ev.stopPropagation();
      playOrChoose(ring.moves);
    });
    c.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); playOrChoose(ring.moves); } });
    layer.append(c);
    if (ring.moves.length > 1) {
      const t = svgEl("text", { x: xy[0] + r, y: xy[1] - r, "font-size": r, fill: "#1b7f2a", "pointer-events": "none" });
      t.textContent = ring.moves.length;
      layer.append(t);
    }
  }
}

function cardTitle(id) { const f = faces()[id]; return f ? f.title : id; }

// The way a move goes: its first word, and the title of the card it names, if any.
function wayOf(m) {
  const fs = faces();
  const card = m.split(" ").slice(1).find((w) => fs[w]);
  return m.split(" ")[0] + (card ? " · " + fs[card].title : "");
}

// {way: number of destinations}, and state.way set to the way to show: the card picked
// in the hand if one of its ways, else the way kept from before, else the way with the
// fewest destinations (a die move before a flight to anywhere).
function waysOf(dests) {
  const ways = {};
  for (const ms of Object.values(dests)) {
    for (const w of new Set(ms.map(wayOf))) ways[w] = (ways[w] || 0) + 1;
  }
  const names = Object.keys(ways);
  const picked = state.card && faces()[state.card] ? names.find((w) => w.endsWith(" · " + faces()[state.card].title)) : null;
  if (picked) state.way = picked;
  else if (!names.includes(state.way)) state.way = names.sort((a, b) => ways[a] - ways[b])[0] || null;
  return ways;
}

function showWays(ways) {
  const box = $("ways");
  box.textContent = "";
  const names = Object.keys(ways);
  box.hidden = names.length < 2;
  if (box.hidden) return;
  box.append(el("span", {}, "Show the destinations of: "));
  for (const w of names) {
    const b = el("button", { "data-way": w, "aria-pressed": String(w === state.way) }, `${w} (${ways[w]})`);
    b.addEventListener("click", (ev) => { ev.stopPropagation(); state.way = w; state.card = null; state.cardAt = -1; redraw(); showCardPanel(); });
    box.append(b);
  }
}

// A small choice among moves sharing card and target: the words they share once, as
// the question, and each move by the words that differ (a Riddle's guessed title).
function chooseMove(moves) {
  const menu = $("menu");
  menu.textContent = "";
  const split = moves.map((m) => m.split(" "));
  let same = 0;
  while (split.every((ws) => ws.length > same + 1 && ws[same] === split[0][same])) same++;
  const label = (ws) => ws.map((w) => (faces()[w] ? faces()[w].title : w)).join(" ");
  menu.append(el("div", { class: "menu-say" }, same ? label(split[0].slice(0, same)) + " …which?" : "Which move?"));
  const box = el("div", { class: "menu-choices" });
  moves.forEach((m, i) => {
    const b = el("button", { "data-move": m, title: moveLabel(m) }, label(split[i].slice(same)));
    b.addEventListener("click", () => { menu.hidden = true; play(m); });
    box.append(b);
  });
  menu.append(box);
  const back = el("button", { class: "cancel" }, "none of these (Esc)");
  back.addEventListener("click", () => { menu.hidden = true; });
  menu.append(back);
  menu.hidden = false;
  box.querySelector("button").focus();
}

async function play(move) {
  const snap = state.snap;
  $("menu").hidden = true;
  const r = await api(`/api/games/${gameId}/moves`, { method: "POST", body: JSON.stringify({ move, expect_ply: snap.ply }) });
  const v = $("verdict");
  if (r.status === 200) {
    v.textContent = "played " + r.body.move;
    v.className = "ok";
    state.selected = null;
    state.card = null;
    state.cardAt = -1;
  } else if (r.body.verdict === "illegal") {
    v.textContent = `illegal: ${r.body.error.message}`;
    v.className = "";
  } else {
    v.textContent = r.body.error ? r.body.error.message : "the server refused";
    v.className = "";
    if (r.status === 409) refresh();
  }
}

function logEvents(ply, player, events) {
  const log = $("log");
  events.forEach((e, i) => {
    const li = el("li", { class: i === 0 ? "ply" : "" }, eventText(e));
    if (i === 0 && player) li.title = `ply ${ply}, ${player}`;
    log.append(li);
  });
  log.scrollTop = log.scrollHeight;
}

async function loadLog() {
  const r = await api(`/api/games/${gameId}/log`);
  if (r.status !== 200) return;
  $("log").textContent = "";
  const b = r.body;
  if (b.complete) {
    logEvents(0, null, b.log.new.events || []);
    b.log.moves.forEach((m, i) => logEvents(i + 1, null, m.events));
  } else {
    logEvents(0, null, b.setup_events);
    for (const m of b.moves) logEvents(m.ply, m.player, m.events);
  }
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const q = token ? "?token=" + encodeURIComponent(token) : "";
  const ws = new WebSocket(`${scheme}//${location.host}/api/games/${gameId}/ws${q}`);
  ws.onopen = () => setStatus("connected");
  ws.onmessage = async (msg) => {
    const data = JSON.parse(msg.data);
    if (data.error) { setStatus(data.error.message); return; }
    if (data.type === "hello") {
      await loadLog();
      show(data);
    } else if (data.type === "move") {
      logEvents(data.ply, data.player, data.events);
      if (data.events.some((e) => /tile/.test(e.type || e.event || ""))) await loadBoard();
      await refresh();
    }
  };
  ws.onclose = (ev) => {
    if (ev.code >= 4000) { state.closedForGood = true; setStatus("refused: " + (ev.reason || ev.code)); return; }
    setStatus("disconnected, reconnecting…");
    setTimeout(connect, 1500);
  };
}

async function table() {
  $("table").hidden = false;
  setUpZoom();
  document.addEventListener("keydown", (ev) => {
    if (ev.key !== "Escape") return;
    if (!$("menu").hidden) { $("menu").hidden = true; return; }
    if (state.card || state.selected) cancelPick();
  });
  await loadBoard();
  connect();
}

if (gameId) table(); else lobby();

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
const state = { snap: null, pic: null, selected: null, card: null, radius: 6, svg: null, layer: null, closedForGood: false };

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
  state.layer = svgEl("g", { id: "pieces" });
  svg.append(state.layer);
  svg.addEventListener("click", (ev) => {
    if (ev.target.closest(".figure, .target")) return;
    state.selected = null;
    draw();
    if (state.snap) showMoves(state.snap);
  });
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
  showMoves(snap);
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
  const ids = (snap.view && snap.view.hand) || [];
  const fs = faces();
  if (state.card && !ids.includes(state.card)) state.card = null;
  for (const id of Array.isArray(ids) ? ids : []) {
    const li = cardEl(id, fs[id]);
    const usable = (snap.moves || []).some((m) => m.split(" ").includes(id));
    li.classList.toggle("usable", usable);
    if (state.card === id) li.classList.add("selected");
    const pick = () => { state.card = state.card === id ? null : id; showHand(state.snap); showMoves(state.snap); };
    li.addEventListener("click", pick);
    li.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); pick(); } });
    hand.append(li);
  }
  $("hand-title").hidden = hand.childElementCount === 0;
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
  if (only) {
    const mine = moves.filter((m) => m.split(" ").includes(only));
    if (mine.length) moves = mine;
  }
  if (only && moves !== snap.moves) {
    const clear = el("button", { class: "clear-pick" }, "show every move");
    clear.addEventListener("click", () => { state.card = null; state.selected = null; showHand(state.snap); showMoves(state.snap); draw(); });
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
    if (ms.length > 8) {
      const sub = new Map();
      for (const m of ms) {
        const w = m.split(" ")[1] || "";
        if (!sub.has(w)) sub.set(w, []);
        sub.get(w).push(m);
      }
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
  // the figures as the referee draws them (the same elements as `referee render
  // --state`); each figure's element carries data-figure, its label follows it
  layer.innerHTML = snap.pieces || "";
  const onBoard = new Set(snap.figures.map((f) => f.id));
  for (const body of layer.querySelectorAll("[data-figure]")) {
    const fid = body.getAttribute("data-figure");
    body.classList.add("figure");
    if (targets[fid]) {
      body.classList.add("movable");
      body.addEventListener("click", (ev) => {
        ev.stopPropagation();
        state.selected = state.selected === fid ? null : fid;
        draw();
        showMoves(state.snap);
      });
    }
    if (state.selected === fid) body.classList.add("selected");
  }
  // rings: the selected figure's destinations, and moves that bring a piece onto the board
  const rings = {};
  for (const [fig, dests] of Object.entries(targets)) {
    const place = fig === "" || !onBoard.has(fig);
    if (!place && fig !== state.selected) continue;
    for (const [node, ms] of Object.entries(dests)) {
      const key = node;
      rings[key] = rings[key] || { node, moves: [], place };
      rings[key].moves.push(...ms);
    }
  }
  for (const ring of Object.values(rings)) {
    const xy = nodes[ring.node];
    if (!xy) continue;
    const c = svgEl("circle", { class: "target" + (ring.place ? " place" : ""), cx: xy[0], cy: xy[1], r: r * 1.25, "data-target": ring.node });
    const title = svgEl("title");
    title.textContent = ring.moves.join("\n");
    c.append(title);
    c.addEventListener("click", (ev) => {
      ev.stopPropagation();
      if (ring.moves.length === 1) play(ring.moves[0]);
      else chooseMove(ring.moves);
    });
    layer.append(c);
    if (ring.moves.length > 1) {
      const t = svgEl("text", { x: xy[0] + r, y: xy[1] - r, "font-size": r, fill: "#1b7f2a", "pointer-events": "none" });
      t.textContent = ring.moves.length;
      layer.append(t);
    }
  }
}

function chooseMove(moves) {
  const menu = $("menu");
  menu.textContent = "";
  menu.append(el("div", {}, "Which move?"));
  for (const m of moves) {
    const b = el("button", { "data-move": m }, m);
    b.addEventListener("click", () => { menu.hidden = true; play(m); });
    menu.append(b);
  }
  menu.hidden = false;
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
  await loadBoard();
  connect();
}

if (gameId) table(); else lobby();

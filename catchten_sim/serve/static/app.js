// catchten serve: the analysis page. Plain JS, no build step; every number comes from the
// JSON API (/api/...), which returns what the CLI prints with --json.
"use strict";
// the dealer declares trumps (jaques dealer_declares): the rules' own switch, as /api/rules gives it
function declares(info) { return !!((info.rules && info.rules.variants) || {}).dealer_declares; }

const $ = (sel) => document.querySelector(sel);
// the deals of dd's first, preliminary run
const DD_FIRST = 16;
// what each column's number is (the same words as serve/words.py measure(); a test checks)
const MEASURE = { diff: "our side's points minus the best opponents'",
  dd: "our side's points minus the others'", points: "our side's points",
  p_win: "P(winning the game)" };
const SUITS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
const state = {
  rules: { rules: "foster", players: 4, variants: {} },
  info: null,            // /api/rules answer
  dealer: 3, seat: 0, hand: [], turnup: null, trump: "", play: [], score: null,
  target: "hand",
  runs: {},              // evaluator -> {controller, result}
  check: null,           // /api/next for the set-up as it is: {key, answer}
  deal: null,            // all-hands mode: {record, cursor, solves: {key: solution}}
};

// ------------------------------------------------------------------ helpers
function pretty(card) {
  const r = card[0] === "T" ? "10" : card[0];
  return r + SUITS[card[1]];
}
function seconds(s) { return s < 0.01 ? "under 0.01 s" : s < 10 ? `${s.toFixed(2)} s` : `${s.toFixed(1)} s`; }
function isRed(card) { return card[1] === "H" || card[1] === "D"; }
function cardEl(tag, card, extra) {
  const el = document.createElement(tag);
  el.className = "c" + (isRed(card) ? " red" : "") + (extra ? " " + extra : "");
  el.textContent = pretty(card);
  return el;
}
function fmt(x, d) { return x === null || x === undefined ? "–" : (x >= 0 ? "+" : "") + x.toFixed(d); }
function setState(s) { document.body.dataset.state = s; }
function showError(line) {
  const e = $("#error");
  e.textContent = line;
  e.hidden = false;
}
function clearError() { $("#error").hidden = true; $("#error").textContent = ""; }

// a POST of JSON; a 4xx/5xx answer's one line (or the network's failure) is thrown
async function send(path, body, signal) {
  let resp;
  try {
    resp = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" },
                               body: JSON.stringify(body), signal });
  } catch (e) {
    if (e.name === "AbortError") throw e;
    throw new Error("error: server: not reachable (is catchten serve still running?)");
  }
  if (!resp.ok) {
    let data = {};
    try { data = await resp.json(); } catch (e) { /* not JSON */ }
    throw new Error(data.error || `error: server: HTTP ${resp.status}`);
  }
  return resp;
}
async function postJSON(path, body, signal) {
  const resp = await send(path, body, signal);
  try { return await resp.json(); } catch (e) { throw new Error(`error: server: HTTP ${resp.status}`); }
}

// POST with server-sent events back: onEvent(name, data) for each; resolves at the end
async function postStream(path, body, signal, onEvent) {
  const resp = await send(path, body, signal);
  const reader = resp.body.getReader();
  const dec = new TextDecoder();
  let buf = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += dec.decode(value, { stream: true });
    let i;
    while ((i = buf.indexOf("\n\n")) >= 0) {
      const block = buf.slice(0, i); buf = buf.slice(i + 2);
      let name = "message", data = "";
      for (const line of block.split("\n")) {
        if (line.startsWith("event: ")) name = line.slice(7);
        else if (line.startsWith("data: ")) data += line.slice(6);
      }
      onEvent(name, data ? JSON.parse(data) : null);
    }
  }
}

// ------------------------------------------------------------------ engine state
async function pollEngine() {
  const el = $("#engine");
  try {
    const r = await fetch("/api/status");
    const s = await r.json();
    const warming = s.workers.filter((w) => w.state !== "ready");
    if (!s.warming && s.ready > 0) {
      el.dataset.engine = "ready";
      el.textContent = `Engine ready (${s.ready} worker${s.ready > 1 ? "s" : ""}` +
        (s.running ? `, ${s.running} busy` : "") + (s.waiting ? `, ${s.waiting} waiting` : "") + ")";
    } else {
      el.dataset.engine = "warming";
      const w = warming[0];
      el.textContent = "Warming up the engine" + (w && w.detail ? `: ${w.detail}` : "") +
        " (a first start on a cold cache compiles for several minutes; advice asked now waits for it)";
    }
    setTimeout(pollEngine, s.warming || s.running ? 1000 : 4000);
  } catch (e) {
    el.dataset.engine = "down";
    el.textContent = "Server not reachable";
    setTimeout(pollEngine, 3000);
  }
}

// ------------------------------------------------------------------ rules and set-up
async function loadRules() {
  const info = await postJSON("/api/rules", state.rules);
  state.info = info;
  const n = state.rules.players;
  fillSelect($("#players"), info.players_allowed, n);
  const seats = [...Array(n).keys()];
  if (state.dealer >= n) state.dealer = n - 1;
  if (state.seat >= n) state.seat = 0;
  fillSelect($("#dealer"), seats, state.dealer, seatName);
  fillSelect($("#seat"), seats, state.seat, seatName);
  $("#trump-label").hidden = !declares(info);
  // no turn-up when the dealer declares the trump
  document.querySelector('.tab[data-target="turnup"]').hidden = declares(info);
  if (declares(info) && state.target === "turnup") setTarget("hand");
  renderSwitches();
  renderScore();
  renderGrid();
  refreshCheck();
}
function seatName(s) {
  const side = state.info ? state.info.side_of_seat[s] : 0;
  return `seat ${s} (side ${side})`;
}
function fillSelect(sel, values, current, label) {
  sel.innerHTML = "";
  for (const v of values) {
    const o = document.createElement("option");
    o.value = v; o.textContent = label ? label(v) : v;
    if (v === current) o.selected = true;
    sel.appendChild(o);
  }
}
function renderSwitches() {
  const box = $("#switches");
  box.innerHTML = "";
  const given = state.rules.variants;
  for (const row of state.info.switches) {
    const div = document.createElement("div");
    div.className = "switch";
    const cur = row.name in given ? given[row.name] : row.default;
    let input;
    if (Array.isArray(row.values) && row.values.length === 2 && typeof row.values[0] === "boolean") {
      input = document.createElement("input");
      input.type = "checkbox"; input.checked = !!cur;
      input.onchange = () => setSwitch(row, input.checked);
    } else if (Array.isArray(row.values)) {
      input = document.createElement("select");
      for (const v of row.values) {
        const o = document.createElement("option");
        o.value = JSON.stringify(v); o.textContent = String(v);
        if (v === cur) o.selected = true;
        input.appendChild(o);
      }
      input.onchange = () => setSwitch(row, JSON.parse(input.value));
    } else {
      input = document.createElement("input");
      input.type = "number"; input.value = cur;
      input.onchange = () => setSwitch(row, Number(input.value));
    }
    input.dataset.switch = row.name;
    const name = document.createElement("code"); name.textContent = row.name;
    const t = document.createElement("span"); t.className = "t";
    t.textContent = `${row.text} (${row.applies}; rules ${row.section})`;
    const lab = document.createElement("label"); lab.append(input, " ", name);
    div.append(lab, t);
    box.appendChild(div);
  }
  const k = Object.keys(given).length;
  $("#switches-count").textContent = k ? `(${k} changed)` : "";
}
async function setSwitch(row, value) {
  const v = { ...state.rules.variants };
  if (value === row.default) delete v[row.name]; else v[row.name] = value;
  const before = state.rules.variants;
  state.rules.variants = v;
  try { clearError(); await loadRules(); } catch (e) {
    showError(e.message); state.rules.variants = before; await loadRules();
  }
}
function renderScore() {
  const box = $("#score-inputs");
  box.innerHTML = "";
  const on = $("#score-on").checked;
  const ns = state.info.n_sides;
  if (!on) { state.score = null; return; }
  if (!state.score || state.score.length !== ns) state.score = Array(ns).fill(0);
  for (let s = 0; s < ns; s++) {
    const lab = document.createElement("label");
    const inp = document.createElement("input");
    inp.type = "number"; inp.value = state.score[s]; inp.dataset.side = s;
    inp.onchange = () => { state.score[s] = Number(inp.value); };
    lab.className = "side-score";
    lab.append(`side ${s}`, inp);
    box.appendChild(lab);
  }
}

function deck() { return state.info.rules.deck.cards.split(" "); }

function renderGrid() {
  const cards = deck();
  const ranks = [...new Set(cards.map((c) => c[0]))];
  const grid = $("#grid");
  grid.innerHTML = "";
  grid.style.gridTemplateColumns = `repeat(${ranks.length}, minmax(0, 1fr))`;
  for (const suit of ["S", "H", "D", "C"]) {
    for (const r of ranks) {
      const card = r + suit;
      const b = cardEl("button", card);
      b.type = "button";
      b.dataset.gridCard = card;
      if (!cards.includes(card)) { b.disabled = true; b.style.visibility = "hidden"; }
      b.onclick = () => clickCard(card);
      grid.appendChild(b);
    }
  }
  refreshGrid();
}
// the server's check of the set-up (/api/next): whose card the next recorded card is, and
// the cards that cannot be played next or held (a position with them is refused); asked
// after every change, its answer used only while the set-up is still the one it checked
let checkSeq = 0;
async function refreshCheck() {
  const seq = ++checkSeq;
  const pos = position(), key = JSON.stringify(pos);
  let answer = null;
  try { answer = await postJSON("/api/next", pos); } catch (e) { /* the advice will say it */ }
  if (seq !== checkSeq) return;            // a newer set-up's check took over
  state.check = answer && { key, answer };
  refreshGrid();
}
function checked() {
  return state.check && state.check.key === JSON.stringify(position()) ? state.check.answer : null;
}
// why clicking card now would make a position that advise refuses (null: it would not);
// the set-up's own cards first (no round trip), then the server's check
function refusal(card) {
  const c = checked(), p = pretty(card), you = `seat ${state.seat} (your seat)`;
  const held = state.hand.includes(card), k = state.play.indexOf(card);
  if (state.target === "hand" && !held) {
    if (k >= 0) return `hand: card both held and played (${p} is recorded as card ${k + 1} played: Undo last to take it back)`;
    return c && c.hand[card] || null;
  }
  if (state.target === "play" && k < 0) {
    if (held) return `play: card both held and played (${p} is in the hand of ${you}: a card held now has not been played; take it out of Your hand first if it was played)`;
    return c && c.play[card] || null;
  }
  if (state.target === "turnup" && state.turnup !== card && held && state.seat !== state.dealer)
    return `turnup: the turn-up is the dealer's card (seat ${state.dealer}), and ${p} is in the hand of ${you}`;
  return null;
}
function refreshGrid() {
  for (const b of document.querySelectorAll("#grid .c")) {
    const card = b.dataset.gridCard;
    const why = cardsOf().includes(card) ? refusal(card) : null;
    b.classList.toggle("refused", !!why);
    b.setAttribute("aria-disabled", String(!!why));
    if (why) b.title = `Not possible: ${why}`; else b.removeAttribute("title");
    b.classList.toggle("in-hand", state.hand.includes(card));
    b.classList.toggle("turnup", state.turnup === card);
    const k = state.play.indexOf(card);
    b.classList.toggle("played", k >= 0);
    b.querySelector(".n")?.remove();
    if (k >= 0) { const n = document.createElement("span"); n.className = "n"; n.textContent = k + 1; b.appendChild(n); }
    b.setAttribute("aria-pressed", String(state.hand.includes(card) || state.turnup === card || k >= 0));
  }
  const per = handSize();
  $("#hand-count").textContent = `(${state.hand.length}/${per})`;
  $("#hand-count").classList.toggle("over", Boolean(per) && state.hand.length > per);
  $("#turnup-show").textContent = state.turnup ? pretty(state.turnup) : "";
  $("#play-count").textContent = `(${state.play.length})`;
  const played = $("#played");
  played.innerHTML = "";
  const n = state.rules.players;
  state.play.forEach((c, i) => {
    const s = document.createElement("span");
    s.className = "chip" + (isRed(c) ? " red" : "") + ((i + 1) % n === 0 ? " trick-end" : "");
    s.textContent = pretty(c);
    trickGroup(played, i, n).appendChild(s);
  });
  if (!state.play.length) played.textContent = "none";
  showNext();
}
// whose card the next recorded card is, and a play so far that cannot happen
function showNext() {
  const c = checked(), el = $("#next-line");
  el.classList.toggle("problem", !!(c && c.problem));
  el.textContent = !c ? "" : c.problem ? `These cards cannot have been played: ${c.problem}`
    : c.to_move === null ? (c.hand_size === null ? "" : "The hand is over.")
    : c.to_move === state.seat ? `Your turn (seat ${state.seat}): press Advise once Your hand holds its ${c.hand_size} cards.`
    : `Next card played: seat ${c.to_move}'s.`;
}
// the group of trick i / n's cards in box (made when the trick's first card comes): a line
// breaks between tricks, never inside one
function trickGroup(box, i, n) {
  if (i % n === 0) { const g = document.createElement("span"); g.className = "trick-group"; box.appendChild(g); }
  return box.lastElementChild;
}
function setTarget(t) {
  state.target = t;
  for (const b of document.querySelectorAll(".tab")) b.setAttribute("aria-selected", String(b.dataset.target === t));
  $("#target-hint").textContent = {
    hand: "Click the cards you hold now (click again to take one out).",
    turnup: "Click the turned-up card (its suit is trumps).",
    play: "Click every card played so far this hand, in order (Undo last takes one back).",
  }[t];
}
// the most cards a hand holds: the current set's size (2 and 3 players deal in sets;
// fewer once the seat has played in this set)
function handSize() {
  const c = checked();
  return c && c.hand_size !== null ? c.hand_size : state.info ? state.info.set_size : 0;
}
function cardsOf() { return state.info ? deck() : []; }
function clickCard(card) {
  clearError();
  const why = refusal(card);
  if (why) { showError(`error: ${why}`); return; }
  if (state.target === "play" && state.play.includes(card)) return;   // recorded already
  setupChanged();
  if (state.target === "hand") {
    const i = state.hand.indexOf(card);
    const most = handSize();
    if (i >= 0) state.hand.splice(i, 1);
    else if (most && state.hand.length >= most) {
      showError(`error: hand: too many cards (a hand holds at most ${most}, the current set's ` +
                `size; click a card of the hand to take it out)`);
      return;
    } else state.hand.push(card);
  } else if (state.target === "turnup") {
    state.turnup = state.turnup === card ? null : card;
  } else {
    const i = state.play.indexOf(card);
    if (i < 0) state.play.push(card);
  }
  refreshGrid();
  refreshCheck();
}
// the set-up changed: an advice still running is for the old position, so it stops (its
// late answer must not fill in the new position's advice)
function setupChanged() {
  if (Object.values(state.runs).some((r) => r.controller)) {
    state.cancelWhy = "the position changed: press Advise for the new one";
    cancelRuns();
  }
}

// ------------------------------------------------------------------ the position
function position() {
  const p = { rules: state.rules.rules, players: state.rules.players, dealer: state.dealer,
              seat: state.seat, hand: [...state.hand], play: [...state.play] };
  if (Object.keys(state.rules.variants).length) p.variants = { ...state.rules.variants };
  if (state.info && declares(state.info)) p.trump = state.trump || null;
  else p.turnup = state.turnup;
  if (state.score) p.score = [...state.score];
  return p;
}
async function setPosition(p) {
  // a position object (from the URL or pasted) into the set-up; checked by the server
  if (typeof p !== "object" || p === null || Array.isArray(p)) throw new Error("error: position: not an object");
  state.rules = { rules: p.rules || "foster", players: p.players ?? 4, variants: p.variants || {} };
  $("#preset").value = state.rules.rules;
  state.dealer = p.dealer ?? state.rules.players - 1; state.seat = p.seat ?? 0;
  state.hand = Array.isArray(p.hand) ? [...p.hand] : [];
  state.turnup = p.turnup || null; state.trump = p.trump || "";
  state.play = Array.isArray(p.play) ? [...p.play] : [];
  state.score = Array.isArray(p.score) ? [...p.score] : null;
  $("#score-on").checked = !!state.score;
  $("#trump").value = state.trump;
  await loadRules();
  return p;
}

// ------------------------------------------------------------------ advice
function options(evaluator) {
  const o = { seed: Number($("#seed").value), time: Number($("#time").value) };
  if (!$("#early-stop").checked) o.early_stop = false;
  if (evaluator === "dd") { o.evaluator = "dd"; o.samples = Number($("#dd-samples").value); }
  else o.samples = Number($("#samples").value);
  return o;
}
function cancelRuns() {
  for (const r of Object.values(state.runs)) if (r.controller) r.controller.abort();
}
// fromLink: the page was opened with ?position=: it stays at the top (the position's
// start), the answer filling in below, not scrolled to the advice
async function advise(extraPosition, fromLink) {
  clearError();
  cancelRuns();
  state.cancelWhy = null;
  const pos = extraPosition || position();
  // a link to this position
  history.replaceState(null, "", "?position=" + encodeURIComponent(JSON.stringify(pos)));
  setState("working");
  $("#cancel").disabled = false;
  clearModels();
  $("#answer").innerHTML = '<p class="hint">Working…' +
    ($("#engine").dataset.engine === "warming" ? " (the engine is still warming up: the advice starts when it is ready)" : "") + "</p>";
  // on a phone the advice is below the set-up: bring it into view
  if (!fromLink && window.matchMedia("(max-width: 820px)").matches) $("#advice").scrollIntoView({ block: "start" });
  const runs = {};
  state.runs = runs;
  const one = async (ev, key, opts) => {
    const controller = new AbortController();
    runs[key] = { controller, result: null, error: null };
    const prog = $(`#prog-${ev}`), text = $(`#ptext-${ev}`);
    // the rows are this advice's only while it is the page's: a late event of an older
    // advice (cancelled for a newer one) never writes there
    const mine = () => state.runs === runs;
    prog.value = 0; text.textContent = "waiting";
    try {
      await postStream("/api/advise/stream", { position: pos, options: opts }, controller.signal,
        (name, data) => {
          if (!mine()) return;
          if (name === "queued") {
            text.textContent = data.running ? "queued" : "starting";
            if ($("#engine").dataset.engine === "warming") text.textContent = "waiting for the engine to warm up";
            if (key === "dd" && runs.ddFirst && runs.ddFirst.result) text.textContent += ` (first ${DD_FIRST} deals shown)`;
          }
          else if (name === "progress") {
            prog.max = data.total; prog.value = data.done;
            text.textContent = `${data.done.toLocaleString()} deals`;
          } else if (name === "running") {
            runs[key].running = data;          // the values so far, no interval yet
            renderAdvice();
          } else if (name === "result") {
            runs[key].result = data;
            showDone(ev, data);
            renderAdvice();
          } else if (name === "error") {
            runs[key].error = data.error;
          }
        });
    } catch (e) {
      runs[key].error = e.name === "AbortError" ? "cancelled" : e.message;
    }
    runs[key].controller = null;
  };
  // the rollouts first (a fraction of a second), then dd, each with every core: the first
  // values reach the screen sooner than with the two runs sharing the cores. dd starts
  // with a run of its first DD_FIRST deals (the same deals the full run starts with, same
  // seed), shown as preliminary until the full run replaces them
  runs.dd = { controller: null, result: null, error: null };
  await one("rollout", "rollout", options("rollout"));
  const ddOpts = options("dd");
  const ok = () => state.runs === runs && Object.values(runs).every((r) => !r.error);
  if (ok()) {                          // the rollouts' answer while dd runs
    try { await renderWords(); } catch (e) { /* the final answer will say it */ }
  }
  if (ok() && ddOpts.samples > DD_FIRST) {
    await one("dd", "ddFirst", { ...ddOpts, samples: DD_FIRST });
    if (runs.ddFirst.error === "cancelled") runs.dd.error = "cancelled";
  }
  if (ok()) await one("dd", "dd", ddOpts);
  else if (runs.rollout.error === "cancelled") runs.dd.error = "cancelled";
  if (state.runs !== runs) return;            // a newer advice took over
  $("#cancel").disabled = true;
  const errs = Object.values(runs).map((r) => r.error).filter((e) => e && e !== "cancelled");
  if (errs.length || Object.values(runs).some((r) => r.error === "cancelled")) {
    await endFailed(runs, errs[0] || null);
    return;
  }
  await renderWords();
  setState("done");
}
// every model row and column empty: no value of an earlier advice stays on screen
function clearModels() {
  for (const ev of ["rollout", "dd"]) {
    const prog = $(`#prog-${ev}`);
    prog.max = 1; prog.value = 0;
    $(`#ptext-${ev}`).textContent = "";
  }
  $("#unit-rollout").textContent = ""; $("#unit-dd").textContent = "";
  $("#th-fusion").hidden = true;
  $("#cards tbody").innerHTML = "";
  $("#details-text").textContent = "";
}
// an advice that failed (err: the server's line) or was cancelled: a run that did not
// finish shows nothing (not its values so far, not dd's first deals), its row says what
// happened, and the answer says it in words; a run that finished keeps its values
async function endFailed(runs, err) {
  const ddErr = runs.dd.error || (runs.ddFirst && runs.ddFirst.error);
  if (!runs.dd.result) delete runs.ddFirst;      // dd's first deals are not its answer
  clearModels();
  const said = {};
  for (const ev of ["rollout", "dd"]) {
    const r = runs[ev];
    r.running = null;
    if (r.result) { showDone(ev, r.result); continue; }
    const e = ev === "dd" ? ddErr : r.error;
    said[ev] = e && e !== "cancelled" ? `failed: ${e.replace(/^error: /, "")}`
      : e === "cancelled" || !err ? "cancelled" : "not run (the rollouts failed first)";
    $(`#ptext-${ev}`).textContent = said[ev].startsWith("failed") ? "failed" : said[ev];
  }
  if (runs.rollout.result || runs.dd.result) renderAdvice(true);
  const box = $("#answer");
  box.innerHTML = "";
  const p = (text, cls) => { const e = document.createElement("p"); e.className = cls; e.textContent = text; box.appendChild(e); };
  if (err) {
    showError(err);
    p(runs.rollout.result || runs.dd.result ? "Part of the advice failed: the table shows only the runs that finished."
      : "No advice: the request failed, so no values are shown.", "failed");
  } else p(state.cancelWhy ? `Cancelled: ${state.cancelWhy}.` : "Cancelled.", "hint");
  const name = { rollout: "Rollouts", dd: "Double-dummy" };
  for (const ev of ["rollout", "dd"]) if (said[ev]) p(`${name[ev]}: ${said[ev]}.`, "hint");
  setState(err ? "error" : "cancelled");
}
function showDone(ev, data) {
  const prog = $(`#prog-${ev}`);
  prog.max = 1; prog.value = 1;
  $(`#ptext-${ev}`).textContent = `${data.samples.toLocaleString()} deals, ${seconds(data.elapsed_s)}`;
}
function objectiveMean(c, objective) { return c[objective] ? c[objective].mean : null; }
// ended: the advice stopped (failed, cancelled): a value still missing is not coming
function renderAdvice(ended) {
  const ro = state.runs.rollout && state.runs.rollout.result;
  const ddFull = state.runs.dd && state.runs.dd.result;
  // a run still going: its values so far (the running means; intervals come at the end)
  const live = (key) => state.runs[key] && !state.runs[key].result && state.runs[key].running;
  const roLive = !ro && live("rollout");
  const ddLive = !ddFull && live("dd");
  const dd = ddFull || (state.runs.ddFirst && state.runs.ddFirst.result);
  $("#unit-dd").textContent = MEASURE.dd + (ddLive ? `; ${ddLive.done.toLocaleString()} deals so far`
    : dd && !ddFull ? `; first ${dd.samples} deals, more coming` : "");
  $("#unit-rollout").textContent = roLive ? `${roLive.done.toLocaleString()} deals so far` : MEASURE.diff;
  const fusion = ddFull && ddFull.fusion;   // null outside its scope (fusion_reason)
  $("#th-fusion").hidden = !fusion;
  const tbody = $("#cards tbody");
  const order = [];
  for (const a of [ro, dd]) if (a) for (const c of a.candidates) if (!order.includes(c.card)) order.push(c.card);
  for (const l of [roLive, ddLive]) if (l) for (const c of Object.keys(l.means)) if (!order.includes(c)) order.push(c);
  if (ro) $("#unit-rollout").textContent = MEASURE[ro.objective] || ro.objective;
  tbody.innerHTML = "";
  for (const card of order) {
    const tr = document.createElement("tr");
    tr.dataset.card = card;
    const td0 = document.createElement("td"); td0.className = "card" + (isRed(card) ? " red" : "");
    td0.textContent = pretty(card);
    const cr = ro && ro.candidates.find((c) => c.card === card);
    const cd = dd && dd.candidates.find((c) => c.card === card);
    if (cr) {
      const est = cr[ro.objective];
      tr.dataset.rollout = est.mean;
      tr.dataset.value = est.mean;          // the headline's evaluator: the rollouts
      if (card === ro.best) tr.classList.add("best-rollout");
    }
    if (cd) {
      tr.dataset.dd = cd[dd.objective].mean;
      if (card === dd.best) tr.classList.add("best-dd");
    }
    const cell = (c, obj, best, cls, l) => {
      const td = document.createElement("td"); td.className = cls;
      if (l && card in l.means) {
        td.innerHTML = `<span class="v running" title="so far">≈ ${fmt(l.means[card], 2)}</span>`;
        return td;
      }
      if (!c) { td.textContent = ended ? "–" : "…"; return td; }
      const e = c[obj];
      const pct = obj === "p_win";
      const show = (x) => pct ? (100 * x).toFixed(1) + "%" : fmt(x, 2);
      // an exact value (every consistent deal, no sampling error): one number, no interval
      const ci = show(e.ci95[0]) === show(e.ci95[1]) ? ' <span class="ci">(exact)</span>'
        : ` <span class="ci">(${show(e.ci95[0])} to ${show(e.ci95[1])})</span>`;
      td.innerHTML = `<span class="v">${show(e.mean)}</span>${ci}` +
        (best ? ' <span class="star" title="best card">\u2605</span>' : "");
      return td;
    };
    tr.append(td0, cell(cr, ro && ro.objective, ro && card === ro.best, "ro", roLive),
              cell(cd, dd && dd.objective, dd && card === dd.best, "dd", ddLive));
    if (fusion) {       // the fusion-aware value (one card per information set), exact
      const td = document.createElement("td"); td.className = "fusion";
      const v = cd ? cd.fusion : null;
      if (v !== null && v !== undefined) tr.dataset.fusion = v;
      td.innerHTML = v === null || v === undefined ? "…" : `<span class="v">${fmt(v, 2)}</span>` +
        (card === fusion.best ? ' <span class="star" title="best card, same card in every deal you cannot tell apart">\u2605</span>' : "");
      tr.appendChild(td);
    }
    tbody.appendChild(tr);
  }
  const det = [];
  for (const [name, a] of [["Rollouts", ro], ["Double-dummy", dd]]) {
    if (!a) continue;
    det.push(`${name}: ${a.samples.toLocaleString()} deals of ${a.n_consistent_deals.toLocaleString()} consistent; ` +
      `stopped: ${a.stop_reason}; intervals: ${a.intervals.description}; objective ${a.objective}` +
      (a.note ? `; ${a.note}` : ""));
    // not the dd run's model_note: it quotes the dd run's own small rollout check, which
    // would contradict the page's own rollout run above (each model from its own run)
  }
  $("#details-text").innerHTML = det.map((d) => `<p>${escapeHTML(d)}</p>`).join("");
}
function escapeHTML(s) { return s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c])); }
async function renderWords() {
  const runs = state.runs;
  const ro = runs.rollout && runs.rollout.result;
  const dd = runs.dd && runs.dd.result;
  const w = await postJSON("/api/words", { rollout: ro, dd: dd });
  if (state.runs !== runs) return;     // a newer advice took over
  const box = $("#answer");
  box.innerHTML = "";
  // the sentences in the headline's notation (7D -> 7♦)
  // a card and the value after it ("K♣ +6.06") never break onto two lines
  const cards = (text) => text.replace(/\b([2-9TJQKA])([SHDC])\b/g, (m) => pretty(m))
    .replace(/([\u2660\u2665\u2666\u2663]) (?=[+\u2212-]?\d)/g, "$1\u00a0");
  const p = (text, cls) => { const e = document.createElement("p"); if (cls) e.className = cls; e.textContent = cards(text); box.appendChild(e); };
  // how firm each run's pick is, in the headline too
  const pick = (a) => pretty(a.best) + (!a.margin ? "" :
    a.margin.verdict === "separated" ? "" :
    a.margin.verdict === "no practical difference" ? ` (or ${pretty(a.margin.b)}, no practical difference)` : " (a lean)");
  const first = ro || dd;
  p(`Best card: ${pick(first)}` + (dd && ro && dd.best !== ro.best ? ` with club-level play; ${pick(dd)} with perfect play` : ""), "headline");
  for (const line of w.best) p(line);
  if (w.trump_line) p(w.trump_line, "headline trump");
  if (w.p_win) p(w.p_win);
  if (w.disagree) p(w.disagree, "disagree");
  if (w.fusion) p(w.fusion, "fusion");
  if (!dd) p("Double-dummy values coming…", "hint");
}

// ------------------------------------------------------------------ all hands (a deal)
function dealKey() { return state.deal.record.play.slice(0, state.deal.cursor).join(" "); }
async function openDeal(record) {
  if (typeof record !== "object" || record === null || !Array.isArray(record.hands)) throw new Error("error: record: not a hand record");
  state.deal = { record: { ...record, play: [...(record.play || [])] }, cursor: (record.play || []).length, solves: {} };
  clearCheck();
  $("#deal-view").hidden = false;
  $("#deal-title").textContent = `${record.rules || "foster"}, ${record.players} players, dealer seat ${record.dealer}` +
    (record.turnup ? `, turn-up ${pretty(record.turnup)}` : "");
  await renderDeal();
  $("#deal-view").scrollIntoView({ behavior: "smooth", block: "start" });
}
async function solveAt(cursor) {
  const d = state.deal;
  const key = d.record.play.slice(0, cursor).join(" ");
  if (!d.solves[key]) {
    d.solves[key] = await postJSON("/api/solve", { record: { ...d.record, play: d.record.play.slice(0, cursor) } });
  }
  return d.solves[key];
}
async function renderDeal() {
  const d = state.deal;
  const rec = d.record;
  const n = rec.players;
  const played = rec.play.slice(0, d.cursor);
  setState("working");
  let sol = null, err = null;
  const finished = played.length >= n * rec.hands[0].length;
  if (!finished) {
    try { sol = await solveAt(d.cursor); } catch (e) { err = e.message; }
  }
  if (state.deal !== d) return;
  const hands = $("#hands");
  hands.innerHTML = "";
  const values = {};
  if (sol) for (const c of sol.cards) values[c.card] = c.value;
  for (let s = 0; s < n; s++) {
    const box = document.createElement("div");
    box.className = "seat" + (sol && sol.to_move === s ? " to-move" : "");
    box.dataset.seat = s;
    const h = document.createElement("h3");
    h.textContent = `Seat ${s}` + (s === rec.dealer ? " (dealer)" : "") + (sol && sol.to_move === s ? " \u2014 to play" : "");
    const cs = document.createElement("div"); cs.className = "cs";
    for (const c of rec.hands[s]) {
      if (played.includes(c)) continue;
      const b = cardEl("button", c);
      b.type = "button";
      b.dataset.card = c;
      if (c in values) {
        b.dataset.dd = values[c];
        b.dataset.value = values[c];
        const v = document.createElement("span"); v.className = "dv"; v.textContent = fmt(values[c], 0);
        b.appendChild(v);
        if (sol.best.includes(c)) b.classList.add("best");
        b.onclick = () => playDealCard(c);
      } else b.disabled = true;
      cs.appendChild(b);
    }
    box.append(h, cs);
    hands.appendChild(box);
  }
  // the play so far, with each card's double-dummy loss where known
  const chips = $("#deal-played");
  chips.innerHTML = "";
  rec.play.forEach((c, i) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "chip" + (isRed(c) ? " red" : "") + ((i + 1) % n === 0 ? " trick-end" : "") + (i >= d.cursor ? " future" : "");
    b.textContent = pretty(c);
    b.dataset.index = i;
    const before = d.solves[rec.play.slice(0, i).join(" ")];
    if (before) {
      const v = before.cards.find((x) => x.card === c);
      const loss = v ? before.value - v.value : null;
      if (loss) { b.classList.add("mistake"); b.title = `double-dummy loss ${loss} points`; b.textContent += ` \u2212${loss}`; }
    }
    b.onclick = () => { d.cursor = i; renderDeal(); };
    trickGroup(chips, i, n).appendChild(b);
  });
  if (!rec.play.length) chips.textContent = "none yet";
  // the trick on the table: whose card is whose
  const inTrick = played.slice(played.length - (played.length % n || (finished ? n : 0)));
  const seatOf = (c) => rec.hands.findIndex((h) => h.includes(c));
  $("#deal-trick").textContent = inTrick.length
    ? "On the table: " + inTrick.map((c) => `${pretty(c)} (seat ${seatOf(c)})`).join(", ")
    : "A new trick: the player to move leads.";
  const lineText = (line) => `Double-dummy value for seat ${sol.to_move}'s side (${MEASURE.dd.replace("our side's", "its")}, perfect play): ${fmt(sol.value, 0)}` +
    (line ? `; an optimal line: ${line.map(pretty).join(" ")}` : "");
  $("#deal-line").textContent = err ? "" : sol ? lineText(null) : "The hand is over.";
  if (err) { showError(err); setState("error"); return; }
  setState("done");
  if (sol) {
    // the optimal line after the values (it costs a solve per card of the line)
    const key = played.join(" ");
    d.lines = d.lines || {};
    if (!d.lines[key]) {
      try {
        d.lines[key] = (await postJSON("/api/solve", { record: { ...rec, play: played }, options: { line: true } })).line;
      } catch (e) { return; }
    }
    if (state.deal === d && dealKey() === key) $("#deal-line").textContent = lineText(d.lines[key]);
  }
}
// the check's verdict in words, the clean case said too (a check that finds nothing must
// not look like a check that did not run)
function playLosses(d) {
  const play = d.record.play, out = [];
  play.forEach((c, i) => {
    const before = d.solves[play.slice(0, i).join(" ")];
    const v = before && before.cards.find((x) => x.card === c);
    if (v && before.value - v.value) out.push(`${pretty(c)} (card ${i + 1}, \u2212${before.value - v.value})`);
  });
  return out;
}
function showCheck(d) {
  const el = $("#deal-check-out"), n = d.record.play.length;
  const losses = playLosses(d);
  el.dataset.mistakes = losses.length;
  el.textContent = !n ? "No card has been played yet: nothing to check."
    : !losses.length ? `Checked all ${n} played cards: none lost anything double-dummy (each was an optimal card).`
    : `Checked all ${n} played cards: ${losses.length} lost points double-dummy (marked in red): ${losses.join(", ")}.`;
  el.hidden = false;
}
function clearCheck() {
  const el = $("#deal-check-out");
  el.hidden = true; el.textContent = ""; delete el.dataset.mistakes;
  delete $("#deal-played").dataset.checked;
}
async function playDealCard(card) {
  clearError();
  const d = state.deal;
  if (d.record.play[d.cursor] !== card) { d.record.play = d.record.play.slice(0, d.cursor).concat([card]); clearCheck(); }
  d.cursor += 1;
  await renderDeal();
}

// ------------------------------------------------------------------ simulate
async function simulateRules() {
  clearError();
  const out = $("#sim-out"), prog = $("#prog-sim");
  out.textContent = "";
  prog.value = 0;
  setState("working");
  const body = { ...state.rules, options: { deals: Number($("#sim-deals").value), seed: Number($("#sim-seed").value), figures: true } };
  let res = null, err = null;
  try {
    await postStream("/api/simulate/stream", body, undefined, (name, data) => {
      if (name === "progress") { prog.max = data.total; prog.value = data.done; }
      else if (name === "result") res = data;
      else if (name === "error") err = data.error;
    });
  } catch (e) { err = e.message; }
  if (err || !res) { showError(err || "error: server: no answer"); setState("error"); return; }
  prog.max = 1; prog.value = 1;
  const t = res.ten;
  const pct = (x) => (100 * x).toFixed(2) + "%";
  const rows = res.positions.map((p) => `<tr data-position="${p.position}"><td>${p.position} ${p.role === "eldest" || p.role === "dealer" ? p.role : ""}</td>` +
    `<td>${p.honours.mean.toFixed(2)}</td><td>${p.card_points.mean.toFixed(2)}</td><td>${p.total.mean.toFixed(2)}</td>` +
    `<td>${fmt(p.advantage.mean, 2)} <span class="ci">(${fmt(p.advantage.ci95[0], 2)} to ${fmt(p.advantage.ci95[1], 2)})</span></td></tr>`).join("");
  out.innerHTML = `<p id="sim-ten" data-p-caught="${t.p_caught}">Ten of trumps caught: <b>${pct(t.p_caught)}</b> ` +
    `(95%: ${pct(t.wilson95[0])} to ${pct(t.wilson95[1])}) of ${t.in_play.toLocaleString()} deals with the Ten in play; ` +
    `${res.deals.toLocaleString()} deals, seed ${res.seed}, ${res.elapsed_s.toFixed(2)} s.</p>` +
    `<div class="wide-table"><table class="cards"><thead><tr><th>Position</th><th>Honours</th><th>Card points</th><th>Total</th><th>Advantage (95%)</th></tr></thead><tbody>${rows}</tbody></table></div>` +
    '<p class="hint">Mean points a deal of the side holding each position (1 = eldest hand); advantage: the position\'s total minus the mean over all positions.</p>';
  const figs = document.createElement("div");
  figs.id = "sim-figures";
  if ((res.figures || []).length) {
    const hint = document.createElement("p");
    hint.className = "hint";
    hint.textContent = "The report's figures of this run (catchten report draws them too); click one to see it full size, click again to close.";
    figs.appendChild(hint);
  }
  for (const f of res.figures || []) {
    const box = document.createElement("div");
    box.className = "sim-fig";
    const img = document.createElement("img");    // alt and src set as properties: no markup
    img.src = f.png; img.alt = f.title; img.title = f.title; img.dataset.figure = f.name;
    box.onclick = () => box.classList.toggle("open");
    box.appendChild(img);
    figs.appendChild(box);
  }
  out.appendChild(figs);
  setState("done");
}

// ------------------------------------------------------------------ loading
async function loadText(text) {
  clearError();
  let data;
  try { data = JSON.parse(text); } catch (e) { throw new Error(`error: input: not JSON (${e.message})`); }
  if (data && typeof data === "object" && Array.isArray(data.hands)) { await openDeal(data); return; }
  await setPosition(data);
  await advise(data);
}

// a new number of players: the dealer defaults to the last seat, so that seat 0 (left of
// the dealer) is on lead
function setPlayers(n) {
  state.rules.players = n;
  state.dealer = n - 1;
  state.seat = 0;
}
function wire() {
  $("#preset").onchange = async () => {
    state.rules = { rules: $("#preset").value, players: state.rules.players, variants: {} };
    try { clearError(); await loadRules(); } catch (e) {
      // another preset may not allow this many players: take its first
      setPlayers(4);
      try { await loadRules(); } catch (e2) { showError(e2.message); }
    }
  };
  $("#players").onchange = async () => { setPlayers(Number($("#players").value));
    try { clearError(); await loadRules(); } catch (e) { showError(e.message); } };
  // each change of the set-up stops an advice of the old position and asks the new check
  const changed = (f) => () => { f(); setupChanged(); refreshGrid(); refreshCheck(); };
  $("#dealer").onchange = changed(() => { state.dealer = Number($("#dealer").value); });
  $("#seat").onchange = changed(() => { state.seat = Number($("#seat").value); });
  $("#trump").onchange = changed(() => { state.trump = $("#trump").value; });
  $("#score-on").onchange = renderScore;
  for (const b of document.querySelectorAll(".tab")) b.onclick = () => { setTarget(b.dataset.target); refreshGrid(); };
  $("#undo-play").onclick = changed(() => { state.play.pop(); });
  $("#clear").onclick = changed(() => { state.hand = []; state.play = []; state.turnup = null; });
  $("#advise").onclick = () => advise();
  $("#simulate").onclick = () => simulateRules();
  document.addEventListener("keydown", (e) => {     // Escape closes a figure shown full size
    if (e.key === "Escape") document.querySelectorAll(".sim-fig.open").forEach((b) => b.classList.remove("open"));
  });
  $("#cancel").onclick = () => cancelRuns();
  $("#load").onclick = () => loadText($("#paste").value).catch((e) => { showError(e.message); setState("error"); });
  $("#file").onchange = async () => {
    const f = $("#file").files[0];
    if (f) loadText(await f.text()).catch((e) => { showError(e.message); setState("error"); });
  };
  $("#deal").onclick = async () => {
    clearError();
    try {
      const rec = await postJSON("/api/deal", { ...state.rules, seed: Number($("#deal-seed").value) });
      await openDeal(rec);
    } catch (e) { showError(e.message); setState("error"); }
  };
  $("#deal-undo").onclick = () => { if (state.deal && state.deal.cursor > 0) { state.deal.cursor -= 1; renderDeal(); } };
  $("#deal-start").onclick = () => { if (state.deal) { state.deal.cursor = 0; renderDeal(); } };
  $("#deal-check").onclick = async () => {
    // each played card's double-dummy loss: a solve before every card of the play
    const d = state.deal;
    if (!d) return;
    clearError();
    setState("working");
    try {
      for (let i = 0; i < d.record.play.length; i++) {
        if (state.deal !== d) return;
        await solveAt(i);
      }
    } catch (e) { showError(e.message); setState("error"); return; }
    await renderDeal();
    if (state.deal !== d) return;
    showCheck(d);
    $("#deal-played").dataset.checked = d.record.play.length;
  };
  $("#deal-close").onclick = () => { $("#deal-view").hidden = true; state.deal = null; };
  $("#deal-advise").onclick = async () => {
    // the player to move sees their own hand only: the position of the deal's cursor
    const d = state.deal;
    const rec = d.record;
    const sol = await solveAt(d.cursor);
    const played = rec.play.slice(0, d.cursor);
    const p = { rules: rec.rules || "foster", players: rec.players, dealer: rec.dealer, seat: sol.to_move,
                hand: rec.hands[sol.to_move].filter((c) => !played.includes(c)), play: played };
    if (rec.variants && Object.keys(rec.variants).length) p.variants = rec.variants;
    if (rec.turnup) p.turnup = rec.turnup; else if (rec.trump) p.trump = rec.trump;
    if (rec.dead && rec.dead.length) p.dead = rec.dead;
    await setPosition(p);
    advise(p);
  };
}

async function main() {
  wire();
  setTarget("hand");
  pollEngine();
  const params = new URLSearchParams(location.search);
  try {
    if (params.has("position")) {
      let p;
      try { p = JSON.parse(params.get("position")); } catch (e) { throw new Error(`error: position: not JSON (${e.message})`); }
      // a link opens at the position's start, whatever the last visit's scroll: the
      // answer grows below it for seconds, and a page that jumps while read loses its reader
      history.scrollRestoration = "manual";
      await setPosition(p);
      window.scrollTo(0, 0);
      await advise(p, true);
      return;
    }
    await loadRules();
  } catch (e) {
    showError(e.message);
    setState("error");
    if (!state.info) { state.rules = { rules: "foster", players: 4, variants: {} }; await loadRules(); }
  }
}
main();

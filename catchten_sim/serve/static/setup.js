// The set-up: rules and switches, the card grid (hand, turn-up, cards played), the
// server's check of what may be clicked next (/api/next), and the position it makes.
import { declares, $, state, pretty, isRed, cardEl, showError, clearError, postJSON, trickGroup, splitLine, plainError } from "./core.js";
import { cancelRuns, markStale } from "./advice.js";

// ------------------------------------------------------------------ rules and set-up
export async function loadRules() {
  const info = await postJSON("/api/rules", state.rules);
  state.info = info;
  $("#deal-measure").textContent = info.measures.solve;
  $("#foot-measure").textContent = info.measures.diff;     // the footer's unit in words
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
export function seatName(s) {
  const side = state.info ? state.info.side_of_seat[s] : 0;
  return `seat ${s} (side ${side})`;
}
export function fillSelect(sel, values, current, label) {
  sel.innerHTML = "";
  for (const v of values) {
    const o = document.createElement("option");
    o.value = v; o.textContent = label ? label(v) : v;
    if (v === current) o.selected = true;
    sel.appendChild(o);
  }
}
export function renderSwitches() {
  const box = $("#switches");
  box.innerHTML = "";
  const given = state.rules.variants;
  // the switches that can change anything under the preset at this player count
  // (/api/rules offered: a player count's change asks again), and any
  // other the set-up gives (a pasted position's), so that it can be turned back
  for (const row of state.info.switches.filter((r) => r.offered || r.name in given)) {
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
        o.value = JSON.stringify(v); o.textContent = String(v).replace(/_/g, " ");
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
    // its name in words; the key (the API's, the CLI's --variant) in the title
    const name = document.createElement("span"); name.className = "name";
    name.textContent = row.label; name.title = `--variant ${row.name}`;
    const t = document.createElement("span"); t.className = "t";
    t.textContent = `${row.text} (${row.applies}; rules ${row.section})`;
    const lab = document.createElement("label"); lab.append(input, " ", name);
    div.append(lab, t);
    box.appendChild(div);
  }
  const k = Object.keys(given).length;
  $("#switches-count").textContent = k ? `(${k} changed)` : "";
}
export async function setSwitch(row, value) {
  const v = { ...state.rules.variants };
  if (value === row.default) delete v[row.name]; else v[row.name] = value;
  const before = state.rules.variants;
  state.rules.variants = v;
  try { clearError(); await loadRules(); } catch (e) {
    showError(e.message); state.rules.variants = before; await loadRules();
  }
}
export function renderScore() {
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
    inp.onchange = () => { state.score[s] = Number(inp.value); markStale(); };
    lab.className = "side-score";
    lab.append(`side ${s}`, inp);
    box.appendChild(lab);
  }
}

export function deck() { return state.info.rules.deck.cards.split(" "); }

export function renderGrid() {
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
export async function refreshCheck() {
  const seq = ++checkSeq;
  const pos = position(), key = JSON.stringify(pos);
  let answer = null;
  try { answer = await postJSON("/api/next", pos); } catch (e) { /* the advice will say it */ }
  if (seq !== checkSeq) return;            // a newer set-up's check took over
  state.check = answer && { key, answer };
  refreshGrid();
}
export function checked() {
  return state.check && state.check.key === JSON.stringify(position()) ? state.check.answer : null;
}
// why clicking card now would make a position that advise refuses (null: it would not);
// the set-up's own cards first (no round trip), then the server's check
export function refusal(card) {
  const c = checked(), p = pretty(card), you = `seat ${state.seat} (your seat)`;
  const held = state.hand.includes(card), k = state.play.indexOf(card);
  if (state.target === "hand" && !held) {
    if (k >= 0) return `hand: card both held and played (${p} is recorded as card ${k + 1} played: Undo last to take it back)`;
    return c && c.hand[card] || null;
  }
  if (state.target === "play" && k < 0) {
    if (held) return ownCard(c, p);
    return c && c.play[card] || null;
  }
  if (state.target === "turnup" && state.turnup !== card && held && state.seat !== state.dealer)
    return `turnup: the turn-up is the dealer's card (seat ${state.dealer}), and ${p} is in the hand of ${you}`;
  return null;
}
// why a card of Your hand cannot be recorded as played: whose turn it is decides what to say
function ownCard(c, p) {
  const you = `seat ${state.seat}`, turn = c ? c.to_move : null;
  if (turn === state.seat) {
    return `play: ${p} is in Your hand, and it is your turn (${you}): press Advise to choose ` +
      `your card; if you have played ${p}, take it out of Your hand first, then record it here`;
  }
  if (turn !== null) {
    return `play: ${p} is in Your hand (${you}), so seat ${turn}, to play next, cannot play it: ` +
      `record seat ${turn}'s own card`;
  }
  return `play: ${p} is in Your hand (${you}): a card you hold has not been played`;
}
export function refreshGrid() {
  for (const b of document.querySelectorAll("#grid .c")) {
    const card = b.dataset.gridCard;
    const why = cardsOf().includes(card) ? refusal(card) : null;
    b.classList.toggle("refused", !!why);
    b.setAttribute("aria-disabled", String(!!why));
    if (why) b.title = `Not possible: ${splitLine(why).text}`; else b.removeAttribute("title");
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
  markStale();
}
// whose card the next recorded card is, and a play so far that cannot happen
export function showNext() {
  const c = checked(), el = $("#next-line");
  el.classList.toggle("problem", !!(c && c.problem));
  // a field not given yet (the turn-up, the declared trump) is no mistake: a plain hint
  const said = c && c.problem && (splitLine(c.problem).field === "play" ? splitLine(c.problem).text : plainError(c.problem));
  el.textContent = !c ? "" : c.problem ? `These cards cannot have been played: ${said}`
    : c.missing === "turnup" ? "Turn-up card: not set yet (click it under Turn-up: its suit is trumps)."
    : c.missing === "trump" ? "Trump: not declared yet (choose it beside Your seat)."
    : c.to_move === null ? (c.hand_size === null ? "" : "The hand is over.")
    : c.to_move === state.seat ? `Your turn (seat ${state.seat}): press Advise once Your hand holds its ${c.hand_size} cards ` +
      "(to record a card you played instead: take it out of Your hand, then click it under Cards played)."
    : `Next card played: seat ${c.to_move}'s (click it under Cards played; Advise waits for your turn).`;
  adviseBlocked(c);
}
// the Advise button, off (its title says why) when the check shows it is not Your seat's
// turn or the hand is over; on while the check is unknown (the advice then says it)
function adviseBlocked(c) {
  const b = $("#advise");
  const why = !c || c.problem ? null
    : c.to_move === null ? (c.hand_size === null ? null : "The hand is over: no card is left to advise on.")
    : c.to_move !== state.seat ? `Not your turn: seat ${c.to_move} plays next. Record its card under ` +
      `Cards played (Advise answers for Your seat, seat ${state.seat}, at its turn), or choose ` +
      `seat ${c.to_move} as Your seat.` : null;
  b.disabled = !!why;
  if (why) b.title = why; else b.removeAttribute("title");
}
// the group of trick i / n's cards in box (made when the trick's first card comes): a line
export function setTarget(t) {
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
export function handSize() {
  const c = checked();
  return c && c.hand_size !== null ? c.hand_size : state.info ? state.info.set_size : 0;
}
export function cardsOf() { return state.info ? deck() : []; }
export function clickCard(card) {
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
export function setupChanged() {
  if (Object.values(state.runs).some((r) => r.controller)) {
    state.cancelWhy = "the position changed: press Advise for the new one";
    cancelRuns();
  }
}

// ------------------------------------------------------------------ the position
export function position() {
  const p = { rules: state.rules.rules, players: state.rules.players, dealer: state.dealer,
              seat: state.seat, hand: [...state.hand], play: [...state.play] };
  if (Object.keys(state.rules.variants).length) p.variants = { ...state.rules.variants };
  if (state.info && declares(state.info)) p.trump = state.trump || null;
  else p.turnup = state.turnup;
  if (state.score) p.score = [...state.score];
  return p;
}
// the set-up as a key that two identical positions share: the hand is a set (its cards in
// any order, as entered), the cards played a sequence
export function positionKey(p = position()) {
  return JSON.stringify({ ...p, hand: [...p.hand].sort() });
}
export async function setPosition(p) {
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

// All hands: a dealt deal or a hand record, each legal card's double-dummy value
// (/api/solve), play, undo, rewind, and the check of every played card.
import { $, measures, state, pretty, isRed, cardEl, fmt, setState, showError, clearError, postJSON, trickGroup } from "./core.js";

// ------------------------------------------------------------------ all hands (a deal)
export function dealKey() { return state.deal.record.play.slice(0, state.deal.cursor).join(" "); }
export async function openDeal(record) {
  if (typeof record !== "object" || record === null || !Array.isArray(record.hands)) throw new Error("error: record: not a hand record");
  state.deal = { record: { ...record, play: [...(record.play || [])] }, cursor: (record.play || []).length, solves: {} };
  clearCheck();
  $("#deal-view").hidden = false;
  $("#deal-title").textContent = `${record.rules || "foster"}, ${record.players} players, dealer seat ${record.dealer}` +
    (record.turnup ? `, turn-up ${pretty(record.turnup)}` : "");
  await renderDeal();
  $("#deal-view").scrollIntoView({ behavior: "smooth", block: "start" });
}
export async function solveAt(cursor) {
  const d = state.deal;
  const key = d.record.play.slice(0, cursor).join(" ");
  if (!d.solves[key]) {
    d.solves[key] = await postJSON("/api/solve", { record: { ...d.record, play: d.record.play.slice(0, cursor) } });
  }
  return d.solves[key];
}
export async function renderDeal() {
  const d = state.deal;
  const rec = d.record;
  const n = rec.players;
  const played = rec.play.slice(0, d.cursor);
  setState("working");
  let sol = null, err = null;
  const finished = played.length >= n * rec.hands[0].length;
  if (!finished) {
    // a solve not made before: say so while it runs (a french52 deal from its first
    // tricks can take a minute or two), and take no card meanwhile
    if (!d.solves[played.join(" ")]) $("#deal-line").textContent = "Solving double-dummy\u2026 (a hard deal can take a minute or two; if it cannot finish, its values show as proven ranges)";
    $("#hands").inert = true;
    try { sol = await solveAt(d.cursor); } catch (e) { err = e.message; } finally { $("#hands").inert = false; }
  }
  if (state.deal !== d) return;
  const hands = $("#hands");
  hands.innerHTML = "";
  const values = {}, ranges = {};
  if (sol) for (const c of sol.cards) { values[c.card] = c.value; ranges[c.card] = c.range; }
  // a solve stopped before every value was exact (its node budget): what it proved
  const note = $("#deal-bounds");
  const bounded = Boolean(sol && sol.exact === false);
  note.hidden = !bounded;
  if (bounded) {
    const why = { "node budget": "its node budget", "time limit": "its time limit" }[
      sol.stopped_by] || "a stop";
    note.textContent = `The search stopped at ${why} before every value was exact: a card ` +
      "showing a range (low..high) is proven to lie in it; a single number is exact.";
  }
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
        const val = values[c], rg = ranges[c];
        const v = document.createElement("span"); v.className = "dv";
        if (val === null && rg) {
          b.dataset.range = rg.join(" ");
          v.textContent = `${fmt(rg[0], 0)}..${fmt(rg[1], 0)}`;
          b.title = `between ${fmt(rg[0], 0)} and ${fmt(rg[1], 0)}: the search stopped ` +
            "before its exact value";
        } else {
          b.dataset.dd = val;
          b.dataset.value = val;
          v.textContent = fmt(val, 0);
        }
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
    const loss = lossOf(d.solves[rec.play.slice(0, i).join(" ")], c);
    if (loss) { b.classList.add("mistake"); b.title = `double-dummy loss ${loss} points`; b.textContent += ` \u2212${loss}`; }
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
  const lineText = (line) => `Double-dummy value for seat ${sol.to_move}'s side (${measures().solve}, perfect play): ${sol.exact === false
    ? `between ${fmt(sol.value_range[0], 0)} and ${fmt(sol.value_range[1], 0)} (not exact: stopped by its ${sol.stopped_by})`
    : fmt(sol.value, 0)}` +
    (line ? `; an optimal line: ${line.map(pretty).join(" ")}` : "");
  $("#deal-line").textContent = err ? "" : sol ? lineText(null) : "The hand is over.";
  if (err) { showError(err); setState("error"); return; }
  setState("done");
  if (sol && sol.exact !== false) {
    // the optimal line after the values (it costs a solve per card of the line; a solve
    // stopped early has none, so it is not asked for)
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
// the double-dummy loss of playing card c where the solve ``before`` was made (its best
// value minus the card's), null when not known: no solve, or one stopped early (its values
// are ranges, its value null)
export function lossOf(before, c) {
  if (!before || before.exact === false || typeof before.value !== "number") return null;
  const v = before.cards.find((x) => x.card === c);
  return v && typeof v.value === "number" ? before.value - v.value : null;
}
// the check covers the cards played up to the position shown (``upto``, the cursor):
// cards after it (taken back with Undo, or ahead of a rewind) are not checked
export function playLosses(d, upto) {
  const play = d.record.play.slice(0, upto), out = [];
  play.forEach((c, i) => {
    const loss = lossOf(d.solves[play.slice(0, i).join(" ")], c);
    if (loss) out.push(`${pretty(c)} (card ${i + 1}, \u2212${loss})`);
  });
  return out;
}
// the played cards whose solve stopped early: not checked
export function unchecked(d, upto) {
  const play = d.record.play.slice(0, upto);
  return play.filter((c, i) => {
    const before = d.solves[play.slice(0, i).join(" ")];
    return before && before.exact === false;
  }).length;
}
export function showCheck(d, upto) {
  const el = $("#deal-check-out"), n = upto, later = d.record.play.length - upto;
  const losses = playLosses(d, upto), open = unchecked(d, upto);
  const cards = (k) => `${k} played card${k === 1 ? "" : "s"}`;
  // the cards after the position shown are said, with how many: never counted as checked
  const where = later ? ` up to the current position (${later} later card${later === 1 ? "" : "s"} not checked)` : "";
  // the cards whose solve stopped early are not checked: said, never counted as checked
  const which = (open ? `${n - open} of the ${cards(n)}` : `all ${cards(n)}`) + where;
  const notChecked = open ? ` ${open} could not be checked: the solve stopped before the values were exact.` : "";
  el.dataset.mistakes = losses.length;
  el.dataset.unchecked = open;
  el.textContent = !n ? `No card has been played${later ? " up to the current position" : " yet"}: nothing to check.`
    : open === n ? `Could not check the ${cards(n)}${where}: the solve stopped before the values were exact.`
    : !losses.length ? `Checked ${which}: none lost anything double-dummy (each was an optimal card).${notChecked}`
    : `Checked ${which}: ${losses.length} lost points double-dummy (marked in red): ${losses.join(", ")}.${notChecked}`;
  el.hidden = false;
}
export function clearCheck() {
  const el = $("#deal-check-out");
  el.hidden = true; el.textContent = ""; delete el.dataset.mistakes;
  delete $("#deal-played").dataset.checked;
}
export async function playDealCard(card) {
  clearError();
  const d = state.deal;
  if (d.record.play[d.cursor] !== card) { d.record.play = d.record.play.slice(0, d.cursor).concat([card]); clearCheck(); }
  d.cursor += 1;
  await renderDeal();
}

// catchten serve, the analysis page: the shared state, card and number formatting, the
// error line, and the JSON API calls (every number on the page comes from /api/..., which
// returns what the CLI prints with --json). Plain ES modules, no build step.

// the dealer declares trumps (jaques dealer_declares): the rules' own switch, as /api/rules gives it
export function declares(info) { return !!((info.rules && info.rules.variants) || {}).dealer_declares; }

export const $ = (sel) => document.querySelector(sel);
// what each column's number is: the server's words (the CLI's), from /api/rules
// (measures, for the rules set up) or from an advice answer itself (its measure)
export function measures() { return (state.info && state.info.measures) || {}; }
export const SUITS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
export const state = {
  rules: { rules: "foster", players: 4, variants: {} },
  info: null,            // /api/rules answer
  dealer: 3, seat: 0, hand: [], turnup: null, trump: "", play: [], score: null,
  target: "hand",
  runs: {},              // evaluator -> {controller, result}
  check: null,           // /api/next for the set-up as it is: {key, answer}
  deal: null,            // all-hands mode: {record, cursor, solves: {key: solution}}
};

// ------------------------------------------------------------------ helpers
export function pretty(card) {
  const r = card[0] === "T" ? "10" : card[0];
  return r + SUITS[card[1]];
}
export function seconds(s) { return s < 0.01 ? "under 0.01 s" : s < 10 ? `${s.toFixed(2)} s` : `${s.toFixed(1)} s`; }
export function isRed(card) { return card[1] === "H" || card[1] === "D"; }
export function cardEl(tag, card, extra) {
  const el = document.createElement(tag);
  el.className = "c" + (isRed(card) ? " red" : "") + (extra ? " " + extra : "");
  el.textContent = pretty(card);
  return el;
}
export function fmt(x, d) { return x === null || x === undefined ? "–" : (x >= 0 ? "+" : "") + x.toFixed(d); }
export function setState(s) { document.body.dataset.state = s; }
// an error line ("error: hand: malformed card (...)", as the API and the CLI give it) in
// plain words: the field named as the page names it ("Your hand: malformed card (...)");
// the line itself stays on the banner's data-line
const FIELD_WORDS = { hand: "Your hand", play: "Cards played", turnup: "Turn-up card", trump: "Trump",
  seat: "Your seat", dealer: "Dealer", players: "Players", rules: "Rules", variants: "Rule switches",
  score: "Game score", dead: "Dead cards", samples: "Samples", seed: "Seed", time: "Time (s)",
  early_stop: "Stop once the best card is clear", position: "The position",
  record: "The hand record", input: "The pasted text", server: "The server", body: "The request",
  deals: "Deals", index: "Deal index" };
// {field, text}: a line's field (null: none) and what follows it
export function splitLine(line) {
  const m = /^(?:error: )?([A-Za-z_][\w-]*)(?:\[\d+\]|\.[\w-]+)*: ([\s\S]*)$/.exec(line);
  return m ? { field: m[1], text: m[2] } : { field: null, text: line.replace(/^error: /, "") };
}
const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
export function plainError(line) {
  let { field, text } = splitLine(line);
  if (!field) return cap(text);
  const m = /^not the player to move \((.*)\)$/.exec(text);
  if (field === "seat" && m) {
    return `Not your turn: ${m[1]}. Advice is for Your seat when it is to play: record the ` +
      "cards played so far under Cards played, or choose the seat to play as Your seat.";
  }
  if (field === "variants" || field === "players") text = switchWords(text);
  if (field === "busy") return `The server is busy: ${text}. Try again in a moment.`;
  if (field === "interrupted") return `Stopped: ${text}.`;
  return `${FIELD_WORDS[field] || cap(field.replace(/[_-]/g, " "))}: ${text}`;
}
// the switch keys of an error line in words ("game_at_once needs revoke=game" -> "\"Win at
// once ...\" needs \"A revoke costs\" = game"): each switch's label (/api/rules); a
// one-word key (target, tie, revoke) only as key=value, the word alone being plain English
export function switchWords(text) {
  for (const r of (state.info && state.info.switches) || []) {
    const plain = /^[a-z]+$/.test(r.name);
    text = text.replace(new RegExp(`\\b${r.name}\\b(?:=(\\w+))?`, "g"), (m, v) =>
      plain && v === undefined ? m : `"${r.label}"` + (v ? ` = ${v.replace(/_/g, " ")}` : ""));
  }
  return text;
}
// lead: words before it ("Not loaded (the set-up is unchanged): ")
export function showError(line, lead) {
  const e = $("#error");
  e.dataset.line = line;
  e.textContent = (lead || "") + plainError(line);
  e.hidden = false;
}
export function clearError() {
  const e = $("#error");
  e.hidden = true; e.textContent = ""; delete e.dataset.line;
}

// a POST of JSON; a 4xx/5xx answer's one line (or the network's failure) is thrown
export async function send(path, body, signal) {
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
export async function postJSON(path, body, signal) {
  const resp = await send(path, body, signal);
  try { return await resp.json(); } catch (e) { throw new Error(`error: server: HTTP ${resp.status}`); }
}

// POST with server-sent events back: onEvent(name, data) for each; resolves at the end
export async function postStream(path, body, signal, onEvent) {
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

// breaks between tricks, never inside one
export function trickGroup(box, i, n) {
  if (i % n === 0) { const g = document.createElement("span"); g.className = "trick-group"; box.appendChild(g); }
  return box.lastElementChild;
}

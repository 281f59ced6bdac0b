// catchten serve: the analysis page's entry module (index.html loads it as a module; it
// imports the others from /static/). The engine badge, loading a pasted position or
// record, the buttons' wiring, and the start (a ?position= link opens and advises).
import { $, state, setState, showError, clearError, postJSON } from "./core.js";
import { loadRules, renderScore, refreshCheck, refreshGrid, setTarget, setupChanged, setPosition } from "./setup.js";
import { cancelRuns, advise, markStale } from "./advice.js";
import { openDeal, solveAt, renderDeal, showCheck } from "./deal.js";
import { simulateRules } from "./simulate.js";

// ------------------------------------------------------------------ engine state
async function pollEngine() {
  const el = $("#engine");
  try {
    const r = await fetch("/api/status");
    const s = await r.json();
    if (s.max_time) {            // this server's cap on one request's time, said at the field
      $("#time").max = s.max_time;
      $("#time-note").textContent = `for the whole advice; at most ${s.max_time} s on this server`;
    }
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

// ------------------------------------------------------------------ loading
// a pasted or loaded position or hand record is taken whole or not at all: the server
// checks it first (/api/check, advise's or solve's own checks), and only then does the
// set-up (or the all-hands view) change
const NOT_LOADED = "Not loaded (the set-up is unchanged): ";
async function checkedPosition(data) {
  await postJSON("/api/check", { position: data });
  return data;
}
async function loadText(text) {
  clearError();
  let data;
  try { data = JSON.parse(text); } catch (e) { throw new Error(`error: input: not JSON (${e.message})`); }
  // a position, or (with hands) a hand record checked as catchten solve takes it: a bad
  // field, a game record, anything else is refused whole before any of it is shown
  const { kind } = await postJSON("/api/check", { input: data });
  if (kind === "hand record") { await openDeal(data); return; }
  await setPosition(data);
  await advise(data);
}
// the banner is at the top of the page: brought into view (the Load button may be far
// below it, under an all-hands view)
const loadFailed = (e) => {
  showError(e.message, NOT_LOADED); setState("error");
  // instant: it also stops a smooth scroll still under way (to an all-hands view)
  $("#error").scrollIntoView({ block: "nearest", behavior: "instant" });
};

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
  $("#score-on").onchange = () => { renderScore(); markStale(); };
  for (const b of document.querySelectorAll(".tab")) b.onclick = () => { setTarget(b.dataset.target); refreshGrid(); };
  $("#undo-play").onclick = changed(() => { state.play.pop(); });
  $("#clear").onclick = changed(() => { state.hand = []; state.play = []; state.turnup = null; });
  $("#advise").onclick = () => advise();
  $("#simulate").onclick = () => simulateRules();
  document.addEventListener("keydown", (e) => {     // Escape closes a figure shown full size
    if (e.key === "Escape") document.querySelectorAll(".sim-fig.open").forEach((b) => b.classList.remove("open"));
  });
  $("#cancel").onclick = () => cancelRuns();
  $("#load").onclick = () => loadText($("#paste").value).catch(loadFailed);
  $("#file").onchange = async () => {
    const f = $("#file").files[0];
    if (f) loadText(await f.text()).catch(loadFailed);
  };
  $("#deal").onclick = async () => {
    clearError();
    try {
      // deal number <dealer> of the seed's simulation: the dealer rotates (deal i is
      // dealt by seat i mod players), so the deal's dealer is the set-up's
      const rec = await postJSON("/api/deal", { ...state.rules, seed: Number($("#deal-seed").value),
                                                index: state.dealer });
      await openDeal(rec);
    } catch (e) { showError(e.message); setState("error"); }
  };
  $("#deal-undo").onclick = () => { if (state.deal && state.deal.cursor > 0) { state.deal.cursor -= 1; renderDeal(); } };
  $("#deal-start").onclick = () => { if (state.deal) { state.deal.cursor = 0; renderDeal(); } };
  $("#deal-check").onclick = async () => {
    // each played card's double-dummy loss: a solve before every card of the play up to
    // the position shown (cards after it, taken back with Undo, are not checked)
    const d = state.deal;
    if (!d) return;
    const upto = d.cursor;
    clearError();
    setState("working");
    try {
      for (let i = 0; i < upto; i++) {
        if (state.deal !== d) return;
        await solveAt(i);
      }
    } catch (e) { showError(e.message); setState("error"); return; }
    await renderDeal();
    if (state.deal !== d) return;
    showCheck(d, upto);
    $("#deal-played").dataset.checked = upto;
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
      try { await checkedPosition(p); } catch (e) { e.lead = "The link's position was not opened: "; throw e; }
      await setPosition(p);
      window.scrollTo(0, 0);
      await advise(p, true);
      return;
    }
    await loadRules();
  } catch (e) {
    showError(e.message, e.lead);
    setState("error");
    if (!state.info) { state.rules = { rules: "foster", players: 4, variants: {} }; await loadRules(); }
  }
}
main();

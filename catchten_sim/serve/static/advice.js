// The advice: the rollout and double-dummy runs (streamed), the table of card values, the
// answer in words (/api/words).
import { $, measures, state, pretty, seconds, isRed, fmt, setState, showError, clearError, postJSON, postStream, plainError } from "./core.js";
import { position, positionKey } from "./setup.js";

// the least seconds a run is given when the Time is (nearly) used up
const MIN_RUN_S = 0.5;

// ------------------------------------------------------------------ advice
// time: the run's seconds (default the Time field: the whole advice's budget)
export function options(evaluator, time) {
  const o = { seed: Number($("#seed").value), time: time ?? Number($("#time").value) };
  if (!$("#early-stop").checked) o.early_stop = false;
  if (evaluator === "dd") { o.evaluator = "dd"; o.samples = Number($("#dd-samples").value); }
  else o.samples = Number($("#samples").value);
  return o;
}
export function cancelRuns() {
  for (const r of Object.values(state.runs)) if (r.controller) r.controller.abort();
}
// fromLink: the page was opened with ?position=: it stays at the top (the position's
// start), the answer filling in below, not scrolled to the advice
export async function advise(extraPosition, fromLink) {
  clearError();
  cancelRuns();
  state.cancelWhy = null;
  const pos = extraPosition || position();
  state.advisedKey = positionKey();     // the set-up this advice is for
  markStale();
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
  let used = 0;                        // seconds the runs have run so far (on a worker)
  const one = async (ev, key, opts) => {
    const controller = new AbortController();
    runs[key] = { controller, result: null, error: null, opts };
    const prog = $(`#prog-${ev}`), text = $(`#ptext-${ev}`);
    // the rows are this advice's only while it is the page's: a late event of an older
    // advice (cancelled for a newer one) never writes there
    const mine = () => state.runs === runs;
    // what the row says: the run's own state (waiting in the server's queue, running:
    // the seconds it has run of its limit, the deals done)
    let started = null, deals = null, ticker = null;
    const say = () => {
      if (!mine() || started === null) return;
      const s = Math.floor((performance.now() - started) / 1000);
      text.textContent = (deals === null ? "running" : `${deals.toLocaleString()} deals`) +
        `, ${s} s of at most ${opts.time} s`;
    };
    prog.value = 0; text.textContent = "waiting";
    try {
      await postStream("/api/advise/stream", { position: pos, options: opts }, controller.signal,
        (name, data) => {
          if (!mine()) return;
          if (name === "queued") {
            if (started !== null) return;
            // "waiting": every worker is busy (or warming), the job waits in the queue
            text.textContent = ($("#engine").dataset.engine === "warming" ? "waiting for the engine to warm up"
              : data.state === "waiting" || data.ahead
                ? "waiting for a free worker" + (data.ahead ? ` (${data.ahead} ahead)` : "")
                : "starting");
          } else if (name === "started") {
            started = performance.now();
            say();
            ticker = setInterval(say, 1000);
          } else if (name === "progress") {
            prog.max = data.total; prog.value = data.done;
            deals = data.done;
            say();
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
    clearInterval(ticker);
    // the seconds it ran (from when a worker took it): what it used of Time
    if (started !== null) used += (performance.now() - started) / 1000;
    runs[key].controller = null;
  };
  // the rollouts first (a fraction of a second), then dd, each with every core: the first
  // values reach the screen sooner than with the two runs sharing the cores. dd's values
  // so far show after its first 16 deals, 2 on a 52-card deal (advise's first dd batch,
  // then after every batch) until its final values replace them: one run, no deal
  // solved twice
  // Time is the whole advice's computing time: each run gets what is left of it (dd at
  // least MIN_RUN_S), counted from when a worker takes each run: a wait in the server's
  // queue for a free worker is not taken out of it
  const budget = Number($("#time").value);
  const left = () => Math.max(MIN_RUN_S, Math.floor(10 * (budget - used)) / 10);
  runs.dd = { controller: null, result: null, error: null };
  await one("rollout", "rollout", options("rollout", budget));
  const ok = () => state.runs === runs && Object.values(runs).every((r) => !r.error);
  if (ok()) {                          // the rollouts' answer while dd runs
    try { await renderWords(); } catch (e) { /* the final answer will say it */ }
  }
  if (ok()) await one("dd", "dd", options("dd", left()));
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
export function clearModels() {
  for (const ev of ["rollout", "dd"]) {
    const prog = $(`#prog-${ev}`);
    prog.max = 1; prog.value = 0;
    $(`#ptext-${ev}`).textContent = "";
  }
  $("#unit-rollout").textContent = ""; $("#unit-dd").textContent = "";
  $("#th-fusion").hidden = true;
  $("#cards tbody").innerHTML = "";
  $("#details-text").textContent = "";
  $("#trust").hidden = true;
  $("#foot-ranges").textContent = FOOT_RANGES;
}
// the footer's word on the intervals; with a run on too few deals to choose a card, it
// says that run's are rough (renderWords)
const FOOT_RANGES = "intervals 95%";
// the runs of an advice on too few deals to choose a card (/api/words too_few, {dd: 12}):
// their column marks the card leading so far (☆), not a best card (★)
const tooFewOf = new WeakMap();
// the advice on screen is for another set-up than the one shown (changed since it was
// asked): greyed, and a line says so; changed back, it is this position's again
export function markStale() {
  const stale = !!state.advisedKey && state.advisedKey !== positionKey();
  $("#advice").classList.toggle("stale", stale);
  $("#stale-note").hidden = !stale;
}
// an advice that failed (err: the server's line) or was cancelled: a run that did not
// finish shows nothing (not its values so far), its row says what happened, and the
// answer says it in words; a run that finished keeps its values
export async function endFailed(runs, err) {
  clearModels();
  const said = {};
  for (const ev of ["rollout", "dd"]) {
    const r = runs[ev];
    r.running = null;
    if (r.result) { showDone(ev, r.result); continue; }
    const e = r.error;
    said[ev] = e && e !== "cancelled" ? `failed (${plainError(e)})`
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
export function showDone(ev, data) {
  const prog = $(`#prog-${ev}`);
  prog.max = 1; prog.value = 1;
  $(`#ptext-${ev}`).textContent = `${data.samples.toLocaleString()} deals, ${seconds(data.elapsed_s)}` +
    (data.stop === "time" ? " (time limit)" : "");
}
// ended: the advice stopped (failed, cancelled): a value still missing is not coming
export function renderAdvice(ended) {
  const ro = state.runs.rollout && state.runs.rollout.result;
  const ddFull = state.runs.dd && state.runs.dd.result;
  // a run still going: its values so far (the running means; intervals come at the end)
  const live = (key) => state.runs[key] && !state.runs[key].result && state.runs[key].running;
  const roLive = !ro && live("rollout");
  const ddLive = !ddFull && live("dd");
  const dd = ddFull;
  $("#unit-dd").textContent = (dd ? dd.measure : measures().dd) +
    (ddLive ? `; ${ddLive.done.toLocaleString()} deals so far` : "");
  $("#unit-rollout").textContent = roLive ? `${roLive.done.toLocaleString()} deals so far` : measures().diff;
  const fusion = ddFull && ddFull.fusion;   // null outside its scope (fusion_reason)
  $("#th-fusion").hidden = !fusion;
  if (fusion) $("#unit-fusion").textContent = `${ddFull.measure}, as the double-dummy column; every consistent deal`;
  const tbody = $("#cards tbody");
  const order = [];
  for (const a of [ro, dd]) if (a) for (const c of a.candidates) if (!order.includes(c.card)) order.push(c.card);
  for (const l of [roLive, ddLive]) if (l) for (const c of Object.keys(l.means)) if (!order.includes(c)) order.push(c);
  if (ro) $("#unit-rollout").textContent = ro.measure;
  tbody.innerHTML = "";
  const ties = { ro: ro ? tiesOf(ro) : {}, dd: dd ? tiesOf(dd) : {} };
  const few = tooFewOf.get(state.runs) || {};
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
      if (card === ro.best) tr.classList.add(few.rollout ? "lead-rollout" : "best-rollout");
    }
    if (cd) {
      tr.dataset.dd = cd[dd.objective].mean;
      if (card === dd.best) tr.classList.add(few.dd ? "lead-dd" : "best-dd");
    }
    const cell = (c, obj, best, cls, l, n) => {
      const td = document.createElement("td"); td.className = cls;
      if (l && card in l.means) {
        tr.dataset[`${cls}SoFar`] = l.means[card];     // data-ro-so-far, data-dd-so-far
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
      // n: the run's deals when too few to choose a card: its leader so far, no best card
      td.innerHTML = `<span class="v">${show(e.mean)}</span>${ci}` + (!best ? "" : n
        ? ` <span class="star lead" title="leads so far: ${n.toLocaleString()} deals are too few to choose a card">\u2606</span>`
        : ' <span class="star" title="best card">\u2605</span>');
      const same = ties[cls][card];        // "= J♠": tied with an earlier card of the run
      if (same) {
        const tie = document.createElement("span");
        tie.className = "tie"; tie.dataset.tie = same.ref; tie.dataset.every = same.every;
        tie.textContent = `= ${pretty(same.ref)}`;
        tie.title = `same value as ${pretty(same.ref)}: ` + (same.every
          ? "the two cards scored exactly alike on every deal of this run"
          : "the same mean and interval in this run");
        td.append(" ", tie);
      }
      return td;
    };
    tr.append(td0, cell(cr, ro && ro.objective, ro && card === ro.best, "ro", roLive, few.rollout),
              cell(cd, dd && dd.objective, dd && card === dd.best, "dd", ddLive, few.dd));
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
  renderDetails(ro, dd, state.runs.dd);
}
// the cards of a run tied with another, card -> {ref, every}: the run's equivalent_to
// (scored as the best card on every deal: the CLI's AS=JS, every: true), and a card whose
// value and interval equal an earlier card's in the run's order (every: false)
export function tiesOf(a) {
  const out = {}, first = {};
  for (const c of a.candidates) {
    if (c.equivalent_to) { out[c.card] = { ref: c.equivalent_to, every: true }; continue; }
    const e = c[a.objective];
    if (!e) continue;
    const key = JSON.stringify([e.mean, e.ci95]);
    if (key in first) out[c.card] = { ref: first[key], every: false };
    else first[key] = c.card;
  }
  return out;
}
// the CLI flags of a run's options: `catchten advise POSITION --json` with them prints
// the run's answer to the digit (unless it stopped at its time limit: then the deals done
// depend on the machine's speed)
export function cliFlags(o) {
  return [o.evaluator ? `--evaluator ${o.evaluator}` : null, `--samples ${o.samples}`,
          `--seed ${o.seed}`, `--time ${o.time}`, o.early_stop === false ? "--no-early-stop" : null]
    .filter(Boolean).join(" ");
}
// each run's Details in plain words (/api/words details: deals, what the values are,
// why it stopped, the ranges, its notes), asked once per answer
const detailsAsked = new WeakMap(), detailsGot = new WeakMap();
function detailsOf(a, ev) {
  if (!detailsAsked.has(a)) {
    detailsAsked.set(a, postJSON("/api/words", { [ev]: a }).then((w) => {
      detailsGot.set(a, w.details[ev]);
      return w.details[ev];
    }));
  }
  return detailsAsked.get(a);
}
function renderDetails(ro, dd, ddRun) {
  const box = $("#details-text");
  box.innerHTML = "";
  for (const [name, a, run, ev] of [["Rollouts", ro, state.runs.rollout, "rollout"], ["Double-dummy", dd, ddRun, "dd"]]) {
    if (!a) continue;
    const p = document.createElement("p");
    p.dataset.details = ev;
    const say = (lines) => { p.textContent = `${name}: ${lines.join("; ")}.`; };
    if (detailsGot.has(a)) say(detailsGot.get(a));
    else {
      p.textContent = `${name}: ${a.samples.toLocaleString()} deals.`;
      detailsOf(a, ev).then(say, (e) => { p.textContent = `${name}: ${plainError(e.message)}`; });
    }
    // not the dd run's model_note: it quotes the dd run's own small rollout check, which
    // would contradict the page's own rollout run above (each model from its own run)
    box.appendChild(p);
    if (!run || !run.opts) continue;
    const q = document.createElement("p");
    q.className = "cli";
    const code = document.createElement("code");
    code.dataset.cli = ev;
    code.textContent = `catchten advise POSITION.json ${cliFlags(run.opts)}`;
    q.append("The same run from the command line (POSITION.json: the position in this page's link): ", code,
      a.stop_reason.includes("--time") ? " (this run stopped at its time limit: the CLI does as many deals as its machine's speed allows, so its numbers differ)" : "");
    box.appendChild(q);
  }
}
export async function renderWords() {
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
  tooFewOf.set(runs, w.too_few || {});
  // the headline (words.headline): how firm each run's pick is, with the cards the same on
  // every deal ("K♣ (or A♣: the same on every deal)"), dd's too unless it picks the same
  // card; a run on too few deals to choose a card (words.too_few) chooses none: it says
  // so, and only which cards lead so far (the ranges' widths are in its line below)
  p(w.headline, "headline");
  for (const line of w.best) p(line);
  if (w.trump_line) p(w.trump_line, "headline trump");
  if (w.p_win) p(w.p_win);
  if (w.disagree) p(w.disagree, "disagree");
  if (w.fusion) p(w.fusion, "fusion");
  if (!dd) p("Double-dummy values coming…", "hint");
  $("#trust").textContent = w.trust;      // explain.WHICH_TO_TRUST, as the CLI prints it
  $("#trust").hidden = !w.trust;
  const rough = Object.entries(w.too_few || {}).map(([ev, n]) =>
    `${ev === "dd" ? "double-dummy" : "the rollouts"}'s from ${n.toLocaleString()} deals only, too few to choose a card`);
  $("#foot-ranges").textContent = FOOT_RANGES + (rough.length ? ` (${rough.join("; ")})` : "");
  if (Object.keys(w.too_few || {}).length) renderAdvice();   // ☆ for its leader, not ★
}

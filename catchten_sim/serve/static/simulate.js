// Simulate the rules set up (/api/simulate/stream): the Ten's fate, each position's
// points, and the report's figures.
import { $, state, fmt, setState, showError, clearError, postStream } from "./core.js";

// ------------------------------------------------------------------ simulate
export async function simulateRules() {
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

// Cartulina offline: the hand form's payments with no network, worked out by the engine on the
// phone (offline-engine.js) after the entries waiting before it, in the form's live bar.
import { state, fixId } from "./offline-state.js";
import { msg } from "./offline-status.js";
import { fieldsOf } from "./offline-fields.js";
import { askEngine, enginePrepared, engineOlder, engineReady } from "./offline-engine.js";

var asked = 0; // the previews asked for: only the last one's answer is shown

// The page's words for what the phone's engine says (data-offline-words: the form reader's messages,
// each result's word), so an English page stays English offline.
function offlineWords(form) {
  try { return JSON.parse(form.getAttribute("data-offline-words") || "{}") || {}; } catch (e) { return {}; }
}

// What the hand on the form does, by the phone's engine, after the entries waiting before it.
function offlinePreview(form) {
  var text = null;
  try { text = localStorage.getItem("cartulina-session-" + state.token); } catch (e) { /* private mode */ }
  if (!text || !enginePrepared() || form.getAttribute("data-offline") !== "hand") return null;
  var fixing = fixId();
  var queued = [];
  for (var i = 0; i < (state.entries || []).length; i++) {
    var entry = state.entries[i];
    if (entry.id === fixing) break;
    queued.push({ form: entry.form, fields: entry.fields });
  }
  var fields = {};
  fieldsOf(form).forEach(function (pair) { fields[pair[0]] = pair[1]; });
  var lances = Array.prototype.map.call(form.querySelectorAll('input[name="lance"]'), function (el) {
    return el.value;
  });
  var said = offlineWords(form).reader || {};
  return askEngine({ type: "preview", session: JSON.parse(text), queued: queued, fields: fields, lances: lances, words: said })
    .then(function (answer) { return answer.preview || (answer.error ? { unknown: true } : null); });
}

function signed(n) { return (n > 0 ? "+" : n < 0 ? "\u2212" : "") + Math.abs(n); }

// The bar the payments go in: the hand form's own (#live), or one made for it (a form with none).
function liveBar() {
  var bar = document.getElementById("live");
  var thumb = document.querySelector("body > .thumb-bar");
  if (bar || !thumb) return bar;
  bar = document.createElement("div");
  bar.id = "live";
  bar.className = "live";
  bar.setAttribute("role", "status");
  bar.setAttribute("aria-live", "polite");
  bar.hidden = true;
  thumb.classList.add("hand-bar");
  thumb.insertBefore(bar, thumb.firstChild);
  return bar;
}

// What each person wins or pays (a pot, the plato, the pozo, the bote…, is nobody), most first; or
// the scores after it for tantos with no money (the juego de bandos).
function moves(preview) {
  var entry = preview.entry;
  if (!entry.transfers && entry.scores) {
    return Object.keys(entry.scores).map(function (s) { return (preview.names[s] || s) + " " + entry.scores[s]; });
  }
  var nets = {};
  function person(who) { return Object.prototype.hasOwnProperty.call(preview.names, String(who)); }
  (entry.transfers || []).forEach(function (t) {
    if (person(t.from)) nets[t.from] = (nets[t.from] || 0) - t.amount;
    if (person(t.to)) nets[t.to] = (nets[t.to] || 0) + t.amount;
  });
  return Object.keys(nets).filter(function (s) { return nets[s]; }).sort(function (a, b) {
    return nets[b] - nets[a];
  }).map(function (s) { return (preview.names[s] || s) + " " + signed(nets[s]); });
}

function renderPaid(form, bar, preview) {
  var entry = preview.entry;
  bar.classList.remove("bad");
  var result = (offlineWords(form).results || {})[entry.result] || String(entry.result || "").replace(/_/g, " ");
  bar.textContent = [msg("offline_hand", { n: preview.n }), result].concat(moves(preview)).join(" · ") +
    " · " + msg("offline_computed") + (engineOlder() ? " " + msg("offline_older_engine") : "");
  form.setAttribute("data-offline-shown", JSON.stringify({ n: preview.n, transfers: entry.transfers || [] }));
}

function renderOffline(form, preview) {
  var bar = liveBar();
  if (!bar || !preview) return;
  bar.hidden = false;
  bar.setAttribute("data-offline-preview", "true");
  form.removeAttribute("data-offline-shown");
  if (preview.ok) {
    renderPaid(form, bar, preview);
  } else if (preview.unknown) {
    bar.classList.remove("bad");
    bar.textContent = msg("offline_unknown");
  } else {
    var names = Object.keys(preview.problems || {});
    bar.classList.toggle("bad", names.length > 0);
    bar.textContent = names.length ? preview.problems[names[0]][0] : (preview.missing || [])[0] || "";
    bar.hidden = !bar.textContent;
  }
}

function calculating() {
  var bar = liveBar();
  if (!bar) return;
  bar.hidden = false;
  bar.classList.remove("bad");
  bar.setAttribute("data-offline-preview", "calculating");
  bar.textContent = msg("offline_calculating") || "calculando…";
}

// The form's payments by the phone's engine; false when it cannot tell (no engine, no session kept).
export function showOfflinePreview(form) {
  var answer = offlinePreview(form);
  if (!answer) return false;
  var mine = (asked += 1);
  if (!engineReady()) calculating(); // the engine still warming up (seconds on a phone): said, not blank
  answer.then(function (preview) {
    if (mine !== asked) return;
    if (preview) renderOffline(form, preview);
    else renderOffline(form, { unknown: true }); // no engine after all: the payments come with the network
  });
  return true;
}

// The hand form offline: its payments as the keeper taps, by the phone's engine.
export function previewOffline() {
  var form = document.querySelector('form[data-offline="hand"]');
  if (!form || !enginePrepared()) return;
  function again() { if (!navigator.onLine || state.away) showOfflinePreview(form); }
  form.addEventListener("change", function () { window.setTimeout(again, 0); }); // after app.js's own
  form.addEventListener("input", again);
  if (!navigator.onLine) window.setTimeout(again, 0);
}

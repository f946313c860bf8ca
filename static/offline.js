// Cartulina with no network: the offline modules, started. Every page works without them.
//
// - Registers the service worker (/sw.js), which keeps the shell and the pages the phone opened.
// - A page opened with no network says so: "sin conexión · datos de las HH:MM" (when the server
//   made that copy); a watcher's view refreshes again when the network returns.
// - A form kept offline is queued (offline-forms.js, offline-queue.js); the table page lists what
//   waits (offline-list.js); when the network returns (offline-sync.js) the queue is sent in order
//   (offline-send.js); a refusal waits for the keeper (offline-refusals.js, offline-fixing.js).
// - While offline, on a phone that keeps the engine (offline-engine.js, offline-preview.js), the
//   table page and its hand forms behave as one page (offline-pages.js), so the engine's worker,
//   started when the network went, stays warm for every hand of the offline stretch.
// What they share is in offline-state.js; the boxes they write in are in offline-status.js.
// Loaded as a module after static/i18n.js and static/app.js, before static/reach.js (base.html).
// Nothing here knows the game: no rule, no field name of a hand.
import { state, onTablePage } from "./offline-state.js";
import { banner } from "./offline-status.js";
import { tell } from "./offline-refusals.js";
import { guard } from "./offline-fixing.js";
import { setUpEngine, tellInsecure, watchEngine } from "./offline-engine.js";
import { previewOffline } from "./offline-preview.js";
import { asCopy, copyFromWorker, isCopy, keepForms, lateAnswers, onPopState, whenPlaced } from "./offline-pages.js";
import { refresh, savedNote } from "./offline-list.js";
import { retryNow, retryWhenShown, watchAnswers, whenOnline } from "./offline-sync.js";
import { chooseFromLink, fillForFix, onClick, onSubmit } from "./offline-forms.js";

function start() {
  document.addEventListener("submit", guard, true); // a fix form with a choice to make: before any other
  tellInsecure();
  watchEngine();
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () { /* no worker: online only */ });
  }
  document.addEventListener("submit", onSubmit);
  document.addEventListener("click", onClick);
  window.addEventListener("popstate", onPopState);
  window.addEventListener("offline", function () {
    banner(true);
    if (state.token) { state.away = true; retryNow(); }
  });
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) state.submitting = state.through = false; // back from the page cache
  });
  lateAnswers();
  if (!state.token) {
    window.addEventListener("online", whenOnline);
  } else {
    window.addEventListener("online", retryNow);
    document.addEventListener("visibilitychange", retryWhenShown);
    watchAnswers();
  }
  whenPlaced(pageStart);
  pageStart(false);
}

// What each page needs, on loading and when put in place (placed: the page is the phone's copy).
function pageStart(placed) {
  state.submitting = state.through = state.confirmed = false;
  state.kept = false;
  if (placed) { // the page's other scripts, again for the page put in place
    if (window.cartulinaApp) window.cartulinaApp.init();
    if (window.cartulinaReach) window.cartulinaReach.init();
  }
  setUpEngine(previewOffline);
  if (placed || isCopy()) asCopy();
  else copyFromWorker();
  if (!state.token) return;
  refresh().then(function () {
    savedNote();
    tell(state.entries);
    fillForFix();
    chooseFromLink();
    if (!placed) retryNow();
  });
  if (navigator.onLine && onTablePage()) keepForms();
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();

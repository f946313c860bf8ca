// Cartulina offline: the engine on the phone. Downloaded only when the keeper taps "Preparar para
// jugar sin conexión" (the size is on the button) or once the app is installed; kept by the service
// worker; started in a worker (/offline/motor.js, static/engine-worker.js) when the network goes, so
// that it is warm when a payment is asked for (offline-preview.js asks).
import { state, offline, onTablePage } from "./offline-state.js";

var ENGINE_MARK = "cartulina-engine";
var ENGINE_WANTED = "cartulina-engine-wanted"; // a newer version whose download was cut off
var engine = { worker: null, asked: 0, waiting: {}, started: 0, ready: false, failed: false };

export function enginePrepared() {
  try { return localStorage.getItem(ENGINE_MARK); } catch (e) { return null; }
}

// Whether the phone computes with an older engine than the app's (its update was cut off).
export function engineOlder() {
  try {
    var wanted = localStorage.getItem(ENGINE_WANTED);
    return !!wanted && wanted !== localStorage.getItem(ENGINE_MARK);
  } catch (e) { return false; }
}

// Warmed up: answers come at once from now on.
export function engineReady() { return engine.ready; }

// Where a payment can be asked for offline: the table page (its new-hand forms are shown in place)
// and a new-hand form. The other pages (ajuste, cambio, a hand's page) are loaded whole: a worker
// started there would compile Pyodide for nothing, seconds of a slow phone's processor.
export function enginePage() { return !!(onTablePage() || document.querySelector('form[data-offline="hand"]')); }

function showEngine(said) {
  var box = document.getElementById("motor");
  if (!box) return;
  var button = box.querySelector("[data-engine-prepare]");
  var line = box.querySelector("[data-engine-state]");
  if (button) button.hidden = said === "ready" || said === "preparing";
  if (line && said) {
    line.textContent = line.getAttribute("data-" + said) || "";
    line.hidden = false;
  }
  box.setAttribute("data-engine", said || "");
}

// The service worker's answer to "keep-engine": the version kept, or the one the phone still has.
function engineKept(answer, version) {
  if (answer.kept) {
    try {
      localStorage.setItem(ENGINE_MARK, answer.kept);
      localStorage.removeItem(ENGINE_WANTED);
    } catch (e) { /* private mode */ }
    showEngine("ready");
    keepSession();
    return true;
  }
  // cut off midway: the service worker kept the engine the phone had (answer.had), and the
  // hand form says it computes with that one until the new one is downloaded
  try {
    if (answer.had) localStorage.setItem(ENGINE_MARK, answer.had);
    if (answer.had && version) localStorage.setItem(ENGINE_WANTED, version);
  } catch (e) { /* private mode */ }
  showEngine("failed");
  return false;
}

function prepareEngine() {
  var box = document.getElementById("motor");
  var version = box ? box.getAttribute("data-engine-version") : null;
  if (!("serviceWorker" in navigator) || !window.MessageChannel) return Promise.resolve(false);
  showEngine("preparing");
  return navigator.serviceWorker.ready.then(function (registration) {
    return new Promise(function (resolve) {
      var channel = new MessageChannel();
      channel.port1.onmessage = function (event) { resolve(engineKept(event.data || {}, version)); };
      registration.active.postMessage({ type: "keep-engine", version: version }, [channel.port2]);
    });
  });
}

// The worker, started once per page: {type: "start"} loads Pyodide and imports scorer.engine.
function engineWorker() {
  if (engine.worker || !enginePrepared() || !window.Worker) return engine.worker;
  engine.worker = new Worker("/offline/motor.js", { type: "module" });
  engine.started += 1; // once per window: pages shown in place share it (tests count it)
  document.documentElement.setAttribute("data-engine-workers", String(engine.started));
  engine.worker.onmessage = function (event) {
    var answer = event.data || {};
    if (!answer.error) engine.ready = true; // warmed up: answers come at once from now on
    var done = engine.waiting[answer.id];
    delete engine.waiting[answer.id];
    if (done) done(answer);
  };
  // no engine to start (the phone lost its copy): every question is answered, the bar says so in words
  engine.worker.onerror = function () {
    engine.failed = true;
    var waiting = engine.waiting;
    engine.waiting = {};
    Object.keys(waiting).forEach(function (id) { waiting[id]({ error: "no engine" }); });
  };
  return engine.worker;
}

// A question to the worker; resolves with its answer ({error} when there is no engine).
export function askEngine(message) {
  var worker = engineWorker();
  if (!worker) return Promise.resolve({ error: "not prepared" });
  if (engine.failed) return Promise.resolve({ error: "no engine" });
  engine.asked += 1;
  var id = engine.asked;
  return new Promise(function (resolve) {
    engine.waiting[id] = resolve;
    message.id = id;
    worker.postMessage(message);
  });
}

export function startEngine() { return askEngine({ type: "start" }); }

// scorer.engine.settle(session) on the phone: resolves with {ledger} or {error}.
window.cartulinaEngine = {
  prepared: function () { return !!enginePrepared(); },
  start: startEngine,
  settle: function (session) { return askEngine({ type: "settle", session: session }); },
};

// The session as the server last sent it to this phone (kept for the engine, opted-in phones only).
export function keepSession() {
  if (!enginePrepared() || !state.token || !navigator.onLine || !onTablePage()) return;
  fetch("/api/tables/" + encodeURIComponent(state.token), { credentials: "same-origin", cache: "no-store" })
    .then(function (r) { return r.ok ? r.text() : null; })
    .then(function (text) {
      if (text) localStorage.setItem("cartulina-session-" + state.token, text);
    })
    .catch(function () { /* kept next time */ });
}

// The keeper's box (#motor): ready, or downloaded again for a new version of the app, or behind
// once the app is installed.
function engineBox(box) {
  var version = box.getAttribute("data-engine-version");
  var prepared = enginePrepared();
  if (prepared && prepared === version) showEngine("ready");
  else if (prepared && navigator.onLine) prepareEngine(); // a new version of the app: again, behind
  var button = box.querySelector("[data-engine-prepare]");
  if (button) button.addEventListener("click", prepareEngine);
  var standalone = window.matchMedia && window.matchMedia("(display-mode: standalone)").matches;
  if (!prepared && standalone && navigator.onLine) prepareEngine(); // installed: downloaded behind
}

// Each page: the keeper's box; on a phone that keeps the engine, the session kept, the hand form's
// payments offline (preview: offline-preview.js), and the engine started when already offline.
export function setUpEngine(preview) {
  var box = document.getElementById("motor");
  if (box) engineBox(box);
  if (enginePrepared()) {
    keepSession();
    preview();
    if (offline() && enginePage()) startEngine();
  }
}

// Once per window: the engine starts when the network goes (or the server stops answering), so
// its warm-up is done before the keeper opens the hand form.
export function watchEngine() {
  if (document.getElementById("motor")) {
    window.addEventListener("appinstalled", function () { if (!enginePrepared()) prepareEngine(); });
  }
  window.addEventListener("offline", function () {
    if (enginePrepared() && enginePage()) startEngine();
  });
}

// Not a secure context (plain http at a LAN address): no service worker, so no offline play and
// no home-screen app. The keeper's table page says so where "Preparar…" would be (_secure_context.html).
export function tellInsecure() {
  var notice = document.querySelector("[data-insecure-notice]");
  if (!notice || window.isSecureContext) return;
  notice.hidden = false;
  var box = document.getElementById("motor");
  if (box) box.hidden = true;
}

// Cartulina offline: the network's return. It is noticed without trusting the browser's `online`
// event or navigator.onLine (a page the worker served offline may never see either change): while
// something waits (entries to send, the "sin conexión" note) the server is asked again 2 s after a
// failure, then 4, 8, 16 and every 30 s; at once when the page is shown again and when any other
// request of the page gets the server's answer. When it answers: the note goes, the queue is sent,
// the page catches up.
import { state, offline, onTablePage } from "./offline-state.js";
import { banner } from "./offline-status.js";
import { reachable, serverFetch } from "./offline-send.js";
import { trySend } from "./offline-list.js";
import { keepForms } from "./offline-pages.js";

// When to ask the server again after it did not answer: 2 s, then twice as long each
// time, at most 30 s. `previous` is the last wait (0: none yet).
var RETRY_FIRST_MS = 2000;
var RETRY_MAX_MS = 30000;
function retryDelay(previous) {
  return previous ? Math.min(previous * 2, RETRY_MAX_MS) : RETRY_FIRST_MS;
}

// Ask the server; when it answers: the note goes, the queue is sent, the page catches up.
export function whenOnline() {
  return reachable().then(function (status) {
    if (status === null) return banner(true);
    banner(false);
    if (onTablePage()) keepForms(); // a page opened offline keeps the next forms now
    return trySend().then(function (saved) {
      if (!saved) freshen(status);
    });
  });
}

// Does anything wait for the network? Entries to send (not one refused first), or the note shown.
function waiting() {
  var first = (state.entries || [])[0];
  return !!state.token && (offline() || (!!first && first.state !== "refused"));
}

// Ask again: now (a sign of the network), or after retryDelay() while the answer is still no.
var retry = { timer: null, delay: 0, asking: false };
export function retryNow() {
  retry.delay = 0;
  askServer();
}

function askServer() {
  clearTimeout(retry.timer);
  retry.timer = null;
  if (retry.asking) return;
  retry.asking = true;
  function then() {
    retry.asking = false;
    if (!waiting()) {
      retry.delay = 0;
      return;
    }
    retry.delay = retryDelay(retry.delay);
    retry.timer = setTimeout(askServer, retry.delay);
  }
  whenOnline().then(then, then);
}

// The page shown again with something waiting: ask at once.
export function retryWhenShown() {
  if (document.visibilityState === "visible" && waiting()) retryNow();
}

// Any answer of the server to the page's other requests (a preview, a watcher's refresh) means the
// network is back. Our own requests go through serverFetch, the browser's fetch as it was.
export function watchAnswers() {
  if (!serverFetch) return;
  window.fetch = function () {
    var answer = serverFetch.apply(null, arguments);
    answer.then(function (response) {
      var origin = window.location.origin;
      var server = response.url.indexOf(origin + "/") === 0 && response.url.indexOf(origin + "/static/") !== 0;
      if (server && response.status < 500 && offline()) retryNow(); // (the worker answers /static/)
    }, function () { /* no network: the schedule goes on */ });
    return answer;
  };
}

// A table page shown from the phone's copy while the table moved on: the server's page (at most
// every FRESH_MS for one revision: a network so slow that the copy comes first does not loop).
var FRESH_MS = 15000;
function freshen(status) {
  var shown = document.body.getAttribute("data-revision") || document.body.getAttribute("data-table-revision");
  if (!onTablePage() || shown === null || status.revision === undefined) return;
  var now = String(status.revision);
  if (now === shown) return;
  var mark = "cartulina-fresh-" + state.token;
  try {
    var last = (sessionStorage.getItem(mark) || "").split("@");
    if (last[0] === now && Date.now() - Number(last[1]) < FRESH_MS) return;
    sessionStorage.setItem(mark, now + "@" + Date.now());
  } catch (e) { return; }
  window.location.reload();
}

// Cartulina offline: the queue sent to the server, in order, and the question "is the server there?".
// Each entry goes to POST /api/tables/<token>/entries/form, which reads the fields with the form's own
// code; an entry the server refuses stays, with its reason (offline-refusals.js judges it).
import { state } from "./offline-state.js";
import { msg } from "./offline-status.js";
import * as queue from "./offline-queue.js";
import { judge, closeAll } from "./offline-refusals.js";
import { enginePage, enginePrepared, startEngine } from "./offline-engine.js";

// The browser's fetch as it was: offline-sync.js watches the page's other requests through
// window.fetch; our own do not count as a sign of the network.
export var serverFetch = window.fetch ? window.fetch.bind(window) : null;

function send(entry) {
  return serverFetch("/api/tables/" + encodeURIComponent(entry.table) + "/entries/form", {
    method: "POST",
    credentials: "same-origin",
    cache: "no-store",
    headers: { "Content-Type": "application/json", "Idempotency-Key": entry.key },
    body: JSON.stringify({
      form: entry.form, fields: entry.fields, after: entry.after, dealer: entry.dealer,
      // the deal it takes and the state it was made against: never two copies of a deal
      deal: typeof entry.deal === "number" ? entry.deal : null,
      revision: typeof entry.revision === "number" ? entry.revision : null,
      before: entry.before || [],
    }),
  });
}

function answerOf(response) {
  return response.json().catch(function () { return {}; });
}

// A refusal: kept on the entry, which waits for the keeper; a closed table takes none of them.
function refused(entry, entries, response) {
  return answerOf(response).then(function (answer) {
    entry.state = "refused";
    entry.error = answer.error || msg("refused_status", { status: response.status });
    entry.reason = answer.reason || entry.error; // why, without "no se ha guardado"
    entry.problems = answer.problems || {};
    judge(entry, answer, response.status);
    if (entry.kind !== "closed") return queue.put(entry);
    return queue.putAll(closeAll(entries)); // each says so
  });
}

// Send the table's queue, oldest first; stop at the first refusal (it waits for the keeper) or when
// the network fails (tried again later). Resolves with how many were saved.
export function sendQueue(table) {
  var saved = 0;
  function next() {
    return queue.list(table).then(function (entries) {
      var entry = entries[0];
      if (!entry || entry.state === "refused") return saved;
      return send(entry).then(function (response) {
        if (response.ok) {
          saved += 1;
          return answerOf(response).then(function (answer) {
            noteChanged(entry, answer);
            return queue.remove(entry.id);
          }).then(next);
        }
        if (response.status >= 500 || response.status === 429) return saved; // later
        return refused(entry, entries, response).then(function () { return saved; });
      }, function () { return saved; }); // no network after all
    });
  }
  if (navigator.locks && navigator.locks.request) {
    return navigator.locks.request("cartulina-queue-" + table, next); // one sender per table, across tabs
  }
  return next();
}

// What the phone showed offline for an entry (its engine's payments) against what the server
// recorded: the hands whose payments differ (another phone's entry came first) are told.
function noteChanged(entry, answer) {
  if (!entry.shown || !answer || !answer.hand || typeof answer.n !== "number") return;
  var same = entry.shown.n === answer.n &&
    JSON.stringify(entry.shown.transfers) === JSON.stringify(answer.hand.transfers || []);
  if (same) return;
  try {
    var changed = JSON.parse(sessionStorage.getItem("cartulina-changed") || "[]");
    changed.push(answer.n);
    sessionStorage.setItem("cartulina-changed", JSON.stringify(changed));
  } catch (e) { /* private mode */ }
}

// Is the server there? (navigator.onLine only knows about the phone's own connection: a wifi with
// no way out, or the server down, look "online".) Resolves with the table's state, or null.
var PROBE_MS = 4000;
export function reachable() {
  if (!state.token) return Promise.resolve(navigator.onLine ? {} : null);
  var abort = window.AbortController ? new AbortController() : null;
  var timer = abort ? setTimeout(function () { abort.abort(); }, PROBE_MS) : null;
  var url = "/t/" + encodeURIComponent(state.token) + "/estado";
  return serverFetch(url, { cache: "no-store", credentials: "same-origin", signal: abort ? abort.signal : undefined })
    .then(function (r) { return r.ok ? r.json() : {}; }, function () { return null; })
    .then(function (status) {
      clearTimeout(timer);
      state.away = status === null;
      if (state.away && enginePrepared() && enginePage()) startEngine();
      return status;
    });
}

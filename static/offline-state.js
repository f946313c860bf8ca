// Cartulina offline: what the offline modules share about this page, in one object every module
// imports (not a closure they all reach into), and what follows from it (the table, the deals the
// waiting entries take).
import { counts } from "./offline-refusals.js";

export var DEALS = ["hand", "pass"]; // kinds of entry that take a deal (an ajuste, a cambio do not: R32, R33)

function tableToken() {
  var match = window.location.pathname.match(/^\/t\/([^/]+)/);
  return match ? match[1] : null;
}

// token: the table of this page (null: not a table's page); entries: its queue as last read (null:
// not read yet); sending: the queue is being sent; submitting: a form is being kept (a second tap
// waits); through: the server answered, the form's own POST goes; confirmed: the offline
// confirmation was tapped; away: did the server answer the last try? (null: not asked yet); kept:
// the next forms were asked to be kept for offline.
export var state = {
  token: tableToken(), entries: null, sending: false, submitting: false, through: false, confirmed: false,
  away: null,
  kept: false,
};

// No network? The server's last answer says, once there is one: navigator.onLine can stay false
// after the network returns. Before it, the browser's word.
export function offline() { return state.away === null ? !navigator.onLine : state.away; }

export function tablePath() { return "/t/" + state.token; }

export function onTablePage() { return state.token && window.location.pathname === tablePath(); }

// The refused entry being corrected on this form (#corregir=<id>), or null.
export function fixId() {
  var match = window.location.hash.match(/^#corregir=(\d+)$/);
  return match ? parseInt(match[1], 10) : null;
}

// The new-hand forms of the next deals, in turn (the table page says; a form page: as last kept).
export function formsCycle() {
  var list = (document.body.getAttribute("data-offline-forms") || "").split(" ").filter(Boolean);
  if (!list.length) {
    try { list = JSON.parse(localStorage.getItem("cartulina-forms-" + state.token) || "[]"); } catch (e) { list = []; }
  }
  return list;
}

// The deals the waiting entries take: hands and passes that can still be saved (not one whose deal
// another phone took, nor one of a closed table).
function takesDeal(e) { return DEALS.indexOf(e.form) >= 0 && counts(e); }

export function dealsBefore(index) {
  return (state.entries || []).slice(0, index).filter(takesDeal).length;
}

export function pendingDeals() {
  return (state.entries || []).filter(takesDeal).length;
}

// The deal of the first entry that can still be saved (null: none, or a queue of an older page).
export function firstDeal() {
  var counted = (state.entries || []).filter(counts);
  return counted.length ? counted[0].deal : null;
}

// How many deals after the one this page shows the next entry is for: the deals the waiting
// entries take, and those taken since this copy of the page was made (its data-next-deal is older
// than the first entry's deal).
export function dealsAhead() {
  var shown = parseInt(document.body.getAttribute("data-next-deal"), 10);
  var first = firstDeal();
  var since = typeof first === "number" && !isNaN(shown) && first > shown ? first - shown : 0;
  return since + pendingDeals();
}

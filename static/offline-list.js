// Cartulina offline: the table page's list of the entries waiting ("pendiente de guardar"), the turn
// as it will be once they are saved, Descartar, and the queue sent from it.
import { state, DEALS, tablePath, onTablePage, formsCycle, dealsBefore, dealsAhead, firstDeal, pendingDeals }
  from "./offline-state.js";
import { msg, atTop } from "./offline-status.js";
import * as queue from "./offline-queue.js";
import { sendQueue } from "./offline-send.js";
import * as refusals from "./offline-refusals.js";

// The box the list goes in, made under the page's heading the first time.
function listBox() {
  var box = document.getElementById("pendientes");
  if (box) return box;
  box = document.createElement("section");
  box.id = "pendientes";
  box.className = "panel pending";
  box.setAttribute("aria-labelledby", "pendientes-h");
  var main = document.getElementById("contenido") || document.body;
  var heading = main.querySelector("h1");
  main.insertBefore(box, heading ? heading.nextSibling : main.firstChild);
  return box;
}

// A refused entry's lines and buttons: a hand or a pass gets the form of the deal it can still take
// (after the entries before it).
function refusedItem(item, entry, i) {
  var forms = formsCycle();
  var takes = DEALS.indexOf(entry.form) >= 0 && forms.length;
  var fixUrl = null;
  if (entry.kind !== "closed" && entry.url && entry.url.split("?")[0] !== tablePath()) {
    fixUrl = (takes ? forms[dealsBefore(i) % forms.length] : entry.url.split("?")[0]) + "#corregir=" + entry.id;
  }
  // the deal it would take: the next one (a page older than the refusal knows no later deal than
  // the one taken), after the entries before it that can still be saved
  var next = parseInt(document.body.getAttribute("data-next-deal"), 10);
  if (typeof entry.taken === "number") next = Math.max(next, entry.taken + 1);
  refusals.render(item, entry, {
    fixUrl: fixUrl,
    deal: takes && !isNaN(next) ? next + dealsBefore(i) : null,
    discard: discard,
  });
}

function entryItem(entry, i) {
  var item = document.createElement("li");
  item.className = "pending-entry";
  item.setAttribute("data-state", entry.state);
  var what = document.createElement("span");
  what.textContent = entry.label || entry.form;
  item.appendChild(what);
  var status = document.createElement("strong");
  status.className = entry.state === "refused" ? "error-text" : "muted";
  status.textContent = " · " + (entry.state === "refused" ? msg("not_saved") : msg("pending"));
  item.appendChild(status);
  if (entry.state === "refused") refusedItem(item, entry, i);
  return item;
}

// The table page: the entries waiting, in order, each with its state.
function showQueue() {
  if (!onTablePage()) return;
  var entries = state.entries || [];
  if (!entries.length) {
    var gone = document.getElementById("pendientes");
    if (gone) gone.remove();
    return;
  }
  var box = listBox();
  box.textContent = "";
  var h = document.createElement("h2");
  h.id = "pendientes-h";
  h.textContent = entries.length === 1 ? msg("pending_one") : msg("pending_many", { n: entries.length });
  box.appendChild(h);
  var list = document.createElement("ol");
  list.className = "hands";
  entries.forEach(function (entry, i) { list.appendChild(entryItem(entry, i)); });
  box.appendChild(list);
  var help = document.createElement("p");
  help.className = "muted small";
  help.textContent = refusals.help(entries);
  box.appendChild(help);
}

// The table page with entries waiting: the turn as it will be once they are saved (who deals, who
// may play: the server's own panels for the next deals, kept in <template data-ahead>), and the
// number of the next hand.
function showAhead() {
  if (!onTablePage()) return;
  var entries = state.entries || [];
  var turn = document.querySelector("[data-turn]");
  var shown = parseInt(document.body.getAttribute("data-next-deal"), 10);
  if (!turn || !entries.length || isNaN(shown)) return;
  var cycle = document.querySelectorAll("template[data-ahead]").length + 1;
  var k = dealsAhead() % cycle;
  if (k > 0) {
    var template = document.querySelector('template[data-ahead="' + k + '"]');
    if (!template) return;
    var fresh = template.content.querySelector("[data-turn]");
    if (fresh) turn.parentNode.replaceChild(document.importNode(fresh, true), turn);
    var quick = document.querySelector(".thumb-bar .quick");
    var nav = template.content.querySelector(".quick");
    if (quick && nav) quick.parentNode.replaceChild(document.importNode(nav, true), quick);
    turn = document.querySelector("[data-turn]");
  }
  var first = firstDeal();
  var next = (typeof first === "number" && first > shown ? first : shown) + pendingDeals();
  Array.prototype.forEach.call(turn.querySelectorAll("h2"), function (h) {
    h.textContent = h.textContent.replace(/\d+/, String(next));
  });
  turn.setAttribute("data-ahead-shown", String(k));
}

// Descartar: the entry goes, the ones after it are sent again (judged by the same rules), and the
// keeper is told what became of each (offline-refusals.js tell(); kept across the reload after a save).
function discard(entry, button) {
  if (button) button.disabled = true;
  refusals.remember(refusals.snapshot(state.entries || [], entry));
  return queue.discard(entry).then(refresh).then(trySend).then(function (saved) {
    if (!(saved && onTablePage())) refusals.tell(state.entries); // else told by the page reloaded
  });
}

// Read the table's queue again, and show it (the table page says when the table is closed: then
// every entry says it cannot be saved).
export function refresh() {
  if (!state.token || !window.indexedDB) return Promise.resolve();
  return queue.list(state.token).then(function (entries) {
    var closed = onTablePage() && document.body.getAttribute("data-table-closed") === "true";
    if (closed && entries.some(function (e) { return e.kind !== "closed"; })) { // the table page says it
      return queue.putAll(refusals.closeAll(entries)).then(refresh);
    }
    state.entries = entries;
    document.body.setAttribute("data-pending", String(entries.length));
    showQueue();
    showAhead();
  });
}

// Try to send what is waiting; on the table page, show the server's state afterwards.
export function trySend() {
  if (state.sending || !state.token || !state.entries || !state.entries.length) {
    return Promise.resolve(0);
  }
  state.sending = true;
  return sendQueue(state.token).then(function (saved) {
    state.sending = false;
    return refresh().then(function () {
      if (saved && onTablePage()) {
        try { sessionStorage.setItem("cartulina-saved", String(saved)); } catch (e) { /* private mode */ }
        window.location.reload();
      }
      return saved;
    });
  }, function () {
    state.sending = false;
    return 0;
  });
}

function changedHands() {
  var changed = [];
  try {
    changed = JSON.parse(sessionStorage.getItem("cartulina-changed") || "[]");
    sessionStorage.removeItem("cartulina-changed");
  } catch (e) { /* private mode */ }
  return changed;
}

// After the queue was sent and the page reloaded: how many were saved, and the hands whose payments
// are not those shown offline.
export function savedNote() {
  var saved = null;
  try {
    saved = sessionStorage.getItem("cartulina-saved");
    sessionStorage.removeItem("cartulina-saved");
  } catch (e) { /* private mode */ }
  if (!saved || !onTablePage()) return;
  var p = document.createElement("p");
  p.className = "flash";
  p.setAttribute("role", "status");
  p.textContent = saved === "1" ? msg("saved_one") : msg("saved_many", { n: saved });
  var changed = changedHands();
  if (changed.length) {
    p.textContent += " " + msg("changed_hands", { list: changed.join(", ") });
    p.setAttribute("data-changed", changed.join(" "));
  }
  atTop(p);
}

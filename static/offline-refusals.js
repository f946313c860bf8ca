// After a refusal (offline-send.js sends the queue; this module says what a refusal means and what to
// do about it, for offline-list.js and offline-forms.js). Nothing here knows the game: no rule, no
// field name of a hand but the fields' own names on the form.
//
// - A deal another phone took (409 with taken_hand): both hands side by side; the first action is
//   "Descartar (ya está anotada)"; recording it anyway is a separate choice that names the deal it
//   will take ("Anotarla como mano 6"). Discarding it keeps the deals of the entries after it (the
//   other phone's hand stands in its place): they are judged again by the server, never slid onto a
//   taken deal, and the keeper is told what became of each.
// - A closed table (403 with closed): every entry says it cannot be saved, with Descartar and a way
//   to copy what was entered; nothing leads to a form.
// - Corregir keeps what was entered (offline-fixing.js).
import { atTop, boxOf, say } from "./offline-status.js";

function capital(text) {
  text = String(text || "");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// ------------------------------------------------------------- what a refusal is

// The server's answer, kept on the entry: why, and what kind of refusal it is.
//   kind "taken": another phone recorded this deal (entry.takenHand: {n, words}); "closed": the
//   table was closed; "other": anything a correction can fix.
export function judge(entry, answer, status) {
  answer = answer || {};
  var taken = answer.taken_hand && typeof answer.taken_hand === "object" ? answer.taken_hand : null;
  entry.taken = typeof answer.taken === "number" ? answer.taken : taken && typeof taken.n === "number" ? taken.n : null;
  entry.takenHand = null;
  if (answer.closed === true || (status === 403 && answer.code === "table_closed")) {
    entry.kind = "closed";
  } else if (entry.taken !== null) {
    entry.kind = "taken";
    var words = taken && typeof taken.words === "string" ? taken.words : null;
    if (!words) { // an older server: its reason says the hand after a colon
      var reason = String(answer.reason || "");
      var colon = reason.indexOf(": ");
      words = colon >= 0 ? reason.slice(colon + 2) : "";
    }
    entry.takenHand = { n: entry.taken, words: words };
  } else {
    entry.kind = "other";
  }
  return entry;
}

// An entry refused by an older page knows its taken deal only by `taken`.
function kindOf(entry) {
  return entry.kind || (entry.state === "refused" && typeof entry.taken === "number" ? "taken" : "other");
}

function closedReason() {
  return say("closed_reason", null, "No se puede guardar: la partida se cerró y ya no admite anotaciones.");
}

// A closed table refuses every entry: each says so, none is sent again.
export function closeAll(entries) {
  entries.forEach(function (entry) {
    entry.state = "refused";
    entry.kind = "closed";
    entry.reason = entry.error = closedReason();
    entry.problems = {};
  });
  return entries;
}

// Does it still take a deal once saved? A taken deal (most likely the same hand, recorded by the
// other phone) and an entry of a closed table do not: the next hand's number leaves them out.
export function counts(entry) {
  return !(entry.state === "refused" && (kindOf(entry) === "taken" || kindOf(entry) === "closed"));
}

export function blocked(entries) {
  var first = (entries || [])[0];
  return !!first && first.state === "refused";
}

// ------------------------------------------------------------- the queue's list

// The refused entry's lines and buttons, in its list item. ctx: {deal: the deal it would take now,
// fixUrl: the form for it (null: none), discard(entry, button), hasForm}.
export function render(item, entry, ctx) {
  entry.kind = kindOf(entry);
  item.setAttribute("data-kind", entry.kind);
  if (entry.kind === "taken") renderTaken(item, entry);
  else {
    var why = document.createElement("p");
    why.className = "error-text";
    why.textContent = capital(entry.kind === "closed" ? closedReason() : entry.reason || entry.error || "");
    item.appendChild(why);
  }
  var actions = document.createElement("div");
  actions.className = "actions";
  var drop = document.createElement("button");
  drop.type = "button";
  drop.className = entry.kind === "taken" ? "primary" : "danger";
  drop.textContent = entry.kind === "taken" ? say("discard_taken", null, "Descartar (ya está anotada)") :
    say("discard", null, "Descartar");
  drop.addEventListener("click", function () { ctx.discard(entry, drop); });
  if (entry.kind === "closed") {
    actions.appendChild(drop);
    actions.appendChild(copyButton(item, entry));
  } else if (entry.kind === "taken") {
    actions.appendChild(drop);
    if (ctx.fixUrl && typeof ctx.deal === "number") {
      actions.appendChild(link(ctx.fixUrl, say("record_as", { n: ctx.deal }, "Anotarla como mano {n}"), "button"));
    }
  } else {
    if (ctx.fixUrl) actions.appendChild(link(ctx.fixUrl, say("fix", null, "Corregir"), "button primary"));
    actions.appendChild(drop);
  }
  item.appendChild(actions);
}

function link(href, text, className) {
  var a = document.createElement("a");
  a.className = className;
  a.href = href;
  a.textContent = text;
  return a;
}

// Both hands side by side: what this phone entered, and what the other phone recorded on that deal.
function renderTaken(item, entry) {
  var n = entry.takenHand ? entry.takenHand.n : entry.taken;
  var why = document.createElement("p");
  why.className = "error-text";
  why.textContent = say("taken_head", { n: n }, "La mano {n} ya la anotó otro teléfono.");
  item.appendChild(why);
  var both = document.createElement("dl");
  both.className = "side-by-side";
  [[say("taken_mine", null, "Este teléfono"), entry.label || entry.form],
    [say("taken_theirs", { n: n }, "Mano {n}, del otro teléfono"), entry.takenHand ? entry.takenHand.words : ""]]
    .forEach(function (pair) {
      var box = document.createElement("div");
      var dt = document.createElement("dt");
      dt.textContent = pair[0];
      var dd = document.createElement("dd");
      dd.textContent = pair[1];
      box.appendChild(dt);
      box.appendChild(dd);
      both.appendChild(box);
    });
  item.appendChild(both);
  var help = document.createElement("p");
  help.className = "muted small";
  help.textContent = say("taken_help", null,
    "Si es la misma mano, descártala: ya está anotada. Anótala solo si es otra mano.");
  item.appendChild(help);
}

// What was entered, to copy: to the clipboard when the browser lets it, and in a box to select.
function copyButton(item, entry) {
  var button = document.createElement("button");
  button.type = "button";
  button.textContent = say("copy_entry", null, "Copiar lo anotado");
  button.addEventListener("click", function () {
    var text = entry.label || entry.form;
    var box = item.querySelector("textarea[data-copy-entry]");
    if (!box) {
      var label = document.createElement("label");
      label.className = "small";
      label.textContent = say("copy_label", null, "Lo anotado");
      box = document.createElement("textarea");
      box.setAttribute("data-copy-entry", "");
      box.readOnly = true;
      box.rows = 2;
      label.appendChild(box);
      item.appendChild(label);
    }
    box.value = text;
    box.focus();
    box.select();
    var done = function () { button.textContent = say("copied_entry", null, "Copiado"); };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(done, function () { /* selected in the box instead */ });
    }
  });
  return button;
}

// The help under the list: how the queue goes on, or what holds it.
export function help(entries) {
  if (!blocked(entries)) {
    return say("pending_help", null, "Se guardan solas, en orden, cuando vuelva la conexión. Los saldos aún no las cuentan.");
  }
  var waiting = entries.length - 1;
  if (entries[0].kind === "closed") return say("closed_help", null, "Ninguna se puede guardar: la partida está cerrada.");
  if (!waiting) return say("blocked_help_one", null, "No se ha guardado: descártala o corrígela.");
  if (waiting === 1) {
    return say("blocked_help_next", null,
      "La primera no se ha guardado: hasta que la descartes o la corrijas, la siguiente espera.");
  }
  return say("blocked_help", { n: waiting },
    "La primera no se ha guardado: hasta que la descartes o la corrijas, las {n} siguientes esperan.");
}

// ------------------------------------------------------------- Descartar, and what it changed

// The entries after a discarded one, as they were (to tell afterwards what became of them).
export function snapshot(entries, dropped) {
  var after = entries.filter(function (e) { return e.id > dropped.id; });
  return { dropped: dropped.label || dropped.form, after: after.map(function (e) { return { key: e.key, label: e.label || e.form }; }) };
}

// The discarded entry's own changes to the ones after it (offline.js's queue.discard): a taken deal
// is the other phone's hand now, so theirs stay on their deals, and the table's state they wait for
// counts that hand instead of this entry; otherwise they take the deals one earlier.
export function follow(other, dropped) {
  var taken = kindOf(dropped) === "taken";
  if (other.id > dropped.id && typeof other.deal === "number" && typeof dropped.deal === "number" && !taken) {
    other.deal -= 1;
  }
  if (other.before && other.before.indexOf(dropped.key) >= 0) {
    other.before = other.before.filter(function (k) { return k !== dropped.key; });
    if (taken && typeof other.revision === "number") other.revision += 1;
  }
}

var TOLD = "cartulina-rejudged";

export function remember(shot) {
  try { sessionStorage.setItem(TOLD, JSON.stringify(shot)); } catch (e) { /* private mode */ }
}

// What became of the entries after the one discarded, judged again: saved, refused (why), waiting.
export function tell(entries) {
  var shot = null;
  try {
    shot = JSON.parse(sessionStorage.getItem(TOLD) || "null");
    sessionStorage.removeItem(TOLD);
  } catch (e) { return; }
  if (!shot) return;
  var box = boxOf("rejudged", "div", "flash", "status", atTop);
  box.textContent = "";
  var head = document.createElement("p");
  head.textContent = say("discarded", { what: shot.dropped }, "Descartada: {what}.");
  box.appendChild(head);
  if (!shot.after.length) return;
  head.textContent += " " + say("rejudged", null, "Las de después se han comprobado de nuevo:");
  var list = document.createElement("ul");
  shot.after.forEach(function (was) {
    var now = (entries || []).filter(function (e) { return e.key === was.key; })[0];
    var what = !now ? say("rejudged_saved", null, "guardada") :
      now.state === "refused" ? say("rejudged_refused", { reason: now.reason || now.error || "" }, "no se ha guardado: {reason}") :
        say("rejudged_pending", null, "pendiente de guardar");
    var li = document.createElement("li");
    li.textContent = was.label + ": " + what;
    list.appendChild(li);
  });
  box.appendChild(list);
}

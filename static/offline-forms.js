// Cartulina offline: the forms with no network. A form marked data-offline="hand" (or "pass", or any
// other kind the server reads, see OFFLINE_FORMS in scorer/web/api/forms.py) saved with no network
// is kept in the queue (offline-queue.js), as its fields exactly as the form has them; a refused
// entry's form is reopened with what was entered (#corregir=<id>). Any other form posted with no
// network stays, saying why. "Anotar mano" with entries waiting opens the form of the deal after them.
import { state, offline, tablePath, fixId, formsCycle, dealsAhead } from "./offline-state.js";
import { msg, hhmm, formNote } from "./offline-status.js";
import * as queue from "./offline-queue.js";
import { fixNote, groupsOf, keep } from "./offline-fixing.js";
import { describe, fieldsOf, placeOf, shownOf, wordsOf } from "./offline-fields.js";
import { reachable } from "./offline-send.js";
import { inPlace, navigate } from "./offline-pages.js";
import { showOfflinePreview } from "./offline-preview.js";

// The seat the form was made for, when it says (data-dealer): the server refuses it for another.
function dealerOf(form) {
  var dealer = parseInt(form.getAttribute("data-dealer"), 10);
  return isNaN(dealer) ? null : dealer;
}

// A refused entry corrected on this form: what is entered now, placed again on the table as it is.
function refill(fixing, form, fields, label) {
  return queue.get(fixing).then(function (entry) {
    if (!entry) return null;
    entry.fields = fields;
    entry.words = wordsOf(form);
    entry.groups = groupsOf(form);
    entry.kind = null;
    entry.takenHand = null;
    entry.shown = shownOf(form);
    entry.label = label;
    entry.state = "pending";
    entry.error = null;
    entry.reason = null;
    entry.problems = {};
    entry.after = null; // entered again on the table as it is now
    entry.dealer = dealerOf(form);
    entry.taken = null;
    var place = placeOf(form);
    entry.deal = place.deal;
    entry.revision = place.revision;
    entry.fixed = true;
    return queue.put(entry).then(function () { return queue.rechain(entry); });
  });
}

function enqueue(form, submitter) {
  var fixing = fixId();
  var fields = fieldsOf(form);
  var label = describe(form, submitter);
  if (fixing !== null) return refill(fixing, form, fields, label);
  var here = window.location.pathname + window.location.search;
  return queue.list(state.token).then(function (entries) {
    var last = entries[entries.length - 1];
    var place = placeOf(form);
    var chained = !last || typeof last.deal === "number";
    return queue.add({
      // the deal it takes: the one after the last waiting (a queue kept by an older page: none)
      deal: !chained ? null : last ? last.deal + 1 : place.deal,
      revision: !chained ? null : last ? last.revision : place.revision,
      before: entries.map(function (e) { return e.key; }),
      words: wordsOf(form),
      groups: groupsOf(form),
      shown: shownOf(form),
      table: state.token,
      form: form.getAttribute("data-offline"),
      fields: fields,
      label: label,
      key: queue.newKey(),
      after: last ? last.key : null,
      dealer: dealerOf(form),
      url: here,
      created: new Date().toISOString(),
      state: "pending",
    });
  });
}

function note(form, text) {
  formNote(form, text).scrollIntoView({ block: "center" });
}

function idle(form) {
  form.dispatchEvent(new CustomEvent("cartulina:idle"));
}

// The server is there: the form's own POST, as without these scripts.
function postThrough(form, submitter) {
  state.through = true;
  if (form.requestSubmit) form.requestSubmit(submitter || undefined);
  else form.submit();
}

// A form that is not kept offline, posted while the network may be gone (the browser says so, or the
// server did not answer): posted once the server answers, else it stays, saying why. navigator.onLine
// alone decides neither way: it can stay false after the network returns.
function postIfReachable(event, form, submitter, why) {
  if (state.through || (navigator.onLine && !state.away)) return;
  event.preventDefault();
  form.setAttribute("data-asking", "");
  reachable().then(function (status) {
    form.removeAttribute("data-asking");
    if (status === null) {
      idle(form);
      return note(form, msg(why));
    }
    postThrough(form, submitter);
  });
}

// Guardar on a form kept offline: straight to the server when it answers and nothing waits, else kept.
function keepOrPost(form, submitter) {
  state.submitting = true;
  var queued = state.entries === null ? 0 : state.entries.length;
  var direct = fixId() === null && !offline() && queued === 0;
  if (direct) form.setAttribute("data-asking", ""); // static/reach.js: Guardar shows it is at work
  (direct ? reachable() : Promise.resolve(null)).then(function (status) {
    form.removeAttribute("data-asking");
    if (status !== null) return postThrough(form, submitter);
    idle(form); // nothing posted: the button comes back
    if (mustConfirm(form)) { // offline: what the server knew, shown before one explicit tap
      state.submitting = false;
      return null;
    }
    return enqueue(form, submitter).then(function () {
      return navigate(tablePath());
    });
  }).catch(function () {
    state.submitting = false;
    state.through = false;
    form.removeAttribute("data-asking");
    idle(form);
    note(form, msg("store_failed"));
  });
}

export function onSubmit(event) {
  var form = event.target;
  var kind = form.getAttribute && form.getAttribute("data-offline");
  var submitter = event.submitter || null;
  if (!kind || !state.token) {
    if (form.method === "post") postIfReachable(event, form, submitter, "offline_cannot"); // an edit, a deletion…
    return;
  }
  if (submitter && submitter.name === "preview") {
    if ((!navigator.onLine || state.away) && showOfflinePreview(form)) {
      event.preventDefault(); // worked out on the phone
      return;
    }
    postIfReachable(event, form, submitter, "offline_queued");
    return;
  }
  if (state.through) return; // the server answered: the ordinary POST
  event.preventDefault();
  if (state.submitting) return; // a second tap
  keepOrPost(form, submitter);
}

// The confirmation's button queues the form (once), and goes back to the table.
function confirmButton(form, button) {
  button.addEventListener("click", function () {
    if (state.submitting) return; // a second tap
    state.submitting = state.confirmed = true;
    enqueue(form, null).then(function () {
      return navigate(tablePath());
    }).catch(function () {
      state.submitting = state.confirmed = false;
      note(form, msg("store_failed"));
    });
  });
}

// A form marked data-offline-confirm="<field>" (the cambio de jugador) is confirmed online after the
// server's preview. Offline its page carries, in #offline-confirm, one block per value of that
// field (data-seat), written by the server when the page was made: the block of the value chosen
// is shown, and only its button queues the form. The blocks' words are the server's.
function mustConfirm(form) {
  var field = form.getAttribute("data-offline-confirm");
  var box = document.getElementById("offline-confirm");
  if (!field || !box || state.confirmed) return false;
  var chosen = form.elements[field] ? form.elements[field].value : "";
  var at = hhmm(document.body.getAttribute("data-rendered-at"));
  Array.prototype.forEach.call(box.querySelectorAll("[data-seat]"), function (block) {
    block.hidden = block.getAttribute("data-seat") !== chosen;
  });
  Array.prototype.forEach.call(box.querySelectorAll(".offline-at"), function (span) {
    if (at) span.textContent = at;
  });
  var later = box.querySelector(".offline-later"); // entries waiting: the page's data is older than them
  if (later) later.hidden = !(state.entries && state.entries.length);
  var none = box.querySelector(".offline-none");
  if (none) none.hidden = chosen !== "";
  var button = document.getElementById("offline-confirm-button");
  if (button) button.disabled = chosen === "";
  box.hidden = false;
  if (!box.getAttribute("data-ready")) {
    box.setAttribute("data-ready", "true");
    form.addEventListener("change", function () { box.hidden = true; }); // chosen again: shown again
    if (button) confirmButton(form, button);
  }
  box.scrollIntoView({ block: "center" });
  if (button) button.focus();
  return true;
}

// "Anotar mano" (and "Juega …") with entries pending or no network: the form of the deal after
// those entries, with what the link chose (?jugador=…) kept.
export function onClick(event) {
  var link = event.target.closest && event.target.closest("a[href]");
  if (!link || !state.token || link.origin !== window.location.origin) return;
  if (event.defaultPrevented || event.button || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  if (link.target && link.target !== "_self") return;
  if (link.pathname !== tablePath() + "/mano") {
    // the table page, a kept hand form, Corregir: in place while offline (not a jump within this page)
    var here = link.pathname === window.location.pathname && link.search === window.location.search;
    if (here && link.hash) return;
    if (inPlace(link.href)) {
      event.preventDefault();
      navigate(link.href);
    }
    return;
  }
  var deals = dealsAhead();
  if (navigator.onLine && !state.away && deals === 0) return;
  var forms = formsCycle();
  if (!forms.length) return;
  event.preventDefault();
  navigate(forms[deals % forms.length] + link.search);
}

// A kept form opened for "Juega …" (?jugador=3): what the link chose, on the form (the server does
// it for the form it sends; the phone's copy was made without it).
export function chooseFromLink() {
  var form = document.querySelector("form[data-offline]");
  if (!form || fixId() !== null || !window.location.search || !window.URLSearchParams) return;
  new URLSearchParams(window.location.search).forEach(function (value, name) {
    var options = form.querySelectorAll('input[name="' + name.replace(/["\\]/g, "") + '"]');
    Array.prototype.forEach.call(options, function (el) {
      if ((el.type === "radio" || el.type === "checkbox") && el.value === value && !el.disabled && !el.checked) {
        el.checked = true;
        el.dispatchEvent(new Event("change", { bubbles: true }));
      }
    });
  });
}

// What was entered, back on the form: name -> the values this form could take.
function restore(form, given) {
  var placed = {};
  Array.prototype.forEach.call(form.elements, function (el) {
    if (!el.name || el.type === "hidden" || el.type === "submit" || el.name === "csrf_token") return;
    var values = given[el.name];
    var took = placed[el.name] = placed[el.name] || [];
    if (el.type === "radio" || el.type === "checkbox") {
      var on = !!values && values.indexOf(el.value) >= 0;
      if (values || el.type === "checkbox") el.checked = on && !el.disabled;
      if (on && !el.disabled) took.push(el.value);
    } else if (values) {
      el.value = values[0];
      if (el.value === values[0]) took.push(values[0]);
    }
  });
  // the page's own scripts follow what was restored (as if tapped)
  Array.prototype.forEach.call(form.elements, function (el) {
    if (!el.name || el.type === "hidden" || el.type === "submit") return;
    var set = el.type === "radio" || el.type === "checkbox" ? el.checked : el.value !== "";
    if (set) el.dispatchEvent(new Event("change", { bubbles: true }));
  });
  return placed;
}

// The server's words on each field it refused.
function markProblems(problems) {
  Object.keys(problems || {}).forEach(function (name) {
    var box = document.getElementById("f-" + name);
    if (name === "general" || !box) return;
    box.classList.add("field-error");
    var p = document.createElement("p");
    p.className = "error-text";
    p.textContent = problems[name].join(" ");
    box.appendChild(p);
  });
}

// The form reopened to correct a refused entry: what was entered, and why it was refused.
export function fillForFix() {
  var id = fixId();
  var form = document.querySelector("form[data-offline]");
  if (id === null || !form) return;
  queue.get(id).then(function (entry) {
    if (!entry) return;
    var given = {};
    entry.fields.forEach(function (pair) { (given[pair[0]] = given[pair[0]] || []).push(pair[1]); });
    var placed = restore(form, given);
    note(form, fixNote(entry, placeOf(form).deal, msg("fix_entry")));
    markProblems(entry.problems);
    // what this deal's form cannot take (a Jugador who deals this one, the tricks of a seat that
    // deals it): marked on the field with what was entered; not saved until chosen again there
    keep(form, entry, given, placed);
  });
}

// Corregir after a refusal: what was entered is kept. A value the new form cannot take (a Jugador who
// deals, the tricks of a seat that now deals) is marked next to its field with what was entered, and
// the form is not saved until the keeper chooses there; no trick moves silently to another seat.
// offline-forms.js restores the entry on the form and calls keep(); offline.js listens with guard().
// Nothing here knows the game: no rule, no field name of a hand but the fields' own names on the form.
import { formNote, say } from "./offline-status.js";
import { labelOf } from "./offline-fields.js";

// The group a choice belongs to, as the form names it ("Jugador", a tricks row's player…).
function groupName(el) {
  var group = el.closest && el.closest("[role=radiogroup], fieldset");
  if (!group) return "";
  var by = group.getAttribute("aria-labelledby");
  var named = by && document.getElementById(by);
  var name = named ? named.textContent : group.getAttribute("aria-label") ||
    (group.querySelector("legend") || {}).textContent || "";
  return String(name).trim().replace(/\s+/g, " ");
}

// The names of the groups of what is chosen (kept with the entry: the form it is corrected on may
// have no such field, a tricks row of a seat that now deals).
export function groupsOf(form) {
  var groups = {};
  Array.prototype.forEach.call(form.elements, function (el) {
    if (!el.name || !(el.type === "radio" || el.type === "checkbox") || !el.checked) return;
    var name = groupName(el);
    if (name) groups[el.name] = name;
  });
  return groups;
}

// A field's box on the form: its fieldset (f-<name>), or that of the family of names it belongs to
// (tricks_2 → f-tricks), or the one its inputs are in.
function boxOf(form, name) {
  var field = form.elements[name];
  var one = field && (field.length !== undefined && !field.tagName ? field[0] : field);
  return document.getElementById("f-" + name) || document.getElementById("f-" + name.split("_")[0]) ||
    (one && one.closest && one.closest("fieldset, [id^='f-'], .field")) || null;
}

// The fix form after offline.js restored what was entered: values it could not take are marked,
// with what was entered; what the page worked out by itself from the rest in a marked box (the
// third tricks count) is cleared; saving waits for a choice in every marked box.
//   given: name → values entered; placed: name → the values this form took.
export function keep(form, entry, given, placed) {
  var marks = [];
  Object.keys(given).forEach(function (name) {
    var values = given[name].filter(function (v) { return v !== ""; });
    if (!values.length || name === "csrf_token" || name === "request_id") return;
    if (name in placed) {
      var lost = values.filter(function (v) { return placed[name].indexOf(v) < 0; });
      if (lost.length) {
        marks.push([name, say("fix_conflict", { was: labelOf(form, name, lost, entry.words) },
          "Se anotó «{was}», que en esta mano no se puede elegir: elige de nuevo.")]);
      }
      return;
    }
    if (form.elements[name] || !boxOf(form, name)) return; // hidden, or a field of another form
    var group = entry.groups && entry.groups[name];
    var said = labelOf(form, name, values, entry.words);
    marks.push([name, say("fix_missing", { was: group ? group + ": " + said : said },
      "Se anotó «{was}», que en esta mano no se puede anotar: elige de nuevo.")]);
  });
  var boxes = [];
  marks.forEach(function (pair) {
    var box = boxOf(form, pair[0]);
    if (!box) return;
    mark(box, pair[1]);
    if (boxes.indexOf(box) < 0) boxes.push(box);
  });
  boxes.forEach(function (box) {
    Array.prototype.forEach.call(box.querySelectorAll("input"), function (el) {
      if ((el.type === "radio" || el.type === "checkbox") && el.checked && !(given[el.name] || []).length) {
        el.checked = false; // worked out by the page from what was entered elsewhere: not chosen
      }
    });
    var chosen = function (event) {
      if (!event.isTrusted) return;
      box.setAttribute("data-chosen", "true");
    };
    box.addEventListener("change", chosen);
    box.addEventListener("click", function (event) {
      if (event.isTrusted && event.target.closest && event.target.closest("button")) chosen(event);
    });
  });
  return boxes.length;
}

function mark(box, text) {
  box.classList.add("field-error");
  box.setAttribute("data-conflict", "true");
  var p = document.createElement("p");
  p.className = "error-text";
  p.textContent = text;
  box.appendChild(p);
}

// What the fix form says first: why it was refused, and the deal it will be saved as when that is
// not the one it was entered for.
export function fixNote(entry, deal, fallback) {
  var said = entry.kind === "taken" ?
    say("taken_head", { n: entry.taken }, "La mano {n} ya la anotó otro teléfono.") +
      (entry.takenHand && entry.takenHand.words ? " (" + entry.takenHand.words + ")" : "") :
    entry.error || fallback;
  if (typeof deal === "number" && typeof entry.deal === "number" && deal !== entry.deal) {
    said += " " + say("saved_as", { n: deal, was: entry.deal },
      "Se guardará como la mano {n}, no como la {was}.");
  }
  return said;
}

// Guardar on a fix form with a marked box not chosen again: not saved, and said why (before any
// other script sees the submit: offline.js listens with it first, in the capture phase).
export function guard(event) {
  var form = event.target;
  if (!form || !form.querySelector) return;
  var submitter = event.submitter || null;
  if (submitter && submitter.name === "preview") return;
  var open = form.querySelector("[data-conflict]:not([data-chosen])");
  if (!open) return;
  event.preventDefault();
  event.stopImmediatePropagation();
  formNote(form, say("choose_first", null, "Antes de guardar, elige de nuevo lo marcado: no se ha guardado."));
  open.scrollIntoView({ block: "center" });
}

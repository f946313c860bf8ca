// Cartulina offline: the words the offline scripts show, and the boxes they show them in (the
// "sin conexión" note at the top of the page, the note above a form). One copy, shared by every
// offline module.

// The words shown to people come from the page, in its language (static/i18n.js, loaded before).
export function msg(key, values) {
  return window.cartulinaText ? window.cartulinaText(key, values) : "";
}

// The page's words (static/i18n.js), with the Spanish as a last resort: a button never goes blank.
export function say(key, values, spanish) {
  var text = msg(key, values);
  if (text) return text;
  text = spanish || "";
  Object.keys(values || {}).forEach(function (hole) { text = text.split("{" + hole + "}").join(String(values[hole])); });
  return text;
}

// "HH:MM" of an ISO time (when the server made the page), or "".
export function hhmm(iso) {
  var date = new Date(iso);
  if (!iso || isNaN(date.getTime())) return "";
  function two(n) { return (n < 10 ? "0" : "") + n; }
  return two(date.getHours()) + ":" + two(date.getMinutes());
}

// Put a box first in the page's main part.
export function atTop(box) {
  var main = document.getElementById("contenido") || document.body;
  main.insertBefore(box, main.firstChild);
}

// The box #id: the page's own, or made the first time (a tag with its class and role) and put in
// place by place(box). The notes and boxes the offline scripts say things in.
export function boxOf(id, tag, className, role, place) {
  var box = document.getElementById(id);
  if (box) return box;
  box = document.createElement(tag);
  box.id = id;
  box.className = className;
  box.setAttribute("role", role);
  place(box);
  return box;
}

// The note above a form (#offline-form-note, an alert): why it was not saved, or what to do.
export function formNote(form, text) {
  var p = boxOf("offline-form-note", "p", "error-text", "alert", function (box) {
    form.parentNode.insertBefore(box, form);
  });
  p.textContent = text;
  return p;
}

// The page's note "sin conexión · datos de las HH:MM" (when the server made this copy), or none.
export function banner(show) {
  if (!show) {
    var shown = document.getElementById("sin-conexion");
    if (shown) shown.hidden = true;
    return;
  }
  var note = boxOf("sin-conexion", "p", "panel offline-note", "status", atTop);
  var at = hhmm(document.body.getAttribute("data-rendered-at"));
  note.textContent = at ? msg("offline_at", { time: at }) : msg("offline");
  note.hidden = false;
}

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

// The note above a form (#offline-form-note, an alert): why it was not saved, or what to do.
export function formNote(form, text) {
  var p = document.getElementById("offline-form-note");
  if (!p) {
    p = document.createElement("p");
    p.id = "offline-form-note";
    p.className = "error-text";
    p.setAttribute("role", "alert");
    form.parentNode.insertBefore(p, form);
  }
  p.textContent = text;
  return p;
}

// The page's note "sin conexión · datos de las HH:MM" (when the server made this copy), or none.
export function banner(show) {
  var note = document.getElementById("sin-conexion");
  if (!show) {
    if (note) note.hidden = true;
    return;
  }
  if (!note) {
    note = document.createElement("p");
    note.id = "sin-conexion";
    note.className = "panel offline-note";
    note.setAttribute("role", "status");
    atTop(note);
  }
  var at = hhmm(document.body.getAttribute("data-rendered-at"));
  note.textContent = at ? msg("offline_at", { time: at }) : msg("offline");
  note.hidden = false;
}

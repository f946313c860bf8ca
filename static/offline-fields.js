// Cartulina offline: what a form says, read off the form itself (its fields, the labels of what is
// chosen, the deal it was made for). Nothing here knows the game: no rule, no field name of a hand.

// The form's fields as the browser would post them: [name, value] pairs.
export function fieldsOf(form) {
  var fields = [];
  new FormData(form).forEach(function (value, name) {
    if (typeof value === "string") fields.push([name, value]);
  });
  return fields;
}

// The name of the group a numeric choice belongs to ("Bazas de Ana"), or "".
function groupWords(el) {
  var group = el.closest("[role=radiogroup], fieldset");
  var name = group && (group.getAttribute("aria-label") || (group.querySelector("legend") || {}).textContent);
  if (group && group.getAttribute("aria-labelledby")) {
    var by = document.getElementById(group.getAttribute("aria-labelledby"));
    if (by) name = by.textContent;
  }
  return name ? name.trim().replace(/\s+/g, " ") : "";
}

// One field's words, or null when nothing is chosen or typed in it.
function fieldWords(el) {
  if (!el.name || el.type === "hidden" || el.type === "submit" || el.disabled) return null;
  var choice = el.type === "radio" || el.type === "checkbox";
  var chosen = choice ? el.checked && el.value !== "" : el.value.trim() !== "";
  if (!chosen) return null;
  var label = el.labels && el.labels.length ? el.labels[0].textContent.trim() : "";
  var text = choice ? label || el.value : (label ? label + " " : "") + el.value;
  if (/^\d+$/.test(text)) {
    var name = groupWords(el);
    if (name) text = name + " " + text;
  }
  return text.replace(/\s+/g, " ");
}

// What the keeper entered, in the words on the form (the labels of what is chosen), for the list.
export function describe(form, submitter) {
  var words = Array.prototype.map.call(form.elements, fieldWords).filter(function (w) { return w !== null; });
  if (!words.length && submitter) words.push(submitter.textContent.trim());
  return words.join(" · ");
}

function firstNumber(values) {
  for (var i = 0; i < values.length; i++) {
    var n = parseInt(values[i], 10);
    if (!isNaN(n)) return n;
  }
  return null;
}

// The entry a form's page was made for and the table's revision then: the form's data-deal /
// data-table-revision, its hidden deal / table_revision, or the page's (the table page's pass).
export function placeOf(form) {
  function hidden(name) { return form.elements[name] ? form.elements[name].value : null; }
  var body = document.body;
  return {
    deal: firstNumber([form.getAttribute("data-deal"), hidden("deal"), body.getAttribute("data-next-deal")]),
    revision: firstNumber([form.getAttribute("data-table-revision"), hidden("table_revision"),
      body.getAttribute("data-table-revision")]),
  };
}

// The labels of what is chosen, by field and value: the words of a choice the form of another deal
// may not offer (its Jugador deals that one), shown when it is corrected there.
export function wordsOf(form) {
  var words = {};
  Array.prototype.forEach.call(form.elements, function (el) {
    if (!el.name || !(el.type === "radio" || el.type === "checkbox") || !el.checked) return;
    if (!el.labels || !el.labels.length) return;
    (words[el.name] = words[el.name] || {})[el.value] = el.labels[0].textContent.trim().replace(/\s+/g, " ");
  });
  return words;
}

// The words of what was entered for a field that this form cannot take: its choice's label on the
// form it was entered on is not here, so the value itself, or the names it carried there.
export function labelOf(form, name, values, kept) {
  return values.map(function (value) {
    var words = kept && kept[name] && kept[name][value] || null;
    Array.prototype.forEach.call(form.querySelectorAll('input[name="' + name.replace(/["\\]/g, "") + '"]'), function (el) {
      if (!words && el.value === value && el.labels && el.labels.length) words = el.labels[0].textContent.trim();
    });
    return words || value;
  }).join(", ");
}

// The payments the phone's engine showed on the form (offline-preview.js), or null.
export function shownOf(form) {
  try { return JSON.parse(form.getAttribute("data-offline-shown") || "null"); } catch (e) { return null; }
}

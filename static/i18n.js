// Cartulina: the words the scripts show to people, in the page's language.
// templates/_i18n_js.html puts them in <div id="i18n" data-texts>; cartulinaText(key, values) fills
// their "{name}" holes. Loaded (defer) before app.js and offline.js, which both use it.
(function () {
  "use strict";
  var texts = null;
  var from = null; // the element they were read from: a page shown in place (offline.js) brings its own
  window.cartulinaText = function (key, values) {
    var holder = document.getElementById("i18n");
    if (texts === null || holder !== from) {
      from = holder;
      try { texts = holder ? JSON.parse(holder.getAttribute("data-texts")) : {}; } catch (e) { texts = {}; }
    }
    var text = String(texts[key] || "");
    Object.keys(values || {}).forEach(function (hole) { text = text.split("{" + hole + "}").join(String(values[hole])); });
    return text;
  };
})();

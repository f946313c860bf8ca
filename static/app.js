// Cartulina: small progressive enhancements. Every page works without this file.
(function () {
  "use strict";

  // View link: reload when the table changes (polls /t/<token>/estado).
  function poll() {
    var body = document.body;
    var url = body.getAttribute("data-poll");
    if (!url || !window.fetch) return;
    var revision = body.getAttribute("data-revision");
    function check() {
      if (document.hidden) return;
      fetch(url, { cache: "no-store", credentials: "same-origin" })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (data) {
          if (data && String(data.revision) !== revision) window.location.reload();
        })
        .catch(function () { /* offline for a moment: try again later */ });
    }
    window.setInterval(check, 5000);
    document.addEventListener("visibilitychange", check);
  }

  // Share links: a tap selects and copies.
  function copyLinks() {
    var inputs = document.querySelectorAll("input[data-copy]");
    Array.prototype.forEach.call(inputs, function (input) {
      input.addEventListener("focus", function () {
        input.select();
        if (navigator.clipboard) {
          navigator.clipboard.writeText(input.value).then(function () {
            var help = input.nextElementSibling;
            input.setAttribute("aria-describedby", "copied");
            var note = document.getElementById("copied");
            if (!note) {
              note = document.createElement("p");
              note.id = "copied";
              note.className = "help";
              note.setAttribute("role", "status");
              input.parentNode.insertBefore(note, help);
            }
            note.textContent = "Enlace copiado.";
          }, function () {});
        }
      });
    });
  }

  // Hand form: the Jugador's tricks row goes first; with two counts the third is filled in.
  function handForm() {
    var form = document.getElementById("hand-form");
    if (!form) return;
    var box = form.querySelector("[data-tricks]");
    if (!box) return;
    var rows = Array.prototype.slice.call(box.querySelectorAll(".tricks-row"));
    var filled = null; // the seat whose count we computed

    function value(row) {
      var checked = row.querySelector("input[type=radio]:checked");
      return checked ? parseInt(checked.value, 10) : null;
    }
    function setValue(row, v) {
      var radios = row.querySelectorAll("input[type=radio]");
      Array.prototype.forEach.call(radios, function (r) { r.checked = v !== null && parseInt(r.value, 10) === v; });
    }
    function jugador() {
      var checked = form.querySelector("input[name=jugador]:checked");
      return checked ? checked.value : null;
    }
    function arrange() {
      var j = jugador();
      rows.forEach(function (row) {
        var is = row.getAttribute("data-seat") === j;
        row.classList.toggle("is-jugador", is);
        if (is && row.parentNode.querySelector(".tricks-row") !== row) {
          row.parentNode.insertBefore(row, row.parentNode.querySelector(".tricks-row"));
        }
      });
    }
    function fill(changed) {
      if (filled && changed && changed.getAttribute("data-seat") === filled) filled = null;
      var known = rows.filter(function (r) {
        return value(r) !== null && r.getAttribute("data-seat") !== filled;
      });
      var target = rows.filter(function (r) { return known.indexOf(r) < 0; });
      rows.forEach(function (r) { r.classList.remove("is-filled"); });
      if (known.length === 2 && target.length === 1) {
        var rest = 9 - value(known[0]) - value(known[1]);
        if (rest >= 0) {
          setValue(target[0], rest);
          filled = target[0].getAttribute("data-seat");
          target[0].classList.add("is-filled");
        } else if (filled) {
          setValue(target[0], null);
        }
      }
    }
    form.addEventListener("change", function (event) {
      var t = event.target;
      if (t.name === "jugador") arrange();
      if (t.name && t.name.indexOf("tricks_") === 0) {
        fill(t.closest(".tricks-row"));
      }
      if ((t.name === "estuches" || t.name === "contraestuches") && t.value !== "") {
        // never both: choosing one clears the other
        var other = t.name === "estuches" ? "contraestuches" : "estuches";
        var none = form.querySelector("input[name=" + other + "][value='']");
        if (none) none.checked = true;
      }
      if (t.name === "defensor" && t.value !== "") {
        var rendida = form.querySelector("input[name=rendida]");
        if (rendida) rendida.checked = true;
      }
    });
    arrange();
  }

  function start() {
    poll();
    copyLinks();
    handForm();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();

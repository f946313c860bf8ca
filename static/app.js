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

  // New table: show only the chosen game's options, seats and words (without JS every group shows).
  function gameChooser() {
    var form = document.getElementById("new-table");
    if (!form) return;
    function chosen() {
      var checked = form.querySelector("input[name=game]:checked");
      return checked ? checked.value : "tresillo";
    }
    function apply() {
      var game = chosen();
      form.setAttribute("data-game", game);
      Array.prototype.forEach.call(form.querySelectorAll("[data-for]"), function (el) {
        var games = el.getAttribute("data-for").split(" ");
        var show = games.indexOf(game) >= 0;
        // a seat that still holds a name stays visible, so nothing typed is hidden
        var input = el.classList.contains("seat-row") ? el.querySelector("input") : null;
        if (!show && input && input.value.trim() !== "") show = true;
        el.hidden = !show;
      });
      Array.prototype.forEach.call(form.querySelectorAll("[data-hide-for]"), function (el) {
        el.hidden = el.getAttribute("data-hide-for").split(" ").indexOf(game) >= 0;
      });
      // hints that only make sense without JS ("solo bandos") go once the game is known
      Array.prototype.forEach.call(form.querySelectorAll("input[data-hint]"), function (input) {
        input.placeholder = game === "tresillo" || game === "pozo_viuda" ? input.getAttribute("data-hint") : "";
      });
      // seats offered to deal first and keep the score: as many as the game has
      var seats = { ombre: 3, bandos: 6 }[game] || 4;
      Array.prototype.forEach.call(form.querySelectorAll("select.seat-select option"), function (option) {
        var off = parseInt(option.value, 10) > seats;
        option.hidden = off;
        option.disabled = off;
        if (off && option.selected) option.parentNode.value = "1";
      });
    }
    form.addEventListener("change", function (event) {
      if (event.target.name === "game") apply();
    });
    apply();
  }

  // New table: the phone's time zone, so a hand's history shows the table's own clock (else UTC).
  function timeZone() {
    var input = document.querySelector("#new-table input[name=timezone]");
    if (!input || input.value || !window.Intl || !Intl.DateTimeFormat) return;
    try {
      input.value = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
    } catch (e) { /* an old browser: the history stays in UTC */ }
  }

  function start() {
    gameChooser();
    timeZone();
    poll();
    copyLinks();
    handForm();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();

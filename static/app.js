// Cartulina: small progressive enhancements. Every page works without this file.
(function () {
  "use strict";

  // The words shown to people come from the page, in its language (static/i18n.js).
  var msg = window.cartulinaText;

  // View link: reload when the table changes (polls /t/<token>/estado).
  var polling = false;
  function poll() {
    var body = document.body;
    var url = body.getAttribute("data-poll");
    if (!url || !window.fetch || polling) return;
    polling = true;
    var revision = body.getAttribute("data-revision");
    var answers = body.getAttribute("data-answers");
    // a note being written (No es así) is not lost to a reload: a later poll reloads instead
    function writing() {
      var active = document.activeElement;
      if (active && /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName) && active.type !== "url") return true;
      var notes = document.querySelectorAll("details.answer-no[open] input[name=nota]");
      return Array.prototype.some.call(notes, function (note) { return note.value.trim() !== ""; });
    }
    function check() {
      if (document.hidden) return;
      fetch(url, { cache: "no-store", credentials: "same-origin" })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (data) {
          if (!data || writing()) return;
          var answered = answers !== null && data.answers !== undefined && String(data.answers) !== answers;
          if (String(data.revision) !== revision || answered) window.location.reload();
        })
        .catch(function () { /* offline for a moment: try again later */ });
    }
    window.setInterval(check, 5000);
    document.addEventListener("visibilitychange", check);
  }

  // ---- live answers (keeper's pages): the players' answers come in without a reload ----------------
  // The block [data-answers-live] (templates/answers/_top.html) names the URL, the answers' stamp
  // (data-sello) and the interval (data-refresh, seconds: CARTULINA_REFRESH_SECONDS). While the page is
  // visible it asks every interval; 204 is "nothing new", 200 the disagreements' block and the marks
  // of the hands asked for (data-n), which replace those of the page.
  var answersTimer = null;
  var answersAsking = false;
  function liveAnswers() {
    var block = document.querySelector("[data-answers-live]");
    if (!block || !window.fetch || answersTimer !== null) return;
    var seconds = parseFloat(block.getAttribute("data-refresh"));
    if (!(seconds > 0)) seconds = 5;
    function ask() {
      var current = document.querySelector("[data-answers-live]");
      if (!current || document.hidden || answersAsking) return;
      var numbers = Array.prototype.map.call(document.querySelectorAll(".answers-mark[data-n]"), function (mark) {
        return mark.getAttribute("data-n");
      });
      var url = current.getAttribute("data-answers-live") + "?sello=" + encodeURIComponent(current.getAttribute("data-sello") || "")
        + "&manos=" + numbers.join(",");
      answersAsking = true;
      fetch(url, { cache: "no-store", credentials: "same-origin" })
        .then(function (r) { return r.status === 200 ? r.text() : null; })
        .then(function (html) {
          answersAsking = false;
          if (html === null) return;
          var got = document.createElement("template");
          got.innerHTML = html;
          var fresh = got.content.querySelector("[data-answers-live]");
          var shown = document.querySelector("[data-answers-live]");
          if (!fresh || !shown) return;
          shown.innerHTML = fresh.innerHTML;
          shown.setAttribute("data-sello", fresh.getAttribute("data-sello") || "");
          Array.prototype.forEach.call(got.content.querySelectorAll(".answers-mark[data-n]"), function (mark) {
            var old = document.querySelector('.answers-mark[data-n="' + mark.getAttribute("data-n") + '"]');
            if (old) old.parentNode.replaceChild(document.importNode(mark, true), old);
          });
        })
        .catch(function () { answersAsking = false; /* offline for a moment: ask again later */ });
    }
    answersTimer = window.setInterval(ask, seconds * 1000);
    document.addEventListener("visibilitychange", function () { if (!document.hidden) ask(); });
  }
  // ---- end of live answers ----------------------------------------------------------------------

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
            note.textContent = msg("copied");
          }, function () {});
        }
      });
    });
  }

  // Hand form: the Jugador's tricks row goes first; with two counts the third is filled in (also when
  // editing: the row not touched last is recomputed). Only possible counts are offered: the contra's
  // are at most 9 minus the Jugador's. Tresillo and pozo y viuda read primeras and bola from the tricks (R13/R19, P13):
  // 9 is a bola hecha, "primeras y se planta" is 5-0-0, after primeras a cut bola is the Jugador's
  // count and a 1 for the contra player who cut it. The payments show live (the server's engine).
  function handForm() {
    var form = document.getElementById("hand-form");
    if (!form) return;
    var box = form.querySelector("[data-tricks]");
    if (!box) return;
    var rows = Array.prototype.slice.call(box.querySelectorAll(".tricks-row"));
    var touched = []; // seats, most recent first
    var filled = null; // the seat whose count we computed
    var autoBola = null; // the bola value we set from the tricks
    var quick = box.querySelector("[data-quick]");
    var reading = box.querySelector("[data-reading]");
    var primerasRadio = form.querySelector("input[type=radio][name=primeras][value=jugador]");
    var tresillo = !!primerasRadio;

    function each(list, fn) { Array.prototype.forEach.call(list, fn); }
    function value(row) {
      var checked = row && row.querySelector("input[type=radio]:checked");
      return checked ? parseInt(checked.value, 10) : null;
    }
    function setValue(row, v) {
      each(row.querySelectorAll("input[type=radio]"), function (r) { r.checked = v !== null && parseInt(r.value, 10) === v; });
    }
    function seat(row) { return row.getAttribute("data-seat"); }
    function rowOf(s) { return rows.filter(function (r) { return seat(r) === s; })[0] || null; }
    function checkedValue(name) {
      var checked = form.querySelector("input[name=" + name + "]:checked");
      return checked ? checked.value : null;
    }
    function setRadio(name, v) {
      var r = form.querySelector("input[type=radio][name=" + name + "][value='" + v + "']");
      if (r) r.checked = true;
    }
    function jugador() { return checkedValue("jugador"); }
    function jrow() { return rowOf(jugador()); }
    function contra() { var j = jrow(); return rows.filter(function (r) { return r !== j; }); }
    function afterPrimeras() { return tresillo && primerasRadio.checked; }

    function arrange() {
      var j = jugador();
      rows.forEach(function (row) {
        var is = seat(row) === j;
        row.classList.toggle("is-jugador", is);
        if (is) row.parentNode.insertBefore(row, row.parentNode.querySelector(".tricks-row"));
      });
    }
    // only the counts still possible are offered
    function limit() {
      var j = jrow();
      var J = value(j);
      var primeras = afterPrimeras();
      rows.forEach(function (row) {
        each(row.querySelectorAll(".chip"), function (label) {
          var input = label.querySelector("input");
          var v = parseInt(input.value, 10);
          var show = true;
          if (primeras && j) show = row === j ? v >= 5 : v <= 1;
          else if (j && row !== j) show = v <= (J === null ? 4 : 9 - J); // 0-4 until the Jugador's count is known
          label.hidden = !show;
          label.removeAttribute("data-later"); // the server's guess of this (reach.css): the script decides now
          if (!show && input.checked) input.checked = false;
        });
      });
    }
    function fill(changed) {
      rows.forEach(function (r) { r.classList.remove("is-filled"); });
      var j = jrow();
      var others = contra();
      if (j && value(j) === 9 && others.length === 2) { // nine for the Jugador: nothing left for the contra
        setValue(others[0], 0); setValue(others[1], 0);
        filled = null;
        return;
      }
      if (afterPrimeras() && j && others.length === 2) {
        var J = value(j);
        if (J === 9 || J === 5 && value(others[0]) === null && value(others[1]) === null) {
          setValue(others[0], 0); setValue(others[1], 0);
        } else if (changed && changed !== j && value(changed) === 1) {
          setValue(changed === others[0] ? others[1] : others[0], 0); // the other did not get a trick
        } else if (J !== null) {
          others.forEach(function (r) { if (value(r) === null) setValue(r, 0); });
        }
        filled = null;
        return;
      }
      // the row the keeper has not tapped is what is left of the nine (never one they tapped themselves)
      var untouched = rows.filter(function (r) { return touched.indexOf(seat(r)) < 0; });
      if (!untouched.length) return;
      var target = rowOf(filled);
      if (!target || untouched.indexOf(target) < 0) {
        var free = untouched.filter(function (r) { return r !== j; });
        target = (free.length ? free : untouched)[(free.length ? free : untouched).length - 1];
      }
      var known = rows.filter(function (r) { return r !== target; });
      if (value(known[0]) === null || value(known[1]) === null) return;
      var rest = 9 - value(known[0]) - value(known[1]);
      if (rest >= 0) {
        setValue(target, rest);
        filled = seat(target);
        target.classList.add("is-filled");
      } else if (filled === seat(target)) {
        setValue(target, null);
      }
    }
    // what the tricks say (R13/R19), and the bola flag that goes with it
    function read() {
      if (!tresillo) return;
      var j = jrow();
      var others = contra();
      var text = "";
      var bola = null;
      var J = value(j);
      var a = others.length === 2 ? value(others[0]) : null;
      var b = others.length === 2 ? value(others[1]) : null;
      var primeras = afterPrimeras();
      var lance = checkedValue("lance");
      if (lance === "bola" || lance === "contrabola") {
        // pozo y viuda P9: a declared bola is the bola already; the tricks say nothing more
      } else if (j && J === 9 && a === 0 && b === 0) {
        text = msg("bola_hecha");
        bola = "hecha";
      } else if (primeras && J === 5 && a === 0 && b === 0) {
        text = msg("plantado");
        bola = "";
      } else if (primeras && J !== null && J >= 5 && J <= 8 && a !== null && b !== null && a + b === 1) {
        var cutter = a === 1 ? others[0] : others[1];
        text = msg("cortada", { name: cutter.querySelector(".who").textContent.trim(), jugador: J });
        bola = "cortada";
      } else if (primeras && j) {
        text = msg("tras_primeras");
        bola = "";
      }
      if (reading) reading.textContent = text;
      var current = checkedValue("bola") || "";
      if (bola !== null && (current === "" || current === autoBola)) {
        setRadio("bola", bola);
        autoBola = bola;
      } else if (bola === null && autoBola !== null && current === autoBola) {
        setRadio("bola", "");
        autoBola = null;
      }
      if (quick) {
        var plantado = quick.querySelector("[data-plantado]");
        var cortada = quick.querySelector("[data-cortada]");
        plantado.setAttribute("aria-pressed", String(primeras && J === 5 && a === 0 && b === 0));
        cortada.setAttribute("aria-pressed", String(primeras && !(J === 5 && a === 0 && b === 0) && J !== 9));
      }
    }
    function update(changed) {
      limit();
      fill(changed);
      read();
      live();
    }

    // ---- the live preview: the form as it is, posted to the server's engine (nothing is saved)
    var liveUrl = form.getAttribute("data-live");
    var bar = document.getElementById("live");
    var asked = 0;
    var timer = null;
    function showProblems(problems) {
      each(form.querySelectorAll(".live-error"), function (p) { p.parentNode.removeChild(p); });
      Object.keys(problems || {}).forEach(function (name) {
        var where = document.getElementById("f-" + name);
        if (!where || name === "general") return;
        if (where.closest("details")) where.closest("details").open = true;
        problems[name].forEach(function (message) {
          var p = document.createElement("p");
          p.className = "error-text live-error";
          p.setAttribute("role", "alert");
          p.textContent = message;
          where.appendChild(p);
        });
      });
    }
    function live() {
      if (!liveUrl || !bar || !window.fetch || !window.FormData) return;
      window.clearTimeout(timer);
      timer = window.setTimeout(function () {
        var mine = ++asked;
        fetch(liveUrl, { method: "POST", body: new FormData(form), credentials: "same-origin", cache: "no-store" })
          .then(function (r) { return r.ok ? r.json() : null; })
          .then(function (data) {
            if (!data || mine !== asked) return;
            // the server's earlier messages are replaced by the live ones
            each(form.querySelectorAll(".error-text:not(.live-error)"), function (p) { p.hidden = true; });
            showProblems(data.problems);
            bar.hidden = false;
            bar.classList.toggle("bad", !data.ok && Object.keys(data.problems || {}).length > 0);
            if (data.ok) {
              bar.textContent = (data.result ? data.result.charAt(0).toUpperCase() + data.result.slice(1) + ": " : "")
                + data.summary + ". " + (data.after || "");
            } else if (Object.keys(data.problems || {}).length) {
              var first = data.problems[Object.keys(data.problems)[0]][0];
              bar.textContent = msg("cannot_save", { reason: first });
            } else {
              bar.textContent = data.missing && data.missing.length ? data.missing[0] : "";
              bar.hidden = !bar.textContent;
            }
          })
          .catch(function () { /* offline for a moment: Guardar still checks everything */ });
      }, 150);
    }

    form.addEventListener("change", function (event) {
      var t = event.target;
      var row = t.closest ? t.closest(".tricks-row") : null;
      if (t.name === "jugador") arrange();
      if (row) touched = [seat(row)].concat(touched.filter(function (s) { return s !== seat(row); }));
      if ((t.name === "estuches" || t.name === "contraestuches") && t.value !== "") {
        // never both: choosing one clears the other
        setRadio(t.name === "estuches" ? "contraestuches" : "estuches", "");
      }
      if (t.name === "defensor" && t.value !== "") {
        var rendida = form.querySelector("input[name=rendida]");
        if (rendida) rendida.checked = true;
      }
      if (t.name === "bola") autoBola = null; // the keeper's own choice
      update(row);
    });
    form.addEventListener("submit", function () {
      window.clearTimeout(timer); // no preview after Guardar
      asked++;
    });
    form.addEventListener("input", function (event) {
      if (event.target.type === "text" || event.target.inputMode === "numeric") live();
    });

    if (quick && tresillo) {
      quick.hidden = false;
      quick.querySelector("[data-plantado]").addEventListener("click", function () {
        var j = jrow();
        if (!j) { live(); return; }
        primerasRadio.checked = true;
        setValue(j, 5);
        contra().forEach(function (r) { setValue(r, 0); });
        touched = [];
        update(null);
      });
      quick.querySelector("[data-cortada]").addEventListener("click", function () {
        if (afterPrimeras()) {
          setRadio("primeras", "");
          if (checkedValue("bola") === "cortada") setRadio("bola", "");
          autoBola = null;
        } else {
          primerasRadio.checked = true;
          contra().forEach(function (r) { setValue(r, null); });
        }
        update(null);
      });
    }
    each(form.querySelectorAll("[data-nojs-help]"), function (p) { p.hidden = true; });
    each(document.querySelectorAll("[data-nojs]"), function (b) { b.hidden = true; });
    arrange();
    limit();
    read();
    if (form.querySelector("input[name=jugador]:checked")) live();
  }

  // New table: show only the chosen game's options, seats and words (without JS every group shows).
  function gameChooser() {
    var form = document.getElementById("new-table");
    if (!form) return;
    function chosen() {
      var checked = form.querySelector("input[name=game]:checked") || form.querySelector("input[name=game]");
      return checked ? checked.value : form.getAttribute("data-game");
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
      // hints that only make sense without JS ("solo bandos") go once the game is known: a seat's
      // hint stays for the games that may leave it empty (its data-hint-for)
      Array.prototype.forEach.call(form.querySelectorAll("input[data-hint]"), function (input) {
        var games = (input.getAttribute("data-hint-for") || "").split(" ");
        input.placeholder = games.indexOf(game) >= 0 ? input.getAttribute("data-hint") : "";
      });
      // seats offered to deal first and keep the score: as many as the game has (its radio's data-seats)
      var radio = form.querySelector("input[name=game][value=\"" + game + "\"]");
      var seats = parseInt(radio ? radio.getAttribute("data-seats") : "", 10) || 4;
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

  // New table: "Da la primera mano" and "Lleva la cuenta" name the players as they are typed.
  function seatNames() {
    var form = document.getElementById("new-table");
    if (!form) return;
    var inputs = form.querySelectorAll(".seat-row input");
    function names() {
      return Array.prototype.map.call(inputs, function (input) { return input.value.trim(); });
    }
    function apply() {
      var typed = names();
      var last = "";
      typed.forEach(function (name) { if (name) last = name; });
      Array.prototype.forEach.call(form.querySelectorAll("select.seat-select option"), function (option) {
        var seat = parseInt(option.value, 10);
        if (isNaN(seat)) {
          option.textContent = last ? msg("last_seat_named", { name: last }) : msg("last_seat");
        } else {
          var name = typed[seat - 1];
          option.textContent = name ? msg("seat_named", { name: name, n: seat }) : msg("seat", { n: seat });
        }
      });
    }
    form.addEventListener("input", function (event) {
      if (event.target.closest && event.target.closest(".seat-row")) apply();
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
    seatNames();
    timeZone();
    poll();
    liveAnswers(); // live answers (keeper's pages)
    copyLinks();
    handForm();
  }
  // offline.js shows the table page and its hand forms in place while offline: it calls
  // this again for the page it put in.
  window.cartulinaApp = { init: start };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();

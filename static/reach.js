// Cartulina: within reach on every phone. Every page works without this file.
// - the bottom bar's height goes into --bar-h, so the footer and a focused field clear it;
// - a long message after a save, and the live preview of a hand, fold; a tap shows them whole;
// - Guardar (or any main button) says it is at work while a slow network answers.
(function () {
  "use strict";
  var msg = window.cartulinaText;

  var observer = null;
  var resized = false;
  function measure() {
    var bar = document.querySelector("body > .thumb-bar");
    var fixed = !!bar && window.getComputedStyle(bar).position === "fixed";
    document.documentElement.style.setProperty("--bar-h", fixed ? bar.offsetHeight + "px" : "0px");
  }
  function barHeight() {
    if (observer) observer.disconnect();
    var bar = document.querySelector("body > .thumb-bar");
    if (!bar) {
      if (resized) measure(); // a page shown in place with no bar
      return;
    }
    measure();
    if (!resized) window.addEventListener("resize", measure);
    resized = true;
    if (window.ResizeObserver) (observer = observer || new window.ResizeObserver(measure)).observe(bar);
  }

  function unfold(el) {
    el.setAttribute("tabindex", "0");
    el.setAttribute("aria-expanded", "false");
    function toggle(event) {
      if (event.target.closest && event.target.closest("button, a, input")) return;
      var open = !el.classList.contains("open");
      el.classList.toggle("open", open);
      el.setAttribute("aria-expanded", open ? "true" : "false");
    }
    el.addEventListener("click", toggle);
    el.addEventListener("keydown", function (event) {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); toggle(event); }
    });
  }

  function folding() {
    Array.prototype.forEach.call(document.querySelectorAll(".flash li:not(.undo)"), function (li) {
      li.classList.add("folds");
      if (li.scrollHeight > li.clientHeight + 2) unfold(li);
      else li.classList.remove("folds");
    });
    var live = document.querySelector(".hand-bar .live");
    if (live) unfold(live);
  }

  // Guardar at work: the post is under way, or offline.js is asking the server first (data-asking).
  // A form offline.js keeps offline, or stops to show what a change cancels, posts nothing: it tells
  // with "cartulina:idle", and the button comes back.
  function busy() {
    document.addEventListener("submit", function (event) {
      var button = event.submitter;
      var form = event.target;
      if (!button || button.name === "preview" || !button.classList.contains("primary")) return;
      if (button.classList.contains("is-busy")) return;
      function done() {
        button.classList.remove("is-busy");
        button.removeAttribute("aria-busy");
        if (button.hasAttribute("data-label")) button.textContent = button.getAttribute("data-label");
        button.removeAttribute("data-label");
      }
      form.addEventListener("cartulina:idle", done, { once: true });
      window.addEventListener("pageshow", done, { once: true }); // Back into a kept page
      window.setTimeout(function () { // after the other scripts decided (offline.js may stop the post)
        if (event.defaultPrevented && !form.hasAttribute("data-asking")) return; // kept: no post under way
        button.classList.add("is-busy");
        button.setAttribute("aria-busy", "true");
        var words = msg && msg("saving");
        if (words) { button.setAttribute("data-label", button.textContent); button.textContent = words; }
        window.setTimeout(done, 20000); // no answer at all: the keeper may tap again
      }, 0);
    }, true);
  }

  function page() {
    barHeight();
    folding();
  }
  function start() {
    page();
    busy();
  }
  // offline.js shows the table page and its hand forms in place while offline: the page's
  // part again for the page it put in.
  window.cartulinaReach = { init: page };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();

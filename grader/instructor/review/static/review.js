// grader review: keyboard shortcuts for the review queue (served by the page; no inline script).
// j / k: next / previous answer; a: accept the provisional score and save (on to the next);
// 0-9: the final score (a second digit or "." extends it); Ctrl+Enter (or Cmd+Enter): save.
// Keys typed into a text field are left alone. When the handlers are in place, the page says
// so: document.documentElement.dataset.ready = "1" (what browser tests wait for).
(function () {
  "use strict";
  function typing(target) {
    return target && (target.tagName === "TEXTAREA" || target.tagName === "SELECT" ||
      (target.tagName === "INPUT" && target.type !== "hidden" && target.type !== "checkbox"));
  }
  document.addEventListener("keydown", function (event) {
    var form = document.getElementById("decision-form");
    if ((event.ctrlKey || event.metaKey) && event.key === "Enter" && form) {
      event.preventDefault();
      form.requestSubmit();
      return;
    }
    if (document.body.dataset.page !== "queue" || typing(event.target) ||
        event.ctrlKey || event.metaKey || event.altKey) {
      return;
    }
    var link = null;
    if (event.key === "j") { link = document.getElementById("next"); }
    if (event.key === "k") { link = document.getElementById("prev"); }
    if (link) { event.preventDefault(); window.location.assign(link.href); return; }
    var score = document.getElementById("score");
    if (event.key === "a" && score && form && score.dataset.provisional !== undefined) {
      event.preventDefault();
      score.value = score.dataset.provisional;
      form.requestSubmit();
      return;
    }
    if (/^[0-9]$/.test(event.key) && score) {
      event.preventDefault(); score.value = event.key; score.focus();
    }
  });
  var filters = document.querySelectorAll("#filter-status, #sort, #filter-exercise");
  filters.forEach(function (select) {
    select.addEventListener("change", function () { select.form.submit(); });
  });
  document.documentElement.dataset.ready = "1";
})();

// grader review: keyboard shortcuts for the review queue (served by the page; no inline script).
// j / k: next / previous answer; 0-9: the final score (a second digit or "." extends it);
// Ctrl+Enter (or Cmd+Enter): save. Keys typed into a text field are left alone.
(function () {
  "use strict";
  function typing(target) {
    return target && (target.tagName === "TEXTAREA" || target.tagName === "SELECT" ||
      (target.tagName === "INPUT" && target.type !== "hidden"));
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
    if (/^[0-9]$/.test(event.key)) {
      var score = document.getElementById("score");
      if (score) { event.preventDefault(); score.value = event.key; score.focus(); }
    }
  });
  var filters = document.querySelectorAll("#filter-status, #sort");
  filters.forEach(function (select) {
    select.addEventListener("change", function () { select.form.submit(); });
  });
})();

// Copy-link buttons: the address of a section is the public contract, so make it one click to share.
document.addEventListener("click", function (event) {
  var button = event.target.closest("button.copy-link");
  if (!button) return;
  var url = button.getAttribute("data-url");
  var done = function () { var old = button.textContent; button.textContent = button.getAttribute("data-done"); setTimeout(function () { button.textContent = old; }, 1500); };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(url).then(done, function () { window.prompt("", url); });
  } else {
    window.prompt("", url);
  }
});

// Term tooltips on touch screens: the first tap opens the tooltip, a second tap follows the link to the glossary.
document.addEventListener("click", function (event) {
  var link = event.target.closest("a.term-link");
  document.querySelectorAll(".term.open").forEach(function (el) { if (!link || el !== link.parentNode) el.classList.remove("open"); });
  if (!link || !window.matchMedia("(hover: none)").matches) return;
  var term = link.parentNode;
  if (!term.classList.contains("open")) { event.preventDefault(); term.classList.add("open"); }
});
document.addEventListener("keydown", function (event) {
  if (event.key === "Escape") document.querySelectorAll(".term.open").forEach(function (el) { el.classList.remove("open"); });
});

// Glossary: filter the list as you type (the form still filters on the server without script).
document.querySelectorAll("input[data-filter]").forEach(function (input) {
  var list = document.querySelector(input.getAttribute("data-filter"));
  var count = document.getElementById("glossary-count");
  input.addEventListener("input", function () {
    var q = input.value.trim().toLowerCase(), shown = 0;
    list.querySelectorAll(".term-row").forEach(function (row) {
      var hit = !q || row.getAttribute("data-search").indexOf(q) !== -1;
      row.hidden = !hit; if (hit) shown++;
    });
    list.querySelectorAll("section.letter").forEach(function (s) { s.hidden = !s.querySelector(".term-row:not([hidden])"); });
    if (count) count.textContent = count.getAttribute("data-template") ? count.getAttribute("data-template").replace("N", shown) : shown;
  });
});

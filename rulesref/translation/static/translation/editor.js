/* The translator's editor: one click puts a suggestion into the paragraph's field.
   A translation-memory match replaces the field's text; a glossary term goes in at the cursor. The field then
   announces the change, so the QA panel checks the new text as if it had been typed. Without this script the
   suggestions are plain text to copy, and the buttons stay hidden. */
(function () {
  "use strict";

  function fieldFor(button) {
    var box = button.closest(".suggestions");
    return box ? document.getElementById(box.getAttribute("data-field")) : null;
  }

  function insert(button) {
    var field = fieldFor(button);
    if (!field) return;
    var text = button.getAttribute("data-insert") || "";
    if (button.getAttribute("data-mode") === "cursor") {
      var start = field.selectionStart, end = field.selectionEnd;
      if (typeof start !== "number" || document.activeElement !== field && field.dataset.touched !== "1") {
        start = end = field.value.length;
      }
      var before = field.value.slice(0, start), after = field.value.slice(end);
      var pad = before && !/\s$/.test(before) ? " " : "";
      field.value = before + pad + text + after;
      var caret = (before + pad + text).length;
      field.setSelectionRange(caret, caret);
    } else {
      field.value = text;
    }
    field.dispatchEvent(new Event("input", {bubbles: true}));
    field.focus();
    button.classList.add("done");
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-insert]");
    if (button) {
      event.preventDefault();
      insert(button);
    }
  });
  document.addEventListener("focusout", function (event) {
    if (event.target.matches && event.target.matches(".ed-target textarea, .ed-target input")) {
      event.target.dataset.touched = "1";  /* keep its cursor for a term inserted from outside the field */
    }
  });
  document.querySelectorAll("button[data-insert][hidden]").forEach(function (button) {
    button.hidden = false;
  });
})();

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

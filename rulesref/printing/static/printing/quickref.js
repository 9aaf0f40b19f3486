// The reader's quick-reference sheet, kept in this browser (localStorage "rulesref.quickref": a title and a list of
// {book, sid, label}); nothing is sent to the site until the reader opens the sheet, whose address is the sheet.
// Every text shown comes from the store or the page and is set as text (textContent), never as markup.
(function () {
  var KEY = "rulesref.quickref";
  var MAX_ITEMS = 200;

  function clean(value, most) { return typeof value === "string" ? value.slice(0, most) : ""; }

  function load() {
    var data = {};
    try { data = JSON.parse(localStorage.getItem(KEY) || "{}") || {}; } catch (e) { data = {}; }
    var items = Array.isArray(data.items) ? data.items : [];
    return {
      title: clean(data.title, 120),
      text: ["ru", "en", "both"].indexOf(data.text) >= 0 ? data.text : "",
      rulings: data.rulings === true,
      items: items.filter(function (i) { return i && typeof i.book === "string" && typeof i.sid === "string"; })
        .slice(0, MAX_ITEMS)
        .map(function (i) { return {book: clean(i.book, 50), sid: clean(i.sid, 64), label: clean(i.label, 300)}; })
    };
  }

  function save(data) {
    try { localStorage.setItem(KEY, JSON.stringify(data)); return true; } catch (e) { return false; }
  }

  function has(data, book, sid) {
    return data.items.some(function (i) { return i.book === book && i.sid === sid; });
  }

  function add(data, book, sid, label) {
    if (!book || !sid || has(data, book, sid) || data.items.length >= MAX_ITEMS) return;
    data.items.push({book: book, sid: sid, label: label});
  }

  function flash(button) {
    var done = button.getAttribute("data-done");
    if (done) button.textContent = done;
  }

  // "Add to my quick reference" on a section's page.
  document.querySelectorAll("button.quickref-add").forEach(function (button) {
    var book = button.getAttribute("data-book"), sid = button.getAttribute("data-sid");
    button.hidden = false;
    if (has(load(), book, sid)) flash(button);
    button.addEventListener("click", function () {
      var data = load();
      add(data, book, sid, button.getAttribute("data-label") || sid);
      if (save(data)) flash(button);
    });
  });

  // A printed sheet: its print button, and "keep it as my quick reference".
  document.querySelectorAll("button.print-now").forEach(function (button) {
    button.hidden = false;
    button.addEventListener("click", function () { window.print(); });
  });
  document.querySelectorAll("button.quickref-keep").forEach(function (button) {
    button.hidden = false;
    button.addEventListener("click", function () {
      var data = load();
      var form = document.querySelector(".print-options");
      document.querySelectorAll("[data-quickref-book]").forEach(function (section) {
        add(data, section.getAttribute("data-quickref-book"), section.getAttribute("data-quickref-sid"),
            (section.getAttribute("data-quickref-label") || "").trim());
      });
      if (form) {
        data.title = clean(form.elements.title.value, 120);
        data.text = form.elements.text.value;
        data.rulings = form.elements.rulings.checked;
      }
      if (save(data)) flash(button);
    });
  });

  // The page of the reader's sheet.
  var root = document.getElementById("quickref");
  if (!root) return;
  root.hidden = false;
  var list = document.getElementById("quickref-items");
  var empty = document.getElementById("quickref-empty");
  var title = document.getElementById("quickref-title");
  var textChoice = document.getElementById("quickref-text");
  var rulings = document.getElementById("quickref-rulings");
  var open = document.getElementById("quickref-open");
  var copy = document.getElementById("quickref-copy");
  var base = root.getAttribute("data-print-base");

  function address(data) {
    var query = new URLSearchParams();
    data.items.forEach(function (i) { query.append("s", i.book + ":" + i.sid); });
    if (data.title) query.append("title", data.title);
    if (data.text) query.append("text", data.text);
    if (data.rulings) query.append("rulings", "1");
    return base + "?" + query.toString();
  }

  function button(text, onClick) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "link";
    b.textContent = text;
    b.addEventListener("click", onClick);
    return b;
  }

  function move(index, by) {
    var data = load();
    var to = index + by;
    if (to < 0 || to >= data.items.length) return;
    var item = data.items.splice(index, 1)[0];
    data.items.splice(to, 0, item);
    save(data);
    show();
  }

  function show() {
    var data = load();
    list.replaceChildren();
    data.items.forEach(function (item, index) {
      var li = document.createElement("li");
      var label = document.createElement("span");
      label.textContent = item.label || item.sid;
      var book = document.createElement("span");
      book.className = "muted";
      book.textContent = " (" + item.book + ")";
      li.append(label, book,
        button(root.getAttribute("data-up"), function () { move(index, -1); }),
        button(root.getAttribute("data-down"), function () { move(index, 1); }),
        button(root.getAttribute("data-remove"), function () {
          var fresh = load();
          fresh.items.splice(index, 1);
          save(fresh);
          show();
        }));
      list.appendChild(li);
    });
    empty.hidden = data.items.length > 0;
    open.hidden = copy.hidden = data.items.length === 0;
    if (document.activeElement !== title) title.value = data.title;
    textChoice.value = data.text || document.documentElement.lang;
    rulings.checked = data.rulings;
    var url = address(data);
    open.setAttribute("href", url);
    copy.setAttribute("data-url", new URL(url, window.location.href).href);
  }

  function remember() {
    var data = load();
    data.title = clean(title.value, 120);
    data.text = textChoice.value;
    data.rulings = rulings.checked;
    save(data);
    show();
  }

  title.addEventListener("input", remember);
  textChoice.addEventListener("change", remember);
  rulings.addEventListener("change", remember);
  document.getElementById("quickref-clear").addEventListener("click", function () {
    save({title: "", items: []});
    show();
  });
  window.addEventListener("storage", function (event) { if (event.key === KEY) show(); });
  show();
})();

/* The account page (templates/account.html): copying a new token, confirming a revoke. */
(function () {
  "use strict";
  var btn = document.getElementById("copy-token");
  var code = document.getElementById("new-token");
  if (btn && code) {
    var label = btn.textContent;
    btn.addEventListener("click", function () {
      var text = code.textContent.trim();
      function done(ok) {
        btn.textContent = ok ? btn.dataset.copied : btn.dataset.failed;
        if (!ok) {
          var range = document.createRange();
          range.selectNodeContents(code);
          var sel = window.getSelection();
          sel.removeAllRanges();
          sel.addRange(range);
        }
        setTimeout(function () { btn.textContent = label; }, 2500);
      }
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(function () { done(true); }, function () { done(false); });
      } else {
        // Plain HTTP (a club's local server): the old way, from an off-screen text area.
        var area = document.createElement("textarea");
        area.value = text;
        area.setAttribute("readonly", "");
        area.className = "offscreen-copy";
        document.body.appendChild(area);
        area.select();
        var ok = false;
        try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
        document.body.removeChild(area);
        done(ok);
      }
    });
  }
  document.querySelectorAll("form.js-confirm").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      if (!window.confirm(form.dataset.confirm)) event.preventDefault();
    });
  });
})();

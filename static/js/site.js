/* On every page (templates/base.html): what the layout itself needs.
 *
 * Kept out of the templates: the Content-Security-Policy allows scripts from /static/ only
 * (config/security.py), so no inline handlers.
 */
(function () {
  "use strict";
  // The language menu applies a choice at once (the form has no submit button): a pick
  // with the mouse or touch when it is made; with the keyboard, whose arrows move through
  // the languages one by one, on Enter or when the menu is left.
  var select = document.getElementById("lang-select");
  if (select && select.form) {
    var shown = select.value;
    var byKeys = false;
    var apply = function () {
      if (select.value !== shown) select.form.submit();
    };
    select.addEventListener("keydown", function (ev) {
      if (ev.key === "Enter") {
        ev.preventDefault();
        apply();
      } else if (ev.key !== "Tab") {
        byKeys = true;
      }
    });
    select.addEventListener("change", function () {
      if (!byKeys) apply();
    });
    select.addEventListener("blur", function () {
      if (byKeys) apply();
      byKeys = false;
    });
  }
})();

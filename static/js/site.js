/* On every page (templates/base.html): what the layout itself needs.
 *
 * Kept out of the templates: the Content-Security-Policy allows scripts from /static/ only
 * (config/security.py), so no inline handlers.
 */
(function () {
  "use strict";
  // The language menu applies a choice at once (the form has no submit button).
  var select = document.getElementById("lang-select");
  if (select && select.form) {
    select.addEventListener("change", function () { select.form.submit(); });
  }
})();

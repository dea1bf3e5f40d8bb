/* The lobby (templates/games/lobby.html): quick starts, challenges, open seeks, live lists.
 *
 * Every string shown to the user comes from the translated JSON block #lobby-i18n.
 * The lists refresh every 2 s from the JSON API (docs/api.md); when a new active match
 * appears after the page loaded (someone accepted my seek or challenge), we go to it.
 */
(function () {
  "use strict";

  var POLL_MS = 2000;
  var root = document.getElementById("lobby");
  if (!root) return;
  var T = JSON.parse(document.getElementById("lobby-i18n").textContent);

  var leaving = false;       // set once we navigate away: stops polling and double moves
  var knownMatches = null;   // ids of active matches seen at the first successful poll
  var pollTimer = null;
  var polling = false;
  var pollAgain = false;     // a refresh was asked for while one was in flight
  var lastRendered = {};     // list id -> JSON of the data it shows (re-render only on change)

  // ---------- helpers ----------

  function fmt(text, vars) {
    return String(text).replace(/\{(\w+)\}/g, function (whole, key) {
      return Object.prototype.hasOwnProperty.call(vars, key) ? String(vars[key]) : whole;
    });
  }

  function cookie(name) {
    var parts = document.cookie ? document.cookie.split(";") : [];
    for (var i = 0; i < parts.length; i++) {
      var pair = parts[i].trim();
      if (pair.substring(0, name.length + 1) === name + "=") {
        return decodeURIComponent(pair.substring(name.length + 1));
      }
    }
    return null;
  }

  function csrfToken() {
    var fromCookie = cookie("csrftoken");
    if (fromCookie) return fromCookie;
    var input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  function ApiError(message, status, code) {
    this.message = message;
    this.status = status;
    this.code = code;
  }

  /* fetch JSON; resolves with the body, rejects with ApiError carrying a translated message */
  function api(method, url, body) {
    var opts = {
      method: method,
      credentials: "same-origin",
      headers: { "Accept": "application/json" },
    };
    if (method !== "GET") {
      opts.headers["Content-Type"] = "application/json";
      opts.headers["X-CSRFToken"] = csrfToken();
      opts.body = JSON.stringify(body || {});
    }
    return fetch(url, opts).then(
      function (res) {
        return res.text().then(function (text) {
          var data = null;
          try { data = text ? JSON.parse(text) : {}; } catch (e) { data = null; }
          if (!res.ok || !data || data.ok === false) {
            var message = (data && typeof data.message === "string" && data.message) || T.generic_error;
            throw new ApiError(message, res.status, data && data.code);
          }
          return data;
        });
      },
      function () { throw new ApiError(T.network_error, 0, "network"); }
    );
  }

  function messageOf(err) {
    return (err && err.message) || T.generic_error;
  }

  function show(el, text, kind) {
    if (!el) return;
    if (!text) { el.hidden = true; el.textContent = ""; return; }
    el.textContent = text;
    if (kind) {
      el.classList.remove("alert--ok", "alert--error", "alert--warn");
      el.classList.add("alert--" + kind);
      el.setAttribute("role", kind === "error" ? "alert" : "status");
    }
    el.hidden = false;
  }

  function busy(btn, on) {
    if (!btn) return;
    btn.disabled = on;
    if (on) btn.setAttribute("aria-busy", "true"); else btn.removeAttribute("aria-busy");
  }

  function go(url) {
    if (leaving || !url) return;
    leaving = true;
    if (pollTimer) clearTimeout(pollTimer);
    window.location.assign(url);
  }

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (key) {
        var value = attrs[key];
        if (value === null || value === undefined || value === false) return;
        if (key === "text") node.textContent = value;
        else if (key === "className") node.className = value;
        else node.setAttribute(key, value === true ? "" : String(value));
      });
    }
    (children || []).forEach(function (child) {
      if (child === null || child === undefined) return;
      node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    });
    return node;
  }

  function kindBadge(rated) {
    return el("span", {
      className: "badge " + (rated ? "badge--rated" : "badge--casual"),
      text: rated ? T.rated : T.casual,
    });
  }

  // The standard table (games/spectacular_bid/rules.py): rows show what differs from it.
  var STANDARD_RULES = {
    start_points: 150, bank_s: 120, delay_s: 10, min_bid: 15, bid_step: 5,
    jockey_discount: 15, grace_s: 60, one_device: false,
  };

  /* Badges for a seek's non-standard table rules (nothing for the standard ones). */
  function rulesBadges(rules) {
    var out = [];
    if (!rules || typeof rules !== "object") return out;
    var others = [];
    Object.keys(rules).forEach(function (key) {
      if (!Object.prototype.hasOwnProperty.call(STANDARD_RULES, key)) return;
      if (rules[key] === STANDARD_RULES[key]) return;
      if (key === "start_points") {
        out.push(el("span", {
          className: "badge badge--rules",
          "data-testid": "rules-start-points",
          title: T.start_points_title,
          text: fmt(T.start_points, { n: rules[key] }),
        }));
      } else {
        others.push(key + " = " + rules[key]);
      }
    });
    if (others.length) {
      out.push(el("span", {
        className: "badge badge--rules",
        "data-testid": "rules-custom",
        title: others.join(", "),
        text: T.custom_rules,
      }));
    }
    return out;
  }

  /* The rules a form asks for: {start_points} for a casual game that does not use 150. */
  function tableRules(ratedSelect, pointsSelect) {
    if (ratedSelect.value === "rated" || !pointsSelect) return null;
    var points = Number(pointsSelect.value);
    if (!points || points === STANDARD_RULES.start_points) return null;
    return { start_points: points };
  }

  /* The starting-points choice is shown for casual games only. */
  function linkPoints(ratedSelect, pointsSelect) {
    var field = pointsSelect && pointsSelect.closest(".field");
    if (!field) return;
    function sync() { field.hidden = ratedSelect.value === "rated"; }
    ratedSelect.addEventListener("change", sync);
    window.addEventListener("pageshow", sync); // a form restored by the browser
    sync();
  }

  var globalError = document.getElementById("lobby-error");
  var globalNotice = document.getElementById("lobby-notice");
  var live = document.getElementById("live");

  // ---------- rendering ----------

  function renderList(listId, rows, emptyText, makeRow) {
    var list = document.getElementById(listId);
    if (!list) return;
    var key = JSON.stringify(rows);
    if (lastRendered[listId] === key) return;
    var before = {};
    if (lastRendered[listId] !== undefined) {
      JSON.parse(lastRendered[listId]).forEach(function (r) { before[r.id] = true; });
    }
    lastRendered[listId] = key;
    var fresh = document.createDocumentFragment();
    if (!rows.length) {
      fresh.appendChild(el("li", { className: "empty", text: emptyText }));
    } else {
      rows.forEach(function (row) {
        var li = makeRow(row);
        if (Object.keys(before).length && !before[row.id]) li.classList.add("row--new");
        fresh.appendChild(li);
      });
    }
    list.replaceChildren(fresh);
  }

  function actionButton(action, id, label, style) {
    return el("button", {
      type: "button",
      className: "btn btn--small " + (style || ""),
      "data-action": action,
      "data-id": id,
      "data-testid": action + "-" + id,
      text: label,
    });
  }

  function openSeekRow(seek) {
    var who = seek.mine
      ? el("span", { className: "row__who", text: seek.creator + " (" + T.you + ")" })
      : el("span", { className: "row__who", text: seek.creator });
    var main = el("div", { className: "row__main" }, [who, kindBadge(seek.rated)].concat(rulesBadges(seek.rules)));
    if (seek.mine) main.appendChild(el("span", { className: "row__meta", text: T.your_seek }));
    var actions = el("div", { className: "row__actions" }, [
      seek.mine
        ? actionButton("cancel", seek.id, T.cancel, "btn--danger")
        : actionButton("accept", seek.id, T.accept, ""),
    ]);
    return el("li", { className: "row", "data-testid": "seek-" + seek.id }, [main, actions]);
  }

  function challengeToMeRow(seek) {
    var main = el("div", { className: "row__main" }, [
      el("span", { className: "row__who", text: fmt(T.challenge_from, { name: seek.creator }) }),
      kindBadge(seek.rated),
    ].concat(rulesBadges(seek.rules)));
    var actions = el("div", { className: "row__actions" }, [
      actionButton("accept", seek.id, T.accept, ""),
      actionButton("cancel", seek.id, T.decline, "btn--danger"),
    ]);
    return el("li", { className: "row", "data-testid": "challenge-" + seek.id }, [main, actions]);
  }

  function myChallengeRow(seek) {
    var main = el("div", { className: "row__main" }, [
      el("span", { className: "row__who", text: fmt(T.challenge_to, { name: seek.opponent || "" }) }),
      kindBadge(seek.rated),
    ].concat(rulesBadges(seek.rules)));
    var actions = el("div", { className: "row__actions" }, [
      actionButton("cancel", seek.id, T.cancel, "btn--danger"),
    ]);
    return el("li", { className: "row", "data-testid": "challenge-" + seek.id }, [main, actions]);
  }

  function matchRow(match) {
    var players = match.players || [];
    var title = match.one_device
      ? T.one_device_game
      : fmt(T.versus, { a: players[0] || "?", b: players[1] || "?" });
    var main = el("div", { className: "row__main" }, [
      el("a", { className: "row__who", href: match.url, text: title }),
      match.one_device
        ? el("span", { className: "badge badge--device", text: T.one_device })
        : kindBadge(match.rated),
    ]);
    var b = match.balances || [];
    if (b.length === 2) {
      main.appendChild(el("span", {
        className: "row__meta row__meta--line balances",
        title: T.balances,
        text: T.balances + ": " + b[0] + " – " + b[1],
      }));
    }
    var actions = el("div", { className: "row__actions" }, [
      el("a", { className: "btn btn--small", href: match.url, "data-testid": "open-" + match.id, text: T.resume }),
    ]);
    return el("li", { className: "row", "data-testid": "match-" + match.id }, [main, actions]);
  }

  function renderSeeks(data) {
    renderList("seek-list", data.open || [], T.no_open, openSeekRow);
    renderList("challenges-to-me", data.challenges_to_me || [], T.no_to_me, challengeToMeRow);
    renderList("my-challenges", data.my_challenges || [], T.no_mine, myChallengeRow);
  }

  function renderMatches(matches) {
    renderList("my-matches", matches, T.no_matches, matchRow);
    var ids = matches.map(function (m) { return m.id; });
    if (knownMatches === null) {
      knownMatches = new Set(ids);
      return;
    }
    var appeared = matches.filter(function (m) { return !knownMatches.has(m.id); });
    ids.forEach(function (id) { knownMatches.add(id); });
    if (appeared.length && !leaving) {
      show(globalNotice, T.match_found, "ok");
      go(appeared[0].url);
    }
  }

  function setLive(ok, why) {
    if (!live) return;
    live.dataset.state = ok ? "online" : "offline";
    live.textContent = ok ? T.live : T.offline;
    live.title = ok ? "" : (why || "");
  }

  // ---------- polling ----------

  function poll() {
    if (leaving) return;
    if (pollTimer) { clearTimeout(pollTimer); pollTimer = null; }
    if (polling) { pollAgain = true; return; }
    polling = true;
    pollAgain = false;
    Promise.all([api("GET", "/api/seeks"), api("GET", "/api/matches?status=active")])
      .then(function (results) {
        if (leaving) return;
        renderSeeks(results[0]);
        renderMatches(results[1].matches || []);
        setLive(true);
      })
      .catch(function (err) {
        setLive(false, messageOf(err));
        if (err && (err.status === 401 || err.status === 403)) show(globalError, messageOf(err), "error");
      })
      .then(function () {
        polling = false;
        if (!leaving) pollTimer = setTimeout(poll, pollAgain ? 0 : POLL_MS);
      });
  }

  // ---------- actions ----------

  // Quick starts: the computer, one device.
  Array.prototype.forEach.call(root.querySelectorAll("[data-start]"), function (btn) {
    btn.addEventListener("click", function () {
      if (btn.disabled) return;
      show(globalError, "");
      busy(btn, true);
      api("POST", btn.getAttribute("data-start"), {})
        .then(function (data) { go(data.match && data.match.url); })
        .catch(function (err) { show(globalError, messageOf(err), "error"); })
        .then(function () { if (!leaving) busy(btn, false); });
    });
  });

  // Challenge a named player.
  var challengeForm = document.getElementById("challenge-form");
  var challengeName = document.getElementById("challenge-name");
  var challengeRated = document.getElementById("challenge-rated");
  var challengeFeedback = document.getElementById("challenge-feedback");
  var challengePoints = document.getElementById("challenge-points");
  linkPoints(challengeRated, challengePoints);
  challengeForm.addEventListener("submit", function (event) {
    event.preventDefault();
    var name = challengeName.value.trim();
    if (!name) {
      show(challengeFeedback, T.enter_name, "error");
      challengeName.focus();
      return;
    }
    var btn = challengeForm.querySelector("[type=submit]");
    busy(btn, true);
    show(challengeFeedback, "");
    var challenge = { opponent: name, rated: challengeRated.value === "rated" };
    var challengeRules = tableRules(challengeRated, challengePoints);
    if (challengeRules) challenge.rules = challengeRules;
    api("POST", "/api/seeks", challenge)
      .then(function () {
        show(challengeFeedback, fmt(T.challenge_sent, { name: name }), "ok");
        challengeName.value = "";
        poll();
      })
      .catch(function (err) {
        show(challengeFeedback, messageOf(err), "error");
        challengeName.focus();
      })
      .then(function () { busy(btn, false); });
  });
  challengeName.addEventListener("input", function () {
    if (challengeFeedback.classList.contains("alert--error")) show(challengeFeedback, "");
  });

  // Post an open seek.
  var seekForm = document.getElementById("seek-form");
  var seekRated = document.getElementById("seek-rated");
  var seekFeedback = document.getElementById("seek-feedback");
  var seekPoints = document.getElementById("seek-points");
  linkPoints(seekRated, seekPoints);
  seekForm.addEventListener("submit", function (event) {
    event.preventDefault();
    var btn = seekForm.querySelector("[type=submit]");
    busy(btn, true);
    show(seekFeedback, "");
    var seek = { rated: seekRated.value === "rated" };
    var seekRules = tableRules(seekRated, seekPoints);
    if (seekRules) seek.rules = seekRules;
    api("POST", "/api/seeks", seek)
      .then(function () {
        show(seekFeedback, T.seek_posted, "ok");
        poll();
      })
      .catch(function (err) { show(seekFeedback, messageOf(err), "error"); })
      .then(function () { busy(btn, false); });
  });

  // Row buttons: accept, cancel / decline.
  root.addEventListener("click", function (event) {
    var btn = event.target.closest("button[data-action]");
    if (!btn || btn.disabled) return;
    var id = btn.getAttribute("data-id");
    var action = btn.getAttribute("data-action");
    show(globalError, "");
    busy(btn, true);
    if (action === "accept") {
      api("POST", "/api/seeks/" + encodeURIComponent(id) + "/accept", {})
        .then(function (data) { go(data.match && data.match.url); })
        .catch(function (err) {
          show(globalError, messageOf(err), "error");
          busy(btn, false);
          poll();
        });
    } else if (action === "cancel") {
      api("POST", "/api/seeks/" + encodeURIComponent(id) + "/cancel", {})
        .then(function () { show(seekFeedback, ""); show(challengeFeedback, ""); })
        .catch(function (err) { show(globalError, messageOf(err), "error"); })
        .then(function () { busy(btn, false); poll(); });
    }
  });

  // Come back to a tab: refresh at once rather than on the next tick.
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) poll();
  });
  // Returning with the back button from a match page (bfcache): start over cleanly.
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) {
      leaving = false;
      knownMatches = null;
      root.querySelectorAll("[aria-busy]").forEach(function (b) { busy(b, false); });
      poll();
    }
  });

  poll();
})();

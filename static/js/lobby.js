/* The lobby (templates/games/lobby.html): quick starts, challenges, open seeks, live lists.
 *
 * Every string shown to the user comes from the translated JSON block #lobby-i18n, the
 * games and their conventions from #lobby-games (the "New game" form is built from them).
 * The lists refresh every 2 s from the JSON API (docs/api.md); when a new active match
 * appears after the page loaded (someone accepted my seek or challenge), we go to it.
 */
(function () {
  "use strict";

  var POLL_MS = 2000;
  var root = document.getElementById("lobby");
  if (!root) return;
  var T = JSON.parse(document.getElementById("lobby-i18n").textContent);
  // Every registered game: key, name, seat_counts, one_device, conventions, standard
  // rules, rated_standard, headline (games/web/views.py lobby_games). The first is the default
  // game: a seek or challenge without a game is for it. Nothing here names a game.
  var GAMES = JSON.parse(document.getElementById("lobby-games").textContent);
  function gameOf(key) {
    for (var i = 0; i < GAMES.length; i++) if (GAMES[i].key === key) return GAMES[i];
    return null;
  }
  function defaultGame() { return GAMES[0]; }
  // A game whose rated tables play its standard rules: the form offers them nothing.
  function ratedStandard(game) { return !!game.rated_standard; }

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

  /* Badges for a table's conventions that differ from the game's defaults. */
  function conventionBadges(game, rules) {
    var out = [];
    (game.conventions || []).forEach(function (c) {
      if (c.fixed || !Object.prototype.hasOwnProperty.call(rules, c.key)) return;
      var value = rules[c.key];
      if (value === c["default"]) return;
      var text = c.kind === "bool" ? (value ? c.label : c.label + ": " + T.off) : c.label + ": " + shown(c, value);
      out.push(el("span", { className: "badge badge--rules", "data-testid": "rules-" + c.key, text: text }));
    });
    return out;
  }

  /* Badges for a seek's non-standard table rules (nothing for the standard ones): a
     game with a headline convention shows it on its own and the rest as "custom". */
  function rulesBadges(rules, gameKey) {
    var out = [];
    if (!rules || typeof rules !== "object") return out;
    var game = gameKey ? gameOf(gameKey) : defaultGame();
    if (!game) return out;
    if (!game.headline) return conventionBadges(game, rules);
    var standard = game.standard || {};
    var others = [];
    Object.keys(rules).forEach(function (key) {
      if (rules[key] === standard[key]) return;
      if (key === game.headline) {
        out.push(el("span", {
          className: "badge badge--rules",
          "data-testid": "rules-" + key.replace(/_/g, "-"),
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

  /* The rules a form asks for: the default game's headline convention, for a casual
     game that does not use its standard value. */
  function tableRules(ratedSelect, pointsSelect, game) {
    var headline = (game || defaultGame()).headline;
    if (ratedSelect.value === "rated" || !pointsSelect || !headline) return null;
    var points = Number(pointsSelect.value);
    if (!points || points === (game || defaultGame()).standard[headline]) return null;
    var rules = {};
    rules[headline] = points;
    return rules;
  }

  /* The starting-points choice is shown for casual games of a game that has it (its
     headline convention) only; ``formGame`` gives the form's game (default: the first). */
  function linkPoints(ratedSelect, pointsSelect, formGame) {
    var field = pointsSelect && pointsSelect.closest(".field");
    if (!field) return;
    function sync() {
      var game = formGame ? formGame() : defaultGame();
      field.hidden = ratedSelect.value === "rated" || !game.headline;
    }
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

  function gameBadge(key) {
    var game = key ? gameOf(key) : defaultGame();
    return el("span", { className: "badge badge--game", "data-testid": "game-badge", text: game ? game.name : key });
  }

  /* "2 of 4 seats taken · 2 free · computer: 1" */
  function seatsMeta(seek) {
    var seats = seek.seats || 2;
    var free = seek.free_seats != null ? seek.free_seats : 1;
    var parts = [fmt(T.seats_taken, { taken: seats - free, seats: seats }), fmt(T.free_seats, { n: free })];
    if (seek.computer_seats) parts.push(fmt(T.computer_seats, { n: seek.computer_seats }));
    return el("span", { className: "row__meta row__meta--line", "data-testid": "seats-" + seek.id, text: parts.join(" · ") });
  }

  function openSeekRow(seek) {
    var who = seek.mine
      ? el("span", { className: "row__who", text: (seek.creator_name || seek.creator) + " (" + T.you + ")" })
      : el("span", { className: "row__who", text: seek.creator_name || seek.creator });
    var main = el("div", { className: "row__main" },
      [who, gameBadge(seek.game), kindBadge(seek.rated)].concat(rulesBadges(seek.rules, seek.game)));
    main.appendChild(seatsMeta(seek));
    if (seek.mine) main.appendChild(el("span", { className: "row__meta", text: T.your_seek }));
    var action;
    if (seek.mine) action = actionButton("cancel", seek.id, T.cancel, "btn--danger");
    else if (seek.seated) action = el("span", { className: "badge badge--casual", "data-testid": "seated-" + seek.id, text: T.seated });
    else action = actionButton("accept", seek.id, T.join, "");
    var actions = el("div", { className: "row__actions" }, [action]);
    return el("li", { className: "row", "data-testid": "seek-" + seek.id, "data-game": seek.game || defaultGame().key }, [main, actions]);
  }

  function challengeToMeRow(seek) {
    var main = el("div", { className: "row__main" }, [
      el("span", { className: "row__who", text: fmt(T.challenge_from, { name: seek.creator_name || seek.creator }) }),
      kindBadge(seek.rated),
    ].concat(rulesBadges(seek.rules, seek.game)));
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
    ].concat(rulesBadges(seek.rules, seek.game)));
    var actions = el("div", { className: "row__actions" }, [
      actionButton("cancel", seek.id, T.cancel, "btn--danger"),
    ]);
    return el("li", { className: "row", "data-testid": "challenge-" + seek.id }, [main, actions]);
  }

  function matchRow(match) {
    var players = match.players || [];
    var title = match.one_device
      ? T.one_device_game
      : players.length > 2
        ? players.join(" · ")
        : fmt(T.versus, { a: players[0] || "?", b: players[1] || "?" });
    var main = el("div", { className: "row__main" }, [
      el("a", { className: "row__who", href: match.url, text: title }),
      gameBadge(match.game),
      match.one_device
        ? el("span", { className: "badge badge--device", text: T.one_device })
        : kindBadge(match.rated),
    ]);
    var b = match.scores || match.balances || [];
    if (b.length >= 2) {
      main.appendChild(el("span", {
        className: "row__meta row__meta--line balances",
        title: T.balances,
        text: T.balances + ": " + b.join(" – "),
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

  // ---------- live games (GET /api/live: every ~10 s, and on Refresh) ----------

  var LIVE_POLL_MS = 10000;
  var liveTimer = null;
  var onlineEl = document.getElementById("online");

  function liveRow(match) {
    var players = match.players || [];
    var title = players.length > 2 ? players.join(" · ") : fmt(T.versus, { a: players[0] || "?", b: players[1] || "?" });
    var main = el("div", { className: "row__main" }, [
      el("span", { className: "row__who", text: title }),
      gameBadge(match.game),
      kindBadge(match.rated),
    ]);
    if (match.spectators != null) {
      main.appendChild(el("span", {
        className: "row__meta row__meta--line", "data-testid": "spectators-" + match.id,
        "data-count": match.spectators, text: fmt(T.spectators, { n: match.spectators }),
      }));
    }
    var actions = el("div", { className: "row__actions" }, [
      el("a", { className: "btn btn--small", href: match.url, "data-testid": "watch-" + match.id, text: T.watch }),
    ]);
    return el("li", { className: "row", "data-testid": "live-" + match.id, "data-game": match.game }, [main, actions]);
  }

  function renderLive(data) {
    renderList("live-list", data.matches || [], T.no_live, liveRow);
    if (onlineEl && data.online != null) {
      onlineEl.textContent = fmt(T.online, { n: data.online });
      onlineEl.dataset.count = String(data.online);
      onlineEl.hidden = false;
    }
  }

  function pollLive() {
    if (leaving) return;
    clearTimeout(liveTimer);
    api("GET", "/api/live")
      .then(function (data) { if (!leaving) renderLive(data); })
      .catch(function () { /* the other lists say when the server is away */ })
      .then(function () { if (!leaving) liveTimer = setTimeout(pollLive, LIVE_POLL_MS); });
  }

  var liveRefresh = document.getElementById("live-refresh");
  if (liveRefresh) liveRefresh.addEventListener("click", pollLive);
  pollLive();

  // ---------- actions ----------

  // Quick start: a one-device game (Spectacular Bid).
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
  var challengeGame = document.getElementById("challenge-game");
  var challengeOf = function () { return gameOf(challengeGame.value) || defaultGame(); };
  linkPoints(challengeRated, challengePoints, challengeOf);
  challengeGame.addEventListener("change", function () {
    challengeRated.dispatchEvent(new Event("change")); // the points follow the game
  });
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
    var challenge = { opponent: name, rated: challengeRated.value === "rated", game: challengeOf().key };
    var challengeRules = tableRules(challengeRated, challengePoints, challengeOf());
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

  // The "New game" form: a game, its seats and conventions; play the computer at once or
  // open a table (POST /api/seeks) that waits in the lobby until its seats are taken.
  var seekForm = document.getElementById("seek-form");
  var seekGame = document.getElementById("seek-game");
  var seekSeats = document.getElementById("seek-seats");
  var seekRated = document.getElementById("seek-rated");
  var seekFeedback = document.getElementById("seek-feedback");
  var seekPoints = document.getElementById("seek-points");
  var seekComputer = document.getElementById("seek-computer");
  var seekComputerField = document.getElementById("seek-computer-field");
  var conventionsBox = document.getElementById("seek-conventions");
  var conventionsChosen = document.getElementById("seek-conventions-chosen");
  var conventionsFixed = document.getElementById("seek-conventions-fixed");
  var conventionsFixedList = document.getElementById("seek-conventions-fixed-list");
  var playComputer = document.getElementById("play-computer");
  var playComputerNote = document.getElementById("play-computer-note");
  var computerLevel = document.getElementById("computer-level");
  var computerLevelField = document.getElementById("computer-level-field");
  var oneDevice = document.getElementById("one-device");
  var shownGame = null;

  // The seats come from their own control, not from a convention of that name.
  function isSeatsConvention(c) { return c.key === "players" || c.key === "seats"; }

  function options(select, values, selected, label) {
    select.replaceChildren.apply(select, values.map(function (v) {
      return el("option", { value: String(v), selected: v === selected, text: label ? label(v) : String(v) });
    }));
  }

  /* A time in seconds that the form asks for in minutes (its convention says so). */
  var PER = { minutes: 60 };
  function shown(c, value) { return PER[c.asked_in] ? value / PER[c.asked_in] : value; }
  function stored(c, value) { return PER[c.asked_in] ? Math.round(value * PER[c.asked_in]) : value; }

  /* One form control for one chosen convention. */
  function conventionControl(c) {
    var id = "conv-" + c.key;
    var attrs = { id: id, "data-conv": c.key, "data-kind": c.kind, "data-testid": id };
    if (c.kind === "bool") {
      attrs.type = "checkbox";
      attrs.checked = !!c["default"];
      return el("label", { className: "conv conv--bool", "for": id }, [el("input", attrs), " " + c.label]);
    }
    var control;
    if (c.choices && c.choices.length) {
      control = el("select", attrs);
      options(control, c.choices, c["default"]);
    } else {
      attrs.type = "number";
      attrs.value = String(shown(c, c["default"]));
      attrs.inputmode = c.kind === "int" && !PER[c.asked_in] ? "numeric" : "decimal";
      attrs.step = c.kind === "int" && !PER[c.asked_in] ? "1" : "any";
      if (c.minimum != null) attrs.min = String(shown(c, c.minimum));
      if (c.maximum != null) attrs.max = String(shown(c, c.maximum));
      control = el("input", attrs);
    }
    return el("div", { className: "field conv" }, [el("label", { "for": id, text: c.label }), control]);
  }

  function renderConventions(game) {
    var chosen = [];
    var fixed = [];
    (game.conventions || []).forEach(function (c) {
      if (isSeatsConvention(c)) return;
      // The headline convention: the choice beside the match kind above.
      if (c.key === game.headline) return;
      if (c.fixed) fixed.push(c);
      else chosen.push(conventionControl(c));
    });
    conventionsChosen.replaceChildren.apply(conventionsChosen, chosen);
    conventionsFixedList.replaceChildren.apply(conventionsFixedList, fixed.map(function (c) {
      var value = c.kind === "bool" ? (c["default"] ? T.on : T.off) : String(c["default"]);
      return el("li", { className: "conv conv--fixed", "data-testid": "fixed-" + c.key }, [
        el("span", { text: c.label + ": " + value }),
        " ",
        el("span", { className: "badge", text: T.fixed }),
      ]);
    }));
    conventionsFixed.hidden = !fixed.length;
  }

  /* The convention values that differ from the defaults (null: none). */
  function conventionRules(game) {
    var rules = {};
    var any = false;
    (game.conventions || []).forEach(function (c) {
      var input = document.getElementById("conv-" + c.key);
      if (!input || c.fixed) return;
      var value;
      if (c.kind === "bool") value = input.checked;
      else if (input.value === "") return;
      else value = stored(c, Number(input.value));
      if (value !== c["default"]) { rules[c.key] = value; any = true; }
    });
    return any ? rules : null;
  }

  function selectedGame() { return gameOf(seekGame.value) || GAMES[0]; }
  function selectedSeats() { return Number(seekSeats.value) || 2; }

  /* What the form shows for the chosen game, seats and kind. */
  function syncSeekForm() {
    var game = selectedGame();
    if (shownGame !== game.key) {
      shownGame = game.key;
      var counts = game.seat_counts || [2];
      options(seekSeats, counts, counts.indexOf(2) >= 0 ? 2 : counts[0]);
      seekSeats.disabled = counts.length < 2;
      renderConventions(game);
      // The computer's levels for "Play the computer" (none to choose: no field).
      var computer = game.computer || { levels: [], "default": null };
      computerLevel.replaceChildren.apply(computerLevel, computer.levels.map(function (l) {
        return el("option", { value: l.key, selected: l.key === computer["default"], text: l.name });
      }));
      computerLevelField.hidden = computer.levels.length < 2;
    }
    var seats = selectedSeats();
    var casual = seekRated.value !== "rated";
    // A game whose rated tables play the standard changes its numbers only when casual.
    var pointsField = seekPoints && seekPoints.closest(".field");
    if (pointsField) pointsField.hidden = !(game.headline && casual);
    conventionsBox.hidden = !conventionsChosen.children.length && conventionsFixed.hidden
      || (ratedStandard(game) && !casual);
    var previous = Number(seekComputer.value) || 0;
    var most = Math.max(0, seats - 2); // an open table needs another person
    var counts = [];
    for (var n = 0; n <= most; n++) counts.push(n);
    options(seekComputer, counts, Math.min(previous, most));
    seekComputerField.hidden = most === 0;
    var others = seats - 1;
    var note = others === 0 ? T.computer_note_none
      : others === 1 ? T.computer_note_one : fmt(T.computer_note_n, { n: others });
    // "Play the computer" always starts a casual game; say so when "rated" is chosen.
    playComputerNote.textContent = casual ? note : note + " " + T.computer_note_rated;
    if (oneDevice) oneDevice.hidden = !game.one_device;
  }

  /* The table's rules: the game's conventions, and its headline convention's choice. */
  function seekRules(casual) {
    var game = selectedGame();
    if (!casual && ratedStandard(game)) return null;
    var rules = conventionRules(game) || {};
    var headline = casual ? tableRules({ value: "casual" }, seekPoints, game) : null;
    if (headline) Object.assign(rules, headline);
    return Object.keys(rules).length ? rules : null;
  }

  seekGame.addEventListener("change", function () { show(seekFeedback, ""); syncSeekForm(); });
  seekSeats.addEventListener("change", syncSeekForm);
  seekRated.addEventListener("change", syncSeekForm);
  window.addEventListener("pageshow", function () { shownGame = null; syncSeekForm(); });
  syncSeekForm();

  seekForm.addEventListener("submit", function (event) {
    event.preventDefault();
    var btn = seekForm.querySelector("[type=submit]");
    busy(btn, true);
    show(seekFeedback, "");
    var rated = seekRated.value === "rated";
    var seek = {
      rated: rated,
      game: selectedGame().key,
      seats: selectedSeats(),
      computer_seats: seekComputerField.hidden ? 0 : Number(seekComputer.value) || 0,
    };
    var rules = seekRules(!rated);
    if (rules) seek.rules = rules;
    api("POST", "/api/seeks", seek)
      .then(function () {
        show(seekFeedback, T.seek_posted, "ok");
        poll();
      })
      .catch(function (err) { show(seekFeedback, messageOf(err), "error"); })
      .then(function () { busy(btn, false); });
  });

  // Play the computer: it takes every other seat (always casual).
  playComputer.addEventListener("click", function () {
    if (playComputer.disabled) return;
    show(globalError, "");
    show(seekFeedback, "");
    busy(playComputer, true);
    var body = { game: selectedGame().key, seats: selectedSeats() };
    if (!computerLevelField.hidden && computerLevel.value) body.level = computerLevel.value;
    var rules = seekRules(true);
    if (rules) body.rules = rules;
    api("POST", "/api/matches/computer", body)
      .then(function (data) { go(data.match && data.match.url); })
      .catch(function (err) { show(seekFeedback, messageOf(err), "error"); })
      .then(function () { if (!leaving) busy(playComputer, false); });
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
        .then(function (data) {
          if (data.match) { go(data.match.url); return; }
          // Seated; the table waits for its other seats, and the poll finds the match.
          show(globalNotice, T.seated_waiting, "ok");
          poll();
        })
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

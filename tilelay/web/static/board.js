// The board page: a sandbox on a game's map. The page keeps the board's state (a value) and
// sends it with every request to the JSON API (/api/boards/...), which answers the new view.
"use strict";
(function () {
  const app = document.getElementById("board-app");
  if (!app) return;
  const $ = (id) => document.getElementById(id);
  const boot = JSON.parse($("boot").textContent);

  let view = boot.view; // the latest view from the server
  let state = view.state; // the board's state
  let selected = null; // the hex whose lays are shown
  let cursor = null; // the keyboard's hex cursor
  let lays = null; // the last answer of /api/boards/lays
  let saved = boot.board || null; // {id, name, version} of the saved board, or null
  let dirty = false;
  let zoom = 1;
  let record = null; // the imported record's summary while stepping through it
  let recordStep = 0;
  let saveTimer = null;
  let stepTimer = null;

  // ------------------------------------------------------------------ requests

  const { call } = tilelay.client(app);
  const toast = tilelay.toast;

  async function edit(path, extra) {
    if (record) return;
    try {
      const body = Object.assign({ state, reach: $("reach").checked }, extra || {});
      const next = await call("POST", "/api/boards/" + path, body);
      show(next);
      dirty = true;
      scheduleSave();
      if (selected) await openHex(selected, true);
      return true;
    } catch (e) {
      toast(e.message);
      return false;
    }
  }

  // ------------------------------------------------------------------ the map

  function svgOf(container) {
    return container.querySelector("svg");
  }

  function hexPoints(x, y) {
    const r = view.size * 0.93;
    const pointy = view.game.layout === "pointy";
    const pts = [];
    for (let i = 0; i < 6; i++) {
      const a = ((pointy ? 30 : 0) + 60 * i) * (Math.PI / 180);
      pts.push((x + r * Math.cos(a)).toFixed(1) + "," + (y + r * Math.sin(a)).toFixed(1));
    }
    return pts.join(" ");
  }

  function centre(g) {
    const m = /translate\(([-\d.]+),([-\d.]+)\)/.exec(g.getAttribute("transform") || "");
    return m ? [Number(m[1]), Number(m[2])] : [0, 0];
  }

  function mark(coord, cls) {
    const svg = svgOf($("map"));
    if (!svg) return;
    svg.querySelectorAll("polygon." + cls).forEach((p) => p.remove());
    if (!coord) return;
    const g = svg.querySelector('g.hex[data-coord="' + coord + '"]');
    if (!g) return;
    const [x, y] = centre(g);
    const poly = document.createElementNS("http://www.w3.org/2000/svg", "polygon");
    poly.setAttribute("class", cls);
    poly.setAttribute("points", hexPoints(x, y));
    poly.setAttribute("data-coord", coord);
    svg.appendChild(poly);
  }

  function setMap(svg) {
    $("map").innerHTML = svg;
    applyZoom();
    mark(selected, "selected-hex");
    mark(cursor, "cursor-hex");
  }

  function applyZoom() {
    // fit: the whole map in the space there is; zoomed: wider than that, scrolled
    const room = $("maps").clientHeight - ($("maps").classList.contains("split") ? 40 : 12);
    document.querySelectorAll(".map-svg svg").forEach((svg) => {
      svg.style.width = zoom * 100 + "%";
      svg.style.height = "auto";
      svg.style.maxHeight = zoom === 1 && room > 200 ? room + "px" : "none";
    });
  }
  window.addEventListener("resize", applyZoom);

  // ------------------------------------------------------------------ the view

  function option(select, value, text, chosen) {
    const o = document.createElement("option");
    o.value = value;
    o.textContent = text;
    if (chosen) o.selected = true;
    select.appendChild(o);
  }

  function corpInfo(sym) {
    return view.game.corporations.find((c) => c.sym === sym);
  }

  function chip(sym) {
    const c = corpInfo(sym);
    const span = document.createElement("span");
    span.className = "corp";
    span.textContent = sym;
    if (c) {
      span.style.background = c.color;
      span.style.color = c.text_color || contrast(c.color);
      span.title = c.name;
    }
    return span;
  }

  function contrast(color) {
    const m = /^#?([0-9a-f]{6}|[0-9a-f]{3})$/i.exec(color || "");
    if (!m) return "#fff";
    let h = m[1];
    if (h.length === 3) h = h.replace(/./g, (c) => c + c);
    const [r, g, b] = [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16));
    return 0.299 * r + 0.587 * g + 0.114 * b > 150 ? "#000" : "#fff";
  }

  function counted(n, one, many) {
    return n + " " + (n === 1 ? one : many);
  }

  function show(next) {
    view = next;
    state = next.state;
    if (!record) setMap(next.svg);
    // the game (a branched record may be of another game)
    $("game-title").textContent = next.game.title;
    $("game-title").href = "/map/" + encodeURIComponent(next.game.name);
    // phase
    const phase = $("phase");
    phase.textContent = "";
    for (const p of next.game.phases) {
      option(phase, p.name, p.name + " (" + p.tiles.join(", ") + ")", p.name === next.phase);
    }
    $("undo").disabled = !next.history.undo;
    $("redo").disabled = !next.history.redo;
    $("undo").title = next.history.last ? "Undo: " + next.history.last + " (Ctrl+Z)" : "Nothing to undo";
    $("redo").title = next.history.next ? "Redo: " + next.history.next + " (Ctrl+Y)" : "Nothing to redo";
    showCorporations();
    showRoutes(next.routes);
    showOptions();
    showSetup();
    $("board-info").textContent =
      counted(next.actions, "action", "actions") + " · " +
      counted(next.tokens.length, "city", "cities") + " with tokens · " +
      (saved ? "saved as #" + saved.id + " (version " + saved.version + ")" : "not saved yet");
    const chosen = view.game.corporations.find((c) => c.sym === state.corporation);
    $("reach-corp").textContent = chosen
      ? (chosen.kind === "minor" ? "minor " + chosen.sym : chosen.sym)
      : "the chosen corporation";
    app.dataset.actions = String(next.actions);
    app.dataset.phase = next.phase;
  }

  function showCorporations() {
    const sel = $("corporation");
    const current = state.corporation || "";
    sel.textContent = "";
    option(sel, "", "— choose —", !current);
    for (const c of view.game.corporations) {
      option(sel, c.sym, c.sym + " · " + c.name, c.sym === current);
    }
    const list = $("train-list");
    list.textContent = "";
    state.trains.forEach((t, i) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "chip";
      b.textContent = t + " ×";
      b.title = "remove this " + t + "-train";
      b.dataset.index = String(i);
      b.addEventListener("click", () => {
        const trains = state.trains.slice();
        trains.splice(i, 1);
        chooseRoutes(state.corporation, trains);
      });
      list.appendChild(b);
    });
    if (!state.trains.length) list.textContent = "none";
    const add = $("train-add");
    add.textContent = "";
    for (const t of view.game.trains) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "add-train";
      b.dataset.train = t;
      b.textContent = "+" + t;
      b.addEventListener("click", () => chooseRoutes(state.corporation, state.trains.concat([t])));
      add.appendChild(b);
    }
  }

  function showRoutes(routes) {
    const box = $("routes-result");
    box.textContent = "";
    if (!routes) {
      box.innerHTML = '<p class="hint">Choose a corporation and its trains: the best routes appear on the map and update on every change.</p>';
      return;
    }
    if (routes.note) {
      const p = document.createElement("p");
      p.className = "note";
      p.textContent = routes.note;
      box.appendChild(p);
    }
    const table = document.createElement("table");
    table.className = "route-table";
    table.innerHTML = "<thead><tr><th></th><th>Train</th><th>Revenue</th><th>Route</th></tr></thead>";
    const body = document.createElement("tbody");
    for (const row of routes.per_train) {
      const tr = document.createElement("tr");
      tr.className = "route-row";
      tr.dataset.train = row.train;
      tr.dataset.revenue = row.revenue === null ? "" : String(row.revenue);
      const sw = document.createElement("td");
      if (row.color) {
        const s = document.createElement("span");
        s.className = "swatch";
        s.style.background = row.color;
        sw.appendChild(s);
      }
      const route = routes.routes.find((r) => r.color === row.color);
      const searched = routes.revenue !== null;
      tr.append(sw, cell(row.train), cell(searched ? String(row.revenue) : "…"),
        cell(route ? route.hexes.join("–") : searched ? "cannot run" : "…"));
      body.appendChild(tr);
    }
    table.appendChild(body);
    const foot = document.createElement("tfoot");
    foot.innerHTML = '<tr><td></td><th>Total</th><th id="routes-total"></th><td></td></tr>';
    table.appendChild(foot);
    box.appendChild(table);
    $("routes-total").textContent = routes.revenue === null ? "…" : String(routes.revenue);
    box.dataset.total = routes.revenue === null ? "" : String(routes.revenue);
  }

  function cell(text) {
    const td = document.createElement("td");
    td.textContent = text;
    return td;
  }

  function showOptions() {
    const box = $("options");
    box.textContent = "";
    if (!view.game.options.length) {
      box.textContent = "This game has no options.";
      return;
    }
    for (const o of view.game.options) {
      const label = document.createElement("label");
      label.className = "game-option";
      const input = document.createElement("input");
      input.type = "checkbox";
      input.value = o.name;
      input.checked = state.options.includes(o.name);
      input.addEventListener("change", () => {
        const chosen = Array.from(box.querySelectorAll("input:checked")).map((i) => i.value);
        edit("options", { options: chosen }).then((ok) => {
          if (!ok) input.checked = !input.checked;
        });
      });
      const text = document.createElement("span");
      const notes = [];
      if (o.changes.length) notes.push("changes the " + o.changes.join(", "));
      if (o.players.length) notes.push("for " + o.players.join(" or ") + " players");
      text.textContent = " " + o.title + (notes.length ? " (" + notes.join("; ") + ")" : "");
      label.append(input, text);
      if (o.description) label.title = o.description;
      box.appendChild(label);
    }
  }

  function showSetup() {
    const box = $("setup");
    const seeded = view.game.seeded;
    box.hidden = !seeded && !view.game.by_players;
    if (box.hidden) return;
    // a game drawn from a seed takes one; a game whose map or trains go by the players
    // takes the number of players alone
    $("setup-seeded").hidden = !seeded;
    $("setup-players-hint").hidden = seeded;
    $("setup-seed-label").hidden = !seeded;
    $("setup-seed").required = seeded;
    $("setup-random").hidden = !seeded;
    $("setup-submit").textContent = seeded ? "Draw" : "Play with them";
    $("setup-seed").value = state.seed === null || state.seed === undefined ? "" : String(state.seed);
    const players = $("setup-players");
    players.textContent = "";
    const [low, high] = view.game.players;
    const chosen = state.players === null || state.players === undefined ? high : state.players;
    for (let n = low; n <= high; n++) option(players, String(n), String(n), n === chosen);
  }

  function drawSetup(seed) {
    const players = Number($("setup-players").value);
    return edit("setup", { seed: view.game.seeded ? seed : null, players });
  }

  async function chooseRoutes(corporation, trains) {
    await edit("routes", { corporation: corporation || null, trains });
  }

  // ------------------------------------------------------------------ a hex

  async function openHex(coord, quiet) {
    if (record) return;
    selected = coord;
    mark(selected, "selected-hex");
    try {
      lays = await call("POST", "/api/boards/lays", { state, hex: coord, reach: $("reach").checked });
    } catch (e) {
      lays = null;
      if (!quiet) toast(e.message);
      $("hex-detail").textContent = e.message;
      return;
    }
    showHex(lays);
    if (!quiet) tab("hex");
  }

  function showHex(info) {
    const box = $("hex-detail");
    box.textContent = "";
    $("hex-hint").hidden = true;
    const h = document.createElement("h2");
    h.id = "hex-title";
    h.textContent = info.hex + (info.location ? " · " + info.location : "");
    box.appendChild(h);
    const now = document.createElement("p");
    now.className = "hex-now";
    now.textContent = info.tile.preprinted
      ? "Preprinted " + info.tile.color + " hex."
      : "Tile " + info.tile.name + " in rotation " + info.tile.rotation + " (laid on this board).";
    if (!info.tile.preprinted) {
      for (const [label, step] of [["⟳ turn", 1], ["⟲ turn back", -1]]) {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "rotate";
        b.dataset.step = String(step);
        b.textContent = label;
        b.addEventListener("click", () => edit("rotate", { hex: info.hex, step }));
        now.append(" ", b);
      }
    }
    box.appendChild(now);
    box.appendChild(choiceList(info.legal, false, info));
    if (info.replace.length) {
      const d = document.createElement("details");
      d.className = "replace";
      const s = document.createElement("summary");
      s.textContent = "Replace the tile laid here (" +
        counted(info.replace.length, "choice", "choices") + ")";
      d.append(s, choiceList(info.replace, true, info));
      box.appendChild(d);
    }
    if (info.cities.length) box.appendChild(cityList(info));
  }

  function choiceList(choices, replacing, info) {
    const wrap = document.createElement("div");
    wrap.className = replacing ? "choices replacing" : "choices";
    const title = document.createElement("h3");
    title.textContent = replacing
      ? "Tiles that may replace it"
      : choices.length
        ? "Tiles that may be laid (phase " + info.phase + ")"
        : "No tile may be laid here now" + (info.reach_note ? ": " + info.reach_note : "");
    if (!replacing) wrap.appendChild(title);
    choices.forEach((choice, i) => {
      const row = document.createElement("div");
      row.className = "choice";
      row.dataset.tile = choice.tile;
      const name = document.createElement("div");
      name.className = "choice-name";
      name.textContent = (i < 9 && !replacing ? i + 1 + ". " : "") + "Tile " + choice.tile;
      const left = document.createElement("span");
      left.className = "muted";
      left.textContent = choice.left === null ? " unlimited" : " " + choice.left + " left";
      name.appendChild(left);
      row.appendChild(name);
      const rots = document.createElement("div");
      rots.className = "rotations";
      for (const r of choice.rotations) {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "rotation";
        b.dataset.tile = choice.tile;
        b.dataset.rotation = String(r.rotation);
        b.title = (replacing ? "replace with " : "lay ") + choice.tile + " in rotation " + r.rotation;
        b.setAttribute("aria-label", b.title);
        b.innerHTML = r.svg;
        b.addEventListener("click", () =>
          edit("lay", { hex: info.hex, tile: choice.tile, rotation: r.rotation, replace: replacing })
        );
        rots.appendChild(b);
      }
      row.appendChild(rots);
      wrap.appendChild(row);
    });
    return wrap;
  }

  function cityList(info) {
    const wrap = document.createElement("div");
    wrap.className = "cities";
    const title = document.createElement("h3");
    title.textContent = "Station tokens";
    wrap.appendChild(title);
    for (const city of info.cities) {
      const row = document.createElement("div");
      row.className = "city-row";
      row.dataset.city = String(city.city);
      const label = document.createElement("span");
      label.textContent =
        (info.cities.length > 1 ? "City " + city.city + ": " : "") +
        city.tokens.length + "/" + counted(city.slots, "slot", "slots") + " ";
      row.appendChild(label);
      for (const sym of city.tokens) {
        const c = chip(sym);
        const x = document.createElement("button");
        x.type = "button";
        x.className = "remove-token";
        x.dataset.corporation = sym;
        x.textContent = "×";
        x.title = "remove " + sym + "'s token";
        x.setAttribute("aria-label", x.title);
        x.addEventListener("click", () => edit("token", { hex: info.hex, corporation: sym, remove: true }));
        c.appendChild(x);
        row.appendChild(c);
      }
      if (city.tokens.length < city.slots) {
        const sel = document.createElement("select");
        sel.className = "token-corp";
        sel.setAttribute("aria-label", "corporation to place a token for");
        const homes = info.homes;
        const corps = view.game.corporations.slice().sort(
          (a, b) => (homes.includes(b.sym) ? 1 : 0) - (homes.includes(a.sym) ? 1 : 0)
        );
        for (const c of corps) {
          if (city.tokens.includes(c.sym)) continue;
          option(sel, c.sym, c.sym + (homes.includes(c.sym) ? " (home)" : ""),
            c.sym === (state.corporation || (homes[0] || "")));
        }
        const b = document.createElement("button");
        b.type = "button";
        b.className = "place-token";
        b.textContent = "Place token";
        b.addEventListener("click", () =>
          edit("token", { hex: info.hex, corporation: sel.value, city: city.city })
        );
        row.append(sel, b);
      }
      wrap.appendChild(row);
    }
    return wrap;
  }

  // ------------------------------------------------------------------ saving

  let saveFailed = false; // whether the last save failed (then leaving the page warns)
  let boardEra = 0; // counts the boards this page has shown: a save answered late is of an older one

  // A new board or a branch drops this board's unsaved changes (the status says "unsaved
  // changes"): they go ahead only when the person says so; cancelling keeps everything.
  function mayDrop(doing) {
    if (!dirty) return true;
    return window.confirm(
      "Your board has unsaved changes" + (saved ? " (since version " + saved.version + ")" : "") +
        ". " + doing + " and lose them?"
    );
  }

  // another board takes this one's place: its pending autosave is not made (it would save
  // the new board over this one), and a save under way is forgotten when it answers
  function anotherBoard() {
    clearTimeout(saveTimer);
    boardEra++;
    saveFailed = false;
  }

  function scheduleSave() {
    updateSaveStatus();
    if (!saved || !$("autosave").checked) return;
    clearTimeout(saveTimer);
    saveTimer = setTimeout(save, 700);
  }

  function updateSaveStatus(text) {
    $("save-status").textContent =
      text || (dirty ? "unsaved changes" : saved ? "saved · version " + saved.version : "");
    // the heading names the board once it has a name
    const label = $("board-name-label");
    label.textContent = $("board-name").value.trim() || "board";
    label.title = label.textContent; // (a long name is cut short with an ellipsis)
    app.dataset.saved = saved ? String(saved.version) : "";
    app.dataset.dirty = dirty ? "1" : "";
  }

  async function save() {
    clearTimeout(saveTimer);
    if (record) return;
    const name = $("board-name").value.trim() || view.game.title + " board";
    const sending = state;
    const era = boardEra;
    try {
      let answer;
      if (!saved) {
        answer = await call("POST", "/api/boards", { name, state: sending });
      } else {
        answer = await call("PUT", "/api/boards/" + saved.id, {
          version: saved.version,
          name,
          state: sending,
        });
      }
      if (era !== boardEra) return; // saved; the page has gone on to another board since
      saved = { id: answer.board.id, name: answer.board.name, version: answer.board.version };
      $("board-name").value = saved.name;
      if (sending === state) dirty = false;
      const url = "/board/" + encodeURIComponent(view.game.name) + "?board=" + saved.id;
      history.replaceState(null, "", url);
      $("export-link").href = "/api/boards/" + saved.id + "/export";
      $("export-link").hidden = false;
      updateSaveStatus();
      show(view);
      if (dirty) scheduleSave();
      saveFailed = false;
    } catch (e) {
      if (era !== boardEra) return;
      if (e.status === 409) return conflict(e.message);
      saveFailed = true;
      if (e.status === 404 && saved) {
        // the saved board is gone (deleted elsewhere): the next save makes a new one
        saved = null;
        $("export-link").hidden = true;
        updateSaveStatus("the saved board is gone: Save keeps yours as a new board");
        toast("Not saved: " + e.message + ". Save keeps yours as a new board.");
        return;
      }
      updateSaveStatus("not saved: " + e.message);
      toast("Not saved: " + e.message);
    }
  }

  async function conflict(message) {
    let theirs = null;
    try {
      theirs = await call("GET", "/api/boards/" + saved.id);
    } catch (e) {
      toast(e.message);
      return;
    }
    const box = $("conflict");
    box.hidden = false;
    $("conflict-text").textContent =
      message.charAt(0).toUpperCase() + message.slice(1) + " (another tab?). That version has " +
      counted(theirs.state.actions.length, "action", "actions") + ", yours " +
      state.actions.length + "; yours is kept too: nothing is lost.";
    updateSaveStatus("conflict");
    app.dataset.conflict = "1";
    box.dataset.version = String(theirs.board.version);
    conflict.theirs = theirs;
  }

  function endConflict() {
    $("conflict").hidden = true;
    app.dataset.conflict = "";
  }

  $("conflict-theirs").addEventListener("click", async () => {
    const theirs = conflict.theirs;
    endConflict();
    saved = { id: theirs.board.id, name: theirs.board.name, version: theirs.board.version };
    $("board-name").value = saved.name;
    const next = await call("POST", "/api/boards/view", { state: theirs.state });
    dirty = false;
    show(next);
    updateSaveStatus();
  });
  $("conflict-mine").addEventListener("click", () => {
    saved.version = conflict.theirs.board.version;
    endConflict();
    save();
  });
  $("conflict-copy").addEventListener("click", () => {
    endConflict();
    saved = null;
    $("board-name").value = ($("board-name").value || "board") + " (copy)";
    save();
  });

  // ------------------------------------------------------------------ records

  async function importRecord() {
    let text = $("record-text").value;
    const file = $("record-file").files[0];
    if (file) text = await file.text();
    if (!text.trim()) {
      toast("Choose a record file or paste its JSON first.");
      return;
    }
    try {
      record = await call("POST", "/api/records", text);
    } catch (e) {
      toast("The record was not imported: " + e.message);
      $("record-import").dataset.error = e.message;
      return;
    }
    startRecord();
  }

  function startRecord() {
    $("record-import").hidden = true;
    $("record-view").hidden = false;
    $("record-title").textContent = record.record.name;
    $("record-title").title = record.record.name;
    // the heading names the record's game while it is shown (it may be another game's)
    $("game-title").textContent = record.game.title;
    $("game-title").href = "/map/" + encodeURIComponent(record.game.name);
    $("board-name-label").textContent = "record";
    $("board-name-label").title = record.record.name;
    const slider = $("step");
    slider.max = String(record.steps.length - 1);
    $("chart").innerHTML = record.chart;
    const runs = $("runs");
    runs.textContent = "";
    runs.innerHTML = "<thead><tr><th>Step</th><th>Corp.</th><th>Run</th><th>Best</th><th>Missed</th></tr></thead>";
    const body = document.createElement("tbody");
    // a run the import had no time to search for the best routes shows "…": its step searches
    for (const r of record.runs) {
      const tr = document.createElement("tr");
      tr.dataset.n = String(r.n);
      // a run whose revenue is not known (a recorded route not legal, in a record that gives
      // no revenue) shows "?", and so does what it missed
      tr.append(cell("#" + r.id), cell(r.corporation), cell(r.run === null ? "?" : String(r.run)),
        cell(r.best === null ? "…" : String(r.best)),
        cell(r.missed === null ? (r.run === null && r.best !== null ? "?" : "…") : String(r.missed)));
      if (r.run === null) tr.title = "A recorded route is not legal: what the run earned is not known";
      if (r.best === null) {
        tr.classList.add("unsearched");
        tr.title = "Not searched in the import's time: step to this run to search it";
      }
      tr.tabIndex = 0;
      tr.addEventListener("click", () => {
        goStep(r.n);
        // the step's text and its runs come into view
        const text = $("step-text");
        if (text.scrollIntoView) text.scrollIntoView({ block: "nearest" });
      });
      body.appendChild(tr);
    }
    runs.appendChild(body);
    const waiting = record.runs.filter((r) => r.best === null).length;
    $("runs-note").hidden = waiting === 0;
    $("runs-note").textContent = waiting + " of " + record.runs.length + " runs (…) were not " +
      "searched in the import's time: step to one to search it.";
    $("record-banner").hidden = false;
    app.classList.add("record-mode");
    editing(false);
    goStep(0);
  }

  function goStep(n) {
    if (!record) return;
    n = Math.max(0, Math.min(record.steps.length - 1, n));
    recordStep = n;
    $("step").value = String(n);
    const s = record.steps[n];
    $("step-text").textContent =
      "Step " + n + " of " + (record.steps.length - 1) + " · action #" + s.id + ": " + s.text +
      " · phase " + s.phase;
    // the phase control (at rest while a record is shown) shows the step's phase
    const phase = $("phase");
    phase.textContent = "";
    option(phase, s.phase, s.phase, true);
    clearTimeout(stepTimer);
    stepTimer = setTimeout(() => loadStep(n), 60);
  }

  async function loadStep(n) {
    let step;
    try {
      step = await call("GET", "/api/records/" + record.record.id + "/steps/" + n);
    } catch (e) {
      toast(e.message);
      return;
    }
    if (n !== recordStep || !record) return;
    $("record-banner-text").textContent = record.game.title + " record · step " + n + ": " + step.text;
    app.dataset.step = String(n);
    const run = step.run;
    const runBox = $("step-run");
    runBox.textContent = "";
    if (run) {
      $("map").innerHTML = step.svg;
      $("map-run").innerHTML = step.svg_run;
      $("map-run-figure").hidden = false;
      $("maps").classList.add("split");
      $("map-caption").hidden = false;
      const found = run.best !== null;
      const row = document.querySelector('#runs tbody tr.unsearched[data-n="' + n + '"]');
      if (found && row) {
        // searched now: the list of runs shows it too
        row.cells[3].textContent = String(run.best);
        row.cells[4].textContent = run.missed === null ? "?" : String(run.missed);
        row.classList.remove("unsearched");
        row.removeAttribute("title");
      }
      $("map-caption").textContent = found ? "Best: " + run.best
        : "Best: not found within the time limit";
      const ran = run.run === null ? "?" : String(run.run);
      $("map-run-caption").textContent = "Run by the players: " + ran;
      const p = document.createElement("p");
      p.className = "run-summary";
      p.dataset.run = run.run === null ? "" : ran;
      p.dataset.best = found ? String(run.best) : "";
      p.dataset.missed = found && run.missed !== null ? String(run.missed) : "";
      p.textContent = (run.run === null
        ? run.corporation + " ran routes the rules do not allow (below), so what they earned is not known"
        : run.corporation + " ran " + ran) + (found
        ? "; the best was " + run.best + (run.missed === null ? "."
          : run.missed ? ": " + run.missed + " missed." : ": nothing missed.")
        : "; the search for the best routes took longer than the server's time limit.");
      runBox.appendChild(p);
      const illegal = run.ran.filter((a) => a.problem);
      for (const a of illegal) {
        // a route the rules do not allow: said, not drawn
        const warn = document.createElement("p");
        warn.className = "run-problem";
        warn.textContent = "Train " + a.train + ": not a legal route (" + a.problem +
          "); it is not drawn and its " + (a.revenue === null ? "revenue is unknown" :
          "recorded " + a.revenue + " counts as run");
        runBox.appendChild(warn);
      }
      const table = document.createElement("table");
      table.className = "route-table";
      table.innerHTML = "<thead><tr><th>Train</th><th>Ran</th><th>Best</th></tr></thead>";
      const tb = document.createElement("tbody");
      // each train's route beside the best route of a train of the same type
      const bests = run.best_routes.slice();
      const pairs = run.ran.map((a) => {
        const k = bests.findIndex((b) => b.train === (a.type || a.train));
        return [a, k >= 0 ? bests.splice(k, 1)[0] : null];
      });
      for (const b of bests) pairs.push([null, b]);
      for (const [a, b] of pairs) {
        const tr = document.createElement("tr");
        const name = a ? (a.type && a.type !== a.train ? a.type + " (" + a.train + ")" : a.train)
          : b.train;
        tr.append(
          cell(name),
          cell(a ? (a.revenue === null ? "?" : a.revenue) + " · " + a.hexes.join("–") +
            (a.problem ? " · not legal" : "") : "—"),
          cell(b ? b.revenue + " · " + b.hexes.join("–") : "—")
        );
        tb.appendChild(tr);
      }
      if (run.best_run_bonus) {
        // what the game's rule for the whole run adds to the best routes (or takes away:
        // 18TN's Civil War), so that the best column adds up to the best
        const tr = document.createElement("tr");
        tr.className = "run-rule";
        tr.append(cell("the whole run"), cell("—"),
          cell((run.best_run_bonus > 0 ? "+" : "") + run.best_run_bonus + " · the game's rule"));
        tb.appendChild(tr);
      }
      table.appendChild(tb);
      runBox.appendChild(table);
    } else {
      $("map").innerHTML = step.svg;
      $("map-run-figure").hidden = true;
      $("maps").classList.remove("split");
      $("map-caption").hidden = true;
    }
    applyZoom();
  }

  async function branch() {
    if (!record) return;
    if (!mayDrop("Branch a board from this step")) return;
    let answer;
    try {
      answer = await call("POST", "/api/records/" + record.record.id + "/branch", { step: recordStep });
    } catch (e) {
      toast(e.message);
      return;
    }
    const name = record.record.name + " · step " + recordStep;
    leaveRecord();
    anotherBoard();
    saved = null;
    dirty = true;
    $("board-name").value = name;
    selected = null;
    const next = await call("POST", "/api/boards/view", { state: answer.state });
    show(next);
    history.replaceState(null, "", "/board/" + encodeURIComponent(next.game.name));
    updateSaveStatus();
    toast("A new board from step " + recordStep + ": save it to keep it.", "info");
  }

  // while a record is shown, the board's own controls rest
  function editing(on) {
    for (const id of ["phase", "undo", "redo", "save", "board-name", "reach"]) $(id).disabled = !on;
    $("mode-label").textContent = on
      ? "Click a hex to see what may be laid there · arrow keys move, Enter opens"
      : "A recorded game: ← → step through it, Home and End jump";
  }

  function leaveRecord() {
    editing(true);
    record = null;
    app.classList.remove("record-mode");
    $("record-banner").hidden = true;
    $("record-import").hidden = false;
    $("record-view").hidden = true;
    $("map-run-figure").hidden = true;
    $("maps").classList.remove("split");
    $("map-caption").hidden = true;
    show(view);
    updateSaveStatus();
  }

  // ------------------------------------------------------------------ keyboard

  function hexCentres() {
    const svg = svgOf($("map"));
    if (!svg) return [];
    return Array.from(svg.querySelectorAll("g.hex")).map((g) => [g.dataset.coord, centre(g)]);
  }

  function moveCursor(dx, dy) {
    const all = hexCentres();
    if (!all.length) return;
    const from = all.find(([c]) => c === (cursor || selected));
    if (!from) {
      cursor = all[0][0];
    } else {
      let best = null;
      let bestScore = Infinity;
      for (const [c, [x, y]] of all) {
        const vx = x - from[1][0];
        const vy = y - from[1][1];
        const along = vx * dx + vy * dy;
        if (along <= 1) continue;
        const across = Math.abs(vx * dy - vy * dx);
        if (across > along * 1.8) continue;
        const score = along + across * 2;
        if (score < bestScore) {
          bestScore = score;
          best = c;
        }
      }
      if (best) cursor = best;
    }
    mark(cursor, "cursor-hex");
    $("map").dataset.cursor = cursor;
    const g = svgOf($("map")).querySelector('g.hex[data-coord="' + cursor + '"]');
    if (g && g.scrollIntoView) g.scrollIntoView({ block: "nearest", inline: "nearest" });
  }

  function typing(target) {
    return target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) && target.type !== "checkbox" && target.type !== "range";
  }

  document.addEventListener("keydown", (ev) => {
    const ctrl = ev.ctrlKey || ev.metaKey;
    if (ctrl && ev.key.toLowerCase() === "s") {
      ev.preventDefault();
      save();
      return;
    }
    if (typing(ev.target)) return;
    if (ctrl && ev.key.toLowerCase() === "z") {
      ev.preventDefault();
      edit(ev.shiftKey ? "redo" : "undo");
      return;
    }
    if (ctrl && ev.key.toLowerCase() === "y") {
      ev.preventDefault();
      edit("redo");
      return;
    }
    if (ctrl || ev.altKey) return;
    if (record) {
      if (ev.key === "ArrowLeft" || ev.key === "ArrowRight") {
        ev.preventDefault();
        goStep(recordStep + (ev.key === "ArrowLeft" ? -1 : 1));
      } else if (ev.key === "Home" || ev.key === "End") {
        ev.preventDefault();
        goStep(ev.key === "Home" ? 0 : record.steps.length - 1);
      }
      return;
    }
    const onMap = document.activeElement === $("map");
    const arrows = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (onMap && arrows[ev.key]) {
      ev.preventDefault();
      moveCursor(...arrows[ev.key]);
    } else if (onMap && (ev.key === "Enter" || ev.key === " ")) {
      ev.preventDefault();
      if (cursor) openHex(cursor);
    } else if (ev.key === "Escape") {
      selected = null;
      mark(null, "selected-hex");
      $("hex-detail").textContent = "";
      $("hex-hint").hidden = false;
    } else if ((ev.key === "r" || ev.key === "R") && selected && lays && !lays.tile.preprinted) {
      ev.preventDefault();
      edit("rotate", { hex: selected, step: ev.shiftKey ? -1 : 1 });
    } else if (/^[1-9]$/.test(ev.key) && lays && selected) {
      const choice = lays.legal[Number(ev.key) - 1];
      if (choice) {
        ev.preventDefault();
        edit("lay", { hex: selected, tile: choice.tile, rotation: choice.rotations[0].rotation });
      }
    }
  });

  // ------------------------------------------------------------------ wiring

  function tab(name) {
    document.querySelectorAll(".tabs [role=tab]").forEach((b) => {
      b.setAttribute("aria-selected", String(b.dataset.tab === name));
    });
    document.querySelectorAll(".panel").forEach((p) => {
      p.hidden = p.id !== "panel-" + name;
    });
  }

  document.querySelectorAll(".tabs [role=tab]").forEach((b) =>
    b.addEventListener("click", () => tab(b.dataset.tab))
  );
  $("map").addEventListener("click", (ev) => {
    const g = ev.target.closest && ev.target.closest("g.hex");
    if (g && !record) {
      cursor = g.dataset.coord;
      mark(cursor, "cursor-hex");
      openHex(g.dataset.coord);
    }
  });
  $("undo").addEventListener("click", () => edit("undo"));
  $("redo").addEventListener("click", () => edit("redo"));
  $("phase").addEventListener("change", () => edit("phase", { phase: $("phase").value }));
  $("corporation").addEventListener("change", () =>
    chooseRoutes($("corporation").value || null, state.trains)
  );
  $("reach").addEventListener("change", async () => {
    if ($("reach").checked && !state.corporation) {
      toast("Choose a corporation (Routes) first.", "info");
      $("reach").checked = false;
      return;
    }
    const next = await call("POST", "/api/boards/view", { state, reach: $("reach").checked });
    show(next);
    if (selected) openHex(selected, true);
  });
  $("setup-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const seed = $("setup-seed").value.trim();
    drawSetup(seed === "" ? null : Number(seed)).then((ok) => { if (!ok) showSetup(); });
  });
  $("setup-random").addEventListener("click", () => {
    drawSetup(Math.floor(Math.random() * 1000000)).then((ok) => { if (!ok) showSetup(); });
  });
  $("save").addEventListener("click", save);
  $("autosave").addEventListener("change", scheduleSave);
  $("zoom-in").addEventListener("click", () => { zoom = Math.min(zoom * 1.4, 5); applyZoom(); });
  $("zoom-out").addEventListener("click", () => { zoom = Math.max(zoom / 1.4, 0.5); applyZoom(); });
  $("zoom-fit").addEventListener("click", () => { zoom = 1; applyZoom(); });
  $("record-import-button").addEventListener("click", importRecord);
  $("record-close").addEventListener("click", () => { leaveRecord(); });
  $("leave-record").addEventListener("click", () => { leaveRecord(); tab("hex"); });
  $("branch").addEventListener("click", branch);
  $("step").addEventListener("input", () => goStep(Number($("step").value)));
  $("step-first").addEventListener("click", () => goStep(0));
  $("step-prev").addEventListener("click", () => goStep(recordStep - 1));
  $("step-next").addEventListener("click", () => goStep(recordStep + 1));
  $("step-last").addEventListener("click", () => goStep(record ? record.steps.length - 1 : 0));
  $("new-board").addEventListener("click", async () => {
    if (!mayDrop("Start a new empty board")) return;
    anotherBoard();
    saved = null;
    dirty = false;
    $("board-name").value = "";
    const next = await call("POST", "/api/boards/view", {
      state: { game: view.game.name, options: state.options, seed: state.seed, players: state.players },
    });
    history.replaceState(null, "", "/board/" + encodeURIComponent(view.game.name));
    show(next);
    updateSaveStatus();
  });
  window.addEventListener("beforeunload", (ev) => {
    // unsaved changes that autosave will not keep (none, or its last save failed)
    if (dirty && (saveFailed || !(saved && $("autosave").checked))) {
      ev.preventDefault();
      ev.returnValue = "";
    }
  });

  if (saved) {
    $("board-name").value = saved.name;
    $("export-link").href = "/api/boards/" + saved.id + "/export";
    $("export-link").hidden = false;
  }
  show(view);
  updateSaveStatus();
  if (boot.record) {
    // a record imported before: step through it
    call("GET", "/api/records/" + boot.record)
      .then((answer) => {
        record = answer;
        tab("record");
        startRecord();
      })
      .catch((e) => toast("The record could not be opened: " + e.message));
  }
  app.dataset.ready = "1";
})();

// Carcassonne in the browser: the table of one game. The server keeps the game (in the
// store) and answers its view after every change; this page draws the view, lets a person
// choose a square, a rotation and a follower among the legal ones, and asks the server to let
// the computer players move, one move at a time.
"use strict";
(function () {
  const app = document.getElementById("carc-app");
  if (!app) return;
  const $ = (id) => document.getElementById(id);
  const SVG = "http://www.w3.org/2000/svg";
  const id = app.dataset.id;
  const params = new URLSearchParams(location.search);
  const delay = params.has("delay") ? Math.max(0, Number(params.get("delay")) || 0) : 700;

  let view = JSON.parse($("boot").textContent);
  let rot = 0; // the turn of the tile in hand while choosing a square
  let placed = null; // {x, y, rotation}: the tile put on a square, its follower not chosen yet
  let cursor = null; // {x, y}: the keyboard's square
  let zoom = null; // null: fit the board to its box
  let stepTimer = null;
  let stopped = false; // computer moves stop after an error until the page is told to go on
  let litFarm = null;

  // ------------------------------------------------------------------ requests

  const client = tilelay.client(app);
  const call = client.call;
  const toast = tilelay.toast;

  async function change(path, body) {
    try {
      view = await call("POST", `/api/carcassonne/games/${id}/${path}`, {
        version: view.game.version,
        ...(body || {}),
      });
      placed = null;
      cursor = null;
      render(true);
    } catch (err) {
      if (err.status === 409) {
        toast("The game moved on in another window: it is shown as it is now.", "info");
        await reload();
      } else {
        toast(err.message);
        if (path === "step") {
          stopped = true;
          renderSide();
        }
      }
    }
  }

  async function reload() {
    try {
      view = await call("GET", `/api/carcassonne/games/${id}`);
      placed = null;
      render(true);
    } catch (err) {
      toast(err.message);
    }
  }

  // ------------------------------------------------------------------ the legal moves

  const g = () => view.game;
  const personToMove = () => g().person_to_move && !!view.legal;
  const spotAt = (x, y) => (view.legal || []).find((s) => s.x === x && s.y === y) || null;
  const rotationsAt = (spot) => spot.rotations.map((r) => r.rotation);
  function actionsAt(spot, r) {
    const entry = spot.rotations.find((q) => q.rotation === r);
    return entry ? entry.actions : [];
  }
  function fitRotation(spot, r, step) {
    const rs = rotationsAt(spot);
    for (let k = 0; k < 4; k++) {
      const q = (((r + k * (step || 1)) % 4) + 4) % 4;
      if (rs.includes(q)) return q;
    }
    return rs[0];
  }
  const figureActions = (actions) => actions.filter((a) => a.follower !== null);

  // ------------------------------------------------------------------ drawing

  function el(name, attrs, parent) {
    const node = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (parent) parent.appendChild(node);
    return node;
  }

  function cell(x, y) {
    const L = view.board.layout;
    return [L.margin + (x - L.x0) * L.size, L.margin + (y - L.y0) * L.size];
  }

  function tileGroup(parent, x, y, rotation, cls) {
    const L = view.board.layout;
    const [px, py] = cell(x, y);
    const group = el("g", { class: cls, transform: `translate(${px} ${py}) scale(${L.size / 100})` }, parent);
    group.innerHTML = view.hand.rotations[rotation].svg;
    return group;
  }

  function renderBoard() {
    const box = $("board");
    const left = box.scrollLeft;
    const top = box.scrollTop;
    box.innerHTML = view.board.svg;
    applyZoom();
    renderOverlay();
    box.scrollLeft = left;
    box.scrollTop = top;
    const last = box.querySelector("rect.last");
    if (zoom !== null && last) {
      // keep the last move in sight when the board is larger than its box
      const b = box.getBoundingClientRect();
      const r = last.getBoundingClientRect();
      if (r.left < b.left || r.right > b.right) box.scrollLeft += r.left - b.left - b.width / 2 + r.width / 2;
      if (r.top < b.top || r.bottom > b.bottom) box.scrollTop += r.top - b.top - b.height / 2 + r.height / 2;
    }
  }

  function applyZoom() {
    const svg = $("board").querySelector("svg");
    if (!svg) return;
    const L = view.board.layout;
    let scale = zoom;
    if (scale === null) {
      const box = $("board");
      const w = Math.max(200, box.clientWidth - 16);
      const h = Math.max(200, box.clientHeight - 16);
      scale = Math.min(1.75, w / L.width, h / L.height);
      scale = Math.max(scale, 44 / L.size); // squares stay large enough to click
    }
    svg.setAttribute("width", Math.round(L.width * scale));
    svg.setAttribute("height", Math.round(L.height * scale));
    app.dataset.zoom = scale.toFixed(3);
  }

  function renderOverlay() {
    const svg = $("board").querySelector("svg");
    if (!svg) return;
    const old = svg.querySelector("#overlay");
    if (old) old.remove();
    const layer = el("g", { id: "overlay" }, svg);
    const L = view.board.layout;
    if (litFarm !== null && view.sheet) {
      const farm = view.sheet.farms[litFarm];
      for (const city of farm.cities)
        for (const [x, y] of city.squares) {
          const [px, py] = cell(x, y);
          el("rect", { class: "city-lit", x: px + 2, y: py + 2, width: L.size - 4, height: L.size - 4 }, layer);
        }
      for (const [x, y] of farm.farm.squares) {
        const [px, py] = cell(x, y);
        el("rect", { class: "farm-lit", x: px + 1, y: py + 1, width: L.size - 2, height: L.size - 2 }, layer);
      }
    }
    if (!personToMove()) return;
    if (!placed) {
      for (const spot of view.legal) {
        const [px, py] = cell(spot.x, spot.y);
        const fits = rotationsAt(spot).includes(rot);
        const rect = el("rect", {
          class: "spot" + (fits ? " fits" : ""),
          x: px + 2,
          y: py + 2,
          width: L.size - 4,
          height: L.size - 4,
          "data-x": spot.x,
          "data-y": spot.y,
          "data-rotations": rotationsAt(spot).join(" "),
        }, layer);
        el("title", {}, rect).textContent =
          `(${spot.x}, ${spot.y}): turned ${rotationsAt(spot).map((r) => r * 90).join("°, ")}°`;
      }
      if (cursor) {
        const [px, py] = cell(cursor.x, cursor.y);
        el("rect", { class: "cursor", x: px, y: py, width: L.size, height: L.size }, layer);
      }
      return;
    }
    const spot = spotAt(placed.x, placed.y);
    const group = tileGroup(layer, placed.x, placed.y, placed.rotation, "tentative");
    group.setAttribute("data-x", placed.x);
    group.setAttribute("data-y", placed.y);
    group.setAttribute("data-rotation", placed.rotation);
    el("title", {}, group).textContent = "click the tile to turn it (R)";
    const [px, py] = cell(placed.x, placed.y);
    el("rect", { class: "tentative-edge", x: px, y: py, width: L.size, height: L.size }, layer);
    const colour = view.players[g().current].colour;
    const figures = figureActions(actionsAt(spot, placed.rotation));
    const points = spread(
      figures.map((a) => view.hand.rotations[placed.rotation].anchors[a.follower]),
      L.size / 100,
      MARK * 2 + 3,
    );
    figures.forEach((action, n) => {
      const [mx, my] = points[n];
      const spotGroup = el("g", {
        class: "follower-spot",
        "data-follower": action.follower,
        "data-abbot": action.abbot ? "1" : "0",
        "data-key": String(n + 1),
        transform: `translate(${px + mx} ${py + my})`,
        role: "button",
        "aria-label": `${n + 1}: ${action.label}`,
      }, layer);
      if (action.abbot) el("rect", { x: -MARK, y: -MARK, width: 2 * MARK, height: 2 * MARK, rx: 3, fill: colour }, spotGroup);
      else el("circle", { r: MARK, fill: colour }, spotGroup);
      const label = el("text", { "text-anchor": "middle", "dominant-baseline": "central" }, spotGroup);
      label.textContent = action.abbot ? "A" : String(n + 1);
      el("title", {}, spotGroup).textContent = `${n + 1}: ${action.label}`;
    });
  }

  const MARK = 11; // the radius of a follower spot's mark, in board pixels

  // Marks at the anchors (tile units, scaled by k to pixels), pushed apart until each pair
  // is at least gap pixels apart and kept inside the square.
  function spread(anchors, k, gap) {
    const pts = anchors.map(([x, y]) => [x * k, y * k]);
    const size = 100 * k;
    for (let round = 0; round < 40; round++) {
      let moved = false;
      for (let i = 0; i < pts.length; i++)
        for (let j = i + 1; j < pts.length; j++) {
          let dx = pts[j][0] - pts[i][0];
          let dy = pts[j][1] - pts[i][1];
          let d = Math.hypot(dx, dy);
          if (d >= gap) continue;
          if (d < 0.01) [dx, dy, d] = [1, 0, 1];
          const push = (gap - d) / 2 + 0.5;
          pts[i][0] -= (dx / d) * push;
          pts[i][1] -= (dy / d) * push;
          pts[j][0] += (dx / d) * push;
          pts[j][1] += (dy / d) * push;
          moved = true;
        }
      for (const p of pts) {
        p[0] = Math.min(size - MARK, Math.max(MARK, p[0]));
        p[1] = Math.min(size - MARK, Math.max(MARK, p[1]));
      }
      if (!moved) break;
    }
    return pts;
  }

  // The follower spots drawn on the tile in hand too, where the tile is large enough to show
  // what each number stands on (on the board the marks cover the tile).
  function handMarks(svg, rotation) {
    const colour = view.players[g().current].colour;
    const figures = figureActions(actionsAt(spotAt(placed.x, placed.y), rotation));
    const points = spread(
      figures.map((a) => view.hand.rotations[rotation].anchors[a.follower]),
      1,
      MARK * 2 + 3,
    );
    figures.forEach((action, n) => {
      const [mx, my] = points[n];
      const mark = el("g", { class: "hand-mark", "data-key": String(n + 1), transform: `translate(${mx} ${my})` }, svg);
      if (action.abbot) el("rect", { x: -9, y: -9, width: 18, height: 18, rx: 2, fill: colour }, mark);
      else el("circle", { r: 9, fill: colour }, mark);
      const label = el("text", { "text-anchor": "middle", "dominant-baseline": "central" }, mark);
      label.textContent = action.abbot ? "A" : String(n + 1);
      el("title", {}, mark).textContent = `${n + 1}: ${action.label}`;
    });
  }

  function showGhost(spot) {
    const svg = $("board").querySelector("svg");
    const layer = svg && svg.querySelector("#overlay");
    if (!layer) return;
    hideGhost();
    if (!spot) return;
    const r = fitRotation(spot, rot);
    const ghost = tileGroup(layer, spot.x, spot.y, r, "ghost");
    ghost.id = "ghost";
  }

  function hideGhost() {
    const ghost = document.getElementById("ghost");
    if (ghost) ghost.remove();
  }

  function figureIcon(colour) {
    return (
      `<svg width="14" height="16" viewBox="-12 -17 24 29" aria-hidden="true"><path fill="${colour}" stroke="#111" stroke-width="1.8" ` +
      'd="M0 -12.5 A4 4 0 1 1 -0.01 -12.5 Z M-3.5 -4.5 L-10 -2.2 Q-12 1.3 -8.5 1.8 L-4.6 1.2 L-7.5 10 Q-7.6 11.5 -6 11.5 L-2 11.5 L0 6.5 L2 11.5 L6 11.5 Q7.6 11.5 7.5 10 L4.6 1.2 L8.5 1.8 Q12 1.3 10 -2.2 L3.5 -4.5 Z"/></svg>'
    );
  }

  function esc(text) {
    return String(text).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
  }

  function renderSide() {
    const game = g();
    const current = game.current;
    const person = personToMove();
    // the tile in hand
    const handBox = $("hand-tile");
    if (view.hand) {
      const r = placed ? placed.rotation : rot;
      handBox.className = "hand-tile";
      handBox.innerHTML = `<svg xmlns="${SVG}" viewBox="0 0 100 100" data-rotation="${r}">${view.hand.rotations[r].svg}</svg>`;
      if (placed && person) handMarks(handBox.querySelector("svg"), r);
      $("hand-name").textContent = view.hand.name;
    } else {
      handBox.className = "hand-tile empty";
      handBox.innerHTML = "";
      $("hand-name").textContent = "—";
    }
    $("pile").textContent = game.finished
      ? "the pile is empty"
      : `${game.pile} tile${game.pile === 1 ? "" : "s"} left in the pile`;
    $("pile").dataset.count = game.pile;
    $("rot-left").disabled = $("rot-right").disabled = !person;
    $("turn").querySelector(".hand").hidden = game.finished;
    $("turn").classList.toggle("person", person);
    // what to do
    const prompt = $("prompt");
    const who = current === null ? "" : view.players[current].name;
    if (game.finished) prompt.textContent = "Game over. " + winnerText() + " The score sheet is below.";
    else if (person && !placed)
      prompt.textContent = `${who}: click a highlighted square for tile ${view.hand.name} (R turns it; arrow keys and Enter work too).`;
    else if (person) {
      const n = figureActions(actionsAt(spotAt(placed.x, placed.y), placed.rotation)).length;
      // (the number keys go up to 9)
      const spots = n === 1
        ? "click the only spot for a follower (key 1)"
        : `click a spot for a follower (keys 1–${Math.min(n, 9)})`;
      prompt.textContent =
        `Turn the tile with R or by clicking it; then ` +
        (n ? `${spots} or choose no follower (N).` : "confirm with No follower (N).");
    } else if (stopped) prompt.textContent = `${who} could not move. Reload the page to try again.`;
    else prompt.textContent = `${who} is thinking…`;
    $("legend").hidden = !(person && !placed);
    const actions = person && placed ? actionsAt(spotAt(placed.x, placed.y), placed.rotation) : [];
    $("choices").hidden = !(person && placed);
    $("return-abbot").hidden = !actions.some((a) => a.return_abbot);
    $("figure-choices").innerHTML = figureActions(actions)
      .map((a, n) => `<button type="button" class="figure-choice" data-key="${n + 1}">${n + 1}: ${esc(a.label)}</button>`)
      .join("");
    // scores
    const rows = view.players.map((p) => {
      const cls = [current === p.seat ? "to-move" : "", current === p.seat && !p.person && !game.finished ? "thinking" : ""];
      const abbot = p.abbot === null ? "" : p.abbot === "supply" ? " · abbot in hand" : " · abbot out";
      return (
        `<tr class="${cls.join(" ").trim()}" data-seat="${p.seat}"><td class="name"><span class="swatch" style="background:${p.colour}"></span> ${esc(p.name)}</td>` +
        `<td class="figures" title="followers in hand">${figureIcon(p.colour)}×${p.followers}${abbot}</td>` +
        `<td class="score" data-score="${p.score}">${p.score}</td></tr>`
      );
    });
    $("scores").innerHTML =
      `<caption class="muted">Move ${game.moves}</caption>` +
      '<thead><tr><th scope="col">Player</th><th scope="col" class="figures">In hand</th>' +
      '<th scope="col" class="points">Points</th></tr></thead>' +
      `<tbody>${rows.join("")}</tbody>`;
    $("undo").disabled = !game.can_undo || client.busy() > 0;
    const people = view.players.filter((p) => p.person).length;
    $("undo").textContent = people > 1 ? "↶ Undo the last person's move" : "↶ Undo my last move";
    // the last move
    const last = view.last;
    if (last) {
      const events = last.events
        .filter((e) => e.complete || e.seats.length)
        .map((e) => `<li class="${e.seats.length ? "scored" : ""}">${esc(e.text)}</li>`);
      $("last").innerHTML = `<div>${esc(last.text)}</div>` + (events.length ? `<ul>${events.join("")}</ul>` : "");
    } else $("last").innerHTML = '<div class="muted">No move yet: the start tile is at (0, 0).</div>';
    $("log").textContent = view.log.join("\n");
    renderSheet();
  }

  function renderSheet() {
    const box = $("sheet");
    const sheet = view.sheet;
    box.hidden = !sheet;
    if (!sheet) return;
    const players = view.players;
    const head = players
      .map((p) => `<th title="${esc(p.name)}"><span class="swatch" style="background:${p.colour}"></span> P${p.seat + 1}</th>`)
      .join("");
    const rows = sheet.kinds
      .map((kind, i) => {
        if (kind === "garden" && !g().abbot) return "";
        const cells = sheet.rows.map((row) => {
          const c = row.cells[i];
          const parts = c.during && c.end ? `<small>${c.during} + ${c.end}</small>` : "";
          return `<td data-kind="${kind}">${c.during + c.end}${parts}</td>`;
        });
        return `<tr><th scope="row">${kind}</th>${cells.join("")}</tr>`;
      })
      .join("");
    const totals = sheet.rows.map((row) => `<td class="total">${row.total}</td>`).join("");
    const names = players.map((p) => p.name);
    const farms = sheet.farms.map((f, i) => {
      const farmers = f.farmers
        .map((n, p) => (n ? `${esc(names[p])} ×${n}` : ""))
        .filter(Boolean)
        .join(", ");
      const cities = f.cities.length
        ? f.cities
            .map((c) => `<li>city of ${c.tiles} tile${c.tiles === 1 ? "" : "s"} at ${c.squares.map(([x, y]) => `(${x}, ${y})`).join(" ")}: 3</li>`)
            .join("")
        : "<li>no completed city: 0</li>";
      const winners = f.winners.map((p) => esc(names[p])).join(" and ");
      return (
        `<li data-farm="${i}" class="${litFarm === i ? "lit" : ""}"><strong>Farm of ${f.farm.tiles} tiles: ${f.points} to ${winners}</strong>` +
        `<div class="muted">farmers: ${farmers}</div><ul>${cities}</ul></li>`
      );
    });
    box.innerHTML =
      `<h2>Final score</h2><table><thead><tr><th></th>${head}</tr></thead><tbody>${rows}</tbody>` +
      `<tfoot><tr><th scope="row">total</th>${totals}</tr></tfoot></table>` +
      `<p class="muted">Small print: points during the game + points at the end.</p>` +
      `<h3>Farms, city by city</h3>` +
      (farms.length
        ? `<p class="muted">Each farm scores 3 per completed city it touches, to the most farmers in it. Click a farm to see it (green) and its cities (orange) on the board.</p><ul class="farms">${farms.join("")}</ul>`
        : "<p>No farmer on the board.</p>");
  }

  function winnerText() {
    const best = Math.max(...view.players.map((p) => p.score));
    const winners = view.players.filter((p) => p.score === best).map((p) => p.name);
    const scores = view.players.map((p) => p.score).join(" : ");
    return winners.length > 1 ? `A tie between ${winners.join(" and ")} (${scores}).` : `${winners[0]} wins (${scores}).`;
  }

  function render(boardChanged) {
    if (boardChanged) renderBoard();
    else renderOverlay();
    renderSide();
    app.dataset.version = g().version;
    app.dataset.moves = g().moves;
    app.dataset.state = g().finished ? "finished" : personToMove() ? (placed ? "follower" : "place") : "computer";
    app.dataset.ready = "1";
    schedule();
  }

  // ------------------------------------------------------------------ turns

  function schedule() {
    clearTimeout(stepTimer);
    if (g().finished || g().person_to_move || stopped || client.busy()) return;
    stepTimer = setTimeout(() => change("step"), delay);
  }

  function place(x, y) {
    const spot = spotAt(x, y);
    if (!spot || client.busy()) return;
    placed = { x, y, rotation: fitRotation(spot, rot) };
    rot = placed.rotation;
    cursor = { x, y };
    hideGhost();
    render(false);
  }

  function turn(step) {
    if (!personToMove()) return;
    if (placed) {
      const spot = spotAt(placed.x, placed.y);
      placed.rotation = fitRotation(spot, placed.rotation + step, step);
      rot = placed.rotation;
    } else rot = (rot + step + 4) % 4;
    render(false);
  }

  function commit(action) {
    if (!placed || client.busy()) return;
    change("move", {
      x: placed.x,
      y: placed.y,
      rotation: placed.rotation,
      follower: action ? action.follower : null,
      abbot: action ? action.abbot : false,
      return_abbot: action ? action.return_abbot : false,
    });
  }

  function chooseFigure(n) {
    if (!placed) return;
    const action = figureActions(actionsAt(spotAt(placed.x, placed.y), placed.rotation))[n - 1];
    if (action) commit(action);
  }

  function cancel() {
    if (!placed) return;
    placed = null;
    render(false);
  }

  function moveCursor(dx, dy) {
    const spots = view.legal || [];
    if (!spots.length) return;
    const from = cursor || (view.last ? { x: view.last.x, y: view.last.y } : { x: 0, y: 0 });
    let best = null;
    let bestScore = Infinity;
    for (const s of spots) {
      const ax = s.x - from.x;
      const ay = s.y - from.y;
      const along = ax * dx + ay * dy;
      if (along <= 0 && cursor) continue;
      const across = Math.abs(ax * dy) + Math.abs(ay * dx);
      const score = Math.abs(along) + 2 * across;
      if (score < bestScore) [best, bestScore] = [s, score];
    }
    if (best) {
      cursor = { x: best.x, y: best.y };
      renderOverlay();
      showGhost(best);
    }
  }

  // ------------------------------------------------------------------ events

  $("board").addEventListener("click", (ev) => {
    if (!personToMove() || client.busy()) return;
    const figure = ev.target.closest("g.follower-spot");
    if (figure) {
      chooseFigure(Number(figure.dataset.key));
      return;
    }
    if (ev.target.closest("g.tentative")) {
      turn(1);
      return;
    }
    const spot = ev.target.closest("rect.spot");
    if (spot) place(Number(spot.dataset.x), Number(spot.dataset.y));
  });
  $("board").addEventListener("mouseover", (ev) => {
    if (placed || !personToMove()) return;
    const spot = ev.target.closest("rect.spot");
    if (spot) showGhost(spotAt(Number(spot.dataset.x), Number(spot.dataset.y)));
  });
  $("board").addEventListener("mouseout", (ev) => {
    if (ev.target.closest("rect.spot")) hideGhost();
  });
  $("rot-left").addEventListener("click", () => turn(-1));
  $("rot-right").addEventListener("click", () => turn(1));
  $("no-follower").addEventListener("click", () => commit(null));
  $("return-abbot").addEventListener("click", () => {
    const spot = placed && spotAt(placed.x, placed.y);
    const action = spot && actionsAt(spot, placed.rotation).find((a) => a.return_abbot);
    if (action) commit(action);
  });
  $("cancel").addEventListener("click", cancel);
  // a follower button and its mark on the board light up together
  function lightFigure(key) {
    for (const mark of document.querySelectorAll("#board g.follower-spot"))
      mark.classList.toggle("lit", mark.dataset.key === key);
    for (const mark of document.querySelectorAll("#hand-tile g.hand-mark"))
      mark.classList.toggle("lit", mark.dataset.key === key);
    for (const button of document.querySelectorAll("#figure-choices button[data-key]"))
      button.classList.toggle("lit", button.dataset.key === key);
  }
  $("figure-choices").addEventListener("mouseover", (ev) => {
    const button = ev.target.closest("button[data-key]");
    lightFigure(button ? button.dataset.key : null);
  });
  $("figure-choices").addEventListener("mouseout", () => lightFigure(null));
  $("hand-tile").addEventListener("click", (ev) => {
    const mark = ev.target.closest && ev.target.closest("g.hand-mark");
    if (mark && placed && personToMove()) chooseFigure(Number(mark.dataset.key));
  });
  $("board").addEventListener("mouseover", (ev) => {
    const mark = ev.target.closest && ev.target.closest("g.follower-spot");
    if (!mark && !placed) return;
    lightFigure(mark ? mark.dataset.key : null);
  });
  $("figure-choices").addEventListener("click", (ev) => {
    const button = ev.target.closest("button[data-key]");
    if (button) chooseFigure(Number(button.dataset.key));
  });
  $("undo").addEventListener("click", () => change("undo"));
  $("zoom-in").addEventListener("click", () => setZoom(1.25));
  $("zoom-out").addEventListener("click", () => setZoom(0.8));
  $("zoom-fit").addEventListener("click", () => setZoom(null));
  $("sheet").addEventListener("click", (ev) => {
    const item = ev.target.closest("li[data-farm]");
    if (!item) return;
    const n = Number(item.dataset.farm);
    litFarm = litFarm === n ? null : n;
    renderOverlay();
    renderSheet();
  });
  window.addEventListener("resize", () => {
    if (zoom === null) applyZoom();
  });

  function setZoom(factor) {
    if (factor === null) zoom = null;
    else zoom = Math.min(3, Math.max(0.3, Number(app.dataset.zoom || 1) * factor));
    applyZoom();
  }

  document.addEventListener("keydown", (ev) => {
    if (ev.target.closest && ev.target.closest("input, select, textarea")) return;
    const key = ev.key;
    if ((key === "z" && (ev.ctrlKey || ev.metaKey)) || (key === "u" && !ev.ctrlKey && !ev.metaKey)) {
      if (g().can_undo && !client.busy()) change("undo");
      ev.preventDefault();
      return;
    }
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (key === "+" || key === "=") return setZoom(1.25);
    if (key === "-") return setZoom(0.8);
    if (key === "0" && !placed) return setZoom(null);
    if (!personToMove()) return;
    if (key === "r" || key === "R") {
      turn(ev.shiftKey || key === "R" ? -1 : 1);
      ev.preventDefault();
    } else if (key.startsWith("Arrow") && !placed) {
      const d = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[key];
      moveCursor(d[0], d[1]);
      ev.preventDefault();
    } else if (key === "Enter") {
      if (placed) commit(null);
      else if (cursor) place(cursor.x, cursor.y);
      ev.preventDefault();
    } else if (placed && (key === "n" || key === "N" || key === "0")) commit(null);
    else if (placed && /^[1-9]$/.test(key)) chooseFigure(Number(key));
    else if (placed && (key === "a" || key === "A")) $("return-abbot").click();
    else if (key === "Escape") cancel();
  });

  render(true);
})();

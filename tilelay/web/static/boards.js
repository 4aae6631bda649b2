// The saved boards page: rename, delete, import (exports are plain links).
"use strict";
(function () {
  const root = document.getElementById("saved-app");
  if (!root) return;
  document.querySelectorAll("time[data-t]").forEach((t) => {
    const d = new Date(Number(t.dataset.t) * 1000);
    t.dateTime = d.toISOString();
    t.textContent = d.toLocaleString();
  });
  const call = tilelay.request;
  root.addEventListener("click", async (ev) => {
    const row = ev.target.closest("tr[data-id]");
    if (!row) return;
    const id = row.dataset.id;
    const base = row.dataset.kind === "record" ? "/api/records/" : "/api/boards/";
    try {
      if (ev.target.classList.contains("rename")) {
        const name = prompt("New name", row.querySelector("a.open").textContent);
        if (!name) return;
        const answer = await call("PATCH", base + id, { name });
        const link = row.querySelector("a.open");
        link.textContent = link.title = (answer.board || answer.record).name;
      } else if (ev.target.classList.contains("versions")) {
        await toggleVersions(row, ev.target);
      } else if (ev.target.classList.contains("restore")) {
        // the revision's state saved as the board's next version (the version it replaces
        // is kept as a revision in its turn: nothing is lost)
        const owner = root.querySelector('tr[data-id="' + row.dataset.of + '"]:not(.revision)');
        if (!confirm("Restore version " + row.dataset.version + "? The board's version now is kept.")) return;
        const saved = await call("PUT", "/api/boards/" + row.dataset.of, {
          version: Number(owner.dataset.version),
          state: JSON.parse(row.dataset.state),
        });
        owner.dataset.version = String(saved.board.version);
        owner.querySelector("td.wide-only").textContent = String(saved.board.version);
        // the list again, with the version just replaced in it
        const button = owner.querySelector("button.versions");
        hideVersions(owner, button);
        await showVersions(owner, button);
      } else if (ev.target.classList.contains("delete")) {
        if (!confirm("Delete it? This cannot be undone.")) return;
        await call("DELETE", base + id);
        row.remove();
      }
    } catch (e) {
      alert(e.message);
    }
  });
  // A board's earlier and refused versions, in rows under it (shown or hidden again).
  async function toggleVersions(row, button) {
    if (!hideVersions(row, button)) await showVersions(row, button);
  }

  // Take away the rows of a board's versions; whether there were any.
  function hideVersions(row, button) {
    const shown = document.querySelectorAll('tr.revision[data-of="' + row.dataset.id + '"]');
    shown.forEach((r) => r.remove());
    button.setAttribute("aria-expanded", "false");
    return shown.length > 0;
  }

  async function showVersions(row, button) {
    const id = row.dataset.id;
    const answer = await call("GET", "/api/boards/" + id + "/revisions");
    button.setAttribute("aria-expanded", "true");
    let after = row;
    const list = answer.revisions.length ? answer.revisions : [null];
    for (const r of list) {
      const tr = document.createElement("tr");
      tr.className = "revision";
      tr.dataset.of = id;
      const td = document.createElement("td");
      td.colSpan = 5;
      if (r === null) {
        td.className = "muted";
        td.textContent = "No earlier version.";
      } else {
        tr.dataset.id = id;
        tr.dataset.version = String(r.version);
        tr.dataset.state = JSON.stringify(r.state);
        const when = new Date(r.created * 1000).toLocaleString();
        const actions = (r.state.actions || []).length;
        td.textContent = "version " + r.version + (r.reason === "conflict"
          ? " · refused (saved elsewhere first)" : " · replaced") + " · " + when + " · " +
          actions + " action" + (actions === 1 ? "" : "s") + " ";
        const restore = document.createElement("button");
        restore.type = "button";
        restore.className = "restore";
        restore.textContent = "Restore";
        td.appendChild(restore);
      }
      tr.appendChild(td);
      after.after(tr);
      after = tr;
    }
  }

  const importButton = document.getElementById("import");
  importButton.addEventListener("click", async () => {
    const file = document.getElementById("import-file").files[0];
    const status = document.getElementById("import-status");
    if (!file) {
      status.textContent = "Choose an exported board file first.";
      return;
    }
    try {
      const answer = await call("POST", "/api/boards/import", await file.text());
      location.href = "/board/" + encodeURIComponent(answer.state.game) + "?board=" + answer.board.id;
    } catch (e) {
      status.textContent = "Not imported: " + e.message;
    }
  });
})();

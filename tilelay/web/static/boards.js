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
        link.textContent = link.title = answer.board.name;
      } else if (ev.target.classList.contains("delete")) {
        if (!confirm("Delete it? This cannot be undone.")) return;
        await call("DELETE", base + id);
        row.remove();
      }
    } catch (e) {
      alert(e.message);
    }
  });
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

// The best-routes page: send the record (kept in the page) to the JSON API, swap in the result.
"use strict";
(function () {
  const form = document.getElementById("routes-form");
  if (!form) return;
  const api = form.dataset.api;
  const maxBytes = Number(form.dataset.max) || 5 * 1024 * 1024;
  const record = document.getElementById("record");
  const file = document.getElementById("record-file");
  const result = document.getElementById("routes-result");
  const busy = document.getElementById("routes-busy");

  function showError(message) {
    result.textContent = "";
    const box = document.createElement("div");
    box.className = "error";
    const p = document.createElement("p");
    p.className = "message";
    p.textContent = message;
    box.appendChild(p);
    result.appendChild(box);
  }

  async function show(action) {
    const text = record.value;
    if (!text.trim()) {
      showError("Paste a recorded game or choose its file first.");
      return;
    }
    if (new Blob([text]).size > maxBytes) {
      showError("The record is too large: at most " + Math.round(maxBytes / 1048576) + " MB.");
      return;
    }
    const url = api + (action ? "?action=" + encodeURIComponent(action) : "");
    busy.hidden = false;
    try {
      const data = await tilelay.request("POST", url, text);
      if (!data) {
        showError("The server answered no result.");
        return;
      }
      result.innerHTML = data.panel;
      result.dataset.action = String(data.action);
    } catch (e) {
      showError(e.status ? e.message : "The server could not be reached: " + e);
    } finally {
      busy.hidden = true;
    }
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    const submitter = event.submitter;
    let action = "";
    if (submitter && submitter.name === "action") action = submitter.value;
    else if (submitter && submitter.name === "go") {
      const pick = document.getElementById("action-pick");
      action = pick ? pick.value : "";
    }
    show(action);
  });

  result.addEventListener("change", function (event) {
    if (event.target && event.target.id === "action-pick") show(event.target.value);
  });

  file.addEventListener("change", function () {
    const f = file.files && file.files[0];
    if (!f) return;
    if (f.size > maxBytes) {
      showError("The file is too large: at most " + Math.round(maxBytes / 1048576) + " MB.");
      return;
    }
    f.text().then(function (text) {
      record.value = text;
      show("");
    });
  });
})();

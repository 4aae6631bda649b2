// What the pages' scripts share, loaded before each of them: JSON requests to the app's API
// and a page's message box. Every error the API answers has one shape, {error, status,
// suggestions}: a failed request throws an Error with the server's message, its status and
// the answer's data.
"use strict";
window.tilelay = (function () {
  // One request: the answer's JSON (null when it has none), or an Error.
  async function request(method, url, body) {
    const init = { method, headers: {} };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = typeof body === "string" ? body : JSON.stringify(body);
    }
    const response = await fetch(url, init);
    const data = await response.json().catch(() => null);
    if (!response.ok) {
      const err = new Error((data && data.error) || "the server answered " + response.status);
      err.status = response.status;
      err.data = data;
      throw err;
    }
    return data;
  }

  // Requests of one page's app: the app element has the class "busy" while any runs, and
  // busy() says how many run.
  function client(app) {
    let running = 0;
    return {
      busy: () => running,
      async call(method, url, body) {
        running += 1;
        app.classList.add("busy");
        try {
          return await request(method, url, body);
        } finally {
          running -= 1;
          if (!running) app.classList.remove("busy");
        }
      },
    };
  }

  // A message in the page's box #message: an error (8 s) or, with kind "info", news (2.5 s).
  function toast(text, kind) {
    const box = document.getElementById("message");
    box.textContent = text;
    box.className = "toast " + (kind || "error");
    box.hidden = false;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(() => (box.hidden = true), kind === "info" ? 2500 : 8000);
  }

  return { request, client, toast };
})();

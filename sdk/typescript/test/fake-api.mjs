// An in-process HTTP server that stands in for the API in unit tests: it answers each request with the
// next of a scripted list of answers and records what it was sent.
import { createServer } from "node:http";

/**
 * Starts a server that answers the n-th request with answers[n] (the last one repeats):
 * `{ status, body, headers }`, "cut" (the connection is dropped) or "hang" (no answer ever).
 * A function answer is called with the recorded request and returns one of those.
 * Closed when the test ends.
 */
export async function fakeApi(t, answers) {
  const requests = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      const request = { method: req.method, url: req.url, headers: req.headers, body };
      requests.push(request);
      let answer = answers[Math.min(requests.length, answers.length) - 1];
      if (typeof answer === "function") {
        answer = answer(request);
      }
      if (answer === "cut") {
        req.socket.destroy();
      } else if (answer !== "hang") {
        const { status = 200, body: json = {}, headers = {} } = answer;
        res.writeHead(status, { "Content-Type": "application/json", ...headers });
        res.end(typeof json === "string" ? json : JSON.stringify(json));
      }
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  t.after(() => {
    server.closeAllConnections();
    server.close();
  });
  return { baseUrl: `http://127.0.0.1:${server.address().port}`, requests };
}

/** An error answer as the API writes it. */
export function apiError(status, code, extra = {}, headers = {}) {
  const requestId = `req-${status}-${code}`;
  return {
    status,
    headers: { "X-Request-ID": requestId, ...headers },
    body: { code, message: `${code} message`, requestId, ...extra },
  };
}

export const listing = {
  id: "0b7a1f3e-2d4c-4e7a-9a53-6c1d2b3a4f50",
  asin: "B08N5WRWNW",
  amazonUrl: "https://www.amazon.com/dp/B08N5WRWNW",
  status: "queued",
  createdAt: "2026-11-25T16:00:00.123456Z",
};

// The client's own behaviour (retries, Retry-After, the consistency token, error mapping)
// against a scripted HTTP server on 127.0.0.1, answer by answer.
import assert from "node:assert/strict";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { after, describe, it } from "node:test";

import { ZaxyClient, ZaxyError, parseRetryAfter } from "../src/index.js";

type Answer = [status: number, headers: Record<string, string>, body: unknown];
interface Seen { method: string; url: string; headers: IncomingHttpHeaders; body: string }

const servers: { close(): void }[] = [];
after(() => servers.forEach((s) => s.close()));

/** A client of a server giving answers in order; seen holds the requests, slept the waits. */
async function scripted(answers: Answer[], options: { retry?: ZaxyClientRetry; consistencyToken?: string; prefix?: string } = {}) {
  const seen: Seen[] = [];
  const slept: number[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const [status, headers, payload] = answers.shift()!;
      const data = typeof payload === "string" ? payload : JSON.stringify(payload);
      res.writeHead(status, { "Content-Type": "application/json", ...headers, "Content-Length": Buffer.byteLength(data) });
      res.end(data);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  servers.push(server);
  const { port } = server.address() as AddressInfo;
  const client = new ZaxyClient({
    url: `http://127.0.0.1:${port}${options.prefix ?? "/"}`, token: "zx_t", retry: options.retry ?? { minBackoffMs: 1, maxBackoffMs: 2 },
    ...(options.consistencyToken ? { consistencyToken: options.consistencyToken } : {}),
    sleep: async (ms) => { slept.push(ms); },
  });
  return { client, seen, slept };
}
type ZaxyClientRetry = ConstructorParameters<typeof ZaxyClient>[0]["retry"];

const RECEIPTS = { space_id: "s", events: [{ seq: 1, hash: "a".repeat(64), prev_hash: "0".repeat(64), recorded_at: "", occurred_at: "" }], replayed: false, redactions: 0 };
const PAGE = { events: [] };
const BUSY = { error: { code: "too_many_requests", message: "slow down", details: { limit: "requests" } } };

describe("the transport", () => {
  it("waits for Retry-After and retries a read", async () => {
    const { client, seen, slept } = await scripted([[429, { "Retry-After": "7" }, BUSY], [503, { "Retry-After": "2" }, BUSY], [200, {}, PAGE]]);
    assert.deepEqual((await client.replay("s")).events, []);
    assert.deepEqual(slept, [7000, 2000]);
    assert.equal(seen.length, 3);
    assert.equal(seen[0]!.headers["authorization"], "Bearer zx_t");
  });

  it("retries a checkout, a POST that only reads, under a path prefix too", async () => {
    const { client, seen, slept } = await scripted([[503, { "Retry-After": "1" }, BUSY], [200, {}, { text: "packet" }]], { prefix: "/zaxy/" });
    assert.equal((await client.checkout("s", "q")).text, "packet");
    assert.deepEqual(slept, [1000]);
    assert.deepEqual(seen.map((x) => [x.method, x.url, x.body]), Array(2).fill(["POST", "/zaxy/v1/spaces/s/checkout", '{"query":"q"}']));
  });

  it("bounds the retries", async () => {
    const { client, seen, slept } = await scripted(Array.from({ length: 4 }, (): Answer => [503, { "Retry-After": "1" }, BUSY]));
    const err = await client.facts("s").catch((e: unknown) => e);
    assert.ok(err instanceof ZaxyError);
    assert.deepEqual([err.status, err.code, err.retryAfterMs, err.details], [503, "too_many_requests", 1000, { limit: "requests" }]);
    assert.equal(seen.length, 4, "maxAttempts counts every try");
    assert.deepEqual(slept, [1000, 1000, 1000]);
  });

  it("does not wait for a Retry-After past the limit", async () => {
    const { client, slept } = await scripted([[429, { "Retry-After": "3600" }, BUSY]]);
    await assert.rejects(client.facts("s"), (e: unknown) => e instanceof ZaxyError && e.retryAfterMs === 3_600_000);
    assert.deepEqual(slept, []);
  });

  it("retries an append only with an idempotency key", async () => {
    let s = await scripted([[429, { "Retry-After": "1" }, BUSY]]);
    await assert.rejects(s.client.append("s", { type: "message", actor: "user", content: "hi" }), ZaxyError);
    assert.equal(s.seen.length, 1);

    s = await scripted([[429, { "Retry-After": "1" }, BUSY], [201, {}, RECEIPTS]]);
    const r = await s.client.append("s", { type: "message", actor: "user", content: "hi" }, { idempotencyKey: "k1" });
    assert.equal(r.events[0]!.seq, 1);
    assert.deepEqual(s.seen.map((x) => x.headers["idempotency-key"]), ["k1", "k1"]);
    assert.deepEqual(JSON.parse(s.seen[1]!.body), { events: [{ type: "message", actor: "user", content: "hi" }] });
  });

  it("sends the latest write's consistency token with every later request", async () => {
    const { client, seen } = await scripted([
      [200, {}, PAGE],
      [201, { "Zaxy-Consistency": "lsn:0/10" }, { ...RECEIPTS, consistency: "lsn:0/10" }],
      [200, {}, PAGE],
      [201, { "Zaxy-Consistency": "lsn:0/F" }, RECEIPTS], // an older answer arriving late
      [200, {}, PAGE],
      [201, { "Zaxy-Consistency": "lsn:1/0" }, RECEIPTS],
      [200, {}, PAGE],
    ]);
    const ev = { type: "message", actor: "user", content: "hi" };
    await client.replay("s");
    await client.append("s", ev);
    await client.replay("s");
    await client.append("s", ev);
    await client.replay("s");
    await client.append("s", ev);
    await client.replay("s");
    assert.deepEqual(seen.map((x) => x.headers["zaxy-consistency"]),
      [undefined, undefined, "lsn:0/10", "lsn:0/10", "lsn:0/10", "lsn:0/10", "lsn:1/0"]);
    assert.equal(client.consistencyToken, "lsn:1/0");
  });

  it("continues a session from a token", async () => {
    const { client, seen } = await scripted([[200, {}, PAGE]], { consistencyToken: "lsn:0/AB" });
    await client.replay("s");
    assert.equal(seen[0]!.headers["zaxy-consistency"], "lsn:0/AB");
  });

  it("types an answer without the error body", async () => {
    const { client } = await scripted([[502, { "Content-Type": "text/plain" }, "bad gateway"]], { retry: { maxAttempts: 1 } });
    const err = await client.facts("s").catch((e: unknown) => e);
    assert.ok(err instanceof ZaxyError);
    assert.deepEqual([err.status, err.code, err.message], [502, "http_502", "zaxy: 502 http_502: bad gateway"]);
  });

  it("types an unreachable server", async () => {
    const c = new ZaxyClient({ url: "http://127.0.0.1:1", retry: { maxAttempts: 1 } });
    await assert.rejects(c.facts("s"), (e: unknown) => e instanceof ZaxyError && e.status === 0 && e.code === "unreachable");
  });

  it("escapes the space and the query", async () => {
    const { client, seen } = await scripted([[200, {}, { view: "current", facts: [] }]]);
    await client.facts("a/b", { entity: "Alice & Bob", include_inferred: true });
    assert.equal(seen[0]!.url, "/v1/spaces/a%2Fb/facts?entity=Alice%20%26%20Bob&include_inferred=true");
  });

  it("reads Retry-After as seconds or an HTTP date", () => {
    assert.equal(parseRetryAfter("3"), 3000);
    assert.equal(parseRetryAfter(null), undefined);
    assert.equal(parseRetryAfter("soon"), undefined);
    const now = Date.parse("2026-01-01T00:00:00Z");
    assert.equal(parseRetryAfter("Thu, 01 Jan 2026 00:00:30 GMT", now), 30_000);
  });

  it("reads ZAXY_URL and ZAXY_TOKEN", () => {
    assert.throws(() => ZaxyClient.fromEnv({}), /ZAXY_URL/);
    assert.ok(ZaxyClient.fromEnv({ ZAXY_URL: "http://zaxy.internal:8080", ZAXY_TOKEN: "zx_abc" }) instanceof ZaxyClient);
  });
});

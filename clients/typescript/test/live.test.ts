// The client against a live server: ZAXY_URL and ZAXY_TOKEN name it (the Go test TestClients
// in package clients starts one and runs this suite in make test).
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { before, describe, it } from "node:test";

import { type AppendResult, type Event, type NewEvent, ZaxyClient, ZaxyError } from "../src/index.js";

const live = process.env["ZAXY_URL"] ? {} : { skip: "ZAXY_URL is not set: no live server to test against" };

describe("a live server", live, () => {
  const space = "ts-" + randomBytes(4).toString("hex");
  const seed: NewEvent[] = [
    { type: "message", actor: "user", session_id: "s1", content: "The staging registry times out after 30 seconds; raising the proxy timeout fixed it." },
    { type: "fact.asserted", data: { subject: "Alice", predicate: "works at", object: "Acme" } },
    { type: "message", actor: "assistant", session_id: "s1", content: "Noted: deploys to staging need the proxy timeout raised." },
  ];
  let client: ZaxyClient;
  let appended: AppendResult;

  before(async () => {
    client = ZaxyClient.fromEnv();
    appended = await client.append(space, seed, { idempotencyKey: space + "-seed" });
    await client.waitProjected(space, appended.events.at(-1)!.seq);
  });

  it("appends, chaining hashes, and an idempotent repeat answers the original receipts", async () => {
    assert.equal(appended.space_id, space);
    assert.deepEqual(appended.events.map((e) => e.seq), [1, 2, 3]);
    for (let i = 1; i < appended.events.length; i++) {
      assert.equal(appended.events[i]!.prev_hash, appended.events[i - 1]!.hash);
    }
    assert.equal(appended.replayed, false);
    const again = await client.append(space, seed, { idempotencyKey: space + "-seed" });
    assert.equal(again.replayed, true);
    assert.deepEqual(again.events.map((e) => e.hash), appended.events.map((e) => e.hash));
    await assert.rejects(client.append(space, { type: "message", actor: "user", content: "other" }, { idempotencyKey: space + "-seed" }),
      (e: unknown) => e instanceof ZaxyError && e.status === 409 && e.code === "idempotency_conflict");
    const v = await client.verify(space);
    assert.equal(v.ok, true);
    assert.equal(v.head_seq, 3);
  });

  it("checks out a packet whose every citation is in replay with the cited content", async () => {
    const packet = await client.checkout(space, { query: "why does the staging deploy time out?", max_tokens: 1000 });
    assert.match(packet.text, /proxy timeout/);
    const log = new Map<number, Event>();
    for await (const e of client.replayAll(space)) log.set(e.seq, e);
    let cited = 0;
    for (const item of packet.tiers.flatMap((t) => t.items)) {
      assert.ok(item.citations.length > 0, `item ${item.item_id} cites nothing`);
      for (const c of item.citations) {
        const ev = log.get(c.seq);
        assert.ok(ev, `${item.item_id} cites seq ${c.seq}, which replay does not have`);
        assert.equal(ev.hash, c.hash, `${item.item_id} cites seq ${c.seq} with another hash`);
        if (c.start !== undefined && c.end !== undefined) {
          assert.ok(item.text.includes([...(ev.content ?? "")].slice(c.start, c.end).join("")));
        } else if (item.kind === "fact") {
          assert.equal(ev.type, "fact.asserted");
          assert.ok(item.text.includes(String(ev.data["subject"])) && item.text.includes(String(ev.data["object"])), item.text);
        } else {
          assert.equal(item.text, ev.content, `${item.item_id} is the content of the event it cites`);
        }
        cited++;
      }
    }
    assert.ok(cited >= 2, packet.text);
  });

  it("lists facts with their evidence", async () => {
    const res = await client.facts(space);
    assert.equal(res.view, "current");
    assert.equal(res.facts.length, 1);
    const f = res.facts[0]!;
    assert.deepEqual([f.subject.name, f.predicate, f.object?.name], ["Alice", "works at", "Acme"]);
    assert.deepEqual(f.evidence, [{ seq: appended.events[1]!.seq, hash: appended.events[1]!.hash }]);
    assert.deepEqual((await client.facts(space, { entity: "Alice" })).facts.map((x) => x.id), [f.id]);
  });

  it("maps a refused body to a ZaxyError naming the field", async () => {
    const err = await client.append(space, { type: "fact.asserted", data: { subject: "Alice" } }).catch((e: unknown) => e);
    assert.ok(err instanceof ZaxyError, String(err));
    assert.equal(err.status, 400);
    assert.equal(err.code, "invalid_request");
    assert.ok(err.field?.endsWith("data.predicate"), JSON.stringify(err.details));
    assert.ok(err.requestId !== "");
    const cues = await client.checkout(space, { query: "anything", cues: { "Bad Key": "v" } }).catch((e: unknown) => e);
    assert.ok(cues instanceof ZaxyError);
    assert.deepEqual([cues.code, cues.field], ["invalid_request", "cues"]);
  });

  it("answers a bad token with 401", async () => {
    const c = new ZaxyClient({ url: process.env["ZAXY_URL"]!, token: "zx_not_a_token" });
    await assert.rejects(c.facts(space), (e: unknown) => e instanceof ZaxyError && e.status === 401);
  });

  it("reaches every operation of the document through api", async () => {
    const { data, response } = await client.api.GET("/v1/spaces/{space}/index", { params: { path: { space } } });
    assert.equal(response.status, 200);
    assert.ok(data);
  });
});

describe("the example of docs/clients.md", live, () => {
  it("runs against a live server", async () => {
    const { remember } = await import("../examples/remember.js");
    const out = await remember("ts-example-" + randomBytes(4).toString("hex"));
    assert.match(out, /^appended seq 1\n/);
    assert.match(out, /blue cluster/);
    assert.match(out, /refused: 400 invalid_request at cues$/);
  });
});

// Read-your-writes against a live server that reads from a standby an hour behind the primary:
// ZAXY_RYW_URL names it (TestClients starts one; docs/scaling.md).
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, it } from "node:test";

import { ZaxyClient, ZaxyError } from "../src/index.js";

const url = process.env["ZAXY_RYW_URL"];

describe("a server with a standby an hour behind", url ? {} : { skip: "ZAXY_RYW_URL is not set" }, () => {
  it("reads the client's own write, and a client continued from its token does too", async () => {
    const space = "ts-ryw-" + randomBytes(4).toString("hex");
    const writer = new ZaxyClient({ url: url! });
    assert.equal(writer.consistencyToken, "");
    const res = await writer.append(space, { type: "note", content: "written" });
    assert.match(writer.consistencyToken, /^lsn:[0-9A-F]+\/[0-9A-F]+$/, "the client kept its append's token");
    assert.equal(res.consistency, writer.consistencyToken);
    assert.equal((await writer.replay(space)).events.length, 1, "the writer reads its own append");

    // Without the token the standby serves the read, and it has not seen the space.
    const other = new ZaxyClient({ url: url! });
    const seen = await other.replay(space).then((p) => p.events.length, (e: unknown) => {
      if (e instanceof ZaxyError && e.status === 404) return 0;
      throw e;
    });
    assert.equal(seen, 0, "a client without the token is served by the standby");

    const continued = new ZaxyClient({ url: url!, consistencyToken: writer.consistencyToken });
    assert.equal((await continued.replay(space)).events.length, 1);
  });
});

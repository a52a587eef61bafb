import { ZaxyClient, ZaxyError } from "@zaxy/client";

// Remembers a decision and checks memory out before the next task, against the server at
// ZAXY_URL with the token in ZAXY_TOKEN; returns what it printed.
export async function remember(space = "acme-web"): Promise<string> {
  const zaxy = ZaxyClient.fromEnv();
  // An idempotency key makes the append safe to retry: the client retries it on 429, 503 and
  // dropped connections, and the server appends it once.
  const res = await zaxy.append(space, {
    type: "message",
    actor: "user",
    session_id: "run-42",
    content: "We deploy through the blue cluster from now on.",
  }, { idempotencyKey: "run-42/turn-1" });
  const lines = [`appended seq ${res.events[0]!.seq}`];

  // Checkout ranks what the projector has applied; wait for it here, as a demo does.
  await zaxy.waitProjected(space, res.events[0]!.seq);
  const packet = await zaxy.checkout(space, { query: "how do we deploy?", session_id: "run-42", max_tokens: 800 });
  lines.push(`${packet.budget.used} of ${packet.budget.requested} tokens used`, packet.text);

  try {
    await zaxy.checkout(space, { query: "how do we deploy?", cues: { Repo: "web" } });
  } catch (e) {
    if (!(e instanceof ZaxyError)) throw e;
    lines.push(`refused: ${e.status} ${e.code} at ${e.field}`); // 400 invalid_request at cues
  }
  return lines.join("\n");
}

/**
 * Zaxy's TypeScript client: ZaxyClient (append, checkout, replay, facts, verify, with the
 * session's consistency token and retries) over the client generated from api/openapi.json
 * (`client.api`, typed by `paths`). See docs/clients.md.
 */
export { ZaxyClient, type AppendOptions, type CallOptions, type RetryPolicy, type ZaxyClientOptions } from "./client.js";
export { CONSISTENCY_HEADER, Consistency } from "./consistency.js";
export { ZaxyError, parseRetryAfter } from "./error.js";
export type { components, operations, paths } from "./schema.js";
export type * from "./types.js";

/**
 * The bodies of the main operations (docs/api.md). Fields a newer server adds pass through
 * untyped; the generated `paths` and `components` (./schema.js) describe every operation as
 * api/openapi.json does.
 */

/** An event to append; the database assigns its seq, recorded_at and hashes. */
export interface NewEvent {
  type: string;
  content?: string;
  session_id?: string;
  actor?: string;
  /** RFC 3339; the server's clock when absent. */
  occurred_at?: string;
  data?: Record<string, unknown>;
  cues?: Record<string, string>;
}

/** What the log assigned one appended event. */
export interface Receipt {
  seq: number;
  hash: string;
  prev_hash: string;
  recorded_at: string;
  occurred_at: string;
}

/** The answer of an append: one receipt per event, in the order given. */
export interface AppendResult {
  space_id: string;
  events: Receipt[];
  /** True when an Idempotency-Key repeat answered the original receipts. */
  replayed: boolean;
  redactions: number;
  /** The write's consistency token, with standbys configured. */
  consistency?: string;
}

/** An event of the log, as replay shows it. */
export interface Event {
  space_id: string;
  seq: number;
  type: string;
  session_id?: string;
  actor?: string;
  occurred_at: string;
  recorded_at: string;
  content?: string;
  data: Record<string, unknown>;
  cues: Record<string, string> | null;
  prev_hash: string;
  hash: string;
  erased_by_seq?: number;
}

/** Filters and paging of replay. */
export interface ReplayParams {
  session_id?: string;
  /** The cursor: only events after it (a page's next_after_seq). */
  after_seq?: number;
  until_seq?: number;
  recorded_before?: string;
  /** The page size, 1–1000. */
  limit?: number;
}

/** One page of replay; continue with after_seq = next_after_seq while it is set. */
export interface ReplayPage {
  events: Event[];
  next_after_seq?: number;
}

/** The hash chain recomputed: ok, or the first broken seq and why. */
export interface VerifyResult {
  space_id: string;
  ok: boolean;
  events: number;
  head_seq: number;
  head_hash: string;
  broken_seq?: number;
  reason?: string;
  method: string;
}

/** The event a claim comes from; start and end, when set, are the character range of its content an excerpt took. */
export interface Citation {
  seq: number;
  hash: string;
  start?: number;
  end?: number;
}

/** How far an item can be trusted and whether memory has moved on from it. */
export interface Labels {
  authority: string;
  review_status?: string;
  inferred?: boolean;
  stale?: boolean;
  attenuated?: boolean;
  attenuated_by?: string;
  redundant_of?: string;
  superseded?: boolean;
  invalidated?: string;
  conflicted?: boolean;
}

/** A ranked memory item of a packet. */
export interface Item {
  ref?: number;
  item_id: string;
  kind: string;
  text: string;
  tokens: number;
  score: number;
  components?: Record<string, { rank: number; weight: number; score: number }>;
  labels: Labels;
  citations: Citation[];
  session_id?: string;
  occurred_at?: string;
}

/** The body of a checkout (docs/checkout.md). */
export interface CheckoutRequest {
  query: string;
  purpose?: string;
  max_tokens?: number;
  as_of?: string;
  session_id?: string;
  disable_lanes?: string[];
  no_record?: boolean;
  retrieval_profile?: "salience" | "plain";
  include_attenuated?: boolean;
  cues?: Record<string, string>;
  who_when?: boolean;
  weave?: boolean;
  reasoning_phase?: string;
}

/** A checkout's cited, token-budgeted packet; `text` is what to put in a prompt. */
export interface Packet {
  space_id: string;
  query: string;
  purpose: string;
  purpose_inferred: boolean;
  as_of: string;
  tiers: { name: string; items: Item[] }[];
  warnings: { code: string; message: string; item_id?: string; citations?: Citation[] }[];
  budget: { requested: number; used: number; elided: { item_id: string; tokens: number; reason: string }[] };
  text: string;
  diagnostics: Record<string, unknown> & { projection_lag: number; policy_version?: string };
  /** The seq of the checkout.surfaced event that recorded it (unless no_record). */
  surfaced_seq?: number;
  weave?: Record<string, unknown>;
}

/** Selects the facts of facts(). */
export interface FactsParams {
  /** Id or name: only facts with it as subject or object. */
  entity?: string;
  /** RFC 3339: the versions valid then. */
  at?: string;
  /** What memory said right after that seq. */
  as_of_seq?: number;
  limit?: number;
  include_inferred?: boolean;
}

export interface EntityRef {
  id: string;
  name: string;
}

/** An event that asserted a fact. */
export interface Evidence {
  seq: number;
  hash: string;
}

/** A version of a fact of the temporal graph, with its validity window and evidence. */
export interface Fact {
  id: string;
  subject: EntityRef;
  predicate: string;
  object?: EntityRef;
  value?: unknown;
  version: number;
  valid_from: string;
  valid_to?: string;
  recorded_seq: number;
  recorded_hash: string;
  status: string;
  status_then: string;
  authority: string;
  review_status: string;
  inferred: boolean;
  evidence: Evidence[];
}

/** The facts of a view: current, at a time (at) or as of a seq (as_of). */
export interface FactsResult {
  view: "current" | "at" | "as_of";
  facts: Fact[];
  inferred?: Record<string, unknown>[];
}

/** How far the projector has applied a space's log: lag is head_seq - projected_seq. */
export interface ProjectionStatus {
  space_id: string;
  head_seq: number;
  projected_seq: number;
  lag: number;
  head_at: string;
  projected_at?: string;
}

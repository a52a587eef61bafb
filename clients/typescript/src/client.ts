import createClient, { type Client as FetchClient } from "openapi-fetch";

import { CONSISTENCY_HEADER, Consistency } from "./consistency.js";
import { ZaxyError } from "./error.js";
import type { paths } from "./schema.js";
import type {
  AppendResult,
  CheckoutRequest,
  Event,
  FactsParams,
  FactsResult,
  NewEvent,
  Packet,
  ProjectionStatus,
  ReplayPage,
  ReplayParams,
  VerifyResult,
} from "./types.js";

/**
 * How a call that is safe to repeat is retried after a 429, a 503 or a connection error. Safe
 * calls are reads (GET and the POSTs that only read, such as checkout) and appends given an
 * idempotency key. A Retry-After from the server replaces the computed backoff.
 */
export interface RetryPolicy {
  /** Every try, the first included; 1 never retries. Defaults to 4. */
  maxAttempts?: number;
  /** The wait before the first retry, doubled per retry and jittered down to half. Defaults to 200 ms. */
  minBackoffMs?: number;
  /** Caps the computed wait. Defaults to 5 s. */
  maxBackoffMs?: number;
  /** A Retry-After longer than this is not waited for: the error is thrown. Defaults to 60 s. */
  maxRetryAfterMs?: number;
}

/** Options of a ZaxyClient. */
export interface ZaxyClientOptions {
  /** The server, e.g. http://127.0.0.1:8080. */
  url: string;
  /** The bearer token (zx_...); none when the server runs without auth. */
  token?: string;
  retry?: RetryPolicy;
  /** Continues another client's session: its consistencyToken. */
  consistencyToken?: string;
  /** The fetch to send with; globalThis.fetch by default. */
  fetch?: (request: Request) => Promise<Response>;
  /** Waits between retries; tests replace it. */
  sleep?: (ms: number) => Promise<void>;
  userAgent?: string;
}

/** Options of a call. */
export interface CallOptions {
  signal?: AbortSignal;
}

/** Options of an append. */
export interface AppendOptions extends CallOptions {
  /** Makes the append safe to repeat: it is retried, and a repeat answers the original receipts (replayed true). */
  idempotencyKey?: string;
}

/** The POSTs under /v1/spaces/{space} that only read, and so are safe to repeat (the server may sit under a path prefix). */
const READ_POSTS = /\/v1\/spaces\/[^/]+\/(checkout|query|cypher|context\/assemble|handoff|feeling-of-knowing|weave|prospective|actions\/(simulate-forward|reflect-backward|retrieve-procedure-prior|retrieve-failure-prior|query-causal-neighborhood))$/;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * ZaxyClient is a client of one Zaxy server and one session: the consistency token a write
 * answers is sent with every later request, so its reads see its own writes even when a
 * standby answers them (docs/scaling.md). `api` is the client generated from
 * api/openapi.json, typed for every operation; it shares the session, the retries and the
 * token. Every method throws ZaxyError for an answer other than 2xx.
 */
export class ZaxyClient {
  /** The generated client (openapi-fetch over the document's paths), for every operation. */
  readonly api: FetchClient<paths>;
  readonly #consistency: Consistency;
  readonly #retry: Required<RetryPolicy>;
  readonly #fetch: (request: Request) => Promise<Response>;
  readonly #sleep: (ms: number) => Promise<void>;

  constructor(options: ZaxyClientOptions) {
    if (!options.url) throw new Error("zaxy: url is required (ZAXY_URL)");
    this.#consistency = new Consistency(options.consistencyToken);
    this.#retry = {
      maxAttempts: options.retry?.maxAttempts ?? 4,
      minBackoffMs: options.retry?.minBackoffMs ?? 200,
      maxBackoffMs: options.retry?.maxBackoffMs ?? 5000,
      maxRetryAfterMs: options.retry?.maxRetryAfterMs ?? 60_000,
    };
    this.#fetch = options.fetch ?? ((r) => globalThis.fetch(r));
    this.#sleep = options.sleep ?? sleep;
    const headers: Record<string, string> = { "User-Agent": options.userAgent ?? "zaxy-typescript/0.1" };
    if (options.token) headers["Authorization"] = `Bearer ${options.token}`;
    this.api = createClient<paths>({
      baseUrl: options.url.replace(/\/+$/, ""),
      headers,
      fetch: (request) => this.#send(request),
    });
  }

  /** A client of ZAXY_URL with the bearer token ZAXY_TOKEN (unset when the server runs without auth). */
  static fromEnv(env: Record<string, string | undefined> = process.env, options: Partial<ZaxyClientOptions> = {}): ZaxyClient {
    const url = env["ZAXY_URL"];
    if (!url) throw new Error("zaxy: ZAXY_URL is not set (e.g. http://127.0.0.1:8080)");
    const token = env["ZAXY_TOKEN"];
    return new ZaxyClient({ ...options, url, ...(token ? { token } : {}) });
  }

  /** The latest consistency token a write answered ("" before any); another process continuing this session passes it as consistencyToken. */
  get consistencyToken(): string {
    return this.#consistency.token;
  }

  /** Sends request: the session's token on, retried when safe, the answer's token kept. */
  async #send(request: Request): Promise<Response> {
    const path = new URL(request.url).pathname;
    const safe = request.method === "GET" || request.headers.has("Idempotency-Key") ||
      (request.method === "POST" && READ_POSTS.test(path));
    for (let attempt = 1; ; attempt++) {
      const req = request.clone();
      const token = this.#consistency.token;
      if (token) req.headers.set(CONSISTENCY_HEADER, token);
      let response: Response;
      try {
        response = await this.#fetch(req);
      } catch (cause) {
        if (request.signal.aborted || !safe || attempt >= this.#retry.maxAttempts) {
          throw new ZaxyError({ status: 0, code: "unreachable", message: `${request.method} ${path}: ${String(cause)}`, cause });
        }
        await this.#sleep(this.#backoff(attempt));
        continue;
      }
      this.#consistency.observe(response.headers.get(CONSISTENCY_HEADER));
      if (!safe || attempt >= this.#retry.maxAttempts || (response.status !== 429 && response.status !== 503)) {
        return response;
      }
      const retryAfter = ZaxyError.fromAnswer(response, null).retryAfterMs;
      if (retryAfter !== undefined && retryAfter > this.#retry.maxRetryAfterMs) return response;
      await response.body?.cancel();
      await this.#sleep(retryAfter ?? this.#backoff(attempt));
    }
  }

  #backoff(attempt: number): number {
    const d = Math.min(this.#retry.minBackoffMs * 2 ** (attempt - 1), this.#retry.maxBackoffMs);
    return d / 2 + Math.random() * (d / 2);
  }

  /** Appends events to space, all or nothing (appendEvents, scope write). */
  async append(space: string, events: NewEvent | NewEvent[], options: AppendOptions = {}): Promise<AppendResult> {
    const headers: Record<string, string> = {};
    if (options.idempotencyKey) headers["Idempotency-Key"] = options.idempotencyKey;
    const body = { events: Array.isArray(events) ? events : [events] };
    return unwrap<AppendResult>(await this.api.POST("/v1/spaces/{space}/events", {
      params: { path: { space } }, body: body as never, headers, signal: options.signal,
    }));
  }

  /** One page of space's log in seq order (replayEvents, scope read). */
  async replay(space: string, params: ReplayParams = {}, options: CallOptions = {}): Promise<ReplayPage> {
    return unwrap<ReplayPage>(await this.api.GET("/v1/spaces/{space}/events", {
      params: { path: { space }, query: params as never }, signal: options.signal,
    }));
  }

  /** Every event of space matching params, page after page. */
  async *replayAll(space: string, params: ReplayParams = {}, options: CallOptions = {}): AsyncGenerator<Event> {
    let after = params.after_seq;
    for (;;) {
      const page = await this.replay(space, { ...params, ...(after !== undefined ? { after_seq: after } : {}) }, options);
      yield* page.events;
      if (!page.next_after_seq) return;
      after = page.next_after_seq;
    }
  }

  /** A cited, token-budgeted packet of memory (checkout, scope read). */
  async checkout(space: string, request: CheckoutRequest | string, options: CallOptions = {}): Promise<Packet> {
    const body = typeof request === "string" ? { query: request } : request;
    return unwrap<Packet>(await this.api.POST("/v1/spaces/{space}/checkout", {
      params: { path: { space } }, body: body as never, signal: options.signal,
    }));
  }

  /** The temporal graph's facts (listFacts, scope read). */
  async facts(space: string, params: FactsParams = {}, options: CallOptions = {}): Promise<FactsResult> {
    return unwrap<FactsResult>(await this.api.GET("/v1/spaces/{space}/facts", {
      params: { path: { space }, query: params as never }, signal: options.signal,
    }));
  }

  /** Recomputes space's hash chain (verifyChain, scope read): method "go" (the default) or "sql". */
  async verify(space: string, method?: "go" | "sql", options: CallOptions = {}): Promise<VerifyResult> {
    return unwrap<VerifyResult>(await this.api.GET("/v1/spaces/{space}/verify", {
      params: { path: { space }, query: (method ? { method } : {}) as never }, signal: options.signal,
    }));
  }

  /** How far the projector has applied space's log (getProjection, scope read). */
  async projection(space: string, options: CallOptions = {}): Promise<ProjectionStatus> {
    return unwrap<ProjectionStatus>(await this.api.GET("/v1/spaces/{space}/projection", {
      params: { path: { space } }, signal: options.signal,
    }));
  }

  /** Waits until the projector has applied space's log up to seq (its head when omitted), polling every pollMs; abort it with signal. */
  async waitProjected(space: string, seq?: number, options: CallOptions & { pollMs?: number } = {}): Promise<ProjectionStatus> {
    for (;;) {
      const st = await this.projection(space, options);
      if (st.projected_seq >= (seq ?? st.head_seq)) return st;
      options.signal?.throwIfAborted();
      await this.#sleep(options.pollMs ?? 50);
    }
  }
}

/** The data of an openapi-fetch answer, or its error as a ZaxyError. */
function unwrap<T>(result: { data?: unknown; error?: unknown; response: Response }): T {
  if (!result.response.ok) throw ZaxyError.fromAnswer(result.response, result.error ?? null);
  return result.data as T;
}

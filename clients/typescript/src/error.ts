/**
 * ZaxyError is every failed call: an answer other than 2xx, or a server that could not be
 * reached. `status` is the HTTP status (0 when no answer came); `code` the server's snake_case
 * error code (invalid_request, space_not_found, too_many_requests, ...; docs/api.md),
 * `http_<status>` for an answer without the error body, or `unreachable`; `details` holds what
 * the code adds, e.g. `details.field` for invalid_request.
 */
export class ZaxyError extends Error {
  override readonly name = "ZaxyError";
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown>;
  /** The answer's X-Request-Id, to quote in a bug report ("" when none). */
  readonly requestId: string;
  /** The Retry-After the server asked for, in milliseconds (429, 503); undefined when none. */
  readonly retryAfterMs: number | undefined;

  constructor(init: {
    status: number;
    code: string;
    message: string;
    details?: Record<string, unknown>;
    requestId?: string;
    retryAfterMs?: number;
    cause?: unknown;
  }) {
    super(`zaxy: ${init.status} ${init.code}: ${init.message}`, { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.details = init.details ?? {};
    this.requestId = init.requestId ?? "";
    this.retryAfterMs = init.retryAfterMs;
  }

  /** The field an invalid_request names (details.field), if any. */
  get field(): string | undefined {
    const f = this.details["field"];
    return typeof f === "string" ? f : undefined;
  }

  /** The error of a non-2xx answer whose body was already read as body (parsed JSON or text). */
  static fromAnswer(response: Response, body: unknown): ZaxyError {
    const requestId = response.headers.get("X-Request-Id") ?? "";
    const retryAfterMs = parseRetryAfter(response.headers.get("Retry-After"));
    const e = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | null)?.error;
    if (e && typeof e.code === "string" && e.code !== "") {
      const details = e.details && typeof e.details === "object" ? (e.details as Record<string, unknown>) : {};
      return new ZaxyError({
        status: response.status, code: e.code, message: String(e.message ?? ""), details, requestId, retryAfterMs,
      });
    }
    const text = typeof body === "string" ? body.trim() : body == null ? "" : JSON.stringify(body);
    return new ZaxyError({
      status: response.status, code: `http_${response.status}`, message: text || response.statusText || `HTTP ${response.status}`,
      requestId, retryAfterMs,
    });
  }
}

/** A Retry-After header in milliseconds: delay seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value == null || value.trim() === "") return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const t = Date.parse(v);
  if (Number.isNaN(t)) return undefined;
  return Math.max(0, t - now);
}

// The console's only door to data: the /v1 JSON API, called with the bearer token kept in
// sessionStorage and sent in the Authorization header (never in a URL).

const tokenKey = 'zaxy.console.token';

/** The token typed into the console for this browser session ('' when none). */
export function token() { return sessionStorage.getItem(tokenKey) || ''; }

/** Keeps t for this browser session; an empty t forgets it. */
export function setToken(t) {
  if (t) sessionStorage.setItem(tokenKey, t); else sessionStorage.removeItem(tokenKey);
}

/** An API error: the HTTP status and the API's {error:{code,message,details}} body. */
export class APIError extends Error {
  constructor(status, body, text) {
    const e = (body && body.error) || {};
    super(e.message || text || `HTTP ${status}`);
    this.status = status;
    this.code = e.code || '';
    this.details = e.details || {};
  }
}

/** Calls the API: method, path (starting /v1), an optional JSON body and query parameters. */
export async function api(method, path, body, query) {
  const headers = { Accept: 'application/json' };
  const t = token();
  if (t) headers.Authorization = 'Bearer ' + t;
  const init = { method, headers, credentials: 'omit', cache: 'no-store', referrerPolicy: 'no-referrer' };
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let url = path;
  if (query) {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
    const s = q.toString();
    if (s) url += '?' + s;
  }
  const resp = await fetch(url, init);
  const text = await resp.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (!resp.ok) throw new APIError(resp.status, data, text);
  return data;
}

/** The path of an operation on space: /v1/spaces/{space}{rest}. */
export function spacePath(space, rest) { return '/v1/spaces/' + encodeURIComponent(space) + rest; }

/** The path of an item (ev:<seq>, fact:<id>, an entity id) of space. */
export function itemPath(space, id) { return spacePath(space, '/items/' + encodeURIComponent(id)); }

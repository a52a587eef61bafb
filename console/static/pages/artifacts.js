// Latent artifacts: derived, non-authoritative material (summaries, latent models) with the
// events they came from, whether they are stale and the weaves that used them. The artifacts
// API is planned at GET /v1/spaces/{space}/artifacts; a server without it answers 404
// route_not_found, and the page says so instead of failing.
import { api, APIError, spacePath } from '../api.js';
import { h, mount, cite, fmtTime, labels, kv, jsonBlock } from '../dom.js';

/** The planned route of the artifacts API under a space. */
export const artifactsRoute = '/artifacts';

/** Lists the space's artifacts: {available: false} when the server has no artifacts API yet. */
export async function fetchArtifacts(space, query) {
  try {
    return { available: true, body: await api('GET', spacePath(space, artifactsRoute), undefined, query) };
  } catch (e) {
    if (e instanceof APIError && e.status === 404 && e.code === 'route_not_found') return { available: false };
    throw e;
  }
}

export async function render(root, { space }) {
  const res = await fetchArtifacts(space);
  if (!res.available) {
    mount(root, h('h1', { text: 'Artifacts' }), h('div', { class: 'notice', id: 'artifacts-missing' },
      h('p', {}, h('strong', { text: 'No artifacts endpoint on this server yet.' })),
      h('p', { text: `GET /v1/spaces/${space}${artifactsRoute} answered 404 route_not_found. Latent artifacts are derived and never authoritative; this page lists them, with their sources, staleness and the weaves that used them, once the server has the artifacts API (docs/console.md).` })));
    return;
  }
  const list = res.body.artifacts || [];
  mount(root, h('h1', { text: 'Artifacts' }),
    list.length ? list.map((a) => h('section', { class: 'card artifact', 'data-artifact': a.id },
      h('h2', {}, a.id || 'artifact', ' ', labels([a.kind].filter(Boolean), 'type'), a.stale ? h('span', { class: 'badge label', text: 'stale' }) : h('span', { class: 'badge ok', text: 'fresh' })),
      kv([
        ['built', fmtTime(a.built_at || a.created_at)],
        ['sources', h('span', {}, (a.sources || []).map((s) => [cite(space, s.seq, s.hash), ' ']))],
        ['used by weaves', h('span', {}, (a.weaves || []).map((w) => [typeof w === 'object' ? (w.seq ? cite(space, w.seq, w.hash) : JSON.stringify(w)) : String(w), ' ']))],
      ]),
      h('details', {}, h('summary', { text: 'raw' }), jsonBlock(a))))
      : h('p', { class: 'muted', text: 'No artifacts in this space.' }));
}

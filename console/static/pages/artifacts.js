// Latent artifacts: derived, non-authoritative material (episodes, procedures, failures,
// preferences, causal links) with the events they cite, the entities they cover, whether they
// are stale and the checkouts whose memory weave used them, from
// GET /v1/spaces/{space}/artifacts (docs/api.md, "Latent artifacts").
import { api, spacePath, itemPath } from '../api.js';
import { h, mount, cite, fmtTime, labels, kv, num, route, jsonBlock } from '../dom.js';

/** The route of the artifacts API under a space. */
export const artifactsRoute = '/artifacts';

/** The artifact types the API filters on (type=). */
const artifactTypes = ['episode', 'procedure', 'failure', 'preference', 'causal'];

/** Lists a page of the space's artifacts: query takes type, entity, include_stale, after, limit. */
export function fetchArtifacts(space, query) {
  return api('GET', spacePath(space, artifactsRoute), undefined, query);
}

export async function render(root, { space, params, go }) {
  const type = artifactTypes.includes(params.type) ? params.type : '';
  const stale = params.stale === '1';
  const filter = h('form', { class: 'inline', onsubmit: (ev) => ev.preventDefault() },
    h('label', {}, 'type', h('select', { name: 'type', onchange: (ev) => go('artifacts', { type: ev.target.value, stale: stale ? '1' : '', entity: params.entity }) },
      h('option', { value: '', text: 'all', selected: type === '' }),
      artifactTypes.map((t) => h('option', { value: t, text: t, selected: t === type })))),
    h('label', {}, 'include stale', h('input', { type: 'checkbox', name: 'stale', checked: stale,
      onchange: (ev) => go('artifacts', { type, stale: ev.target.checked ? '1' : '', entity: params.entity }) })),
    params.entity ? h('span', { class: 'muted' }, 'covering entity ', h('span', { class: 'mono', text: params.entity }), ' ',
      h('a', { href: route('artifacts', { space, type, stale: stale ? '1' : '' }), text: '(any entity)' })) : null);
  const list = h('div', { id: 'artifacts' });
  mount(root, h('h1', { text: 'Artifacts' }),
    h('p', { class: 'muted', text: 'Derived from the log, never authoritative: only the events an artifact cites authorise a claim.' }),
    filter, list);
  const page = await fetchArtifacts(space, { type, entity: params.entity, include_stale: stale ? 'true' : '', after: params.after, limit: 50 });
  if (!page.artifacts.length) { mount(list, h('p', { class: 'muted', text: 'No artifacts in this space' + (type ? ' of type ' + type : '') + '.' })); return; }
  const names = await entityNames(space, page.artifacts.flatMap((a) => a.entity_refs));
  const summaries = new Map(page.artifacts.map((a) => [a.artifact_id, a.summary]));
  mount(list, page.artifacts.map((a) => card(space, a, names, summaries)),
    page.next_after ? h('p', {}, h('a', { id: 'artifacts-next', href: route('artifacts', { space, type, stale: stale ? '1' : '', entity: params.entity, after: page.next_after }), text: 'Next page' })) : null);
}

/**
 * The names of entity ids: the index's entities (one GET /index), then each id it left out
 * through GET /items/{id}, at most 40; an id neither names stays an id.
 */
export async function entityNames(space, ids) {
  const names = new Map();
  const want = [...new Set(ids)];
  if (!want.length) return names;
  try {
    const idx = await api('GET', spacePath(space, '/index'), undefined, { max_tokens: 20000 });
    for (const e of idx.entities || []) names.set(e.ref, e.name);
  } catch { /* names stay ids */ }
  await Promise.all(want.filter((id) => !names.has(id)).slice(0, 40).map(async (id) => {
    try {
      const it = await api('GET', itemPath(space, id));
      if (it.entity) names.set(id, it.entity.name);
    } catch { /* an id no longer in memory stays an id */ }
  }));
  return names;
}

/**
 * One artifact as a card: what it is, what it cites and covers, its status and its weaves. The
 * version it supersedes is named by its summary when the page holds it (include stale), else
 * called an earlier version, its id in the tooltip.
 */
function card(space, a, names, summaries) {
  return h('section', { class: 'card artifact', 'data-artifact': a.artifact_id },
    h('h2', {}, labels([a.artifact_type], 'type'), ' ', h('span', { class: 'mono', title: a.artifact_id, text: a.artifact_id.slice(0, 12) }), ' ',
      a.stale_at ? h('span', { class: 'badge label', text: 'stale: ' + a.stale_reason }) : h('span', { class: 'badge ok', text: 'current' })),
    h('p', { class: 'artifact-summary', text: a.summary }),
    kv([
      ['confidence', num(a.confidence)],
      ['method', a.method],
      ['review', a.review_status + ', ' + a.authority_status.replace('_', '-')],
      (a.valid_from || a.valid_to) ? ['valid', fmtTime(a.valid_from) + ' – ' + (a.valid_to ? fmtTime(a.valid_to) : 'open')] : null,
      a.stale_at ? ['stale since', h('span', {}, fmtTime(a.stale_at), ' (', a.stale_reason, a.stale_seq ? [' by ', cite(space, a.stale_seq)] : [], ')')] : null,
      a.supersedes ? ['supersedes', summaries.has(a.supersedes)
        ? h('span', { class: 'superseded', title: a.supersedes, text: summaries.get(a.supersedes) })
        : h('span', { class: 'superseded muted', title: a.supersedes, text: 'an earlier version (include stale to see it)' })] : null,
      ['cites', h('span', {}, a.source_event_refs.map((s) => [cite(space, s.seq, s.hash), ' ']))],
      a.entity_refs.length ? ['covers', h('span', {}, a.entity_refs.map((id) => [names.has(id)
        ? h('a', { class: 'entity-name', href: route('graph', { space, entity: id }), title: id, text: names.get(id) })
        : h('a', { class: 'mono', href: route('graph', { space, entity: id }), text: id }), ' ']))] : null,
      ['used by weaves', a.weaves.length ? h('span', {}, a.weaves.map((seq) => [cite(space, seq), ' '])) : h('span', { class: 'muted', text: 'none yet' })],
    ]),
    h('details', {}, h('summary', { text: 'raw' }), jsonBlock(a)));
}

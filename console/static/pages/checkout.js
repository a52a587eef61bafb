// Checkout inspector: runs the same checkout an agent would (POST /checkout) and the ranked
// candidates behind it (POST /query), both with no_record so that inspecting never counts as
// use, and shows every lane's candidates with their score components, salience, what was packed
// and what was elided and why, the rendered packet and the retrieval policy.
import { api, spacePath, itemPath } from '../api.js';
import { h, mount, kv, num, labels, cite, table, jsonBlock, errorBox, fmtTime } from '../dom.js';
import { itemText } from './checkouts.js';

export async function render(root, { space, params, go }) {
  const profile = params.profile || '';
  const form = h('form', { class: 'inline', id: 'checkout-form', onsubmit: (ev) => {
    ev.preventDefault();
    const f = form.elements;
    go('checkout', { q: f.q.value, max_tokens: f.max_tokens.value, session: f.session.value.trim(), cues: f.cues.value.trim(), profile: f.profile.value, attenuated: f.attenuated.checked ? '1' : '' });
  } },
  h('label', {}, 'query', h('input', { type: 'text', name: 'q', class: 'wide', value: params.q || '', placeholder: 'what should the agent remember?' })),
  h('label', {}, 'max tokens', h('input', { type: 'number', name: 'max_tokens', min: 1, value: params.max_tokens || 1000 })),
  h('label', {}, 'session', h('input', { type: 'text', name: 'session', value: params.session || '' })),
  h('label', {}, 'cues', h('input', { type: 'text', name: 'cues', value: params.cues || '', placeholder: '{"repo": "billing", "phase": "debug"}' })),
  h('label', {}, 'retrieval profile', h('select', { name: 'profile' },
    h('option', { value: '', text: 'default', selected: profile === '' }), h('option', { value: 'plain', text: 'plain', selected: profile === 'plain' }))),
  h('label', {}, 'include attenuated', h('input', { type: 'checkbox', name: 'attenuated', checked: params.attenuated === '1' })),
  h('button', { type: 'submit', text: 'Check out' }));
  const out = h('div', { id: 'checkout-result' });
  mount(root, h('h1', { text: 'Checkout inspector' }), form, out);
  if (!params.q) { mount(out, h('p', { class: 'muted', text: 'Type a query. The inspector asks with no_record, so looking does not reinforce anything.' })); return; }

  const body = { query: params.q, max_tokens: Number(params.max_tokens || 1000), no_record: true };
  if (params.session) body.session_id = params.session;
  if (params.cues) {
    let cues;
    try { cues = JSON.parse(params.cues); } catch { cues = null; }
    if (!cues || typeof cues !== 'object' || Array.isArray(cues)) {
      mount(out, h('p', { class: 'badge bad', id: 'cues-error', text: 'cues must be a JSON object of strings, e.g. {"repo": "billing"}' }));
      return;
    }
    body.cues = cues;
  }
  const query = { retrieval_profile: profile, include_attenuated: params.attenuated === '1' ? 'true' : '' };
  const [packet, ranked] = await Promise.all([
    api('POST', spacePath(space, '/checkout'), body, query),
    api('POST', spacePath(space, '/query'), { ...body, limit: 100 }, query),
  ]);
  const packed = new Map();
  for (const t of packet.tiers) for (const it of t.items) packed.set(it.item_id, t.name);
  const elided = new Map(packet.budget.elided.map((e) => [e.item_id, e]));
  // The elided items by what they say: their text from the ranked list when they are among its
  // 100, else read from GET /items/{id} (at most 40).
  const rankedText = new Map(ranked.items.map((it) => [it.item_id, it.text.length > 200 ? it.text.slice(0, 200) + '…' : it.text]));
  const unread = packet.budget.elided.map((e) => e.item_id).filter((id) => !rankedText.has(id)).slice(0, 40);
  for (const [i, t] of (await Promise.all(unread.map((id) => itemText(space, id)))).entries()) rankedText.set(unread[i], t);
  const detail = h('div', { id: 'candidate-detail' });
  const show = (id) => showItem(detail, space, id);
  const d = packet.diagnostics;

  mount(out,
    h('section', { class: 'card' }, kv([
      ['policy version', h('span', { id: 'policy-version', text: d.policy_version || '—' })],
      ['retrieval profile', profile || 'salience (default)'],
      ['purpose', packet.purpose + (packet.purpose_inferred ? ' (inferred)' : '')],
      ['as of', fmtTime(packet.as_of)],
      ['budget', `${packet.budget.used} of ${packet.budget.requested} tokens used; ${packet.budget.elided.length} elided`],
      ['candidates', num(d.candidates, 0)], ['projection lag', num(d.projection_lag, 0)],
      ['stable prefix', num(d.stable_prefix_bytes, 0) + ' bytes'], ['total', num(d.total_ms, 1) + ' ms'],
      d.salience ? ['salience', `${d.salience.attenuated} attenuated candidates left out` + (d.salience.include_attenuated ? ' (included: include_attenuated)' : '')] : ['salience', 'not applied (plain profile)'],
    ])),
    packet.warnings.length ? h('section', { class: 'card' }, h('h2', { text: 'Warnings' }), h('ul', {}, packet.warnings.map((w) => h('li', {}, h('span', { class: 'badge label', text: w.code }), ' ' + w.message, ' ', (w.citations || []).map((c) => cite(space, c.seq, c.hash)))))) : null,
    h('h2', { text: 'Packed' }),
    table(['ref', 'tier', 'item', 'kind', 'text', 'score', 'components', 'salience', 'labels', 'citations'],
      packet.tiers.flatMap((t) => t.items.map((it) => [it.ref ? '[' + it.ref + ']' : '', t.name, itemLink(it.item_id, show), it.kind, it.text, num(it.score, 4),
        components(it.components), salience(it.salience), labelsOf(it.labels), it.citations.map((c) => [cite(space, c.seq, c.hash), ' '])])),
      { class: 'packed', rowAttrs: (i) => ({ 'data-item-id': packet.tiers.flatMap((t) => t.items)[i].item_id }) }),
    h('h2', { text: 'Elided' }),
    packet.budget.elided.length ? table(['item', 'text', 'tokens', 'reason'], packet.budget.elided.map((e) => [itemLink(e.item_id, show),
      rankedText.has(e.item_id) ? rankedText.get(e.item_id) : h('span', { class: 'muted', text: 'open the item' }), num(e.tokens, 0), e.reason]), { class: 'elided' })
      : h('p', { class: 'muted', text: 'Nothing was elided.' }),
    h('h2', { text: 'Lanes' }),
    h('div', { class: 'lanes' }, Object.entries(d.lanes).sort(([a], [b]) => a.localeCompare(b)).map(([lane, st]) => {
      const cands = ranked.items.filter((it) => it.components && it.components[lane]).sort((a, b) => a.components[lane].rank - b.components[lane].rank);
      return h('section', { class: 'card lane', 'data-lane': lane },
        h('h3', {}, lane, ' ', h('span', { class: 'muted', text: st.off ? 'off' : `${st.count} candidates, ${num(st.ms, 1)} ms` }), st.error ? h('span', { class: 'badge bad', text: st.error }) : null),
        cands.length ? table(['rank', 'item', 'lane score', 'weight', 'fused', 'salience', 'fate'], cands.map((it) => {
          const c = it.components[lane];
          const fate = packed.has(it.item_id) ? h('span', { class: 'badge packed', text: 'packed (' + packed.get(it.item_id) + ')' })
            : elided.has(it.item_id) ? h('span', { class: 'badge elided', title: elided.get(it.item_id).reason, text: 'elided' }) : h('span', { class: 'muted', text: 'not reached' });
          return [num(c.rank, 0), itemLink(it.item_id, show), num(c.score, 4), num(c.weight, 3), num(it.score, 4), it.salience ? num(it.salience.multiplier, 3) : '—', fate];
        })) : h('p', { class: 'muted', text: 'No candidates in the top ' + ranked.items.length + '.' }));
    })),
    detail,
    h('h2', { text: 'Rendered packet' }),
    h('pre', { id: 'packet-text', text: packet.text }));
}

function itemLink(id, show) { return h('a', { href: '#', class: 'mono', 'data-item': id, text: id, onclick: (ev) => { ev.preventDefault(); show(id); } }); }

function components(cs) {
  if (!cs) return '';
  return h('span', { class: 'mono' }, Object.entries(cs).sort(([a], [b]) => a.localeCompare(b)).map(([lane, c]) => h('div', { text: `${lane} #${c.rank} ×${num(c.weight, 2)} = ${num(c.score, 4)}` })));
}

function salience(s) {
  if (!s) return '—';
  return h('span', { class: 'mono', title: s.last_use_at ? 'last use ' + s.last_use_at : '' }, `${num(s.value, 3)} → ×${num(s.multiplier, 3)}`, h('div', { class: 'muted', text: `base ${num(s.base, 2)} · reinf ${num(s.reinforcement, 2)} · decay ${num(s.decay, 2)}` }));
}

function labelsOf(l) {
  const out = [l.authority];
  for (const k of ['review_status']) if (l[k]) out.push(l[k]);
  for (const k of ['inferred', 'stale', 'attenuated', 'superseded']) if (l[k]) out.push(k);
  if (l.attenuated_by) out.push('by ' + l.attenuated_by);
  return labels(out);
}

/** Shows a candidate in full: an event with its content, data and cues; a fact with its history. */
async function showItem(root, space, id) {
  mount(root, h('p', { class: 'muted', text: 'Loading ' + id + '…' }));
  try {
    const it = await api('GET', itemPath(space, id));
    const e = it.event;
    mount(root, h('section', { class: 'card', 'data-detail': it.id },
      h('h2', { text: it.id }),
      e ? kv([['type', e.type], ['actor', e.actor || '—'], ['session', e.session_id || '—'], ['occurred', fmtTime(e.occurred_at)],
        ['cues', e.cues && Object.keys(e.cues).length ? kv(Object.entries(e.cues).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])) : 'none']]) : null,
      e && e.data && Object.keys(e.data).length ? jsonBlock(e.data) : null,
      h('pre', { text: it.text })));
  } catch (err) {
    mount(root, errorBox(err));
  }
}

// Memory actions: runs one of the reading memory actions as a dry run (no_record: nothing is
// appended) and shows what an agent would get, with each result's diagnostics: the confidence
// the producer gave and the one in force (a revision cites its event), review and authority
// status, why it ranked and its score, risks and evidence needs, and the events it cites.
//   procedure  POST /actions/retrieve-procedure-prior  {goal, tools}
//   failure    POST /actions/retrieve-failure-prior    {goal, tools}
//   simulate   POST /actions/simulate-forward          {goal, steps}
//   neighbors  POST /actions/query-causal-neighborhood {tool | entity}
//   reflect    POST /actions/reflect-backward          {session_id}
// The form's fields are the page's parameters, so a result has a link (docs/console.md).
import { api, spacePath } from '../api.js';
import { h, mount, cite, kv, num, table, labels, jsonBlock } from '../dom.js';

/** The actions the page runs: label, route under the space, and which fields they take. */
export const memoryActions = {
  procedure: { label: 'procedure prior', path: '/actions/retrieve-procedure-prior', fields: ['goal', 'tools'] },
  failure: { label: 'failure prior', path: '/actions/retrieve-failure-prior', fields: ['goal', 'tools'] },
  simulate: { label: 'simulate a plan forward', path: '/actions/simulate-forward', fields: ['goal', 'steps'] },
  neighbors: { label: 'causal neighbourhood', path: '/actions/query-causal-neighborhood', fields: ['tool', 'entity'] },
  reflect: { label: 'reflect on a session', path: '/actions/reflect-backward', fields: ['session'] },
};

/** A plan step as people count it: the API's 0-based step plus one, "whole plan" for -1. */
function stepLabel(i) { return i < 0 ? 'whole plan' : String(i + 1); }

/** A comma-separated field as a list of its non-empty trimmed parts. */
function list(s) { return String(s || '').split(',').map((x) => x.trim()).filter(Boolean); }

/** The request body of action for the page's params; a dry run always. */
export function actionBody(action, p) {
  switch (action) {
    case 'procedure': case 'failure': return { goal: p.goal || undefined, tools: list(p.tools).length ? list(p.tools) : undefined, no_record: true };
    case 'simulate': return { goal: p.goal || undefined, steps: list(p.steps), no_record: true };
    case 'neighbors': return { tool: p.tool || undefined, entity: p.entity || undefined, no_record: true };
    case 'reflect': return { session_id: p.session || '', no_record: true };
  }
  return {};
}

export async function render(root, { space, params, go }) {
  const action = memoryActions[params.action] ? params.action : 'failure';
  const spec = memoryActions[action];
  const field = (name, placeholder) => h('label', {}, name,
    h('input', { name, value: params[name] || '', placeholder, size: 28 }));
  const placeholders = { goal: 'deploy the site', tools: 'go test, go vet', steps: 'edit, go test, deploy', tool: 'go test', entity: 'entity id or name', session: 'session id' };
  const form = h('form', { id: 'memory-form', class: 'inline', onsubmit: (ev) => {
    ev.preventDefault();
    const fd = new FormData(ev.target);
    const next = { action: fd.get('action') };
    for (const f of memoryActions[next.action].fields) next[f] = fd.get(f) || '';
    next.run = '1';
    go('memory', next);
  } },
  h('label', {}, 'action', h('select', { name: 'action', onchange: (ev) => go('memory', { action: ev.target.value }) },
    Object.entries(memoryActions).map(([k, a]) => h('option', { value: k, text: a.label, selected: k === action })))),
  spec.fields.map((f) => field(f, placeholders[f])),
  h('button', { type: 'submit', text: 'Run (dry run)' }));
  const out = h('div', { id: 'memory-result' });
  mount(root, h('h1', { text: 'Memory actions' }),
    h('p', { class: 'muted', text: 'What an agent calling a memory action would get, with the diagnostics behind each answer. A dry run: nothing is appended to the log.' }),
    form, out);
  if (params.run !== '1') return;
  const res = await api('POST', spacePath(space, spec.path), actionBody(action, params));
  mount(out, result(space, res), h('details', {}, h('summary', { text: 'raw' }), jsonBlock(res)));
}

/** The citations of refs, each a link to its event. */
function cites(space, refs) { return h('span', {}, (refs || []).map((r) => [cite(space, r.seq, r.hash), ' '])); }

/** A response as sections by what it holds; its use is the sentence agents are told. */
function result(space, res) {
  return h('section', { class: 'memory-action', 'data-action': res.action },
    h('p', {}, h('strong', { text: res.action }), ' ', h('span', { class: 'muted', text: res.use || '' })),
    res.priors ? artifacts(space, 'Priors', res.priors) : null,
    res.procedures ? artifacts(space, 'Procedures', res.procedures) : null,
    res.risks ? risks(space, res.risks) : null,
    res.evidence_needs && res.evidence_needs.length ? h('div', {}, h('h2', { text: 'Evidence needed' }),
      table(['step', 'need', 'cites'], res.evidence_needs.map((n) => [stepLabel(n.step), n.need, cites(space, n.source_event_refs)]))) : null,
    res.links ? links(space, res.links) : null,
    res.outcome ? reflection(space, res) : null,
    res.known_unknowns && res.known_unknowns.length ? h('div', {}, h('h2', { text: 'Known unknowns' }),
      table(['event', 'question', 'context'], res.known_unknowns.map((k) => [cite(space, k.seq, k.hash), k.question, k.context || '']))) : null,
    res.warnings && res.warnings.length ? h('div', { class: 'notice' }, res.warnings.map((w) => h('p', { text: w }))) : null,
    h('p', {}, 'Cites ', cites(space, res.source_event_refs)));
}

/** Artifacts an action returned, one card each with its diagnostics. */
function artifacts(space, title, list) {
  if (!list.length) return h('div', {}, h('h2', { text: title }), h('p', { class: 'muted', text: 'None: memory holds nothing that fits.' }));
  return h('div', {}, h('h2', { text: title }), list.map((a) => h('section', { class: 'card prior', 'data-artifact': a.artifact_id },
    h('h3', {}, labels([a.artifact_type], 'type'), ' ', h('span', { class: 'mono', title: a.artifact_id, text: a.artifact_id.slice(0, 12) })),
    h('p', { text: a.summary }),
    kv([
      ['confidence', h('span', { class: 'confidence' }, num(a.confidence),
        a.confidence_revision ? [' (revised from ', num(a.produced_confidence), ' by ', cite(space, a.confidence_revision.seq, a.confidence_revision.hash), ')']
          : a.produced_confidence !== a.confidence ? [' (produced ', num(a.produced_confidence), ')'] : [])],
      a.why ? ['why', a.why] : null,
      a.score ? ['score', num(a.score)] : null,
      ['review', a.review_status + ', ' + String(a.authority_status || '').replace('_', '-')],
      a.purpose_profile ? ['purpose', a.purpose_profile + (a.reasoning_phase ? ', ' + a.reasoning_phase : '')] : null,
      ['cites', cites(space, a.source_event_refs)],
    ]))));
}

/** A simulation's risks per step. */
function risks(space, list) {
  if (!list.length) return h('div', {}, h('h2', { text: 'Risks' }), h('p', { class: 'muted', text: 'No known risk on this plan.' }));
  return h('div', {}, h('h2', { text: 'Risks' }), table(['step', 'tool', 'kind', 'what went wrong', 'confidence', 'fix', 'cites'],
    list.map((r) => [stepLabel(r.step), r.tool, r.kind, r.summary, num(r.confidence), (r.fix || []).join(', '), cites(space, r.source_event_refs)]),
    { class: 'risks' }));
}

/** A causal neighbourhood's links: decision, cause, effect and fix. */
function links(space, list) {
  if (!list.length) return h('div', {}, h('h2', { text: 'Causal links' }), h('p', { class: 'muted', text: 'No causal link found.' }));
  return h('div', {}, h('h2', { text: 'Causal links' }), table(['decision', 'tool', 'error', 'cause', 'effect', 'fix', 'outcome'],
    list.map((l) => [l.decision, l.tool, l.error, cite(space, l.cause.seq, l.cause.hash), cite(space, l.effect.seq, l.effect.hash),
      l.fix ? cite(space, l.fix.seq, l.fix.hash) : '', l.outcome || '']), { class: 'links' }));
}

/** A session's reflection: what surfaced, which actions ran, the feedback and the outcome. */
function reflection(space, res) {
  return h('div', {}, h('h2', { text: 'Session ' + res.session_id }),
    kv([
      ['events', String(res.events)],
      ['outcome', h('span', {}, res.outcome.status, ': ', res.outcome.detail, res.outcome.basis ? [' ', cite(space, res.outcome.basis.seq, res.outcome.basis.hash)] : [])],
      ['surfaced', String((res.surfaced || []).length) + ' checkouts'],
      ['memory actions', (res.memory_actions || []).map((a) => a.action).join(', ') || 'none'],
      ['feedback', (res.feedback || []).map((f) => f.signal + (f.memory_action ? ' on ' + f.memory_action.action : '')).join(', ') || 'none'],
    ]),
    res.artifacts && res.artifacts.length ? artifacts(space, 'Artifacts of the session', res.artifacts) : null);
}

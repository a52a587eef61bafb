// An item's salience history (GET /items/{id}/salience): each reinforcing event of its ledger
// (surfacings, recalls, feedback, invalidations, pins, unpins, repetitions) as it happened,
// with the reinforcement, decay and salience it left, then the salience now; drawn as a small
// step chart against the space's floor and listed as a table.
import { api, itemPath } from '../api.js';
import { h, svg, cite, fmtTime, num } from '../dom.js';

/** The chart's size in SVG units. */
const W = 560, H = 120, PAD = 24;

/** A step chart of the values (oldest first, the last one now) against the floor. */
function chart(values, floor) {
  const top = Math.max(1, floor, ...values);
  const x = (i) => PAD + (values.length < 2 ? 0 : (i * (W - 2 * PAD)) / (values.length - 1));
  const y = (v) => H - PAD + 4 - (v / top) * (H - 2 * PAD);
  const pts = values.flatMap((v, i) => (i === 0 ? [[x(i), y(v)]] : [[x(i), y(values[i - 1])], [x(i), y(v)]]));
  return svg('svg', { class: 'salience-chart', viewBox: '0 0 ' + W + ' ' + H, role: 'img', 'aria-label': 'salience over the item\u2019s reinforcements' },
    svg('line', { x1: PAD, x2: W - PAD, y1: y(floor), y2: y(floor), stroke: '#b3261e', 'stroke-dasharray': '4 3' }),
    svg('text', { x: W - PAD, y: y(floor) - 3, 'text-anchor': 'end', fill: '#b3261e', 'font-size': 10 }, 'floor ' + num(floor)),
    svg('polyline', { points: pts.map((p) => p.join(',')).join(' '), fill: 'none', stroke: '#2457c5', 'stroke-width': 2 }),
    values.map((v, i) => svg('circle', { cx: x(i), cy: y(v), r: 3, fill: i === values.length - 1 ? '#1f7a3a' : '#2457c5' })),
    svg('text', { x: PAD, y: 12, 'font-size': 10, fill: '#6a7480' }, 'salience (max ' + num(top) + ')'));
}

/** The salience history card of item id ("ev:<seq>", "fact:<id>") of space. */
export async function salienceHistory(space, id) {
  const card = h('section', { class: 'card', id: 'salience-history' }, h('h3', { text: 'Salience over time' }));
  const hist = await api('GET', itemPath(space, id) + '/salience');
  if (!hist.in_memory) {
    card.append(h('p', { class: 'muted', text: 'Not a memory item (not projected yet, bookkeeping, or erased): it has no salience.' }));
    return card;
  }
  const steps = hist.steps || [];
  const first = { at: hist.occurred_at, signal: 'occurred', reinforcement: 1, decay: 1, value: Math.max(hist.base, 0), pinned: false };
  const all = [first, ...steps, { ...hist.now, signal: 'now' }];
  card.append(
    h('p', { class: 'muted', text: 'Base ' + num(hist.base) + ' (' + hist.authority + '), floor ' + num(hist.floor) + ', half-life ' + num(hist.half_life_days, 1) + ' days. ' +
      (hist.total > steps.length ? 'The latest ' + steps.length + ' of ' + hist.total + ' reinforcements.' : hist.total + ' reinforcement' + (hist.total === 1 ? '' : 's') + '.') }),
    chart(all.map((s) => s.value), hist.floor),
    h('div', { class: 'scroll-x' }, h('table', { class: 'salience-steps' },
      h('thead', {}, h('tr', {}, ['when', 'event', 'reinf.', 'decay', 'salience'].map((c, j) => h('th', { class: j >= 2 ? 'num' : null, title: c === 'reinf.' ? 'reinforcement multiplier' : null, text: c })))),
      h('tbody', {}, all.map((s) => h('tr', { 'data-signal': s.signal, 'data-seq': s.seq || null },
        h('td', { class: 'nowrap', text: fmtTime(s.at) }),
        h('td', {}, s.seq ? [cite(space, s.seq), ' '] : null, h('span', { class: 'badge' + (['wrong', 'outdated', 'unhelpful', 'invalidated'].includes(s.signal) ? ' bad' : s.signal === 'now' ? ' ok' : ''), text: s.signal }),
          s.pinned ? h('span', { class: 'badge label', text: 'pinned' }) : null, s.attenuated ? h('span', { class: 'badge bad', text: 'attenuated' }) : null),
        h('td', { class: 'num', text: num(s.reinforcement) }),
        h('td', { class: 'num', text: num(s.decay) }),
        h('td', { class: 'num', text: num(s.value) })))))));
  return card;
}

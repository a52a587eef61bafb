// Acting on memory: invalidate, pin, unpin, give feedback on or erase one event or fact version.
// Each action is one call of the public API that appends one event to the log:
//   invalidate  POST /events  memory.invalidated {target_seq | target_id, reason}
//   pin, unpin  POST /events  memory.pinned / memory.unpinned {target_seqs | item_ids, reason}
//   feedback    POST /events  feedback.recorded {target_seqs | item_ids, signal, comment}
//   erase       POST /erasures {seq, reason, actor}  (admin scope; events only)
// When the call lands, onLanded(seq, type) gets the appended event's seq, and the page shows it.
import { api, spacePath } from '../api.js';
import { h, mount, cite, errorBox } from '../dom.js';

const actorKey = 'zaxy.console.actor';

/** The actor actions are appended as (the "as" field, default "console"). */
export function actor() { return sessionStorage.getItem(actorKey) || sessionStorage.getItem('zaxy.console.reviewer') || 'console'; }

/** The feedback signals feedback.recorded accepts. */
export const signals = ['helpful', 'unhelpful', 'wrong', 'outdated'];

/**
 * The event an action appends, as the body of POST /events: target is {seq} (an event) or
 * {factId} (a fact version); the reason (or comment) is optional except for invalidate.
 */
export function actionEvent(action, target, who, reason, signal) {
  const bySeq = target.seq !== undefined;
  const items = bySeq ? { target_seqs: [Number(target.seq)] } : { item_ids: ['fact:' + target.factId] };
  const data = (() => {
    switch (action) {
      case 'invalidate': return bySeq ? { target_seq: Number(target.seq), reason } : { target_id: target.factId, reason };
      case 'pin': return { ...items, reason: reason || undefined };
      case 'unpin': return { ...items, reason: reason || undefined };
      case 'feedback': return { ...items, signal, comment: reason || undefined };
      default: throw new Error('unknown action ' + action);
    }
  })();
  const type = { invalidate: 'memory.invalidated', pin: 'memory.pinned', unpin: 'memory.unpinned', feedback: 'feedback.recorded' }[action];
  return { type, actor: who, data };
}

/**
 * A panel of actions on target ({seq} or {factId}); erased marks an event already erased.
 * onLanded(seq, type) runs after an action's event is in the log.
 */
export function actionsPanel(space, target, onLanded, { erased = false } = {}) {
  const result = h('div', { class: 'result', id: 'action-result' });
  const who = h('input', { type: 'text', name: 'actor', value: actor(), 'aria-label': 'act as', size: 12 });
  const reason = h('input', { type: 'text', name: 'reason', class: 'wide', placeholder: 'reason or comment (required to invalidate or erase)', 'aria-label': 'reason' });
  const signal = h('select', { name: 'signal', 'aria-label': 'feedback signal' }, signals.map((s) => h('option', { value: s, text: s })));
  const confirmErase = h('input', { type: 'checkbox', name: 'confirm-erase' });
  const buttons = [];
  const act = (action) => async () => {
    const by = who.value.trim() || 'console';
    sessionStorage.setItem(actorKey, by);
    const why = reason.value.trim();
    for (const b of buttons) b.disabled = true;
    try {
      if (action === 'erase') {
        if (!confirmErase.checked) throw new Error('Tick "erase for good" first: erasure removes the event\u2019s content from the log and cannot be undone.');
        const r = await api('POST', spacePath(space, '/erasures'), { seq: Number(target.seq), reason: why, actor: by });
        landed(r.erasure_seq, r.erasure_hash, 'erasure.recorded');
      } else {
        const ev = actionEvent(action, target, by, why, signal.value);
        const r = await api('POST', spacePath(space, '/events'), ev);
        landed(r.events[0].seq, r.events[0].hash, ev.type);
      }
    } catch (e) {
      mount(result, errorBox(e));
    } finally {
      for (const b of buttons) b.disabled = false;
    }
  };
  const landed = (seq, hash, type) => {
    mount(result, h('div', { class: 'notice', 'data-landed': seq, 'data-landed-type': type }, 'Appended ', cite(space, seq, hash), ' ', h('span', { class: 'badge type', text: type })));
    onLanded(seq, type);
  };
  const button = (action, text, cls) => {
    const b = h('button', { type: 'button', class: 'act ' + (cls || ''), 'data-action': action, text, onclick: act(action) });
    buttons.push(b);
    return b;
  };
  return h('section', { class: 'card actions-panel', 'data-actions-for': target.seq !== undefined ? 'ev:' + target.seq : 'fact:' + target.factId },
    h('h3', { text: 'Act on it' }),
    h('div', { class: 'actions' },
      h('label', { class: 'muted' }, 'as ', who), reason),
    h('div', { class: 'actions' },
      button('invalidate', 'Invalidate', 'reject'),
      button('pin', 'Pin'),
      button('unpin', 'Unpin'),
      h('span', { class: 'group' }, signal, button('feedback', 'Send feedback')),
      target.seq !== undefined && !erased ? h('span', { class: 'group' },
        h('label', { class: 'muted' }, confirmErase, ' erase for good'), button('erase', 'Erase (admin)', 'reject')) : null),
    h('p', { class: 'muted', text: 'Each action appends one event to the log (erasing needs an admin token); it appears in the log as it lands.' }),
    result);
}

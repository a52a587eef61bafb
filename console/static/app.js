// The console's shell: the token form, the space picker and a hash router (#/<page>?space=…)
// that renders one page module into <main>. When a page has finished rendering, <body> gets
// data-state="ready" (or "error"), which the browser tests wait for.
import { api, token, setToken, APIError } from './api.js';
import { h, mount, errorBox, route } from './dom.js';
import * as spaces from './pages/spaces.js';
import * as timeline from './pages/timeline.js';
import * as entity from './pages/entity.js';
import * as graph from './pages/graph.js';
import * as checkout from './pages/checkout.js';
import * as review from './pages/review.js';
import * as artifacts from './pages/artifacts.js';
import * as chain from './pages/chain.js';
import * as log from './pages/log.js';
import * as checkouts from './pages/checkouts.js';
import * as find from './pages/find.js';
import * as memory from './pages/memory.js';

const pages = { spaces, find, timeline, log, entity, graph, checkout, checkouts, review, artifacts, memory, chain };
const lastSpaceKey = 'zaxy.console.space';
const main = document.getElementById('main');
const select = document.getElementById('space-select');
let known = null; // the GET /v1/spaces answer for the current token
let renders = 0;

function parseHash() {
  const raw = location.hash.replace(/^#\/?/, '');
  const [name, query] = raw.split('?');
  return { name: pages[name] ? name : 'spaces', params: Object.fromEntries(new URLSearchParams(query || '')) };
}

/** Navigates to page with params (keeping the current space unless params name one). */
export function go(page, params = {}) { location.hash = route(page, { space: currentSpace(), ...params }); }

function currentSpace() {
  const { params } = parseHash();
  return params.space || select.value || sessionStorage.getItem(lastSpaceKey) || '';
}

function showTokenState() {
  const has = token() !== '';
  document.getElementById('token-form').hidden = has;
  document.getElementById('token-forget').hidden = !has;
}

async function loadSpaces() {
  known = await api('GET', '/v1/spaces');
  // Answered without a token: auth is off, so there is no token to ask for.
  if (token() === '') document.getElementById('token-form').hidden = true;
  select.replaceChildren(...known.spaces.map((s) => h('option', { value: s.space_id, text: s.space_id })));
}

async function render() {
  const n = ++renders;
  document.body.dataset.state = 'loading';
  const { name, params } = parseHash();
  for (const a of document.querySelectorAll('#nav a')) a.classList.toggle('active', a.dataset.page === name);
  try {
    if (!known) await loadSpaces();
    let space = params.space || sessionStorage.getItem(lastSpaceKey) || '';
    if (!known.spaces.some((s) => s.space_id === space)) space = known.spaces.length ? known.spaces[0].space_id : '';
    if (space) { select.value = space; sessionStorage.setItem(lastSpaceKey, space); }
    mount(main, h('p', { class: 'muted', text: 'Loading…' }));
    if (!space && name !== 'spaces') {
      mount(main, h('p', { class: 'notice', text: 'This token reaches no space yet.' }));
    } else {
      await pages[name].render(main, { space, params, spaces: known, go });
    }
    if (n === renders) document.body.dataset.state = 'ready';
  } catch (e) {
    if (n !== renders) return;
    if (e instanceof APIError && e.status === 401) {
      known = null;
      mount(main, h('div', { class: 'notice' },
        h('h1', { text: 'Sign in with a token' }),
        h('p', { text: 'Type a bearer token above (zaxy token create). It is kept in this browser tab\u2019s session storage only and sent in the Authorization header; it never appears in a URL.' }),
        token() ? errorBox(e) : null));
    } else {
      mount(main, errorBox(e));
    }
    document.body.dataset.state = e instanceof APIError && e.status === 401 ? 'signed-out' : 'error';
  }
}

document.getElementById('token-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  const input = document.getElementById('token-input');
  setToken(input.value.trim());
  input.value = '';
  known = null;
  showTokenState();
  render();
});
document.getElementById('token-forget').addEventListener('click', () => {
  setToken('');
  sessionStorage.removeItem(lastSpaceKey);
  known = null;
  select.replaceChildren();
  showTokenState();
  render();
});
select.addEventListener('change', () => {
  const { name } = parseHash();
  location.hash = route(name, { space: select.value });
});
window.addEventListener('hashchange', render);
showTokenState();
render();

'use strict';
// Shared by the builder pages: the token kept in sessionStorage, API calls with it, and a tiny DOM builder.
window.Assay = (() => {
  const TOKEN_KEY = 'assay.token';

  /** Builds an element; strings become text nodes (never HTML), so API data cannot inject markup. */
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (name === 'text') node.textContent = String(value);
      else if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
      else node.setAttribute(name, value === true ? '' : String(value));
    }
    for (const child of children.flat()) {
      if (child === undefined || child === null || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  /** A table with one header row of `headings` and `rows` (already built `tr` elements) as its body. */
  const table = (attrs, headings, rows) =>
    el(
      'table',
      attrs,
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          headings.map((h) => el('th', { text: h })),
        ),
      ),
      el('tbody', {}, rows),
    );

  const token = () => sessionStorage.getItem(TOKEN_KEY);
  const forgetToken = () => sessionStorage.removeItem(TOKEN_KEY);

  /** Resolves with the token, asking for it once (a small form at the top of the page) when this tab has none yet. */
  function requireToken() {
    const existing = token();
    if (existing) return Promise.resolve(existing);
    const input = el('input', { id: 'token-input', type: 'password', autocomplete: 'off', placeholder: 'assay_…' });
    const form = el(
      'form',
      { id: 'token-form', class: 'card' },
      el('label', { for: 'token-input', text: 'API token' }),
      el('p', { class: 'hint', text: 'Kept in this tab only (sessionStorage) and sent as a Bearer token.' }),
      input,
      el('button', { type: 'submit', text: 'Continue' }),
    );
    document.querySelector('main').prepend(form);
    input.focus();
    return new Promise((resolve) => {
      form.addEventListener('submit', (event) => {
        event.preventDefault();
        const value = input.value.trim();
        if (!value) return;
        sessionStorage.setItem(TOKEN_KEY, value);
        form.remove();
        resolve(value);
      });
    });
  }

  /** Calls the API with the token; a 401 forgets the token so the next load asks again. Errors carry the HTTP
   * `status` and the API's error `code`. */
  async function call(path, options = {}) {
    const headers = { Authorization: `Bearer ${token()}`, Accept: 'application/json' };
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(path, {
      method: options.method || 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const body = res.status === 204 ? null : await res.json().catch(() => null);
    if (res.status === 401) forgetToken();
    if (!res.ok) {
      const error = new Error((body && body.error && body.error.message) || `${res.status} ${res.statusText}`);
      error.status = res.status;
      error.code = (body && body.error && body.error.code) || null;
      throw error;
    }
    return { body, res };
  }

  const api = async (path, options) => (await call(path, options)).body;

  /** One page of a `/api/v1` list (an array with the next page's address in `Link: <…>; rel="next"`). */
  async function apiLinked(path) {
    const { body, res } = await call(path);
    const next = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get('Link') || '');
    return { items: body, next: next ? next[1] : null };
  }

  /** Every item of an `/api` list from `cursor` on, following `next_cursor` in pages of the API's largest size (500). */
  async function apiAll(path, cursor = null) {
    const items = [];
    const glue = path.includes('?') ? '&' : '?';
    do {
      const page = await api(`${path}${glue}limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      items.push(...page.data);
      cursor = page.next_cursor;
    } while (cursor);
    return items;
  }

  function showError(message) {
    const box = document.getElementById('error');
    box.textContent = message;
    box.hidden = false;
  }

  /** Criterion keys in display order, with their labels. */
  const CRITERIA = {
    tool_trajectory_avg_score: 'Trajectory',
    final_response_match: 'Final response',
    response_match_score: 'ROUGE-1',
    rubric_based: 'Rubrics',
    task_success: 'Task success',
    persona_adherence: 'Persona',
    safety: 'Safety',
  };

  const percent = (rate) => `${(rate * 100).toFixed(1)}%`;
  const score = (value) => (typeof value === 'number' ? value.toFixed(3) : '–');
  const when = (iso) => (iso ? new Date(iso).toLocaleString() : '–');

  return {
    el,
    table,
    token,
    forgetToken,
    requireToken,
    api,
    apiAll,
    apiLinked,
    showError,
    percent,
    score,
    when,
    CRITERIA,
  };
})();

'use strict';
// The playground on the server page: a form from the chosen tool's input schema; "Call" checks the values in the
// browser, calls the tool through a worker (POST …/tools/{tool}/call) and shows the raw answer.
window.Playground = (() => {
  const { el, api } = window.Assay;
  const json = (value) => JSON.stringify(value, null, 2);

  function result(answer) {
    const check = answer.output_schema_check;
    return el(
      'div',
      { id: 'call-result', 'data-is-error': String(answer.isError) },
      el(
        'p',
        { class: 'call-meta' },
        el('span', { class: `badge ${answer.isError ? 'failed' : 'passed'}`, text: answer.isError ? 'isError' : 'ok' }),
        el('span', { class: 'latency', text: ` ${answer.latency_ms} ms` }),
        el('span', {
          class: `schema-check ${check === null ? 'na' : check.valid ? 'pass' : 'fail'}`,
          'data-valid': check === null ? 'none' : String(check.valid),
          text:
            check === null
              ? ' · no output schema check'
              : check.valid
                ? ' · structuredContent matches the output schema'
                : ` · output schema check failed: ${(check.errors || []).join('; ')}`,
        }),
      ),
      el('h4', { text: 'content' }),
      el('pre', { class: 'raw', id: 'call-content', text: json(answer.content) }),
      answer.structuredContent === undefined
        ? null
        : [
            el('h4', { text: 'structuredContent' }),
            el('pre', { class: 'raw', id: 'call-structured', text: json(answer.structuredContent) }),
          ],
    );
  }

  /** Renders the playground of `tool` (a tool view) into `box`. */
  function show(box, serverPath, tool) {
    const form = el('form', { id: 'playground-form', novalidate: true });
    const read = window.SchemaForm.build(form, tool.input_schema);
    const button = el('button', { type: 'submit', id: 'call-tool', text: `Call ${tool.name}` });
    const out = el('div', { id: 'call-output' });
    form.append(el('div', { class: 'review-actions' }, button));
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const args = read();
      if (args.errors) {
        out.replaceChildren(el('p', { class: 'error', id: 'call-error', text: 'Fix the marked fields first.' }));
        return;
      }
      button.disabled = true;
      out.replaceChildren(el('p', { class: 'hint', text: 'Calling…' }));
      try {
        const answer = await api(`${serverPath}/tools/${encodeURIComponent(tool.name)}/call`, {
          method: 'POST',
          body: { arguments: args.value },
        });
        out.replaceChildren(result(answer));
      } catch (error) {
        out.replaceChildren(
          el('p', { class: 'error', id: 'call-error', 'data-code': error.code || '', text: error.message }),
        );
      } finally {
        button.disabled = false;
      }
    });
    box.replaceChildren(
      el('h2', { text: `Playground · ${tool.name}` }),
      tool.status === 'quarantined'
        ? el('p', {
            class: 'hint',
            text: 'Quarantined: flows, agent runs and the gateway do not see this tool until it is approved.',
          })
        : el('p', {
            class: 'hint',
            text: 'Calls the tool once through a worker, behind the egress guard; the raw answer shows below.',
          }),
      form,
      out,
    );
    box.hidden = false;
  }

  return { show };
})();

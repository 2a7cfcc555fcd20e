'use strict';
// A form generated from a tool's input schema: strings, numbers, integers, booleans and enums get their own
// inputs, anything else (arrays, objects, unions) a JSON text area; required fields are marked. `read()` checks
// the values in the browser and answers {value} or {errors} by field.
window.SchemaForm = (() => {
  const { el } = window.Assay;

  const kindOf = (schema) => {
    if (Array.isArray(schema.enum)) return 'enum';
    const type = Array.isArray(schema.type) ? schema.type.filter((t) => t !== 'null') : [schema.type];
    return type.length === 1 && ['string', 'number', 'integer', 'boolean'].includes(type[0]) ? type[0] : 'json';
  };

  function input(name, schema, kind, id) {
    if (kind === 'enum')
      return el(
        'select',
        { id, name },
        el('option', { value: '', text: '—' }),
        schema.enum.map((v, i) =>
          el('option', { value: String(i), text: typeof v === 'string' ? v : JSON.stringify(v) }),
        ),
      );
    if (kind === 'boolean')
      return el(
        'select',
        { id, name },
        ['', 'true', 'false'].map((v) => el('option', { value: v, text: v || '—' })),
      );
    if (kind === 'json')
      return el('textarea', {
        id,
        name,
        rows: 3,
        spellcheck: 'false',
        placeholder: schema.type ? `JSON ${schema.type}` : 'JSON',
      });
    const numeric = kind === 'number' || kind === 'integer';
    return el('input', {
      id,
      name,
      type: numeric ? 'number' : 'text',
      step: kind === 'integer' ? '1' : numeric ? 'any' : undefined,
      autocomplete: 'off',
    });
  }

  /** Builds the fields into `form`; answers the reader of their values. */
  function build(form, inputSchema) {
    const schema = inputSchema && typeof inputSchema === 'object' ? inputSchema : {};
    const properties = schema.properties || {};
    const required = new Set(schema.required || []);
    const fields = Object.entries(properties).map(([name, prop]) => {
      const kind = kindOf(prop || {});
      const id = `arg-${name.replace(/[^A-Za-z0-9_-]/g, '_')}`;
      const control = input(name, prop || {}, kind, id);
      const error = el('span', { class: 'field-error', hidden: true });
      form.append(
        el(
          'div',
          { class: `field${required.has(name) ? ' required' : ''}`, 'data-field': name, 'data-kind': kind },
          el(
            'label',
            { for: id },
            name,
            required.has(name) ? el('span', { class: 'req', title: 'required', text: ' *' }) : null,
          ),
          prop && prop.description ? el('p', { class: 'hint', text: prop.description }) : null,
          control,
          error,
        ),
      );
      return { name, prop: prop || {}, kind, control, error, required: required.has(name) };
    });
    if (fields.length === 0) form.append(el('p', { class: 'hint', text: 'This tool takes no arguments.' }));
    return () => read(fields);
  }

  function parse(field) {
    const raw = field.control.value.trim();
    if (raw === '') return field.required ? { error: 'is required' } : { skip: true };
    switch (field.kind) {
      case 'enum':
        return { value: field.prop.enum[Number(raw)] };
      case 'boolean':
        return { value: raw === 'true' };
      case 'number':
      case 'integer': {
        const n = Number(raw);
        if (!Number.isFinite(n)) return { error: 'must be a number' };
        if (field.kind === 'integer' && !Number.isInteger(n)) return { error: 'must be a whole number' };
        return { value: n };
      }
      case 'json':
        try {
          return { value: JSON.parse(raw) };
        } catch {
          return { error: 'must be valid JSON' };
        }
      default:
        return { value: field.control.value };
    }
  }

  function read(fields) {
    const value = {};
    const errors = {};
    for (const field of fields) {
      const parsed = parse(field);
      field.error.hidden = !parsed.error;
      field.error.textContent = parsed.error || '';
      field.control.classList.toggle('invalid', Boolean(parsed.error));
      if (parsed.error) errors[field.name] = parsed.error;
      else if (!parsed.skip) value[field.name] = parsed.value;
    }
    return Object.keys(errors).length ? { errors } : { value };
  }

  return { build };
})();

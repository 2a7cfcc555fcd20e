import assert from 'node:assert/strict';
import {
  expressionsIn,
  FlowExpressionError,
  parsePath,
  referenceProblem,
  renderValue,
  RESERVED_NAMES,
  resolvePath,
  type FlowScope,
} from '../../domain/flow/flow-expression';

const scope: FlowScope = {
  variables: { a: 2, b: '3', name: 'Ada', list: [10, 20], nested: { deep: { value: true } } },
  nodes: { n1: { output: { content: [{ type: 'text', text: 'The sum is 5.' }], structured_content: { sum: 5 } } } },
};

describe('flow expressions', () => {
  it('keeps the type of a parameter that is exactly one expression', () => {
    assert.equal(renderValue('{{ variables.a }}', scope), 2);
    assert.equal(renderValue('{{variables.nested.deep.value}}', scope), true);
    assert.deepEqual(renderValue('{{ variables.list }}', scope), [10, 20]);
  });

  it('interpolates expressions inside longer text', () => {
    assert.equal(renderValue('Hello {{ variables.name }}, a={{ variables.a }}', scope), 'Hello Ada, a=2');
    assert.equal(renderValue('list: {{ variables.list }}', scope), 'list: [10,20]');
  });

  it("reads earlier nodes' outputs with dotted and bracketed indexes", () => {
    assert.equal(renderValue('{{ nodes.n1.output.content[0].text }}', scope), 'The sum is 5.');
    assert.equal(renderValue('{{ nodes.n1.output.content.0.text }}', scope), 'The sum is 5.');
    assert.equal(renderValue('{{ nodes.n1.output.structured_content.sum }}', scope), 5);
  });

  it('renders arrays and objects element-wise and leaves other values alone', () => {
    assert.deepEqual(renderValue({ x: ['{{ variables.a }}', 'n={{ variables.b }}'], y: 7, z: null }, scope), {
      x: [2, 'n=3'],
      y: 7,
      z: null,
    });
  });

  it('refuses undefined paths, other roots and prototype walks instead of evaluating anything', () => {
    assert.throws(() => resolvePath(scope, 'variables.missing'), /variables\.missing }} is not defined/);
    assert.throws(() => resolvePath(scope, 'variables.list.5'), FlowExpressionError);
    assert.throws(() => parsePath('process.env.SECRET'), /must start with variables or nodes/);
    assert.throws(() => parsePath('variables.__proto__'), /reserved name __proto__/);
    assert.throws(() => parsePath('variables.name.constructor'), /reserved/);
    assert.throws(() => renderValue('{{ variables.a + 1 }}', scope), /is not a path/);
    assert.throws(() => renderValue("{{ require('fs') }}", scope), FlowExpressionError);
    assert.throws(() => resolvePath(scope, 'variables.name.length'), /is not defined/);
  });

  it('lists expressions and flags references to nodes that do not run earlier', () => {
    assert.deepEqual(expressionsIn({ a: '{{ variables.a }} and {{ nodes.n1.output }}', b: ['{{ variables.b }}'] }), [
      'variables.a',
      'nodes.n1.output',
      'variables.b',
    ]);
    assert.equal(referenceProblem('{{ nodes.n1.output.x }}', ['n1']), undefined);
    assert.match(referenceProblem('{{ nodes.n2.output }}', ['n1']) ?? '', /not an earlier node/);
    assert.match(referenceProblem('{{ nodes.n1.input }}', ['n1']) ?? '', /must read nodes\.n1\.output/);
    assert.match(referenceProblem('{{ env.HOME }}', []) ?? '', /must start with variables or nodes/);
  });

  it('reads node ids and names such as toString or hasOwnProperty as own data only', () => {
    const own: FlowScope = {
      variables: { toString: 'mine', valueOf: 3 },
      nodes: { toString: { output: { hasOwnProperty: 'kept' } } },
    };
    assert.equal(renderValue('{{ variables.toString }}', own), 'mine');
    assert.equal(renderValue('{{ variables.valueOf }}', own), 3);
    assert.equal(renderValue('{{ nodes.toString.output.hasOwnProperty }}', own), 'kept');
    assert.throws(() => resolvePath(own, 'nodes.valueOf.output'), /nodes\.valueOf\.output }} is not defined/);
    assert.throws(() => resolvePath(scope, 'variables.toString'), /is not defined/);
    assert.throws(() => resolvePath(scope, 'variables.name.toString'), /is not defined/);
    assert.equal(referenceProblem('{{ nodes.toString.output }}', ['toString']), undefined);
    assert.match(referenceProblem('{{ nodes.hasOwnProperty.output }}', ['toString']) ?? '', /not an earlier node/);
    assert.match(
      referenceProblem('{{ nodes.constructor.output }}', ['constructor']) ?? '',
      /reserved name constructor/,
    );
  });

  it('names the reserved names that can never be a path segment', () => {
    assert.deepEqual([...RESERVED_NAMES].sort(), ['__proto__', 'constructor', 'prototype']);
    for (const name of RESERVED_NAMES) assert.throws(() => parsePath(`nodes.${name}.output`), /reserved name/);
  });
});

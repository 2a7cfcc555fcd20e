import tseslint from 'typescript-eslint';
import { boundariesConfig, LINT_FIXTURES } from './eslint.boundaries.mjs';

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      '.tools/**',
      'dist/**',
      '.data/**',
      '.test-artifacts/**',
      'bin/**',
      'api/public/**',
      `${LINT_FIXTURES}/**`,
      // Vendored verbatim from the MCP conformance suite (see its README).
      'test/fixtures/conformance/**',
    ],
  },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // Import boundaries between the rooms of ARCHITECTURE.md; a forbidden import fails `npm run lint` and `npm test`.
  boundariesConfig,
  {
    // Assay's MCP clients are made in one place, with the output-schema check that is linear in a result.
    files: ['**/*.ts'],
    ignores: ['lib/outbound/mcp/mcp-client.ts', 'test/**', 'bench/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@modelcontextprotocol/sdk/client/index.js',
              importNames: ['Client'],
              allowTypeImports: true,
              message: 'Make MCP clients with createMcpClient (lib/outbound/mcp/mcp-client.ts).',
            },
          ],
        },
      ],
    },
  },
  {
    // Plain CommonJS files (the mocha reporter) load their dependencies with require().
    files: ['**/*.js'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', module: 'writable', process: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);

import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '.data/**',
      'test-results/**',
      'playwright-report/**',
      '**/*.js',
      // Generated from the API document (packages/system-tests/src/openapi/clientTypes.ts).
      '**/*.generated.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    files: ['**/*.test.ts', '**/*.test.tsx', 'e2e/**/*.ts', 'packages/devstack/src/testing.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    // After a write the front ends read again through web-core's readAgain: a bare invalidation lets a
    // list's first read, begun before the write, stand (packages/web-core/src/queryClient.ts).
    files: ['shell/src/**', 'mf-*/src/**', 'packages/ui/src/**'],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='invalidateQueries']",
          message: "Use readAgain (or useReadAgain) from '@portal/web-core/query' after a write.",
        },
      ],
    },
  },
  {
    // FerretDB stops whole when the statements of update commands add up to its pool of connections
    // at once: updates of many documents go one command each (docs/decisions/103).
    files: [
      'services/*/src/**/*.ts',
      'gateway/src/**/*.ts',
      'packages/service-kit/src/**/*.ts',
      'packages/devstack/src/**/*.ts',
      'packages/system-tests/src/**/*.ts',
      'bench/src/**/*.ts',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='bulkWrite'] Property[key.name=/^(updateOne|updateMany|replaceOne)$/]",
          message:
            "Send updates through updateEach from '@portal/service-kit' (docs/decisions/103): a bulk of them can stop FerretDB.",
        },
      ],
    },
  },
);

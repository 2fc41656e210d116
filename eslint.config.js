import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { importX } from 'eslint-plugin-import-x';
import globals from 'globals';
import { readdirSync } from 'node:fs';

// Dependencies flow one way (CONVENTIONS.md): schema imports nothing of ours; the server and
// the PWA never import each other; PWA features never import each other, and shared PWA code
// (components, lib, db, sync) never imports features.
// Every folder under pwa/src/features is a feature: a new one is walled off without a list to edit.
const pwaFeatures = readdirSync(new URL('./pwa/src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
export default tseslint.config(
  { ignores: ['**/dist/**', 'node_modules/**', '.data/**', 'schema/drizzle/**', 'pwa/dev-dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { 'import-x': importX },
    rules: {
      'no-console': ['error', { allow: ['warn', 'error'] }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './schema', from: ['./sync-server', './pwa'], message: 'schema/ is the shared contract and imports neither side' },
            { target: './sync-server', from: './pwa', message: 'the server never imports the PWA' },
            {
              target: './pwa',
              from: './sync-server',
              except: ['./src/testing'],
              message: 'the PWA never imports the server (its tests may use the server test harness)',
            },
            { target: './pwa/src', from: './schema/src/db', message: 'the PWA never imports drizzle tables' },
            {
              target: ['./pwa/src/components', './pwa/src/lib', './pwa/src/db', './pwa/src/sync'],
              from: './pwa/src/features',
              message: 'shared PWA code never imports features',
            },
            ...pwaFeatures.map((f) => ({
              target: `./pwa/src/features/${f}`,
              from: './pwa/src/features',
              except: [`./${f}`],
              message: 'features never import each other; compose them in app/',
            })),
          ],
        },
      ],
    },
  },
  {
    files: ['pwa/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['scripts/**/*.ts', '**/*.test.ts', 'pwa/e2e/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
);

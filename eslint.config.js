import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { importX } from 'eslint-plugin-import-x';
import globals from 'globals';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// Dependencies flow one way (CONVENTIONS.md): schema imports nothing of ours; the server and
// the PWA never import each other; PWA features never import each other, and shared PWA code
// (components, lib, db, sync) never imports features.
// Every folder under pwa/src/features is a feature: a new one is walled off without a list to edit.
// Zones are paths from the repository root, whatever folder ESLint is started from.
const basePath = fileURLToPath(new URL('.', import.meta.url));
const foldersIn = (path) =>
  readdirSync(new URL(path, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
const pwaFeatures = foldersIn('./pwa/src/features');
const dependencyZones = [
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
];
// On the server a feature may call another feature's service, never its repository (decision
// 0053). Every folder under sync-server/src keeps its *.repository.ts files to itself — shared
// folders (access, rate-limits, …) as much as features — so this too needs no list. Only the
// test harness (testing/) and tests themselves may reach into any repository to arrange data.
const serverRepositoryZones = foldersIn('./sync-server/src')
  .filter((folder) => folder !== 'testing')
  .map((folder) => ({
    target: `./sync-server/src/${folder}`,
    from: `./sync-server/src/!(${folder})/**/*.repository.ts`,
    message: `${folder}/ may call another folder's service, never its repository (decision 0053)`,
  }))
  .concat({
    target: './sync-server/src/*.ts',
    from: './sync-server/src/**/*.repository.ts',
    message: 'app.ts and features.ts compose features through their services and routes (decision 0053)',
  });
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
      'import-x/no-restricted-paths': ['error', { basePath, zones: dependencyZones }],
    },
  },
  {
    files: ['pwa/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['sync-server/src/**/*.ts'],
    ignores: ['**/*.test.ts', '**/*.serial-test.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        { basePath, zones: [...dependencyZones, ...serverRepositoryZones] },
      ],
    },
  },
  {
    // no-cycle reads the files an import names, so import-x must know how to parse TypeScript.
    files: ['sync-server/**/*.ts', 'schema/**/*.ts'],
    settings: {
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['scripts/**/*.ts', '**/*.test.ts', 'pwa/e2e/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
);

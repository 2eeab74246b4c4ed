// The webapp's lint: TypeScript and hooks rules, and bulletproof-react's
// import zones (https://github.com/alan2207/bulletproof-react, docs/project-structure.md):
// code flows app -> features -> shared (components, hooks, lib, config), never back,
// and one feature never imports another; what two features share moves down.
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { readdirSync } from 'node:fs';
import tseslint from 'typescript-eslint';

const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const shared = ['./src/components', './src/hooks', './src/lib', './src/config', './src/types', './src/utils'];

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'playwright-report', 'test-results'] },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'import-x': importX, 'react-hooks': reactHooks },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.app.json' })],
    },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'import-x/no-cycle': 'error',
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            // Features do not import each other.
            ...features.map((feature) => ({
              target: `./src/features/${feature}`,
              from: './src/features',
              except: [`./${feature}`],
              message: 'A feature does not import another feature: move what both need to components/, hooks/ or lib/.',
            })),
            // Unidirectional: app -> features -> shared.
            { target: './src/features', from: './src/app', message: 'Features do not import the app layer.' },
            {
              target: shared,
              from: ['./src/features', './src/app'],
              message: 'Shared code (components, hooks, lib, config) does not import features or the app layer.',
            },
          ],
        },
      ],
    },
  },
  {
    // Tests and their helpers may reach anywhere to set a screen up.
    files: ['src/testing/**', '**/*.test.{ts,tsx}', 'e2e/**'],
    rules: { 'import-x/no-restricted-paths': 'off' },
  },
  {
    // Playwright fixtures that take no fixture are written ({}, testInfo).
    files: ['e2e/**'],
    rules: { 'no-empty-pattern': 'off' },
  },
);

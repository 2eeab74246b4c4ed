// The webapp's lint: TypeScript and hooks rules, and bulletproof-react's
// import zones (https://github.com/alan2207/bulletproof-react, docs/project-structure.md):
// code flows app -> features -> shared (components, hooks, lib, config), never back,
// and one feature never imports another; what two features share moves down.
// The zones use ESLint's own no-restricted-imports on the '@/' paths every
// cross-folder import uses (relative imports may not leave their folder's parent).
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { readdirSync } from 'node:fs';
import tseslint from 'typescript-eslint';

const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const shared = ['components', 'hooks', 'lib', 'config', 'types', 'utils'];

const noEscape = { group: ['../../*'], message: "Import across folders with '@/…', so the zones below can see it." };

// Schemas import z from lib/zod.ts, which configures zod (jitless) and keeps
// it out of the entry chunk (issue 38).
const zodOnce = { name: 'zod', message: "Import { z } from '@/lib/zod' (configured, and loaded with the forms)." };

const zone = (patterns) => ({
  'no-restricted-imports': ['error', { paths: [zodOnce], patterns: [noEscape, ...patterns] }],
});

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'playwright-report', 'test-results'] },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  { files: ['src/**/*.{ts,tsx}'], rules: zone([]) },
  // A feature does not import another feature.
  ...features.map((feature) => ({
    files: [`src/features/${feature}/**/*.{ts,tsx}`],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: zone([
      {
        group: ['@/features/*', `!@/features/${feature}`, `!@/features/${feature}/**`],
        message: 'A feature does not import another feature: move what both need to components/, hooks/ or lib/.',
      },
      { group: ['@/app', '@/app/**'], message: 'Features do not import the app layer.' },
    ]),
  })),
  // Shared code does not import features or the app layer.
  {
    files: shared.map((dir) => `src/${dir}/**/*.{ts,tsx}`),
    ignores: ['**/*.test.{ts,tsx}'],
    rules: zone([
      {
        group: ['@/features', '@/features/**', '@/app', '@/app/**'],
        message: 'Shared code (components, hooks, lib, config) does not import features or the app layer.',
      },
    ]),
  },
  { files: ['src/lib/zod.ts'], rules: { 'no-restricted-imports': 'off' } },
  {
    // Playwright fixtures that take no fixture are written ({}, testInfo).
    files: ['e2e/**'],
    rules: { 'no-empty-pattern': 'off' },
  },
);

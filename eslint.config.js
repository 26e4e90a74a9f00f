// ESLint: @eslint/js and typescript-eslint recommended, style left to Prettier.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  {
    // AssemblyScript sources (not TypeScript semantics) and the wasm they compile to.
    ignores: ['node_modules/', 'dist/', 'test-output/', 'src/**/assembly/**', 'src/**/generated/**', 'tools/.shot.mts'],
  },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // `arr[i]!` is how an index known to be in range reads under noUncheckedIndexedAccess.
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    // Core code stays free of `any` even if page code (app, ui, view) is ever relaxed.
    files: ['src/**/*.ts'],
    ignores: ['src/app/**', 'src/ui/**', 'src/view/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'error' },
  },
  {
    files: ['**/*.js'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  {
    // The isolation service worker is served as is: plain JavaScript in a service worker's scope.
    files: ['public/**/*.js'],
    languageOptions: { globals: { self: 'readonly', fetch: 'readonly', URL: 'readonly', Headers: 'readonly', Response: 'readonly' } },
  },
  prettier,
);

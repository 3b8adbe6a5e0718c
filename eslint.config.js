import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import { roomsPlugin } from './scripts/lint/rooms.mjs';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '.tools/**', 'coverage/**', 'cli-template/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    files: ['packages/fa-mcp-sdk/src/**/*.ts'],
    plugins: { fa: roomsPlugin },
    rules: {
      'fa/rooms': 'error',
    },
  },
);

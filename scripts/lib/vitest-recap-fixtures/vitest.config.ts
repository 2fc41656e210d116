import { defineConfig } from 'vitest/config';

/** Files that fail in the ways `recapOf` reports; run by vitest-recap.test.ts only. */
export default defineConfig({ test: { include: ['*.fixture.ts'], root: import.meta.dirname } });

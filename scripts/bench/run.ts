import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';

/** `npm run bench [name…]`: runs each scripts/bench/*.bench.ts (or the named ones) in turn. */
const dir = import.meta.dirname;
const wanted = process.argv.slice(2);
const benches = readdirSync(dir)
  .filter((file) => file.endsWith('.bench.ts'))
  .filter((file) => wanted.length === 0 || wanted.some((name) => file.includes(name)));
if (benches.length === 0) {
  console.log(wanted.length ? `No benchmark matches ${wanted.join(', ')}.` : 'No benchmarks in scripts/bench yet.');
}
for (const file of benches) {
  console.log(`\n━━ ${file} ━━`);
  const result = spawnSync('npx', ['tsx', path.join(dir, file)], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

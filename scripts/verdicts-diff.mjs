#!/usr/bin/env node
// Compares two verdict snapshots of scripts/verdicts.ts: prints every subject × rule whose status differs, and
// exits 1 when one does (0 when the two give the same verdicts). Subjects in one snapshot only are listed apart.
import { readFileSync } from 'node:fs';

const [a, b] = process.argv.slice(2);
if (!a || !b) {
  process.stderr.write('usage: node scripts/verdicts-diff.mjs <before.json> <after.json>\n');
  process.exit(2);
}
const before = JSON.parse(readFileSync(a, 'utf8'));
const after = JSON.parse(readFileSync(b, 'utf8'));
let changed = 0;
for (const subject of Object.keys(before)) {
  if (!(subject in after)) {
    process.stdout.write(`only before: ${subject}\n`);
    continue;
  }
  for (const [rule, status] of Object.entries(before[subject])) {
    if (after[subject][rule] !== status) {
      changed++;
      process.stdout.write(`${subject}  ${rule}  ${status} → ${after[subject][rule] ?? '(absent)'}\n`);
    }
  }
}
for (const subject of Object.keys(after)) if (!(subject in before)) process.stdout.write(`only after: ${subject}\n`);
const subjects = Object.keys(before).filter((s) => s in after).length;
process.stdout.write(`${changed} verdict${changed === 1 ? '' : 's'} changed over ${subjects} subjects in both\n`);
process.exit(changed === 0 ? 0 : 1);

import { readFileSync } from 'node:fs';
import { compareProbes, fidelityOf, PROBE_KINDS, probe, type KindFidelity } from '../profile/calibrate.ts';
import { loadLearnedProfile, ProfileFileError } from '../profile/serve.ts';
import { startStandIn } from '../profile/stand-in.ts';
import { Redactor } from '../report/redact.ts';
import { resolveTarget } from '../run/target.ts';
import { resolveAccount } from '../targets/config.ts';
import { toAccount } from '../targets/sim-target.ts';
import { createTransport } from '../targets/transport.ts';
import { throttledTransport } from '../targets/throttle.ts';
import { withFaultCodes } from '../classify/fault-codes.ts';
import type { Environment } from '../catalog/index.ts';
import { parse } from './args.ts';
import { UsageError } from './usage-error.ts';

export const CALIBRATE_HELP = `Usage: tds-conformance calibrate --target <cert|config.json> --profile <profile.json> [--with-deviations]
                                  [--env cert|prod] [--min-fidelity <percent>]

Measures how closely a stand-in serving a learned profile answers like the target: the same probe exchanges (a token,
missing and wrong credentials, a wrong grant_type, an API call with a token and with an unknown one, TokenCreateRQ, an
unknown token on SOAP, SessionCreateRQ and its close, a body that is not XML: 4 token- or session-creating requests)
are sent to the target and to the stand-in, and each answer is compared aspect by aspect: status, content type, JSON
keys and value types, token shape, exact texts, SOAP prefixes, action, fault codes and texts, header names. Prints
the fidelity of each kind of exchange and every difference side by side; exit code 1 when a kind is below
--min-fidelity (default 100).`;

export async function calibrateCommand(args: readonly string[]): Promise<number> {
  const { values } = parse('calibrate', args, {
    target: { type: 'string' },
    profile: { type: 'string' },
    'with-deviations': { type: 'boolean', default: false },
    env: { type: 'string', default: 'cert' },
    'min-fidelity': { type: 'string', default: '100' },
    help: { type: 'boolean', default: false },
  });
  if (values.help) {
    process.stdout.write(`${CALIBRATE_HELP}\n`);
    return 0;
  }
  if (values.target === undefined || values.target === 'sim') throw new UsageError('calibrate compares a live target with its stand-in: give the target with --target cert or --target <config.json>.');
  if (values.profile === undefined) throw new UsageError('give the learned profile with --profile <profile.json> (a live run writes it beside its reports).');
  const env = values.env as Environment;
  if (env !== 'cert' && env !== 'prod') throw new UsageError(`--env must be cert or prod, not "${values.env}".`);
  const min = Number(values['min-fidelity']);
  if (!/^\d+(\.\d+)?$/.test(values['min-fidelity']) || min > 100) throw new UsageError(`--min-fidelity takes a percentage from 0 to 100, not "${values['min-fidelity']}".`);
  let learned;
  try {
    learned = loadLearnedProfile(values.profile);
  } catch (err) {
    if (err instanceof ProfileFileError) throw new UsageError(`${err.message}.`);
    throw err;
  }
  const { config, accounts } = resolveTarget(values.target);
  const endpoints = config?.environments[env];
  const accountConfig = config?.accounts[env];
  if (!config || !endpoints || !accountConfig) throw new UsageError(`the target has no ${env.toUpperCase()} environment with an account: give --env with one it has.`);
  const redactor = new Redactor();
  for (const a of accounts) redactor.addPassword(a.password);
  const account = resolveAccount(accountConfig);

  // A throttle is no answer (429, 503, a busy fault): both sides' are waited out and the request sent again, as in a
  // run, so that the answers compared are the services' own. One still throttled past the wait ends the calibration.
  const throttle = { maxWaitMs: (config.throttleWaitSeconds ?? 60) * 1000, faultCodes: withFaultCodes(config.faultCodes) };
  const targetTransport = throttledTransport(createTransport({ timeoutMs: config.requestTimeoutMs ?? 15_000, useEnvProxy: true, ...(config.caFile && { ca: readFileSync(config.caFile, 'utf8') }) }), throttle);
  const stand = await startStandIn(learned, { withDeviations: values['with-deviations'] });
  const standTransport = throttledTransport(createTransport({ timeoutMs: 10_000 }), throttle);
  const out = process.stdout;
  try {
    const options = { ...(learned.values.tokenShape && { tokenShape: learned.values.tokenShape }), ...(config.probes?.rest && { restProbePath: config.probes.rest.path }) };
    const target = await probe({ ...endpoints, account, transport: targetTransport }, options);
    const standAccount = toAccount(stand.accounts.main[env]);
    redactor.addPassword(standAccount.password);
    const copy = await probe({ ...stand.server.urls[env], account: standAccount, transport: standTransport }, options);
    const kinds = compareProbes(target, copy);
    for (const line of report(kinds, learned.target, values['with-deviations'])) out.write(`${redactor.redact(line)}\n`);
    const below = kinds.filter((k) => fidelityOf(k) < min);
    out.write(below.length === 0 ? `every kind at or above ${min} %\n` : `${below.length} kind${below.length === 1 ? '' : 's'} below ${min} %: ${below.map((k) => k.kind).join(', ')}\n`);
    return below.length === 0 ? 0 : 1;
  } finally {
    await Promise.all([targetTransport.close(), standTransport.close(), stand.close()]);
  }
}

/** The fidelity table and the differences, side by side. */
export function report(kinds: readonly KindFidelity[], target: string, withDeviations: boolean): string[] {
  const lines = [`calibration: ${target} against its stand-in${withDeviations ? ' (with its deviations)' : ''}`, '', `${'exchange'.padEnd(28)}fidelity  aspects`];
  for (const k of kinds) lines.push(`${k.kind.padEnd(28)}${`${fidelityOf(k).toFixed(0)} %`.padStart(8)}  ${k.matched} of ${k.compared}`);
  const missing = PROBE_KINDS.filter((p) => !kinds.some((k) => k.kind === p));
  if (missing.length) lines.push(`not compared (one side did not reach it): ${missing.join(', ')}`);
  for (const k of kinds.filter((x) => x.differences.length > 0)) {
    lines.push('', `${k.kind}:`);
    for (const d of k.differences) lines.push(`  ${d.aspect}`, `    target:   ${d.target}`, `    stand-in: ${d.standIn}`);
  }
  lines.push('');
  return lines;
}

import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { HarError, readHar } from '../har/har.ts';
import { judgeTraffic, knownFromConfig, observedReport, tryValidator, type KnownAccount } from '../observe/index.ts';
import { TOOL_VERSION } from '../package-info.ts';
import { Redactor, writeReports } from '../report/index.ts';
import { withFaultCodes, DEFAULT_FAULT_CODES } from '../classify/index.ts';
import { DEFAULT_REST_DOMAIN, DEFAULT_SOAP_DOMAIN, type Environment } from '../catalog/index.ts';
import type { TargetConfig } from '../targets/index.ts';
import { targetConfigFor } from '../targets/presets.ts';
import { registerSecretsOf } from '../observe/index.ts';
import { parse, parseInteger, parseOnly } from './args.ts';
import { summaryLines } from './observe.ts';
import { UsageError } from './usage-error.ts';

/** The environment variable `--account` reads the password from (never from the command line). */
export const ACCOUNT_PASSWORD_VARIABLE = 'TDS_ACCOUNT_PASSWORD';

export const JUDGE_HELP = `Usage: tds-conformance judge <file.har> [--target cert|<config.json>] [--account <EPR>:<PCC>[:<REST domain>]] [options]

Judges a client from a HAR 1.2 file (browser devtools "Save all as HAR", mitmproxy, Charles): the client rules, and
the service rules the answers show, as "observe" does, into the usual reports.

Which environment a request went to is told by its host: the environments of --target, else the service's public
addresses. The identity rules (CRED-01, SOAP-03, SOAP-05, …) need the account the application used: --target (its
"accounts") or --account, with the password in ${ACCOUNT_PASSWORD_VARIABLE}; without them those clauses are
not-applicable, saying so.

Options:
  --target cert|<file.json>  a preset or a target config: the environments' addresses, the accounts, sessionPoolSize, faultCodes
  --account <EPR>:<PCC>[:<domain>]   the account (password in ${ACCOUNT_PASSWORD_VARIABLE}); no domain: the default AA
  --pool-size <n>          the session pool the application is configured with (SESS-08)
  --whole-run              the file holds the application's whole run, up to its exit (SESS-06)
  --only <ids>             judge only these rules (IDs, areas, globs)
  --out <dir>              where to write the reports (default: reports/latest)

Nothing written holds a password or a token. Exit codes: 0 no MUST rule failed, 1 a MUST rule failed, 2 usage error.`;

function accountFromFlag(value: string, env: NodeJS.ProcessEnv): KnownAccount {
  const [epr, pcc, domain] = value.split(':');
  if (!epr || !pcc) throw new UsageError(`--account takes <EPR>:<PCC>[:<REST domain>], not "${value}".`);
  const password = env[ACCOUNT_PASSWORD_VARIABLE];
  if (!password) throw new UsageError(`--account needs the account's password in the environment variable ${ACCOUNT_PASSWORD_VARIABLE} (never on the command line): export it and run again.`);
  return { epr, pcc, password, restDomain: domain || DEFAULT_REST_DOMAIN, soapDomain: DEFAULT_SOAP_DOMAIN, restDomainDeclared: Boolean(domain) };
}

export async function judgeCommand(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { values, positionals } = parse('judge', args, {
    target: { type: 'string' },
    account: { type: 'string' },
    'pool-size': { type: 'string' },
    'whole-run': { type: 'boolean', default: false },
    only: { type: 'string', multiple: true },
    out: { type: 'string', default: 'reports/latest' },
    help: { type: 'boolean', default: false },
  });
  if (values.help) {
    process.stdout.write(`${JUDGE_HELP}\n`);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError('judge takes one HAR file: tds-conformance judge <file.har> (see "tds-conformance judge --help").');
  const file = positionals[0] as string;
  const config: TargetConfig | undefined = values.target ? targetConfigFor(values.target, env) : undefined;
  const poolSize = parseInteger('pool-size', values['pool-size'], 1);
  const only = parseOnly(values.only);
  const accounts: Partial<Record<Environment, KnownAccount[]>> = config ? { cert: knownFromConfig(config, 'cert', env), prod: knownFromConfig(config, 'prod', env) } : {};
  if (values.account) {
    const a = accountFromFlag(values.account, env);
    accounts.cert = [...(accounts.cert ?? []), a];
    accounts.prod = [...(accounts.prod ?? []), a];
  }
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new UsageError(`cannot read ${file}: give the path of a HAR file.`);
  }
  let exchanges;
  try {
    exchanges = readHar(text, config ? { environments: config.environments } : {});
  } catch (err) {
    if (err instanceof HarError) throw new UsageError(`${file}: ${err.message}.`);
    throw err;
  }
  const redactor = new Redactor();
  for (const a of Object.values(accounts).flat()) if (a) redactor.addPassword(a.password);
  for (const x of exchanges) registerSecretsOf(x, redactor);
  const startedAt = new Date().toISOString();
  const validator = exchanges.some((x) => x.protocol === 'soap') ? await tryValidator() : undefined;
  try {
    const judgement = await judgeTraffic(exchanges, {
      accounts,
      sessionPoolSize: poolSize ?? config?.sessionPoolSize,
      faultCodes: config ? withFaultCodes(config.faultCodes) : DEFAULT_FAULT_CODES,
      wholeRun: values['whole-run'],
      expired: new Map(),
      source: 'har',
    }, { validator, only });
    const report = observedReport(judgement.verdicts, {
      toolVersion: TOOL_VERSION,
      target: { name: `HAR file ${basename(file)}`, kind: 'live' },
      startedAt,
      finishedAt: new Date().toISOString(),
      selection: judgement.selection,
    });
    const outDir = resolve(values.out);
    const written = await writeReports(report, outDir, redactor);
    process.stdout.write(`${redactor.redact(summaryLines(written.report, outDir, exchanges.length).join('\n'))}\n`);
    return written.report.exitCode;
  } finally {
    await validator?.close();
  }
}

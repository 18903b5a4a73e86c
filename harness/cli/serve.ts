import { DriftingClock, ManualClock, SimCore, defaultAccounts, startSimServer, type SimAccount, type SimServer } from '../sim/index.ts';
import type { DefaultAccounts } from '../sim/default-accounts.ts';
import { loadLearnedProfile, ProfileFileError } from '../profile/serve.ts';
import { startStandIn } from '../profile/stand-in.ts';
import type { LearnedProfile } from '../profile/types.ts';
import { listening, noPositionals, parse, parseHost, parseInteger } from './args.ts';
import { UsageError } from './usage-error.ts';

const HELP = `Usage: tds-conformance serve [--port <n>] [--prod-port <n>] [--host <addr>] [--defect <id>]... [--seed <n>] [--manual-clock]
                             [--profile <profile.json> [--with-deviations]]

Runs the simulated service alone, for trying a client by hand: CERT and PROD on their own ports (REST and SOAP on
each; SOAP at /websvc), the accounts printed, and the control endpoint under /__sim/ on the CERT port:

  GET  /__sim/state                        { now, openSessions, tokens, events }
  POST /__sim/clock/advance   {"seconds"}  move the simulator's clock forward (expire tokens and sessions)
  GET  /__sim/events?after=<seq>           what callers did (credentials and tokens masked)
  POST /__sim/accounts        {"env","account"}   add an account
  POST /__sim/tokens/revoke   {"token"}    make the service refuse a token from now on

The clock follows real time and can be moved forward (--manual-clock: it stands still unless moved).

--profile <profile.json> serves a stand-in for the target a live run learnt it from (the profile.json beside that
run's reports): its token shape, texts, content types, header names, statuses, SOAP prefixes, fault texts and codes,
latency and throttling, and the simulator's own where the run did not observe them. It conforms, in the target's
style; --with-deviations also reproduces the deviations the target showed that the simulator can make, each named by
its rule. The accounts are the simulator's (printed below), never the target's.
Stop with Ctrl-C.`;

function describe(a: SimAccount): string {
  return `EPR ${a.epr}, PCC ${a.pcc}, password ${a.password}, REST domain ${a.restDomain}, SOAP domain ${a.soapDomain}, pool ${a.poolSize}, session timeout ${a.sessionTimeoutSeconds} s`;
}

export async function serveCommand(args: readonly string[], signal?: AbortSignal): Promise<number> {
  const { values, positionals } = parse('serve', args, {
    port: { type: 'string', default: '8787' },
    'prod-port': { type: 'string' },
    host: { type: 'string', default: '127.0.0.1' },
    defect: { type: 'string', multiple: true },
    seed: { type: 'string' },
    'manual-clock': { type: 'boolean', default: false },
    profile: { type: 'string' },
    'with-deviations': { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  });
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  noPositionals('serve', positionals);
  const host = await parseHost(values.host);
  if (values['with-deviations'] && values.profile === undefined) throw new UsageError('--with-deviations reproduces the deviations of a learned profile: give it with --profile <profile.json>.');
  if (values.profile !== undefined && values.defect?.length) throw new UsageError('give --profile (a learned target, with --with-deviations for its deviations) or --defect, not both.');
  const port = parseInteger('port', values.port, 0, 65_535) ?? 8787;
  const prodPort = parseInteger('prod-port', values['prod-port'], 0, 65_535) ?? (port === 0 ? 0 : port + 1);
  const seed = parseInteger('seed', values.seed, 0) ?? 1;
  let learned: LearnedProfile | undefined;
  try {
    learned = values.profile === undefined ? undefined : loadLearnedProfile(values.profile);
  } catch (err) {
    if (err instanceof ProfileFileError) throw new UsageError(`${err.message}.`);
    throw err;
  }
  const out = process.stdout;
  let server: SimServer;
  let accounts: DefaultAccounts;
  if (learned) {
    const stand = await listening(host, () => startStandIn(learned, { withDeviations: values['with-deviations'], seed, host, ports: { cert: port, prod: prodPort }, manualClock: values['manual-clock'], control: true }));
    ({ server, accounts } = stand);
    const observed = Object.values(learned.latitudes).filter((l) => l.observed).length;
    out.write(`tds-conformance stand-in for ${learned.target} (learned ${learned.learnedAt}: ${observed} of ${Object.keys(learned.latitudes).length} latitudes observed)\n`);
    if (values['with-deviations']) {
      out.write(stand.deviations.length ? `  with its deviations: ${stand.deviations.map((d) => `${d.rule} (${d.defect})`).join(', ')}\n` : '  with its deviations: none the simulator reproduces\n');
    }
  } else {
    const clock = values['manual-clock'] ? new ManualClock(Date.now()) : new DriftingClock();
    accounts = defaultAccounts(seed);
    const core = new SimCore({ clock, accounts: accounts.accounts, defects: values.defect ?? [], seed });
    server = await listening(host, () => startSimServer(core, { host, ports: { cert: port, prod: prodPort }, control: { clock } }));
    out.write(`tds-conformance simulator${values.defect?.length ? ` (defects: ${values.defect.join(', ')})` : ''}\n`);
  }
  for (const env of ['cert', 'prod'] as const) out.write(`  ${env.toUpperCase().padEnd(4)} REST ${server.urls[env].restBaseUrl}   SOAP ${server.urls[env].soapUrl}\n`);
  out.write(`  control ${server.controlUrl}\n\nAccounts (simulator credentials, valid only here):\n`);
  out.write(`  CERT main        ${describe(accounts.main.cert)}\n  PROD main        ${describe(accounts.main.prod)}\n`);
  out.write(`  CERT other PCC   ${describe(accounts.otherAgency)}\n  CERT no amendment ${describe(accounts.noAmendment)}\n`);
  out.write(`  CERT portal      ${describe(accounts.portal)}\n  CERT only        ${describe(accounts.certOnly)}\n`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    signal?.addEventListener('abort', stop, { once: true });
  });
  await server.close();
  return 0;
}

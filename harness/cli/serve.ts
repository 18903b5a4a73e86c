import { DriftingClock, ManualClock, SimCore, defaultAccounts, startSimServer, type SimAccount } from '../sim/index.ts';
import { parse, parseInteger } from './args.ts';

const HELP = `Usage: tds-conformance serve [--port <n>] [--prod-port <n>] [--host <addr>] [--defect <id>]... [--seed <n>] [--manual-clock]

Runs the simulated service alone, for trying a client by hand: CERT and PROD on their own ports (REST and SOAP on
each; SOAP at /websvc), the accounts printed, and the control endpoint under /__sim/ on the CERT port:

  GET  /__sim/state                        { now, openSessions, tokens, events }
  POST /__sim/clock/advance   {"seconds"}  move the simulator's clock forward (expire tokens and sessions)
  GET  /__sim/events?after=<seq>           what callers did (credentials and tokens masked)
  POST /__sim/accounts        {"env","account"}   add an account
  POST /__sim/tokens/revoke   {"token"}    make the service refuse a token from now on

The clock follows real time and can be moved forward (--manual-clock: it stands still unless moved).
Stop with Ctrl-C.`;

function describe(a: SimAccount): string {
  return `EPR ${a.epr}, PCC ${a.pcc}, password ${a.password}, REST domain ${a.restDomain}, SOAP domain ${a.soapDomain}, pool ${a.poolSize}, session timeout ${a.sessionTimeoutSeconds} s`;
}

export async function serveCommand(args: readonly string[], signal?: AbortSignal): Promise<number> {
  const { values } = parse('serve', args, {
    port: { type: 'string', default: '8787' },
    'prod-port': { type: 'string' },
    host: { type: 'string', default: '127.0.0.1' },
    defect: { type: 'string', multiple: true },
    seed: { type: 'string' },
    'manual-clock': { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  });
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  const port = parseInteger('port', values.port, 0) ?? 8787;
  const prodPort = parseInteger('prod-port', values['prod-port'], 0) ?? (port === 0 ? 0 : port + 1);
  const seed = parseInteger('seed', values.seed, 0) ?? 1;
  const clock = values['manual-clock'] ? new ManualClock(Date.now()) : new DriftingClock();
  const accounts = defaultAccounts(seed);
  const core = new SimCore({ clock, accounts: accounts.accounts, defects: values.defect ?? [], seed });
  const server = await startSimServer(core, { host: values.host, ports: { cert: port, prod: prodPort }, control: { clock } });
  const out = process.stdout;
  out.write(`tds-conformance simulator${values.defect?.length ? ` (defects: ${values.defect.join(', ')})` : ''}\n`);
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

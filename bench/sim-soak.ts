/**
 * A long random sequence of token and session operations driven straight into a `SimCore` (no HTTP): does a request
 * cost the same at the end as at the start, and does the heap stop growing? The sequence is shaped like the
 * model-based session test (suites/service/sessions.test.ts) run for a long time: case after case, each with a fresh
 * account, sessions created, pinged and closed, the clock moved; plus REST and SOAP token requests and REST API
 * calls on the shared account, whose session pool stays busy.
 *
 *   npx tsx bench/sim-soak.ts [--ops 200000] [--window 10000] [--seed 7]
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parseArgs } from 'node:util';
import { basicAuthorization, clientIdFor } from '../harness/credentials/index.ts';
import { defaultAccounts, ManualClock, SimCore, type SimAccount, type SimRequest } from '../harness/sim/index.ts';
import { Random } from '../harness/sim/random.ts';
import {
  buildRequest, makeRequestHeader, otaPingRQBody, sessionCloseRQBody, sessionCreateRQBody, tokenCreateRQBody, usernameToken,
  type RequestSecurity, type SoapBody,
} from '../harness/soap/index.ts';
import { FORM_CONTENT_TYPE, GRANT_TYPE, TOKEN_PATH, type Environment } from '../harness/catalog/index.ts';
import { fmt, isMain } from './util.ts';

export interface SoakOptions {
  readonly ops?: number;
  /** Operations per measured window (per-op time and heap are reported per window). */
  readonly window?: number;
  readonly seed?: number;
  readonly log?: (line: string) => void;
}

export interface SoakWindow {
  /** Operations done at the end of the window. */
  readonly ops: number;
  /** Mean time of one `SimCore.handle` call in this window, in µs (building requests and reading answers excluded). */
  readonly usPerOp: number;
  /** Heap used after a full GC at the end of the window, in bytes. */
  readonly heapBytes: number;
  readonly tokens: number;
  readonly events: number;
  readonly accounts: number;
}

export interface SoakResult {
  readonly windows: readonly SoakWindow[];
  readonly ops: number;
  readonly heapBeforeBytes: number;
  /** Outcomes of the requests, by the simulator's own classification. */
  readonly outcomes: Readonly<Record<string, number>>;
}

/** A full garbage collection, without needing `--expose-gc` on the command line. */
function gcFunction(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

const HOST: Record<Environment, string> = { cert: 'api.cert.sim.tds.test', prod: 'api.prod.sim.tds.test' };

export function runSoak(options: SoakOptions = {}): SoakResult {
  const total = options.ops ?? 200_000;
  const window = options.window ?? 10_000;
  const log = options.log ?? (() => undefined);
  const gc = gcFunction();
  const clock = new ManualClock();
  const accounts = defaultAccounts(42);
  const core = new SimCore({ clock, accounts: accounts.accounts, seed: 42 });
  const random = new Random(options.seed ?? 7);
  const shared = accounts.main.cert;
  let messageCounter = 0;

  const soap = (account: SimAccount, action: string, security: RequestSecurity, body: SoapBody, conversationId: string): SimRequest => ({
    env: 'cert',
    method: 'POST',
    path: '/websvc',
    query: '',
    headers: { host: HOST.cert, 'content-type': 'text/xml; charset=utf-8', soapaction: 'OTA' },
    body: buildRequest({
      header: makeRequestHeader({ action, cpaId: account.pcc, conversationId, messageId: `mid-${++messageCounter}@bench`, now: new Date(clock.now()) }),
      security,
      body,
    }),
  });
  const login = (a: SimAccount): RequestSecurity => usernameToken({ username: a.epr, password: a.password, organization: a.pcc, domain: a.soapDomain });
  const restToken = (a: SimAccount): SimRequest => ({
    env: 'cert', method: 'POST', path: TOKEN_PATH, query: '',
    headers: { host: HOST.cert, 'content-type': FORM_CONTENT_TYPE, authorization: basicAuthorization({ ...clientIdFor(a), password: a.password }) },
    body: `grant_type=${GRANT_TYPE}`,
  });
  const apiCall = (token: string): SimRequest => ({
    env: 'cert', method: 'GET', path: '/v1/lists/supported/shop/themes', query: '', headers: { host: HOST.cert, authorization: `Bearer ${token}` }, body: '',
  });

  const outcomes: Record<string, number> = {};
  const windows: SoakWindow[] = [];
  let handleMs = 0;
  let windowOps = 0;
  let done = 0;
  const call = (req: SimRequest): string => {
    const t = performance.now();
    const answer = core.handle(req);
    handleMs += performance.now() - t;
    windowOps++;
    done++;
    const outcome = core.events.since(core.events.lastSeq - 1)[0]?.outcome ?? 'none';
    outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    return answer.kind === 'response' ? answer.body : '';
  };
  const soapToken = (xml: string): string | undefined => /BinarySecurityToken[^>]*>([^<]+)</.exec(xml)?.[1];

  gc();
  const heapBeforeBytes = process.memoryUsage().heapUsed;
  const recentTokens: string[] = [];
  const sharedSessions: string[] = [];
  let caseNo = 0;
  while (done < total) {
    // One case of the model: a fresh account (pool 3, inactivity timeout 600 s), up to 25 commands.
    caseNo++;
    const account = core.addAccount('cert', { epr: `SOAK${caseNo}`, pcc: 'MDL1', password: `soak-${caseNo}-secret`, sessionTimeoutSeconds: 600, poolSize: 3 });
    const conversationId = `soak-${caseNo}`;
    const sessions: string[] = [];
    const commands = 1 + random.int(25);
    for (let c = 0; c < commands && done < total; c++) {
      const pick = random.int(100);
      if (pick < 20) {
        const token = soapToken(call(soap(account, 'SessionCreateRQ', login(account), sessionCreateRQBody({ pseudoCityCode: account.pcc }), conversationId)));
        if (token) sessions.push(token);
      } else if (pick < 35 && sessions.length) {
        const token = sessions[random.int(sessions.length)] as string;
        call(soap(account, 'OTA_PingRQ', { kind: 'binarySecurityToken', token }, otaPingRQBody({ echoData: 'soak' }), conversationId));
      } else if (pick < 45 && sessions.length) {
        const token = sessions[random.int(sessions.length)] as string;
        call(soap(account, 'SessionCloseRQ', { kind: 'binarySecurityToken', token }, sessionCloseRQBody({ pseudoCityCode: account.pcc, timeStamp: new Date(clock.now()).toISOString() }), conversationId));
      } else if (pick < 55) {
        // The model's clock moves: within the timeout, around it, or twice it.
        const kind = random.int(3);
        clock.advance(kind === 0 ? 1 + random.int(599) : kind === 1 ? 595 + random.int(11) : 1200);
      } else if (pick < 70) {
        const body = call(restToken(shared));
        const token = (JSON.parse(body) as { access_token?: string }).access_token;
        if (token) recentTokens.push(token);
        if (recentTokens.length > 32) recentTokens.shift();
      } else if (pick < 80 && recentTokens.length) {
        call(apiCall(recentTokens[random.int(recentTokens.length)] as string));
      } else if (pick < 88) {
        const token = soapToken(call(soap(shared, 'TokenCreateRQ', login(shared), tokenCreateRQBody(), conversationId)));
        if (token) recentTokens.push(token);
      } else if (pick < 95) {
        // The shared account's pool (4 sessions): opened and closed in turn, so it is often full.
        const token = soapToken(call(soap(shared, 'SessionCreateRQ', login(shared), sessionCreateRQBody({ pseudoCityCode: shared.pcc }), conversationId)));
        if (token) sharedSessions.push(token);
      } else if (sharedSessions.length) {
        const token = sharedSessions.shift() as string;
        call(soap(shared, 'SessionCloseRQ', { kind: 'binarySecurityToken', token }, sessionCloseRQBody({ pseudoCityCode: shared.pcc, timeStamp: new Date(clock.now()).toISOString() }), conversationId));
      }
      if (windowOps >= window) {
        gc();
        const w: SoakWindow = {
          ops: done,
          usPerOp: (handleMs * 1000) / windowOps,
          heapBytes: process.memoryUsage().heapUsed,
          tokens: core.tokens.size,
          events: core.events.since(0).length,
          accounts: core.accountsIn('cert').length,
        };
        windows.push(w);
        log(`  ${fmt.int(w.ops).padStart(8)} ops  ${w.usPerOp.toFixed(1).padStart(6)} µs/op  heap ${fmt.mib(w.heapBytes / 1024).padStart(8)}  tokens ${fmt.int(w.tokens).padStart(7)}  events kept ${fmt.int(w.events).padStart(7)}  accounts ${fmt.int(w.accounts).padStart(6)}`);
        handleMs = 0;
        windowOps = 0;
      }
    }
  }
  return { windows, ops: done, heapBeforeBytes, outcomes };
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({ options: { ops: { type: 'string', default: '200000' }, window: { type: 'string', default: '10000' }, seed: { type: 'string', default: '7' } } });
  const r = runSoak({ ops: Number(values.ops), window: Number(values.window), seed: Number(values.seed), log: console.log });
  const first = r.windows[0];
  const last = r.windows.at(-1);
  if (first && last) console.log(`\nper op: ${first.usPerOp.toFixed(1)} µs in the first window, ${last.usPerOp.toFixed(1)} µs in the last (×${(last.usPerOp / first.usPerOp).toFixed(2)})`);
  console.log(`outcomes: ${JSON.stringify(r.outcomes)}`);
}

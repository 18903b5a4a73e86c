import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DriverAnswer, DriverCredentials, DriverEnvironment, Environment, RestCallResult } from '../../../harness/clients/protocol.ts';
import { basicAuthorization, clientIdFor } from '../../../harness/credentials/index.ts';
import { DriftingClock, SimCore, defaultAccounts, startSimServer, type SimAccount, type SimEvent, type SimServer } from '../../../harness/sim/index.ts';

/**
 * The Python reference driver against the simulator on loopback: proof that the driver protocol is language-neutral.
 * Every check reads what the driver did from the simulator's event log.
 */

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..', '..');
const THEMES = '/v1/lists/supported/shop/themes';
const pythonEnv = { ...process.env, PYTHONDONTWRITEBYTECODE: '1', PYTHONIOENCODING: 'utf-8', TDS_DRIVER_QUIET: '1' };

type Answer = DriverAnswer;

/** The driver process and the harness's side of the protocol: requests by id, answers matched by id. */
class DriverProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly stray: string[] = [];
  readonly exited: Promise<number | null>;
  #nextId = 1;
  #waiting = new Map<number, (answer: Answer) => void>();
  #unmatched: Answer[] = [];
  #onUnmatched: ((answer: Answer) => void) | undefined;

  constructor(command: string, args: readonly string[]) {
    this.child = spawn(command, args, { cwd: root, env: pythonEnv, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stderr.resume();
    this.exited = new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
    const lines = createInterface({ input: this.child.stdout, crlfDelay: Infinity });
    lines.on('line', (line) => {
      let parsed: Answer;
      try {
        parsed = JSON.parse(line) as Answer;
      } catch {
        this.stray.push(line);
        return;
      }
      const resolve = this.#waiting.get(parsed.id);
      if (resolve) {
        this.#waiting.delete(parsed.id);
        resolve(parsed);
      } else if (this.#onUnmatched) {
        this.#onUnmatched(parsed);
        this.#onUnmatched = undefined;
      } else {
        this.#unmatched.push(parsed);
      }
    });
  }

  /** Sends one request (any JSON object: off-protocol ones too) and resolves with its answer. */
  request(body: Record<string, unknown>): Promise<Answer> {
    const id = this.#nextId++;
    const answered = new Promise<Answer>((resolve, reject) => {
      this.#waiting.set(id, resolve);
      this.exited.then((code) => {
        if (this.#waiting.delete(id)) reject(new Error(`the driver exited (${String(code)}) before answering request ${id}`));
      }, reject);
    });
    this.child.stdin.write(`${JSON.stringify({ id, ...body })}\n`);
    return answered;
  }

  /** Writes a raw line; the answer is the next one not matched by id (for lines that have none). */
  raw(line: string): Promise<Answer> {
    const answered = new Promise<Answer>((resolve) => {
      const early = this.#unmatched.shift();
      if (early) resolve(early);
      else this.#onUnmatched = resolve;
    });
    this.child.stdin.write(`${line}\n`);
    return answered;
  }

  async restCall(environment: Environment, method: string, path: string, body?: unknown): Promise<RestCallResult> {
    const answer = await this.request({ op: 'rest.call', environment, method, path, ...(body !== undefined && { body }) });
    if (!answer.ok) throw new Error(`rest.call failed: ${JSON.stringify(answer.error)}`);
    return answer.result as RestCallResult;
  }

  /** Answers that matched no request the test was waiting for. */
  get unmatched(): readonly Answer[] {
    return this.#unmatched;
  }

  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    this.child.stdin.destroy();
  }
}

function credentials(account: SimAccount, restDomain?: string): DriverCredentials {
  return { epr: account.epr, pcc: account.pcc, password: account.password, ...(restDomain !== undefined && { restDomain }) };
}

const clock = new DriftingClock();
const accounts = defaultAccounts(7);
const core = new SimCore({ clock, accounts: accounts.accounts, seed: 7 });
let server: SimServer;
let driver: DriverProcess;
let mark = 0;

/** The environments of the driver's configure: CERT without a domain (the client's default), PROD with `AA`. */
function environments(cert: DriverCredentials = credentials(accounts.main.cert)): Partial<Record<Environment, DriverEnvironment>> {
  return {
    cert: { ...server.urls.cert, credentials: cert },
    prod: { ...server.urls.prod, credentials: credentials(accounts.main.prod, 'AA') },
  };
}

async function configure(cert?: DriverCredentials): Promise<void> {
  const answer = await driver.request({ op: 'configure', environments: environments(cert), sessionPoolSize: 4 });
  expect(answer).toEqual({ id: answer.id, ok: true, result: {} });
}

/** What the driver did since the test began. */
function events(): readonly SimEvent[] {
  return core.events.since(mark);
}
const tokenRequests = () => events().filter((e) => e.path === '/v2/auth/token');
const issued = () => events().filter((e) => e.outcome === 'token-issued');
const apiCalls = () => events().filter((e) => e.path !== '/v2/auth/token');

beforeAll(async () => {
  server = await startSimServer(core);
  driver = new DriverProcess('python3', [join('examples', 'clients', 'python', 'driver.py')]);
});

afterAll(async () => {
  driver.kill();
  await driver.exited;
  await server.close();
});

describe('python reference driver', () => {
  beforeEach(async () => {
    // A configure resets the client (no token survives it); the events of the test start after it.
    await configure();
    mark = core.events.lastSeq;
  });

  it('builds the credentials as the harness does and requests the token as REST-01 says (CRED-01/02/04, REST-01)', async () => {
    expect(await driver.restCall('cert', 'GET', THEMES)).toMatchObject({ status: 200 });
    const [request] = tokenRequests();
    expect(request).toMatchObject({ env: 'cert', method: 'POST', outcome: 'token-issued', clientId: 'V1:7971:Z2NL:AA', body: 'grant_type=client_credentials' });
    expect(request?.headers.authorization).toBe(basicAuthorization({ ...clientIdFor(accounts.main.cert), password: accounts.main.cert.password }));
    expect(request?.headers['content-type']).toBe('application/x-www-form-urlencoded');
  });

  it('obtains a token with ":" and non-ASCII in the user ID and password (UTF-8, double base64)', async () => {
    const odd = core.addAccount('cert', { epr: 'us:er', pcc: 'Z2NL', password: 'pä:ss wörd+/=€' });
    await configure(credentials(odd));
    mark = core.events.lastSeq;
    expect(await driver.restCall('cert', 'GET', THEMES)).toMatchObject({ status: 200 });
    expect(tokenRequests().map((e) => [e.outcome, e.clientId])).toEqual([['token-issued', 'V1:us:er:Z2NL:AA']]);
  });

  it('reuses its token: three calls, one token request, the same bearer header each time (API-03, API-04)', async () => {
    for (let i = 0; i < 3; i++) expect(await driver.restCall('cert', 'GET', THEMES)).toMatchObject({ status: 200 });
    expect(issued()).toHaveLength(1);
    const token = issued()[0]?.tokenIssued;
    expect(token).toEqual(expect.any(String));
    expect(apiCalls().map((e) => [e.env, e.method, e.outcome, e.headers.authorization])).toEqual(
      Array.from({ length: 3 }, () => ['cert', 'GET', 'api-ok', `Bearer ${token ?? ''}`]),
    );
  });

  it('sends an upper-case method and a JSON body on POST, whatever case it was asked with (API-03)', async () => {
    const result = await driver.restCall('cert', 'post', '/v2.0.0/GetHotelRateInfoRQ', { GetHotelRateInfoRQ: { SearchCriteria: {} } });
    expect(result.status).toBe(200);
    const [call] = apiCalls();
    expect(call).toMatchObject({ env: 'cert', method: 'POST', path: '/v2.0.0/GetHotelRateInfoRQ', outcome: 'api-ok' });
    expect(call?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(call?.body ?? '')).toEqual({ GetHotelRateInfoRQ: { SearchCriteria: {} } });
  });

  it('makes one token request for five concurrent first calls (API-05)', async () => {
    const results = await Promise.all(Array.from({ length: 5 }, () => driver.restCall('cert', 'GET', THEMES)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(tokenRequests()).toHaveLength(1);
    const token = issued()[0]?.tokenIssued;
    expect(apiCalls().map((e) => e.headers.authorization)).toEqual(Array.from({ length: 5 }, () => `Bearer ${token ?? ''}`));
  });

  it('obtains a new token once the old one expired on the service and goes on (LIFE-03)', async () => {
    expect(await driver.restCall('cert', 'GET', THEMES)).toMatchObject({ status: 200 });
    const first = issued()[0]?.tokenIssued;
    clock.advance(604801);
    expect(await driver.restCall('cert', 'GET', THEMES)).toMatchObject({ status: 200 });
    expect(await driver.restCall('cert', 'GET', THEMES)).toMatchObject({ status: 200 });
    const second = issued()[1]?.tokenIssued;
    expect(second).toEqual(expect.any(String));
    expect(second).not.toBe(first);
    expect(events().map((e) => [e.outcome, e.tokenUsed ?? e.tokenIssued])).toEqual([
      ['token-issued', first],
      ['api-ok', first],
      ['api-refused-token', first],
      ['token-issued', second],
      ['api-ok', second],
      ['api-ok', second],
    ]);
  });

  it('reports invalid_client as an auth error with code and description, and does not retry in a loop (ERR-06)', async () => {
    await configure({ ...credentials(accounts.main.cert), password: 'not-the-password' });
    mark = core.events.lastSeq;
    for (let i = 0; i < 2; i++) {
      const answer = await driver.request({ op: 'rest.call', environment: 'cert', method: 'GET', path: THEMES });
      expect(answer).toEqual({
        id: answer.id,
        ok: false,
        error: { kind: 'auth', message: expect.any(String), code: 'invalid_client', description: 'Wrong clientID or clientSecret' },
      });
    }
    expect(events().map((e) => e.outcome)).toEqual(['token-refused-credentials', 'token-refused-credentials']);
  });

  it('keeps the environments apart: each token from and to its own environment (ENV-02)', async () => {
    for (const env of ['cert', 'prod', 'cert', 'prod'] as const) expect(await driver.restCall(env, 'GET', THEMES)).toMatchObject({ status: 200 });
    const tokenEnv = new Map(issued().map((e) => [e.tokenIssued, e.env]));
    expect(issued().map((e) => e.env)).toEqual(['cert', 'prod']);
    expect(apiCalls().map((e) => [e.env, e.outcome])).toEqual([['cert', 'api-ok'], ['prod', 'api-ok'], ['cert', 'api-ok'], ['prod', 'api-ok']]);
    for (const call of apiCalls()) expect(tokenEnv.get(call.tokenUsed)).toBe(call.env);
  });

  it('answers unsupported to the SOAP ops and to an unknown op', async () => {
    const requests = [
      { op: 'soap.call', environment: 'cert', action: 'BargainFinderMaxRQ' },
      { op: 'soap.session.open', environment: 'cert' },
      { op: 'soap.session.call', session: 's1', action: 'OTA_PingRQ' },
      { op: 'soap.session.close', session: 's1' },
      { op: 'no.such.op' },
    ];
    for (const request of requests) {
      const answer = await driver.request(request);
      expect(answer).toEqual({ id: answer.id, ok: false, error: { kind: 'unsupported', message: expect.any(String) } });
    }
    expect(events()).toEqual([]);
  });

  it('answers a line that is not JSON with a protocol error and keeps serving', async () => {
    expect(await driver.raw('this is not json')).toEqual({ id: -1, ok: false, error: { kind: 'protocol', message: 'the request line is not JSON' } });
    expect(await driver.restCall('cert', 'GET', THEMES)).toMatchObject({ status: 200 });
  });

  it('reports an environment that was not configured as a protocol error', async () => {
    await driver.request({ op: 'configure', environments: { cert: environments().cert }, sessionPoolSize: 4 });
    const answer = await driver.request({ op: 'rest.call', environment: 'prod', method: 'GET', path: THEMES });
    expect(answer).toEqual({ id: answer.id, ok: false, error: { kind: 'protocol', message: 'environment "prod" is not configured' } });
  });

  it('prints only answers on stdout, one per request', () => {
    expect(driver.stray).toEqual([]);
    expect(driver.unmatched).toEqual([]);
  });

  it('answers shutdown and exits with code 0', async () => {
    const answer = await driver.request({ op: 'shutdown' });
    expect(answer).toEqual({ id: answer.id, ok: true, result: {} });
    expect(await driver.exited).toBe(0);
  });
});

describe('python unit tests', () => {
  it('pass (python3 -m unittest discover)', () => {
    const run = spawnSync('python3', ['-m', 'unittest', 'discover', '-s', join('examples', 'clients', 'python')], { cwd: root, env: pythonEnv, encoding: 'utf8' });
    expect(run.error).toBeUndefined();
    expect({ status: run.status, stderr: run.status === 0 ? '' : run.stderr }).toEqual({ status: 0, stderr: '' });
  });
});

/**
 * No secret leaves a run: random passwords (with `:`, `+`, `/`, `=`, `%`, quotes, backslashes and non-ASCII) on a
 * simulator served as a live target, with defects that make checks fail and put credentials and tokens into
 * answers, errors, counterexamples and evidence. Every output of the run is searched for every form a secret takes
 * on the wire and in files: the report files, every line the run logged, and the CLI's standard output and error.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { Report } from '../../harness/report/index.ts';
import { encodeCredentials } from '../../harness/credentials/index.ts';
import { sharedRun } from '../support/shared-session.ts';
import { DriftingClock, SimCore, simAccount, SOAP_PATH, type SimServer } from '../../harness/sim/index.ts';
import { ENVIRONMENTS, TOKEN_PATH, type Environment } from '../../harness/catalog/index.ts';
import { PACKAGE_ROOT } from '../../harness/package-info.ts';
import { cleanUp, NO_PROXY_ENV, onCleanUp, serveSimulator, setEnv, tempDir, writeTargetConfig } from './support.ts';

afterEach(cleanUp);

/**
 * Defects that make checks fail with credentials and tokens in what the target sent back: the client secret quoted
 * in the error description of a refused token request, and that refusal judged wrong (an unknown client ID with
 * the real password: its answer, quoting the password, in the evidence); a token response judged wrong (its token
 * in the evidence); a TokenCreateRS judged wrong (its BinarySecurityToken, and the request's wsse:Password, in the
 * evidence); a fault without the token (the token sent, in the evidence); single-base64 credentials accepted (the
 * password in a counterexample); a token inside an authentication fault.
 */
const LEAKY_DEFECTS = [
  'err03-secret-echoed',
  'err03-secret-start-echoed',
  'err02-unauthorized-client',
  'rest03-token-type-capitalized',
  'stok01-wrong-action',
  'err04-token-not-quoted',
  'err01-single-base64-accepted',
  'stok03-token-in-fault',
] as const;

/** Rules those defects break on every case: the run must have failed them, or the test proves nothing. */
const BROKEN = ['ERR-02', 'ERR-04', 'REST-03', 'STOK-01', 'STOK-03'] as const;

const EPR = '7971';
const PCC = 'Z2NL';
const CLIENT_ID = `V1:${EPR}:${PCC}:AA`;

const TRICKY = [':', '+', '/', '=', '%', 'é', 'ß', 'Ω', '中', '🙂', '"', '\\', '&', '<', "'", '~', '!', '*', '?'];
const ALNUM = [...'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789'];

/**
 * A password of 10 to 18 characters: at least four of the tricky ones, the rest letters and digits, no character
 * twice (so that no form of it can turn up in a report by chance, as a run of `A`s could in base64).
 */
const passwordArb = fc
  .tuple(fc.shuffledSubarray(TRICKY, { minLength: 4, maxLength: 6 }), fc.shuffledSubarray(ALNUM, { minLength: 6, maxLength: 12 }))
  .chain(([tricky, plain]) => fc.shuffledSubarray([...tricky, ...plain], { minLength: tricky.length + plain.length }))
  .map((chars) => chars.join(''));

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

/**
 * How text is escaped in JSON (as is, with `\uXXXX` for non-ASCII, with `\/`) and in XML or HTML (quotes as named or
 * numeric references, or left as they are in XML text).
 */
const ESCAPES: readonly ((text: string) => string)[] = [
  (t) => JSON.stringify(t).slice(1, -1),
  (t) => JSON.stringify(t).slice(1, -1).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
  (t) => JSON.stringify(t).slice(1, -1).replaceAll('/', '\\/'),
  ...[['quot', 'apos'], ['quot', '#39'], ['#34', '#39'], ['#x22', '#x27'], ['', '']].map(
    ([quot, apos]) => (t: string) => t.replace(/[&<>"']/g, (c) => (c === '"' && !quot) || (c === "'" && !apos) ? c : `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': quot, "'": apos }[c]};`),
  ),
];

/**
 * The forms text takes, written here independently of redact.ts: as is, URL-encoded (upper- and lower-case hex,
 * form encoding), base64 (padded, unpadded, base64url); each of them also escaped once or twice for JSON, XML or
 * HTML (a JSON answer quoted in report.json is escaped twice).
 */
function textForms(text: string): string[] {
  const uri = encodeURIComponent(text);
  const plain = [
    text,
    uri,
    uri.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()),
    new URLSearchParams({ v: text }).toString().slice(2),
    b64(text),
    b64(text).replace(/=+$/, ''),
    Buffer.from(text, 'utf8').toString('base64url'),
  ];
  const once = plain.flatMap((f) => ESCAPES.map((escape) => escape(f)));
  const twice = once.flatMap((f) => ESCAPES.map((escape) => escape(f)));
  return [...new Set([...plain, ...once, ...twice])];
}

/** Every form of a password: its own, and those of the REST credentials built from it (single and double base64). */
function passwordForms(password: string): string[] {
  const inner = `${b64(CLIENT_ID)}:${b64(password)}`;
  const credentials = [b64(`${CLIENT_ID}:${password}`), inner, b64(inner), b64(inner).replace(/=+$/, ''), encodeURIComponent(b64(inner)), b64(b64(inner))];
  // err03-secret-start-echoed quotes the first 12 characters of the secret a token request sent.
  const start = password.length > 12 ? textForms(password.slice(0, 12)) : [];
  return [...textForms(password), ...start, ...credentials.flatMap((c) => [c, ...ESCAPES.map((escape) => escape(c))])];
}

/** Every token the simulator issued (REST, TokenCreate, session tokens). */
function issuedTokens(core: SimCore): string[] {
  return [...new Set(core.events.since().flatMap((e) => (e.tokenIssued ? [e.tokenIssued] : [])))];
}

/** The text of every file under `dir`. */
function filesIn(dir: string): { name: string; text: string }[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => ({ name: join(d.parentPath, d.name).slice(dir.length + 1), text: readFileSync(join(d.parentPath, d.name), 'utf8') }));
}

/** The length of the pieces of a secret's encodings that must not appear either (see {@link pieces}). */
const PIECE = 10;

/**
 * Pieces of a password's encodings: every run of {@link PIECE} characters of the password, of its base64, and of
 * the part of the double-base64 Basic value that encodes it. Redaction may not leave a credential half there: a
 * garbled `Basic …` value that is only partly masked still gives the password away.
 */
function pieces(password: string): string[] {
  const clientIdPart = `${b64(CLIENT_ID)}:`;
  const basic = b64(`${clientIdPart}${b64(password)}`);
  // The characters of the outer base64 that depend on the password's bytes only.
  const passwordPart = basic.slice(Math.ceil((Buffer.byteLength(clientIdPart) * 8) / 6)).replace(/=+$/, '');
  const runs = (text: string) => Array.from({ length: Math.max(0, text.length - PIECE + 1) }, (_, i) => text.slice(i, i + PIECE));
  return [...runs(password), ...runs(b64(password).replace(/=+$/, '')), ...runs(passwordPart)];
}

interface Secret {
  readonly label: string;
  readonly forms: readonly string[];
}

/** `[output, secret, form]` for each secret that occurs in an output (the first of its forms found); `[]` when none. */
function leaks(outputs: readonly { name: string; text: string }[], secrets: readonly Secret[]): string[][] {
  const found: string[][] = [];
  for (const output of outputs) {
    for (const secret of secrets) {
      const form = secret.forms.find((f) => output.text.includes(f));
      if (form !== undefined) found.push([output.name, secret.label, form]);
    }
  }
  return found;
}

/** The simulator with two accounts (CERT and PROD) of these passwords and the leaky defects, and a config file for it. */
async function leakyTarget(certPassword: string, prodPassword: string) {
  const dir = tempDir('secrets');
  const { core, server } = await serveSimulator({
    accounts: { cert: [simAccount({ epr: EPR, pcc: PCC, password: certPassword })], prod: [simAccount({ epr: EPR, pcc: PCC, password: prodPassword })] },
    defects: LEAKY_DEFECTS,
  });
  setEnv({ ...NO_PROXY_ENV, TDS_TEST_SECRET_CERT: certPassword, TDS_TEST_SECRET_PROD: prodPassword, GITHUB_ACTIONS: undefined });
  const config = writeTargetConfig(dir, 'target.json', {
    name: 'leaky simulator',
    environments: server.urls,
    accounts: { cert: { epr: EPR, pcc: PCC, passwordEnv: 'TDS_TEST_SECRET_CERT' }, prod: { epr: EPR, pcc: PCC, passwordEnv: 'TDS_TEST_SECRET_PROD' } },
  });
  return { dir, core, config };
}

function secretsOf(core: SimCore, passwords: readonly string[]): { tokens: string[]; secrets: Secret[] } {
  const tokens = issuedTokens(core);
  return {
    tokens,
    secrets: [
      ...passwords.map((p, i) => ({ label: `password ${i + 1}`, forms: passwordForms(p) })),
      ...passwords.map((p, i) => ({ label: `piece of password ${i + 1}`, forms: pieces(p) })),
      ...tokens.map((t, i) => ({ label: `token ${i + 1}`, forms: textForms(t) })),
    ],
  };
}

function expectBroken(report: Report): void {
  for (const id of BROKEN) expect([id, report.rules.find((r) => r.id === id)?.status]).toEqual([id, 'fail']);
}

describe('secrets in the outputs of a live run', () => {
  it('no password, credential or issued token appears in any report file or log line, in any encoding', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(passwordArb, { minLength: 2, maxLength: 2 }), async ([certPassword = '', prodPassword = '']) => {
        try {
          const { dir, core, config } = await leakyTarget(certPassword, prodPassword);
          const outDir = join(dir, 'reports');
          const logged: string[] = [];
          const { report, exitCode } = await sharedRun({ budget: { requestsPerSecond: 1000 }, target: config, suite: 'service', outDir, write: true, quiet: false, log: (line) => logged.push(line) });
          expectBroken(report);
          expect(exitCode).toBe(1);

          const { tokens, secrets } = secretsOf(core, [certPassword, prodPassword]);
          expect(tokens.length).toBeGreaterThan(5);
          const outputs = [...filesIn(outDir), { name: 'log', text: logged.join('\n') }];
          expect(outputs.map((o) => o.name).sort()).toEqual(['junit.xml', 'log', 'profile.json', 'report.earl.jsonld', 'report.html', 'report.json', 'report.md']);
          expect(leaks(outputs, secrets)).toEqual([]);
        } finally {
          await cleanUp();
        }
      }),
      { numRuns: 3, seed: 20260101, endOnFailure: true },
    );
  }, 600_000);

  it('the CLI prints no secret on standard output or error (with GitHub annotations on)', async () => {
    const certPassword = 'Ωp:ss+w/rd=%"\\é中🙂';
    const prodPassword = "Pr0d&<'~*?+/=:%ß";
    const { dir, core, config } = await leakyTarget(certPassword, prodPassword);
    const outDir = join(dir, 'cli-reports');
    const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      execFile(
        process.execPath,
        ['bin/tds-conformance.js', 'run', '--target', config, '--rate', '1000', '--out', outDir],
        { cwd: PACKAGE_ROOT, env: { ...process.env, GITHUB_ACTIONS: 'true', NO_COLOR: '1' }, maxBuffer: 64 * 1024 * 1024, timeout: 400_000 },
        (err, out, errOut) => {
          if (err && typeof err.code !== 'number') reject(err);
          else resolve({ code: err ? (err.code as number) : 0, stdout: out, stderr: errOut });
        },
      );
    });
    expect(code).toBe(1);
    const report = JSON.parse(readFileSync(join(outDir, 'report.json'), 'utf8')) as Report;
    expectBroken(report);
    // The annotations are there, and say what failed.
    expect(stdout).toMatch(/^::error title=REST-03::/m);
    expect(stderr).toMatch(/^live target: \d+ tokens created, \d+ sessions opened, \d+ closed$/m);

    const { secrets } = secretsOf(core, [certPassword, prodPassword]);
    const outputs = [...filesIn(outDir), { name: 'stdout', text: stdout }, { name: 'stderr', text: stderr }];
    expect(leaks(outputs, secrets)).toEqual([]);
  }, 420_000);
});

/** The last two base64 alphabets' characters and padding: anything else in a Basic value is not base64. */
const NOT_BASE64 = /[^A-Za-z0-9+/=]/;

/**
 * A target with a lenient base64 decoder (as Node's `Buffer.from(…, 'base64')` and many MIME decoders are): in the
 * outer layer of the REST credentials it skips characters outside the alphabet instead of refusing them. So a
 * Basic value with a stray character in the part that encodes the password reads as a wrong secret, not as a
 * syntax error, and ERR-01 fails with exactly such a value as its counterexample: most of the credential, intact.
 * Everything else is the simulator's own answer.
 */
async function serveLenientDecoder(core: SimCore): Promise<SimServer['urls']> {
  const urls = {} as Record<Environment, { restBaseUrl: string; soapUrl: string }>;
  for (const env of ENVIRONMENTS) {
    const sockets = new Set<Socket>();
    const server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://target');
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
        const value = /^Basic (\S+)$/.exec(headers.authorization ?? '')?.[1];
        if (url.pathname === TOKEN_PATH && value !== undefined && NOT_BASE64.test(value)) {
          const outer = Buffer.from(value, 'base64').toString('utf8');
          const colon = outer.indexOf(':');
          if (colon > 0) {
            const layer = (text: string) => Buffer.from(text, 'base64').toString('utf8');
            headers.authorization = `Basic ${encodeCredentials(layer(outer.slice(0, colon)), layer(outer.slice(colon + 1)))}`;
          }
        }
        const answer = core.handle({ env, method: req.method ?? 'GET', path: url.pathname, query: url.search.slice(1), headers, body: Buffer.concat(chunks).toString('utf8') });
        if (answer.kind === 'response') res.writeHead(answer.status, answer.headers).end(answer.body);
        else req.socket.destroy();
      });
    });
    server.on('connection', (s: Socket) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    onCleanUp(async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    urls[env] = { restBaseUrl: base, soapUrl: `${base}${SOAP_PATH}` };
  }
  return urls;
}

describe('secrets in a garbled credential', () => {
  it('a Basic value with a character outside base64 in its counterexample and evidence is masked whole', async () => {
    const password = 'Kq7:Zt+w/9=%ém中Rx';
    const dir = tempDir('garbled');
    const core = new SimCore({ clock: new DriftingClock(), accounts: { cert: [simAccount({ epr: EPR, pcc: PCC, password })], prod: [] } });
    const urls = await serveLenientDecoder(core);
    setEnv({ ...NO_PROXY_ENV, TDS_TEST_GARBLED_CERT: password });
    const config = writeTargetConfig(dir, 'target.json', {
      name: 'lenient base64 decoder',
      environments: { cert: urls.cert },
      accounts: { cert: { epr: EPR, pcc: PCC, passwordEnv: 'TDS_TEST_GARBLED_CERT' } },
    });
    const outDir = join(dir, 'reports');
    const logged: string[] = [];
    // Enough cases that some put the stray character into the part of the value that encodes the password.
    const { report } = await sharedRun({ budget: { requestsPerSecond: 1000 }, target: config, only: ['ERR-01'], runs: 25, outDir, quiet: false, log: (line) => logged.push(line) });

    const rule = report.rules.find((r) => r.id === 'ERR-01');
    const failed = rule?.checks.find((c) => c.status === 'fail');
    expect(rule?.status).toBe('fail');
    // The counterexample holds garbled Basic values, and they are masked.
    const counterexample = failed?.status === 'fail' ? failed.counterexample : undefined;
    expect(counterexample).toMatch(/"kind":"bad-base64","label":"a \\"[^"]+\\" in the outer layer","header":"Basic «redacted»"/);
    const outputs = [...filesIn(outDir), { name: 'log', text: logged.join('\n') }];
    expect(leaks(outputs, secretsOf(core, [password]).secrets)).toEqual([]);
  }, 300_000);
});

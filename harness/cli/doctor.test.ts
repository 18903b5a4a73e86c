import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTransport, knowledge, type Target } from '../targets/index.ts';
import { diagnose } from './doctor.ts';

let server: Server;
let base: string;
const DATE = Date.UTC(2026, 10, 21, 12, 0, 0);

beforeAll(async () => {
  server = createServer((_req, res) => res.writeHead(404, { date: new Date(DATE).toUTCString() }).end());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

function target(restBaseUrl: string, soapUrl: string): Target {
  return {
    ...knowledge(),
    name: 't', kind: 'live', environments: { cert: { restBaseUrl, soapUrl } }, accounts: {}, sessionPoolSize: undefined,
    sessionTimeoutSeconds: 900, slotReleaseMs: 3_000, allowOptIn: false, transport: createTransport({ timeoutMs: 2_000 }), control: undefined, close: async () => undefined,
  };
}
const loopback = async () => ({ address: '127.0.0.1' });

describe('doctor', () => {
  it('reports DNS, reachability and a small clock skew as fine, without sending credentials', async () => {
    const t = target(base, `${base}/websvc`);
    const lines = await diagnose(t, () => DATE + 5_000, loopback);
    await t.transport.close();
    expect(lines.map((l) => [l.ok, l.what])).toEqual([
      [true, 'cert REST DNS'], [true, 'cert REST reachable'], [true, 'cert REST clock skew'],
      [true, 'cert SOAP DNS'], [true, 'cert SOAP reachable'], [true, 'cert SOAP clock skew'],
    ]);
    expect(lines[2]?.detail).toBe('+5 s against the service');
  });

  it('flags a clock skew over a minute, saying what to do', async () => {
    const t = target(base, `${base}/websvc`);
    const lines = await diagnose(t, () => DATE - 300_000, loopback);
    await t.transport.close();
    expect(lines[2]).toEqual({ ok: false, what: 'cert REST clock skew', detail: "-300 s against the service: set this machine's clock (NTP) before judging lifetimes" });
  });

  it('names a host that does not resolve, and an address that cannot be reached', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const t = target(`http://127.0.0.1:${port}`, 'https://no-such-host.invalid/websvc');
    const lines = await diagnose(t, Date.now, async (h) => {
      if (h === '127.0.0.1') return { address: h };
      throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    });
    await t.transport.close();
    expect(lines[1]).toMatchObject({ ok: false, what: 'cert REST reachable' });
    expect(lines[1]?.detail).toMatch(new RegExp(`^cannot reach http://127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\): check the address`));
    expect(lines[2]).toEqual({ ok: false, what: 'cert SOAP DNS', detail: 'no-such-host.invalid does not resolve (ENOTFOUND): check the address and your DNS' });
  });
});

import { lookup } from 'node:dns/promises';
import { resolveTarget } from '../runner.ts';
import { createLiveTarget, TransportError, type Target } from '../targets/index.ts';
import { parse } from './args.ts';

const HELP = `Usage: tds-conformance doctor --target <cert|file.json>

Checks a live target without spending a token: the config and its secrets, DNS, TCP/TLS reachability of every
configured address, and the clock skew between this machine and the service (token lifetimes and session
timeouts are judged on the service's clock). Exit code 0 when all is well, 2 for a config problem, 3 when an
address cannot be reached.`;

export interface DoctorLine {
  readonly ok: boolean;
  readonly what: string;
  readonly detail: string;
}

/** Largest clock skew that does not get a warning. */
const MAX_SKEW_SECONDS = 60;

/** Probes every address of a target: DNS, a plain GET of the origin (no credentials), the `Date` header's skew. */
export async function diagnose(
  target: Target,
  now: () => number = Date.now,
  resolve: (hostname: string) => Promise<{ address: string }> = (h) => lookup(h),
): Promise<DoctorLine[]> {
  const lines: DoctorLine[] = [];
  const urls = Object.entries(target.environments).flatMap(([env, e]) => (e ? [[`${env} REST`, e.restBaseUrl], [`${env} SOAP`, e.soapUrl]] : []));
  for (const [label, url] of urls as [string, string][]) {
    const { hostname, origin } = new URL(url);
    try {
      const address = await resolve(hostname);
      lines.push({ ok: true, what: `${label} DNS`, detail: `${hostname} → ${address.address}` });
    } catch (err) {
      lines.push({ ok: false, what: `${label} DNS`, detail: `${hostname} does not resolve (${(err as { code?: string }).code ?? 'error'}): check the address and your DNS` });
      continue;
    }
    try {
      const res = await target.transport.request({ method: 'GET', url: origin, timeoutMs: 10_000 });
      lines.push({ ok: true, what: `${label} reachable`, detail: `${origin} answered ${res.status}${origin.startsWith('https') ? ' over TLS' : ''} in ${Math.round(res.durationMs)} ms` });
      const date = res.headers.date ? Date.parse(res.headers.date) : Number.NaN;
      if (Number.isFinite(date)) {
        const skew = Math.round((now() - date) / 1000);
        lines.push({
          ok: Math.abs(skew) <= MAX_SKEW_SECONDS,
          what: `${label} clock skew`,
          detail: `${skew >= 0 ? '+' : ''}${skew} s against the service${Math.abs(skew) > MAX_SKEW_SECONDS ? ': set this machine\'s clock (NTP) before judging lifetimes' : ''}`,
        });
      }
    } catch (err) {
      const detail = err instanceof TransportError ? `${err.message}${err.code === 'TARGET_UNREACHABLE' ? ': check the address, the network, a proxy (HTTPS_PROXY) or a private CA (caFile)' : ''}` : String(err);
      lines.push({ ok: false, what: `${label} reachable`, detail });
    }
  }
  return lines;
}

export async function doctorCommand(args: readonly string[]): Promise<number> {
  const { values } = parse('doctor', args, { target: { type: 'string', default: 'cert' }, help: { type: 'boolean', default: false } });
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  const { config } = resolveTarget(values.target);
  if (!config) {
    process.stdout.write('✓ the built-in simulator needs no checks\n');
    return 0;
  }
  process.stdout.write(`✓ config: ${config.name} (${Object.keys(config.environments).join(', ')}), secrets set\n`);
  const target = createLiveTarget(config);
  try {
    const lines = await diagnose(target);
    for (const l of lines) process.stdout.write(`${l.ok ? '✓' : '✗'} ${l.what}: ${l.detail}\n`);
    return lines.some((l) => !l.ok && l.what.endsWith('reachable')) || lines.some((l) => !l.ok && l.what.endsWith('DNS')) ? 3 : 0;
  } finally {
    await target.close();
  }
}

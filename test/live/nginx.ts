/**
 * A real reverse proxy for the live-target tests: Debian's nginx (`apt-get install nginx-light`; `.ci/run` installs
 * it), started by the test on loopback with a config file of its own, in front of the simulator's CERT and PROD ports.
 * Each test gives the `location` blocks of its gateway; `{upstream}` in them stands for the environment's upstream.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { join } from 'node:path';
import type { Environment } from '../../harness/catalog/index.ts';

export const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p));

/** Why nginx cannot be used here, or `undefined` when it can. */
export function nginxMissing(): string | undefined {
  if (!NGINX) return 'nginx is not installed: apt-get install nginx-light (.ci/run does)';
  const v = spawnSync(NGINX, ['-v'], { encoding: 'utf8' });
  return v.status === 0 ? undefined : `nginx -v failed: ${v.stderr}`;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

async function accepting(port: number, deadline: number): Promise<void> {
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const c = connect(port, '127.0.0.1');
      c.once('connect', () => (c.destroy(), resolve(true)));
      c.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`nginx did not listen on 127.0.0.1:${port} in time`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export interface Nginx {
  /** The gateway's origin per environment (`http://127.0.0.1:<port>`). */
  readonly origins: Record<Environment, string>;
  readonly errorLog: () => string;
  close(): Promise<void>;
}

/**
 * Starts nginx in front of `upstreams` (each environment's simulator origin), with `locations` (the body of each
 * `server` block, `{upstream}` replaced) and `http` (more directives of the `http` block: rate-limit zones, say); and
 * with `deadPeerEvery`, a dead peer beside each upstream.
 */
export async function startNginx(dir: string, upstreams: Record<Environment, string>, gateway: { readonly locations: string; readonly http?: string; readonly deadPeerEvery?: number }): Promise<Nginx> {
  if (!NGINX) throw new Error(nginxMissing());
  mkdirSync(dir, { recursive: true });
  const ports = { cert: await freePort(), prod: await freePort() };
  // `deadPeerEvery: n`: one request in n goes to a peer nobody listens on (never marked down), which nginx answers
  // with its 502 page when `proxy_next_upstream off` keeps it from trying the live one.
  const dead = gateway.deadPeerEvery === undefined ? undefined : await freePort();
  const upstream = (env: Environment) => `
  upstream ${env} {
    server ${new URL(upstreams[env]).host}${dead === undefined ? '' : ` weight=${gateway.deadPeerEvery! - 1}`};
    ${dead === undefined ? '' : `server 127.0.0.1:${dead} max_fails=0;`}
    keepalive 8;
  }`;
  const server = (env: Environment) => `
  server {
    listen 127.0.0.1:${ports[env]};
    ${gateway.locations.replaceAll('{upstream}', `http://${env}`)}
  }`;
  const conf = `daemon off;
master_process off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  proxy_http_version 1.1;
  proxy_set_header Connection "";
  ${gateway.http ?? ''}
  ${upstream('cert')}
  ${upstream('prod')}
  ${server('cert')}
  ${server('prod')}
}
`;
  const file = join(dir, 'nginx.conf');
  writeFileSync(file, conf);
  const child: ChildProcess = spawn(NGINX, ['-p', dir, '-e', join(dir, 'error.log'), '-c', file], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await Promise.race([
      Promise.all([accepting(ports.cert, Date.now() + 10_000), accepting(ports.prod, Date.now() + 10_000)]),
      exited.then(() => {
        throw new Error(`nginx exited: ${stderr}`);
      }),
    ]);
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  return {
    origins: { cert: `http://127.0.0.1:${ports.cert}`, prod: `http://127.0.0.1:${ports.prod}` },
    errorLog: () => (existsSync(join(dir, 'error.log')) ? readFileSync(join(dir, 'error.log'), 'utf8') : ''),
    async close() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 3_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
    },
  };
}

// The floor of a default run: a Node process that starts, serves the same number of HTTP exchanges over loopback
// with a plain node:http server (a small JSON answer, as the token endpoint gives), and exits. Plain JavaScript, no
// loader: what any run costs at the least.
//   node bench/floor.mjs [exchanges]
import { createServer } from 'node:http';

const exchanges = Number(process.argv[2] ?? 700);
const body = JSON.stringify({ access_token: 'T1RLAQ-floor', token_type: 'bearer', expires_in: 604800 });
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address();
let sent = 0;
async function worker() {
  while (sent < exchanges) {
    sent++;
    const res = await fetch(`http://127.0.0.1:${port}/v2/auth/token`, { method: 'POST', body: 'grant_type=client_credentials', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    await res.text();
  }
}
await Promise.all([worker(), worker()]);
server.close();
server.closeAllConnections();

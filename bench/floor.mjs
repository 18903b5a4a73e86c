// The floor of a run: the run's own HTTP exchanges made as cheaply as Node can, in a fresh Node process that starts,
// makes them and exits. A node:http server on loopback answers each request with the response the run got (status,
// headers, body); a node:http client with a keep-alive agent (one socket) sends the run's requests (method, path,
// headers, body) one at a time, and counts the bytes of every answer. Plain JavaScript, no loader, no fetch: what any
// run making these exchanges costs at the least.
//   node bench/floor.mjs <exchanges.json>   the exchanges bench/fixed-cost.ts writes from a run's traffic.har
//   node bench/floor.mjs <count>            that many POST /v2/auth/token exchanges (a small JSON answer)
// Prints one line of JSON: { exchanges, requestBytes, responseBytes }.
import { readFileSync } from 'node:fs';
import { Agent, createServer, request } from 'node:http';

/**
 * One exchange, as bench/fixed-cost.ts writes it: method, path (with the query), request headers, request body,
 * status, response headers, response body. Headers without host, content-length, connection, keep-alive,
 * transfer-encoding or date: this process sets what HTTP/1.1 needs.
 * @typedef {[string, string, Record<string, string>, string, number, Record<string, string>, string]} Exchange
 */

const arg = process.argv[2] ?? '700';
/** @type {Exchange[]} */
const exchanges = /^\d+$/.test(arg)
  ? Array.from({ length: Number(arg) }, () => [
    'POST', '/v2/auth/token', { 'content-type': 'application/x-www-form-urlencoded' }, 'grant_type=client_credentials',
    200, { 'content-type': 'application/json' }, JSON.stringify({ access_token: 'T1RLAQ-floor', token_type: 'bearer', expires_in: 604800 }),
  ])
  : JSON.parse(readFileSync(arg, 'utf8'));

// The wire bytes of each exchange, with their lengths, once.
const wire = exchanges.map(([method, path, reqHeaders, reqBody, status, resHeaders, resBody]) => {
  const requestBody = Buffer.from(reqBody);
  const responseBody = Buffer.from(resBody);
  return {
    method,
    path,
    requestHeaders: requestBody.length > 0 || method === 'POST' ? { ...reqHeaders, 'content-length': requestBody.length } : reqHeaders,
    requestBody,
    status,
    responseHeaders: { ...resHeaders, 'content-length': responseBody.length },
    responseBody,
  };
});

// The server answers the requests in the order they come: one at a time, the n-th request gets the n-th answer.
let answered = 0;
const server = createServer((req, res) => {
  const x = wire[answered++];
  req.resume();
  req.on('end', () => {
    res.writeHead(x.status, x.responseHeaders);
    res.end(x.responseBody);
  });
});
server.keepAliveTimeout = 60_000;
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());

const agent = new Agent({ keepAlive: true, maxSockets: 1 });
let requestBytes = 0;
let responseBytes = 0;
for (const x of wire) {
  responseBytes += await new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: x.method, path: x.path, headers: x.requestHeaders, agent }, (res) => {
      let bytes = 0;
      res.on('data', (chunk) => (bytes += chunk.length));
      res.on('end', () => resolve(bytes));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(x.requestBody);
  });
  requestBytes += x.requestBody.length;
}
const expected = wire.reduce((n, x) => n + x.responseBody.length, 0);
if (responseBytes !== expected) throw new Error(`the floor received ${responseBytes} bytes of answers, not ${expected}`);
agent.destroy();
server.close();
server.closeAllConnections();
process.stdout.write(`${JSON.stringify({ exchanges: wire.length, requestBytes, responseBytes })}\n`);

import type { Socket } from 'node:net';

/**
 * A request Node's HTTP parser refused because its method is not in upper case (`get /path HTTP/1.1`: llhttp knows
 * only upper-case methods), read from the bytes the parser had (`rawPacket` of the server's `clientError`): so that a
 * server can still answer it and a recording can still show it (API-03: "Method: Upper case").
 */
export interface LowerCaseRequest {
  readonly method: string;
  /** The request target as sent (path and query). */
  readonly target: string;
  /** Header names in lower case, as Node gives them. */
  readonly headers: Readonly<Record<string, string>>;
  /** What the packet held after the head (the body, or its start). */
  readonly body: string;
}

/** The request, or `undefined` when the packet's request line is not `<method> /<path> HTTP/1.x` with a method not in upper case. */
export function lowerCaseRequest(rawPacket: Buffer | undefined): LowerCaseRequest | undefined {
  const raw = rawPacket?.toString('latin1') ?? '';
  const headEnd = raw.indexOf('\r\n\r\n');
  const [line = '', ...fields] = (headEnd >= 0 ? raw.slice(0, headEnd) : raw).split('\r\n');
  const m = /^([A-Za-z]+) (\/\S*) HTTP\/1\.[01]$/.exec(line);
  if (!m || m[1] === m[1]!.toUpperCase()) return undefined;
  const headers: Record<string, string> = {};
  for (const field of fields) {
    const colon = field.indexOf(':');
    if (colon > 0) headers[field.slice(0, colon).trim().toLowerCase()] = field.slice(colon + 1).trim();
  }
  return { method: m[1]!, target: m[2]!, headers, body: headEnd >= 0 ? raw.slice(headEnd + 4) : '' };
}

/**
 * Answers on the socket of a request the parser refused, and closes the connection: `HTTP/1.1 <status>` with
 * `Connection: close`, the body's length and `headers` (their own length and connection fields left out). With no
 * answer given: a plain 400, for a request that is not a {@link LowerCaseRequest}.
 */
export function answerOnSocket(socket: Socket, answer: { readonly status: number; readonly headers: Readonly<Record<string, string | number>>; readonly body: string } = { status: 400, headers: {}, body: '' }): void {
  const fields = Object.entries(answer.headers).filter(([k]) => !['content-length', 'connection'].includes(k.toLowerCase())).map(([k, v]) => `${k}: ${v}`);
  const head = [`HTTP/1.1 ${answer.status} ${answer.status === 400 && answer.body === '' ? 'Bad Request' : answer.status < 400 ? 'OK' : 'Error'}`, 'Connection: close', `Content-Length: ${Buffer.byteLength(answer.body)}`, ...fields];
  socket.end(`${head.join('\r\n')}\r\n\r\n${answer.body}`);
}

/**
 * Throughput of XSD validation of generated envelopes: the fast path (one long-lived JVM, documents pipelined on its
 * stdin) next to xsd-schema-validator (one JVM per call; a few calls only) and an in-process candidate, libxml2
 * compiled to WebAssembly (harness/soap/in-process-validator.ts: the same verdicts as the fast path on every golden envelope).
 *
 *   npx tsx bench/validation.ts [--count 20000] [--library-calls 5] [--jvm-option -XX:TieredStopAtLevel=4]
 */
import { parseArgs } from 'node:util';
import { createInProcessValidator } from '../harness/soap/in-process-validator.ts';
import {
  buildRequest, buildResponse, createValidator, makeRequestHeader, otaPingRQBody, sessionCloseRQBody, sessionCreateRSBody,
  specFaultBody, tokenCreateRQBody, usernameToken, type SchemaName,
} from '../harness/soap/index.ts';
import { validateWithXsdSchemaValidator } from '../test/support/xsd-schema-validator.ts';
import { isMain } from './util.ts';

export interface ValidationOptions {
  /** Generated envelopes validated by the fast path. */
  readonly count?: number;
  /** Calls of xsd-schema-validator (one JVM each: slow). */
  readonly libraryCalls?: number;
  readonly jvmOptions?: readonly string[];
}

/** One measured way of validating: `n` documents in `ms`. */
export interface ValidationRow {
  readonly label: string;
  readonly n: number;
  readonly ms: number;
  readonly perSecond: number;
}

export interface ValidationResult {
  readonly count: number;
  readonly meanBytes: number;
  readonly buildMsPerDocument: number;
  /** JVM start and schema compilation of the fast path (once). */
  readonly startMs: number;
  readonly pipelined: ValidationRow;
  /** 32 documents in flight at a time. */
  readonly streaming: ValidationRow;
  readonly sequential: ValidationRow;
  readonly library: ValidationRow;
  /** libxml2 compiled to WebAssembly, in this thread: schema compilation (once), then one document at a time. */
  readonly wasmStartMs: number;
  readonly wasm: ValidationRow;
}

const SESSION_TOKEN = 'Shared/IDL:IceSess\\/SessMgr:1\\.0.IDL/Common/!ICESMS\\/RESE!ICESMSLB\\/RES.LB!-3177016070087638144!110012!';

/** The i-th generated envelope: requests and responses of the auth operations, every field varying with i. */
function envelope(i: number): { xml: string; schema: SchemaName } {
  const now = new Date(Date.UTC(2018, 1, 18, 16, 42, 18) + i * 1000);
  const conversationId = `conv-${i % 97}@agency.example`;
  const messageId = `mid:${i}@agency.example`;
  switch (i % 4) {
    case 0:
      return {
        schema: 'request',
        xml: buildRequest({
          header: makeRequestHeader({ action: 'TokenCreateRQ', cpaId: 'G7RE', conversationId, messageId, now }),
          security: usernameToken({ username: `epr${i}`, password: `pw&<${i}>`, organization: 'G7RE' }),
          body: tokenCreateRQBody(),
        }),
      };
    case 1:
      return {
        schema: 'request',
        xml: buildRequest({
          header: makeRequestHeader({ action: 'SessionCloseRQ', cpaId: 'G7RE', conversationId, messageId, now, version: '2.0.0' }),
          security: { kind: 'binarySecurityToken', token: `${SESSION_TOKEN}${i}` },
          body: sessionCloseRQBody({ pseudoCityCode: 'G7RE', timeStamp: now.toISOString() }),
          style: { headerShape: 'default-namespace' },
        }),
      };
    case 2:
      return {
        schema: 'request',
        xml: buildRequest({
          header: makeRequestHeader({ action: 'OTA_PingRQ', cpaId: 'G7RE', conversationId, messageId, now }),
          security: { kind: 'binarySecurityToken', token: `${SESSION_TOKEN}${i}` },
          body: otaPingRQBody({ echoData: `ping ${i}` }),
        }),
      };
    default: {
      const inReplyTo = { from: 'agency.example', to: 'webservices.sabre.com', cpaId: 'G7RE', conversationId, messageId, version: '1.0' as const };
      const fault = i % 8 === 7;
      return {
        schema: 'response',
        xml: buildResponse({
          header: { inReplyTo, action: fault ? 'ErrorRS' : 'SessionCreateRS', messageId: String(2553296011471520000n + BigInt(i)), timestamp: now },
          security: { kind: 'binarySecurityToken', token: `${SESSION_TOKEN}${i}` },
          body: fault ? specFaultBody('invalidSecurityToken', `${SESSION_TOKEN}${i}`) : sessionCreateRSBody({ conversationId }),
        }),
      };
    }
  }
}

function measured(label: string, n: number, ms: number): ValidationRow {
  return { label, n, ms, perSecond: (n / ms) * 1000 };
}

export function row({ label, n, ms, perSecond }: ValidationRow): string {
  return `${label.padEnd(44)} ${String(n).padStart(7)} ${ms.toFixed(0).padStart(9)} ms ${Math.round(perSecond).toLocaleString('en-US').padStart(11)}/s ${(ms / n).toFixed(4).padStart(10)} ms`;
}

export const ROW_HEADER = `${'path'.padEnd(44)} ${'docs'.padStart(7)} ${'total'.padStart(12)} ${'throughput'.padStart(13)} ${'mean'.padStart(13)}`;

export async function measureValidation(options: ValidationOptions = {}): Promise<ValidationResult> {
  const count = options.count ?? 20_000;
  const libraryCalls = options.libraryCalls ?? 5;
  let t = performance.now();
  const docs = Array.from({ length: count }, (_, i) => envelope(i));
  const buildMs = performance.now() - t;
  const bytes = docs.reduce((sum, d) => sum + Buffer.byteLength(d.xml), 0);

  t = performance.now();
  const validator = await createValidator({ jvmOptions: options.jvmOptions ?? [] });
  const startMs = performance.now() - t;
  let pipelined: ValidationRow;
  let streaming: ValidationRow;
  let sequential: ValidationRow;
  try {
    // Warm-up: let the JIT compile Xerces' hot paths.
    await Promise.all(docs.slice(0, Math.min(count, 5000)).map((d) => validator.validate(d.xml, d.schema)));

    t = performance.now();
    const verdicts = await Promise.all(docs.map((d) => validator.validate(d.xml, d.schema)));
    pipelined = measured('fast path, all pipelined', count, performance.now() - t);
    const invalid = verdicts.filter((v) => !v.valid).length;
    if (invalid > 0) throw new Error(`${invalid} generated envelopes were invalid: ${JSON.stringify(verdicts.find((v) => !v.valid))}`);

    t = performance.now();
    let next = 0;
    await Promise.all(Array.from({ length: 32 }, async () => {
      while (next < count) {
        const d = docs[next++];
        if (d) await validator.validate(d.xml, d.schema);
      }
    }));
    streaming = measured('fast path, streaming (32 in flight)', count, performance.now() - t);

    const n = Math.min(count, 2000);
    t = performance.now();
    for (const d of docs.slice(0, n)) await validator.validate(d.xml, d.schema);
    sequential = measured('fast path, one at a time (latency)', n, performance.now() - t);
  } finally {
    await validator.close();
  }

  t = performance.now();
  const inProcess = createInProcessValidator();
  const wasmStartMs = performance.now() - t;
  let wasm: ValidationRow;
  try {
    for (const d of docs.slice(0, Math.min(count, 2000))) inProcess.validateNow(d.xml, d.schema);
    t = performance.now();
    const refused = docs.filter((d) => !inProcess.validateNow(d.xml, d.schema).valid).length;
    wasm = measured('libxml2-wasm, in-process, one at a time', count, performance.now() - t);
    if (refused > 0) throw new Error(`libxml2-wasm refused ${refused} generated envelopes the fast path validated`);
  } finally {
    inProcess.close();
  }

  t = performance.now();
  for (const d of docs.slice(0, libraryCalls)) {
    const verdict = await validateWithXsdSchemaValidator(d.xml, d.schema);
    if (!verdict.valid) throw new Error(`xsd-schema-validator refused a generated envelope: ${JSON.stringify(verdict)}`);
  }
  const library = measured('xsd-schema-validator, one JVM per call', libraryCalls, performance.now() - t);
  return { count, meanBytes: bytes / count, buildMsPerDocument: buildMs / count, startMs, pipelined, streaming, sequential, library, wasmStartMs, wasm };
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      count: { type: 'string', default: '20000' },
      'library-calls': { type: 'string', default: '5' },
      'jvm-option': { type: 'string', multiple: true, default: [] },
    },
  });
  const r = await measureValidation({ count: Number(values.count), libraryCalls: Number(values['library-calls']), jvmOptions: values['jvm-option'] });
  console.log(`${r.count} generated envelopes, mean ${Math.round(r.meanBytes)} bytes; building them took ${r.buildMsPerDocument.toFixed(4)} ms each\n`);
  console.log(`fast path: JVM start and schema compilation ${r.startMs.toFixed(0)} ms (once); libxml2-wasm: schema compilation ${r.wasmStartMs.toFixed(0)} ms\n`);
  console.log(ROW_HEADER);
  for (const line of [r.pipelined, r.streaming, r.sequential, r.wasm, r.library]) console.log(row(line));
}

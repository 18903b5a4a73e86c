import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useValidator } from '../../test/support/soap.ts';
import { goldenEnvelope, goldenEnvelopes } from '../../fixtures/envelopes/goldens.ts';
import { createValidator } from './validator.ts';

/** Whether a process runs (a zombie does not count: it has exited and waits to be reaped). */
function isRunning(pid: number): boolean {
  if (existsSync('/proc/self/stat')) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const state = stat.charAt(stat.lastIndexOf(')') + 2);
      return state !== 'Z' && state !== 'X';
    } catch {
      return false;
    }
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitUntilGone(pid: number, ms = 10_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!isRunning(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return !isRunning(pid);
}

describe('fast validation path', () => {
  const validator = useValidator();

  it('gives every golden envelope the verdict its directory says', async () => {
    const goldens = goldenEnvelopes();
    const verdicts = await Promise.all(goldens.map((g) => validator.validate(g.xml, g.schema)));
    expect(goldens.map((g, i) => [g.name, verdicts[i]?.valid])).toEqual(goldens.map((g) => [g.name, g.expected === 'valid']));
  });

  it('answers each of thousands of pipelined documents with its own verdict', async () => {
    const valid = goldenEnvelope('request-ping.xml').xml;
    const invalid = goldenEnvelope('request-no-messagedata.xml').xml;
    const verdicts = await Promise.all(Array.from({ length: 3000 }, (_, i) => validator.validate(i % 3 === 0 ? invalid : valid, 'request')));
    expect(verdicts.map((v) => v.valid)).toEqual(Array.from({ length: 3000 }, (_, i) => i % 3 !== 0));
  });

  it('validates a response against response.xsd, not request.xsd', async () => {
    const xml = goldenEnvelope('response-session-create.xml').xml;
    expect(await validator.validate(xml, 'response')).toEqual({ valid: true });
    expect(await validator.validate(xml, 'request')).toMatchObject({ valid: false, code: 'schema-invalid' });
  });

  it('reports what is wrong with the line and column', async () => {
    expect(await validator.validate(goldenEnvelope('request-no-timetolive.xml').xml, 'request')).toEqual({
      valid: false,
      code: 'schema-invalid',
      errors: [
        "[error] cvc-complex-type.2.4.b: The content of element 'eb:MessageData' is not complete. One of "
        + '\'{"http://www.ebxml.org/namespaces/messageHeader":RefToMessageId, "http://www.ebxml.org/namespaces/messageHeader":TimeToLive}\' is expected. (18:24)',
      ],
    });
  });

  it('refuses a DOCTYPE before it reaches Java', async () => {
    expect(await validator.validate(goldenEnvelope('request-doctype-entity.xml').xml, 'request')).toEqual({
      valid: false,
      code: 'doctype-forbidden',
      errors: ['[fatal] a "<!DOCTYPE" declaration was found; DTDs are refused (no entity is ever expanded)'],
    });
  });

  it('tells a document that is not XML from one that is invalid', async () => {
    expect(await validator.validate(goldenEnvelope('request-not-well-formed.xml').xml, 'request')).toEqual({
      valid: false,
      code: 'not-well-formed',
      errors: ['[fatal] The element type "eb:CPAId" must be terminated by the matching end-tag "</eb:CPAId>". (7:23)'],
    });
    expect(await validator.validate('', 'request')).toEqual({ valid: false, code: 'not-well-formed', errors: ['[fatal] Premature end of file. (1:1)'] });
  });

  it('reads non-ASCII text as UTF-8', async () => {
    const xml = goldenEnvelope('request-ping.xml').xml.replace('Are you there?', 'Ünïcødé ✓ 😀');
    expect(await validator.validate(xml, 'request')).toEqual({ valid: true });
  });

  it('refuses an unknown schema name', async () => {
    await expect(validator.validate('<a/>', 'other' as 'request')).rejects.toThrow('unknown schema "other"');
  });
});

describe('fast validation path, lifecycle', () => {
  it('refuses a document over the size bound without sending it to Java', async () => {
    const validator = await createValidator({ maxBytes: 1000 });
    try {
      expect(await validator.validate(goldenEnvelope('request-ping.xml').xml, 'request')).toEqual({
        valid: false, code: 'too-large', errors: ['[fatal] the document is larger than 1000 bytes'],
      });
    } finally {
      await validator.close();
    }
  }, 60_000);

  it('answers the documents in flight, then ends the JVM on close', async () => {
    const validator = await createValidator();
    const pid = validator.pid ?? -1;
    expect(isRunning(pid)).toBe(true);
    const inFlight = Array.from({ length: 200 }, () => validator.validate(goldenEnvelope('request-ping.xml').xml, 'request'));
    const closed = validator.close();
    expect((await Promise.all(inFlight)).every((v) => v.valid)).toBe(true);
    await closed;
    expect(await waitUntilGone(pid)).toBe(true);
    await expect(validator.validate('<a/>', 'request')).rejects.toThrow(expect.objectContaining({ code: 'closed', message: 'the validator is closed' }));
    await validator.close();
  }, 60_000);

  it('ends the JVM when the process that started it exits without closing it, or is killed', async () => {
    const url = new URL('./validator.ts', import.meta.url).href;
    const script = `const { createValidator } = await import(${JSON.stringify(url)}); const v = await createValidator(); console.log(v.pid);`
      + ' if (process.argv.includes("--hang")) setInterval(() => {}, 1000);';
    const start = (hang: boolean) => spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, ...(hang ? ['--', '--hang'] : [])], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const jvmPid = (child: ReturnType<typeof start>) => new Promise<number>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('\n')) resolve(Number(out.trim()));
      });
      child.on('close', () => (out.includes('\n') ? resolve(Number(out.trim())) : reject(new Error('the child printed no JVM pid'))));
    });

    // Forgotten: the validator does not keep the process alive, and the exit hook kills the JVM.
    const exiting = start(false);
    const exitingJvm = await jvmPid(exiting);
    await new Promise((resolve) => exiting.once('close', resolve));
    expect(await waitUntilGone(exitingJvm)).toBe(true);

    // Killed: no exit hook runs, the JVM sees its stdin closed and ends.
    const killed = start(true);
    const killedJvm = await jvmPid(killed);
    expect(isRunning(killedJvm)).toBe(true);
    killed.kill('SIGKILL');
    expect(await waitUntilGone(killedJvm)).toBe(true);
  }, 60_000);
});


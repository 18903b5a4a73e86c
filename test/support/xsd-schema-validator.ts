import { accessSync, chmodSync, constants, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { validateXML } from 'xsd-schema-validator';
import { PACKAGE_ROOT } from '../../harness/package-info.ts';
import { DEFAULT_MAX_ENVELOPE_BYTES, screenInput } from '../../harness/soap/hostile-input.ts';
import { javaTool } from '../../harness/soap/java-helper.ts';
import { schemaPath, type SchemaName } from '../../harness/soap/schemas.ts';
import { VALID, type Verdict } from '../../harness/soap/verdict.ts';
import { parseXmlTree } from '../../harness/soap/xml-tree.ts';

/**
 * The per-call validation path: the `xsd-schema-validator` package, which starts one JVM per document (~170 ms).
 * The reference the fast path ({@link createValidator}) is held to. Hostile input is refused first, as on the fast
 * path: the library's own parser would expand a DTD's entities (it reads `SYSTEM` entities from disk).
 */
export async function validateWithXsdSchemaValidator(
  xml: string,
  schema: SchemaName,
  options: { readonly maxBytes?: number } = {},
): Promise<Verdict> {
  const screened = screenInput(xml, options.maxBytes ?? DEFAULT_MAX_ENVELOPE_BYTES);
  if (screened) return { valid: false, code: screened.code, errors: [`[fatal] ${screened.message}`] };
  try {
    await withShortLivedJava(() => validateXML(xml, schemaPath(schema)));
    return VALID;
  } catch (error) {
    // The library rejects with an Error carrying { valid: false, messages } for an invalid document; anything else
    // (no Java, …) is not a verdict.
    if (!isInvalidResult(error)) throw error;
    const errors = error.messages.flatMap((m) => m.split(/(?=\[(?:error|fatal|warning)\] )/)).map((m) => m.trim()).filter(Boolean);
    // The library settles on the JVM's exit, which can come before its stderr is read: without messages, whether the
    // document is XML at all is decided here.
    const fatal = errors.length > 0 ? errors.some((m) => m.startsWith('[fatal]')) : !parseXmlTree(xml).ok;
    return { valid: false, code: fatal ? 'not-well-formed' : 'schema-invalid', errors };
  }
}

function isInvalidResult(error: unknown): error is Error & { valid: false; messages: string[] } {
  return error instanceof Error && (error as { valid?: unknown }).valid === false && Array.isArray((error as { messages?: unknown }).messages);
}

/**
 * The library starts `java` from `$JAVA_HOME/bin`, else from the PATH, once per document, with no JVM option. The
 * tests hand it a `java` that starts the JVM for a short life (interpreted, serial GC, no performance data file): the
 * same JDK and Xerces, the same verdicts, about a quarter less CPU per JVM (62 JVMs in a run of the tests).
 * `JAVA_TOOL_OPTIONS` would do it without a script, but the JVM then prints a note on standard error, which the
 * library could read as the first of its messages.
 */
let shortLivedJavaHome: string | null | undefined;

function shortLivedJava(): string | null {
  if (shortLivedJavaHome !== undefined) return shortLivedJavaHome;
  // Where the library would look (javaTool: `$JAVA_HOME/bin/java`, else `java` on the PATH), as an absolute path.
  const tool = javaTool('java');
  const candidates = isAbsolute(tool) ? [tool] : (process.env['PATH'] ?? '').split(delimiter).filter(Boolean).map((d) => join(d, tool));
  const java = candidates.find((c) => {
    try {
      accessSync(c, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
  // No java: the library fails as it would without the script.
  if (!java) return (shortLivedJavaHome = null);
  // In the checkout, as the tests' other caches (vitest.config.ts): the tests write nothing outside the repository.
  // Written under a name of this process's, then renamed: test workers may write it at the same time.
  const dir = join(PACKAGE_ROOT, 'node_modules', '.cache', 'tds-short-lived-java');
  mkdirSync(join(dir, 'bin'), { recursive: true });
  const script = join(dir, 'bin', 'java');
  writeFileSync(`${script}.${process.pid}`, `#!/bin/sh\nexec '${java.replaceAll("'", "'\\''")}' -Xint -XX:+UseSerialGC -XX:-UsePerfData "$@"\n`);
  chmodSync(`${script}.${process.pid}`, 0o755);
  renameSync(`${script}.${process.pid}`, script);
  return (shortLivedJavaHome = dir);
}

/**
 * Calls `validate` with JAVA_HOME naming the short-lived `java` until it settles (the library looks it up after a
 * tick). Calls may overlap: the variable is restored when the last one settles.
 */
let calls = 0;
let savedHome: string | undefined;

async function withShortLivedJava<T>(validate: () => Promise<T>): Promise<T> {
  const home = shortLivedJava();
  if (home === null) return validate();
  if (calls++ === 0) {
    savedHome = process.env['JAVA_HOME'];
    process.env['JAVA_HOME'] = home;
  }
  try {
    return await validate();
  } finally {
    if (--calls === 0) {
      if (savedHome === undefined) delete process.env['JAVA_HOME'];
      else process.env['JAVA_HOME'] = savedHome;
    }
  }
}

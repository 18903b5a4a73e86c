import { request } from 'node:http';
import { expect, it } from 'vitest';
import { closeTarget, currentTarget } from './target.ts';

/** Whether something answers HTTP at `url` (a closed simulator refuses the connection). */
function answers(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request(url, { method: 'GET', agent: false }, (res) => {
      res.resume();
      resolve(true);
    });
    req.on('error', () => resolve(false));
    req.end();
  });
}

it('gives each test file its own target: one an earlier file left open is closed, never used', async () => {
  const path = expect.getState().testPath;
  try {
    const mine = await currentTarget();
    expect(await currentTarget()).toBe(mine);
    const url = mine.environments.cert?.restBaseUrl ?? expect.unreachable('a CERT endpoint');
    expect(await answers(url)).toBe(true);
    // The next file asks, and this file's end hook never closed the target (it threw, say).
    expect.setState({ testPath: `${path}.next` });
    const next = await currentTarget();
    expect(next).not.toBe(mine);
    expect(await answers(url)).toBe(false);
  } finally {
    expect.setState({ testPath: path });
    await closeTarget();
  }
});

import { describe, expect, it } from 'vitest';
import { attribute, describeAttribution, type Observed } from './attribute.ts';

const served: Observed = { outcome: 'served', line: 'GET /x with token A → 200' };
const refused: Observed = { outcome: 'refused', line: 'GET /x with token B → 401' };
const other: Observed = { outcome: 'other', line: 'GET /x with token B → 400' };

describe('attribute (attribution by difference)', () => {
  it('takes a success or a classified refusal as it is', () => {
    expect(attribute(served, 'token')).toEqual({ kind: 'served' });
    expect(attribute(refused, 'token')).toEqual({ kind: 'refused', by: 'answer' });
  });

  it('reads any other answer as a refusal of the one factor in which it differs from a served control', () => {
    const a = attribute(other, 'token', [served, served]);
    expect(a).toMatchObject({ kind: 'refused', by: 'difference', factor: 'token' });
    expect(describeAttribution(a)).toContain('GET /x with token B → 400, while the same request with another token was served (GET /x with token A → 200; GET /x with token A → 200)');
  });

  it('attributes nothing without a control, with a control that was not served, or to a transient answer', () => {
    expect(attribute(other, 'token')).toMatchObject({ kind: 'unknown', why: expect.stringContaining('no control') });
    expect(attribute(other, 'environment', [served, { outcome: 'other', line: 'GET /x with token A → 503' }])).toMatchObject({ kind: 'unknown', why: expect.stringContaining('not served either') });
    expect(attribute({ outcome: 'other', transient: true, line: 'GET /x → 429' }, 'token', [served])).toMatchObject({ kind: 'unknown' });
  });
});

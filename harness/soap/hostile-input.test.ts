import { describe, expect, it } from 'vitest';
import { screenInput } from './hostile-input.ts';

describe('screening of incoming documents', () => {
  it('lets an ordinary envelope through', () => {
    expect(screenInput('<?xml version="1.0"?><a>&lt;!DOCTYPE is only text here</a>')).toBeUndefined();
  });

  it.each([
    ['<!DOCTYPE x [<!ENTITY a "b">]><x/>', 'DOCTYPE'],
    ['<?xml version="1.0"?>\n<!doctype x SYSTEM "file:///etc/passwd"><x/>', 'DOCTYPE'],
    ['<x><!ENTITY a "b"></x>', 'ENTITY'],
    ['<x><!-- <!DOCTYPE x> --></x>', 'DOCTYPE'],
    ['<x><![CDATA[<!DOCTYPE x>]]></x>', 'DOCTYPE'],
  ])('refuses %j', (xml, keyword) => {
    expect(screenInput(xml)).toEqual({
      code: 'doctype-forbidden',
      message: `a "<!${keyword}" declaration was found; DTDs are refused (no entity is ever expanded)`,
    });
  });

  it('bounds the size in UTF-8 bytes, not characters', () => {
    expect(screenInput('<a>éé</a>', 11)).toBeUndefined();
    expect(screenInput('<a>ééé</a>', 11)).toEqual({ code: 'too-large', message: 'the document is larger than 11 bytes' });
    expect(screenInput('x'.repeat(12), 11)).toEqual({ code: 'too-large', message: 'the document is larger than 11 bytes' });
  });
});

import { describe, expect, it } from 'vitest';
import { asUtf8Text } from './text-encoding.ts';
import { createInProcessValidator } from './in-process-validator.ts';
import { goldenEnvelope } from '../../fixtures/envelopes/goldens.ts';

describe('asUtf8Text (a decoded document handed on as UTF-8)', () => {
  // [the text, what is handed on]: only the XML declaration's encoding changes, and only when it is not UTF-8.
  it.each([
    ['<?xml version="1.0" encoding="UTF-16"?><a>é</a>', '<?xml version="1.0" encoding="UTF-8"?><a>é</a>'],
    ["<?xml version='1.0' encoding='utf-16le' standalone='yes'?><a/>", "<?xml version='1.0' encoding='UTF-8' standalone='yes'?><a/>"],
    ['<?xml version="1.0" encoding="UTF-8"?><a/>', '<?xml version="1.0" encoding="UTF-8"?><a/>'],
    ['<?xml version="1.0"?><a encoding="UTF-16"/>', '<?xml version="1.0"?><a encoding="UTF-16"/>'],
    ['<a/>', '<a/>'],
  ])('hands %s on as %s', (text, handed) => {
    expect(asUtf8Text(text)).toBe(handed);
  });

  it('lets the validator accept a valid envelope a service sent in UTF-16 (its declaration says so)', () => {
    const xml = goldenEnvelope('response-token-create.xml').xml;
    const declared = xml.startsWith('<?xml') ? xml.replace(/^<\?xml[^>]*\?>/, '<?xml version="1.0" encoding="UTF-16"?>') : `<?xml version="1.0" encoding="UTF-16"?>${xml}`;
    const v = createInProcessValidator();
    try {
      expect(v.validateNow(declared, 'response')).toMatchObject({ valid: true });
    } finally {
      v.close();
    }
  });
});

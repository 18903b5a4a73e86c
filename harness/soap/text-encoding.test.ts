import { describe, expect, it } from 'vitest';
import { asUtf8Text } from './text-encoding.ts';
import { createInProcessValidator } from './in-process-validator.ts';
import { goldenEnvelope } from '../../fixtures/envelopes/goldens.ts';

describe('asUtf8Text (a decoded document handed on as UTF-8)', () => {
  it('makes an XML declaration that names another encoding say UTF-8, and changes nothing else', () => {
    expect(asUtf8Text('<?xml version="1.0" encoding="UTF-16"?><a>é</a>')).toBe('<?xml version="1.0" encoding="UTF-8"?><a>é</a>');
    expect(asUtf8Text("<?xml version='1.0' encoding='utf-16le' standalone='yes'?><a/>")).toBe("<?xml version='1.0' encoding='UTF-8' standalone='yes'?><a/>");
    expect(asUtf8Text('<?xml version="1.0" encoding="UTF-8"?><a/>')).toBe('<?xml version="1.0" encoding="UTF-8"?><a/>');
    expect(asUtf8Text('<?xml version="1.0"?><a encoding="UTF-16"/>')).toBe('<?xml version="1.0"?><a encoding="UTF-16"/>');
    expect(asUtf8Text('<a/>')).toBe('<a/>');
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

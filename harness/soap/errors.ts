/**
 * The codes of this folder's errors and verdicts, in one vocabulary (kebab-case, as the parser's and validator's
 * verdict codes that reports quote): what an `Error` of `harness/soap` carries in `code`.
 */
export type JavaHelperErrorCode = 'java-not-found' | 'compile-failed' | 'start-failed' | 'helper-exited' | 'protocol' | 'closed';

export type SoapErrorCode =
  | JavaHelperErrorCode
  /** A value the XML builders cannot carry (XmlTextError). */
  | 'invalid-xml-character'
  /** A raw body given for a probe that is not well-formed XML (RawBodyError). */
  | 'raw-body-invalid'
  /** What the XML tree reader refuses (TreeError). */
  | 'not-well-formed'
  | 'invalid-character'
  | 'namespace-error';

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import javax.xml.XMLConstants;
import javax.xml.parsers.SAXParserFactory;
import javax.xml.transform.sax.SAXSource;
import javax.xml.validation.Schema;
import javax.xml.validation.SchemaFactory;
import javax.xml.validation.Validator;

import org.xml.sax.ErrorHandler;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;
import org.xml.sax.XMLReader;

/**
 * Long-lived XSD validator for tds-auth-conformance (harness/soap/validator.ts). One JVM validates many documents, so
 * the JVM start and the schema compilation are paid once.
 *
 * Arguments: --max-bytes=N name=/abs/path.xsd ...
 *
 * The documents come on stdin and the answers go to stdout.
 *
 * Protocol (bytes):
 *   on start       the helper writes "READY\n" on stdout once every schema is compiled, or "FATAL\t<message>\n" and
 *                  exits 3.
 *   request        "<id> <schema-name> <byte-length>\n" followed by exactly <byte-length> bytes of the document.
 *   answer         "<id>\tOK\n" or "<id>\tINVALID\t<code>\t<message>\t<message>...\n", one line per request, in order.
 *                  code: not-well-formed | doctype-forbidden | schema-invalid | too-large | unknown-schema.
 *                  Messages are "[error] text (line:col)" with \ \t \n \r escaped as \\ \t \n \r.
 *   end            EOF on stdin: the helper exits 0. A malformed request line: "PROTOCOL\t<message>\n", exit 2.
 *
 * Documents are parsed with secure processing on, DOCTYPE disallowed, no external entity or schema access.
 */
public final class EnvelopeValidatorServer {
  private static final int MAX_MESSAGES = 20;
  private static final int MAX_HEADER = 256;

  private static final class Collector implements ErrorHandler {
    final List<String> messages = new ArrayList<>();
    boolean fatal;
    boolean doctype;
    boolean errors;

    void reset() {
      messages.clear();
      fatal = false;
      doctype = false;
      errors = false;
    }

    private void add(String type, SAXParseException e) {
      if (messages.size() < MAX_MESSAGES) {
        messages.add(String.format("[%s] %s (%d:%d)", type, e.getMessage(), e.getLineNumber(), e.getColumnNumber()));
      }
    }

    @Override
    public void warning(SAXParseException e) {
      errors = true;
      add("warning", e);
    }

    @Override
    public void error(SAXParseException e) {
      errors = true;
      add("error", e);
    }

    @Override
    public void fatalError(SAXParseException e) throws SAXException {
      errors = true;
      fatal = true;
      String message = String.valueOf(e.getMessage());
      if (message.contains("DOCTYPE") || message.contains("disallow-doctype-decl")) doctype = true;
      add("fatal", e);
      throw e;
    }
  }

  private static final class Target {
    final Validator validator;
    final XMLReader reader;
    final Collector collector = new Collector();

    Target(Schema schema, SAXParserFactory parsers) throws Exception {
      // No ACCESS_EXTERNAL_* properties on the validator: with a SAXSource, JDK 17 then fails with a
      // NullPointerException in XMLDocumentFragmentScannerImpl.setProperty. Not needed either: the reader refuses any
      // DOCTYPE, and a schema compiled by newSchema(File) is fully composed, so xsi:schemaLocation hints are ignored.
      validator = schema.newValidator();
      validator.setErrorHandler(collector);
      reader = parsers.newSAXParser().getXMLReader();
      reader.setErrorHandler(collector);
    }
  }

  /** A malformed request line: answered with PROTOCOL, then the stream (or the process) ends. */
  private static final class ProtocolException extends Exception {
    ProtocolException(String message) {
      super(message);
    }
  }

  public static void main(String[] args) throws Exception {
    OutputStream out = new BufferedOutputStream(System.out, 1 << 16);
    InputStream in = new BufferedInputStream(System.in, 1 << 16);
    int maxBytes = 1 << 20;
    Map<String, Schema> compiled = new HashMap<>();
    SAXParserFactory parsers;
    Map<String, Target> targets;
    try {
      SchemaFactory schemas = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI);
      schemas.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      schemas.setProperty(XMLConstants.ACCESS_EXTERNAL_DTD, "");
      // Our own schemas import each other by relative file path.
      schemas.setProperty(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "file");
      parsers = SAXParserFactory.newInstance();
      parsers.setNamespaceAware(true);
      parsers.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      parsers.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      parsers.setFeature("http://xml.org/sax/features/external-general-entities", false);
      parsers.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
      parsers.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
      parsers.setXIncludeAware(false);
      for (String arg : args) {
        if (arg.startsWith("--max-bytes=")) {
          maxBytes = Integer.parseInt(arg.substring("--max-bytes=".length()));
        } else {
          int eq = arg.indexOf('=');
          if (eq <= 0) throw new IllegalArgumentException("expected name=path.xsd, got " + arg);
          compiled.put(arg.substring(0, eq), schemas.newSchema(new File(arg.substring(eq + 1))));
        }
      }
      targets = targetsFor(compiled, parsers);
    } catch (Exception e) {
      out.write(("FATAL\t" + escape(String.valueOf(e)) + "\n").getBytes(StandardCharsets.UTF_8));
      out.flush();
      System.exit(3);
      return;
    }
    out.write("READY\n".getBytes(StandardCharsets.US_ASCII));
    out.flush();
    try {
      serve(in, out, targets, maxBytes);
    } catch (ProtocolException e) {
      protocolError(out, e.getMessage());
      System.exit(2);
    }
    out.flush();
  }

  private static Map<String, Target> targetsFor(Map<String, Schema> compiled, SAXParserFactory parsers) throws Exception {
    Map<String, Target> targets = new HashMap<>();
    for (Map.Entry<String, Schema> e : compiled.entrySet()) targets.put(e.getKey(), new Target(e.getValue(), parsers));
    return targets;
  }

  /** Answers the requests of one stream until its EOF. */
  private static void serve(InputStream in, OutputStream out, Map<String, Target> targets, int maxBytes) throws IOException, ProtocolException {
    byte[] buffer = new byte[64 * 1024];
    while (true) {
      String header = readLine(in);
      if (header == null) break;
      String[] parts = header.split(" ");
      long length;
      try {
        if (parts.length != 3) throw new NumberFormatException();
        length = Long.parseLong(parts[2]);
        if (length < 0) throw new NumberFormatException();
      } catch (NumberFormatException e) {
        throw new ProtocolException("bad request line: " + header);
      }
      String id = parts[0];
      if (length > maxBytes) {
        skipFully(in, length);
        answer(out, id, "too-large", List.of("[fatal] the document is larger than " + maxBytes + " bytes"));
        continue;
      }
      if (length > buffer.length) buffer = new byte[(int) Math.max(length, buffer.length * 2L)];
      readFully(in, buffer, (int) length);
      Target target = targets.get(parts[1]);
      if (target == null) {
        answer(out, id, "unknown-schema", List.of("[fatal] no schema named " + parts[1]));
        continue;
      }
      validate(target, buffer, (int) length, id, out);
      // Flush only when nothing more is waiting, so a pipelined batch is answered in large writes.
      if (in.available() == 0) out.flush();
    }
  }

  private static void validate(Target target, byte[] buffer, int length, String id, OutputStream out) throws IOException {
    Collector collector = target.collector;
    collector.reset();
    try {
      target.validator.reset();
      target.validator.setErrorHandler(collector);
      InputSource source = new InputSource(new ByteArrayInputStream(buffer, 0, length));
      target.validator.validate(new SAXSource(target.reader, source));
    } catch (SAXParseException e) {
      if (!collector.fatal) {
        try {
          collector.fatalError(e);
        } catch (SAXException rethrown) {
          // recorded
        }
      }
    } catch (SAXException | IOException | RuntimeException e) {
      collector.fatal = true;
      collector.errors = true;
      collector.messages.add("[fatal] " + e.getMessage());
    }
    if (!collector.errors) {
      out.write((id + "\tOK\n").getBytes(StandardCharsets.UTF_8));
    } else {
      String code = collector.doctype ? "doctype-forbidden" : collector.fatal ? "not-well-formed" : "schema-invalid";
      answer(out, id, code, collector.messages);
    }
  }

  private static void answer(OutputStream out, String id, String code, List<String> messages) throws IOException {
    StringBuilder line = new StringBuilder(id).append("\tINVALID\t").append(code);
    for (String message : messages) line.append('\t').append(escape(message));
    line.append('\n');
    out.write(line.toString().getBytes(StandardCharsets.UTF_8));
  }

  private static void protocolError(OutputStream out, String message) throws IOException {
    out.write(("PROTOCOL\t" + escape(message) + "\n").getBytes(StandardCharsets.UTF_8));
    out.flush();
  }

  private static String escape(String text) {
    StringBuilder b = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '\\': b.append("\\\\"); break;
        case '\t': b.append("\\t"); break;
        case '\n': b.append("\\n"); break;
        case '\r': b.append("\\r"); break;
        default: b.append(c);
      }
    }
    return b.toString();
  }

  /** The next request line (ASCII, without the newline), or null at EOF before any byte. */
  private static String readLine(InputStream in) throws IOException {
    StringBuilder b = new StringBuilder();
    while (true) {
      int c = in.read();
      if (c < 0) {
        if (b.length() == 0) return null;
        throw new EOFException("EOF inside a request line");
      }
      if (c == '\n') return b.toString();
      if (b.length() >= MAX_HEADER) throw new IOException("request line too long");
      b.append((char) c);
    }
  }

  private static void readFully(InputStream in, byte[] buffer, int length) throws IOException {
    int offset = 0;
    while (offset < length) {
      int n = in.read(buffer, offset, length - offset);
      if (n < 0) throw new EOFException("EOF inside a document");
      offset += n;
    }
  }

  private static void skipFully(InputStream in, long length) throws IOException {
    long left = length;
    while (left > 0) {
      long n = in.skip(left);
      if (n <= 0) {
        if (in.read() < 0) throw new EOFException("EOF inside a document");
        n = 1;
      }
      left -= n;
    }
  }
}

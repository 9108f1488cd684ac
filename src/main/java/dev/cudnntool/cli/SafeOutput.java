package dev.cudnntool.cli;

import dev.cudnntool.Text;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;

/**
 * #32 item 6: the one output filter. Every character the tool prints (text, {@code --report},
 * {@code rollback --list}, {@code explain}'s echo, picocli's own messages, and {@code --json}, whose strings
 * Jackson has escaped already) passes through it: C0 and C1 controls, DEL and the bidi controls
 * ({@link Text#unsafeForTerminal}) come out as {@code \\uXXXX}. A newline, a tab and the line separator's
 * {@code \r\n} pass. {@link ToolContext} installs it on both streams, once; only the progress bar's own
 * carriage returns use {@link #raw}.
 */
public final class SafeOutput extends PrintWriter {
    private final PrintWriter raw;

    private SafeOutput(PrintWriter raw) {
        super(new Escaping(raw), true);
        this.raw = raw;
    }

    /** {@code w} behind the filter (itself when it is filtered already; null stays null). */
    public static PrintWriter wrap(PrintWriter w) {
        return w == null || w instanceof SafeOutput ? w : new SafeOutput(w);
    }

    /** The writer beneath the filter: for the progress bar's carriage returns only (its text is made safe first). */
    static PrintWriter raw(PrintWriter w) {
        return w instanceof SafeOutput s ? s.raw : w;
    }

    private static final class Escaping extends Writer {
        private final PrintWriter inner;

        Escaping(PrintWriter inner) {
            super(inner);
            this.inner = inner;
        }

        @Override
        public void write(char[] buf, int off, int len) throws IOException {
            int from = off;
            int end = off + len;
            for (int i = off; i < end; i++) {
                char c = buf[i];
                boolean pass = c == '\n' || c == '\t' || c == '\r' && i + 1 < end && buf[i + 1] == '\n';
                if (!pass && Text.unsafeForTerminal(c)) {
                    inner.write(buf, from, i - from);
                    inner.write(String.format("\\u%04x", (int) c));
                    from = i + 1;
                }
            }
            inner.write(buf, from, end - from);
        }

        @Override
        public void flush() {
            inner.flush();
        }

        @Override
        public void close() {
            inner.close();
        }
    }
}

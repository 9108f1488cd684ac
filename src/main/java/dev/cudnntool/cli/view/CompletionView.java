package dev.cudnntool.cli.view;
import java.io.PrintWriter;

/**
 * What {@code cudnn completion} prints: the script, or with --json a document holding it (shell, script). Written to
 * standard output as it is (the script is the tool's own text, not echoed input).
 */
public final class CompletionView {
    private CompletionView() {
    }

    public static int show(PrintWriter out, boolean json, String shell, String script) {
        if (json) {
            var doc = Json.document("completion", 0);
            doc.put("shell", shell);
            doc.put("script", script);
            Json.print(out, doc);
        } else {
            out.print(script);
            out.flush();
        }
        return 0;
    }
}

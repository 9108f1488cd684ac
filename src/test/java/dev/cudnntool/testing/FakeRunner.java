package dev.cudnntool.testing;

import dev.cudnntool.host.ProcessResult;
import dev.cudnntool.host.ProcessRunner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Replays recorded program output by matching the start of the command line; records every call. */
public final class FakeRunner implements ProcessRunner {
    private final Map<String, ProcessResult> answers = new LinkedHashMap<>();
    public final List<List<String>> calls = new ArrayList<>();

    /** Answers commands whose arguments, joined by spaces, end with {@code suffix}. */
    public FakeRunner on(String suffix, ProcessResult r) {
        answers.put(suffix, r);
        return this;
    }

    public FakeRunner on(String suffix, String stdout) {
        return on(suffix, new ProcessResult(0, stdout, "", false, null));
    }

    @Override
    public ProcessResult run(List<String> command, Duration timeout) {
        calls.add(command);
        String line = String.join(" ", command);
        ProcessResult best = null;
        int bestLen = -1;
        for (var e : answers.entrySet()) {
            if (line.endsWith(e.getKey()) && e.getKey().length() > bestLen) {
                best = e.getValue();
                bestLen = e.getKey().length();
            }
        }
        return best != null ? best : ProcessResult.notStarted("no such program in the fake: " + line);
    }

    public static ProcessResult ok(String out) {
        return new ProcessResult(0, out, "", false, null);
    }

    public static ProcessResult failed(int code, String out, String err) {
        return new ProcessResult(code, out, err, false, null);
    }

    public static ProcessResult timedOut() {
        return new ProcessResult(-1, "", "", true, null);
    }
}

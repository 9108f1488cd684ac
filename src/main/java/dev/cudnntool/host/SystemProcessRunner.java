package dev.cudnntool.host;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.InvalidPathException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs a program with both streams drained on their own threads (so a chatty child never blocks
 * on a full pipe) and kills it, with its descendants, when it runs past the timeout.
 */
public final class SystemProcessRunner implements ProcessRunner {
    private static final int MAX_CAPTURE = 4 << 20;
    private final Map<String, String> extraEnv;

    public SystemProcessRunner() {
        this(Map.of());
    }

    /** Adds variables to the child's environment (the probe uses this for LD_LIBRARY_PATH tests). */
    public SystemProcessRunner(Map<String, String> extraEnv) {
        this.extraEnv = Map.copyOf(extraEnv);
    }

    /**
     * A program named without its folder would be looked up on PATH (and, on Windows, in the
     * current folder first): never done. Every caller names the program by its absolute path.
     */
    static String notAbsolute(List<String> command, FileSystem fs) {
        return command.isEmpty() || !absolute(command.get(0), fs)
                ? "refused to run " + (command.isEmpty() ? "nothing" : command.get(0)) + ": not an absolute path (programs are"
                + " never looked up on PATH or in the current folder)" : null;
    }

    /** By the rules of the file system the program is started on (the real one here: this runner starts real processes). */
    private static boolean absolute(String program, FileSystem fs) {
        try {
            return fs.getPath(program).isAbsolute();
        } catch (InvalidPathException e) {
            return false;
        }
    }

    @Override
    public ProcessResult run(List<String> command, Duration timeout) {
        String refused = notAbsolute(command, FileSystems.getDefault());
        if (refused != null) {
            return ProcessResult.notStarted(refused);
        }
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().putAll(extraEnv);
        pb.redirectInput(ProcessBuilder.Redirect.PIPE);
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            return ProcessResult.notStarted(e.getMessage());
        }
        try {
            p.getOutputStream().close();
        } catch (IOException ignored) {
            // the child may already be gone; nothing to write anyway
        }
        Drain out = new Drain(p.getInputStream());
        Drain err = new Drain(p.getErrorStream());
        out.start();
        err.start();
        return await(p, out, err, timeout);
    }

    @Override
    public Started start(List<String> command) {
        if (notAbsolute(command, FileSystems.getDefault()) != null) {
            return ProcessRunner.super.start(command); // nothing started; finishing it is refused by run
        }
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().putAll(extraEnv);
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            ProcessResult failed = ProcessResult.notStarted(e.getMessage());
            return new Started() {
                public ProcessResult finish(String stdin, Duration timeout) {
                    return failed;
                }

                public void cancel() {
                }
            };
        }
        Drain out = new Drain(p.getInputStream());
        Drain err = new Drain(p.getErrorStream());
        out.start();
        err.start();
        return new Started() {
            @Override
            public ProcessResult finish(String stdin, Duration timeout) {
                try (var in = p.getOutputStream()) {
                    in.write(stdin.getBytes(StandardCharsets.UTF_8));
                } catch (IOException ignored) {
                    // the child is gone already: its exit status tells why
                }
                return await(p, out, err, timeout);
            }

            @Override
            public void cancel() {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            }
        };
    }

    private static ProcessResult await(Process p, Drain out, Drain err, Duration timeout) {
        boolean finished;
        try {
            finished = p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            finished = false;
        }
        if (!finished) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            try {
                p.waitFor(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        out.await(2000);
        err.await(2000);
        return new ProcessResult(finished ? p.exitValue() : -1, out.text(), err.text(), !finished, null);
    }

    private static final class Drain extends Thread {
        private final InputStream in;
        private final ByteArrayOutputStream buf = new ByteArrayOutputStream();

        Drain(InputStream in) {
            this.in = in;
            setDaemon(true);
        }

        @Override
        public void run() {
            byte[] b = new byte[8192];
            try (in) {
                int n;
                while ((n = in.read(b)) >= 0) {
                    synchronized (buf) {
                        if (buf.size() < MAX_CAPTURE) {
                            buf.write(b, 0, Math.min(n, MAX_CAPTURE - buf.size()));
                        }
                    }
                }
            } catch (IOException ignored) {
                // the stream closes when the child is killed
            }
        }

        void await(long millis) {
            try {
                super.join(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        String text() {
            synchronized (buf) {
                return buf.toString(StandardCharsets.UTF_8);
            }
        }
    }
}

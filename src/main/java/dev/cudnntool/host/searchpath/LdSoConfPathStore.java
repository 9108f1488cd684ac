package dev.cudnntool.host.searchpath;

import dev.cudnntool.BoundedFiles;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.ProcessResult;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Linux: one file per install, {@code /etc/ld.so.conf.d/cudnn-tool-<id>.conf}, naming the runtime
 * folder; {@code ldconfig} (through the process-runner port) rebuilds the loader's cache.
 * Both scopes mean the same system-wide list: Linux has no per-user loader configuration.
 */
public class LdSoConfPathStore implements SearchPathStore {
    private final Host host;

    public LdSoConfPathStore(Host host) {
        this.host = host;
    }

    Path confDir() {
        return host.path("/etc/ld.so.conf.d");
    }

    Path file(String installId) {
        return confDir().resolve("cudnn-tool-" + installId + ".conf");
    }

    @Override
    public String location(Scope scope, String installId) {
        return file(installId).toString();
    }

    @Override
    public Raw read(Scope scope, String installId) throws IOException {
        Path f = file(installId);
        return BoundedFiles.isRegularFile(f) ? new Raw(Raw.FILE, BoundedFiles.read(f, BoundedFiles.TEXT)) : null;
    }

    @Override
    public void write(Scope scope, String installId, Raw value) throws IOException {
        Path f = file(installId);
        if (value == null) {
            Files.deleteIfExists(f);
            return;
        }
        Files.createDirectories(confDir());
        Path tmp = f.resolveSibling(f.getFileName() + ".tmp");
        Files.write(tmp, value.data());
        Files.move(tmp, f, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    @Override
    public String cannotWrite(Scope scope) {
        Path d = confDir();
        while (d.getParent() != null && !Files.isDirectory(d)) {
            d = d.getParent(); // the folder is created where the nearest existing one allows it
        }
        return Files.isWritable(d) ? null : "writing " + confDir() + " needs root";
    }

    @Override
    public void announce() throws IOException {
        String ldconfig = "ldconfig";
        for (String p : List.of("/sbin/ldconfig", "/usr/sbin/ldconfig")) {
            if (Files.isExecutable(host.path(p))) {
                ldconfig = p;
                break;
            }
        }
        ProcessResult r = host.runner().run(List.of(ldconfig), Duration.ofSeconds(60));
        if (!r.ok()) {
            throw new IOException(ldconfig + (r.timedOut() ? " did not finish in 60 s"
                    : r.started() ? " failed (exit " + r.exitCode() + "): " + r.tail(2) : " could not be run: " + r.startFailure()));
        }
    }

    @Override
    public List<String> persistentEntries() {
        List<String> out = new ArrayList<>();
        lines(host.path("/etc/ld.so.conf"), out);
        if (Files.isDirectory(confDir())) {
            try (DirectoryStream<Path> ds = Files.newDirectoryStream(confDir(), "*.conf")) {
                for (Path f : ds) {
                    lines(f, out);
                }
            } catch (IOException e) {
                // unreadable: nothing known to be configured there
            }
        }
        return out;
    }

    private static void lines(Path f, List<String> out) {
        try {
            for (String line : BoundedFiles.readLines(f, BoundedFiles.TEXT)) {
                String s = line.strip();
                if (!s.isEmpty() && !s.startsWith("#") && !s.startsWith("include")) {
                    out.add(s);
                }
            }
        } catch (IOException e) {
            // absent or unreadable
        }
    }
}

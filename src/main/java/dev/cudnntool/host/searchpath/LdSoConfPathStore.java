package dev.cudnntool.host.searchpath;
import dev.cudnntool.BoundedFiles;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.ProcessResult;
import dev.cudnntool.host.TrustedPrograms;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

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
    public boolean holds(String installId) {
        return Files.exists(file(installId), LinkOption.NOFOLLOW_LINKS);
    }

    /** Something other than a regular file where the conf file goes (a link, a folder, a FIFO): never read, written through or replaced. */
    public static final class NotAFile extends IOException {
        private static final long serialVersionUID = 1L;
        public NotAFile(Path file) {
            super(file + " is not a regular file (a link or something else was put there); it was left as it is");
        }
    }

    /**
     * The conf file's bytes, null when there is none. A link (to any file) or anything else that is
     * not a regular file is {@link NotAFile}: its content is never read, so a link planted at the
     * name cannot carry another file's content into the install's record.
     */
    @Override
    public Raw read(Scope scope, String installId) throws IOException {
        Path f = file(installId);
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(f, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return null;
        }
        if (!a.isRegularFile()) {
            throw new NotAFile(f);
        }
        if (a.size() > BoundedFiles.TEXT) {
            throw new IOException(f + " is larger than 8 MiB; it was not read");
        }
        try (SeekableByteChannel ch = Files.newByteChannel(f, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
             InputStream in = Channels.newInputStream(ch)) {
            byte[] b = in.readNBytes((int) BoundedFiles.TEXT + 1);
            if (b.length > BoundedFiles.TEXT) {
                throw new IOException(f + " is larger than 8 MiB; it was not read");
            }
            return new Raw(Raw.FILE, b);
        }
    }

    /**
     * Writes the conf file as a new file beside it, under a random name (CREATE_NEW, links not
     * followed: a link planted there fails the write instead of carrying it elsewhere), fsync'd, then
     * renamed over the name in one step (a rename replaces a link at the name, never writes through it).
     * Null removes the file (a link there is removed as a link; its target is never touched).
     */
    @Override
    public void write(Scope scope, String installId, Raw value) throws IOException {
        Path f = file(installId);
        if (value == null) {
            Files.deleteIfExists(f);
            return;
        }
        Files.createDirectories(confDir());
        Path tmp = confDir().resolve("." + f.getFileName() + "." + HexFormat.of().formatHex(randomBytes()) + ".tmp");
        try {
            try (SeekableByteChannel ch = Files.newByteChannel(tmp, openNew(), permissions(tmp))) {
                ByteBuffer b = ByteBuffer.wrap(value.data());
                while (b.hasRemaining()) {
                    ch.write(b);
                }
                if (ch instanceof FileChannel fc) {
                    fc.force(true);
                }
            }
            try {
                Files.move(tmp, f, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, f, StandardCopyOption.REPLACE_EXISTING, LinkOption.NOFOLLOW_LINKS);
            }
        } catch (IOException | RuntimeException e) {
            try {
                Files.deleteIfExists(tmp); // ours: created new just now (a link is removed as a link)
            } catch (IOException ignored) {
                // a stray temporary file of ours; its name does not end in .conf, so ldconfig never reads it
            }
            throw e;
        }
        syncFolder(confDir());
    }

    private static Set<OpenOption> openNew() {
        return Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
    }

    private static FileAttribute<?>[] permissions(Path p) {
        return p.getFileSystem().supportedFileAttributeViews().contains("posix")
                ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-r--r--"))}
                : new FileAttribute<?>[0];
    }

    private static byte[] randomBytes() {
        byte[] b = new byte[12];
        RANDOM.nextBytes(b);
        return b;
    }

    private static final SecureRandom RANDOM = new SecureRandom();

    /** The rename itself made durable, where the file system allows it (Linux does; some others do not). */
    private static void syncFolder(Path dir) {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException | RuntimeException ignored) {
            // not every file system can open a folder; the rename is atomic all the same
        }
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
        // Run as root: only /sbin or /usr/sbin, owned by root and not writable by others; never PATH.
        String ldconfig = TrustedPrograms.ldconfig(host).map(Path::toString).orElse(null);
        if (ldconfig == null) {
            throw new IOException("no trusted ldconfig (/sbin/ldconfig or /usr/sbin/ldconfig, a regular file owned by root"
                    + " that others cannot write) was found; run sudo ldconfig by hand");
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

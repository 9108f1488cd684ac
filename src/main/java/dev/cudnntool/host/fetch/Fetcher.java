package dev.cudnntool.host.fetch;
import dev.cudnntool.ExitCode;
import dev.cudnntool.Failures;
import dev.cudnntool.Hex;
import dev.cudnntool.Text;
import dev.cudnntool.ToolException;
import dev.cudnntool.archive.ReadProgress;
import dev.cudnntool.archive.catalogue.CatalogueEntry;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.UserPrincipal;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Downloads one catalogued archive into a folder: into {@code FILE.part}, then renamed to {@code FILE}
 * once its size and sha256 are the catalogue's. A {@code .part} left by a dropped connection is
 * resumed with a Range request (a 206 whose Content-Range starts where the part ends; a 200 starts
 * over); a connection cut during the run is resumed the same way, up to {@value #ATTEMPTS} times.
 * A file already there with the catalogue's size and sha256 is not read again; one that differs is
 * never overwritten.
 *
 * <p>Exits: 3 (archive rejected) for a file the server does not have (404), one behind NVIDIA's login
 * (401/403, or no URL), and bytes that are not NVIDIA's (the {@code .part} is deleted); 4 (host not
 * ready) for the network or the server failing (connection refused, 5xx, a stall longer than the
 * timeout; the {@code .part} stays for the next run); 5 for a folder it cannot write.
 */
public final class Fetcher {
    static final int ATTEMPTS = 4;
    /** The most read for an entry whose size the catalogue does not know. */
    static final long MAX_UNKNOWN_SIZE = 16L << 30;
    private static final Pattern CONTENT_RANGE = Pattern.compile("bytes (\\d{1,19})-(\\d{1,19})/(\\d{1,19}|\\*)");
    private static final String LOGIN_FIX = "download it in a browser from " + CatalogueEntry.LOGIN_PAGE
            + " (after signing in), then cudnn install --archive FILE";

    private final Downloader downloader;
    private final Duration timeout;
    private final ReadProgress progress;

    public Fetcher(Downloader downloader, Duration timeout, ReadProgress progress) {
        this.downloader = downloader;
        this.timeout = timeout;
        this.progress = progress;
    }

    public FetchResult fetch(CatalogueEntry e, FetchSource source, Path dir) {
        Path dest = dir.resolve(e.fileName());
        Path part = dir.resolve(e.fileName() + ".part");
        String from = source.folder() != null ? source.folder().resolve(e.fileName()).toString()
                : source.url(e).orElse(null);
        String shown = Secrets.redact(from);
        UserPrincipal caller = SafeFiles.caller(dir.getFileSystem());
        boolean destThere = SafeFiles.plainOwnFile(dest, caller);
        SafeFiles.plainOwnFile(part, caller);
        if (destThere) {
            String have = sha256(dest);
            long size = size(dest);
            if (genuine(e, size, have)) {
                return new FetchResult(e.fileName(), shown != null ? shown : e.whereToDownload(), size, have, dest, false);
            }
            throw new ToolException(ExitCode.ARCHIVE_REJECTED, dest + " is already there and is not NVIDIA's archive ("
                    + size + " bytes, sha256 " + have + "; the catalogue says " + describe(e) + ")",
                    "move it away (fetch never overwrites a file), then run fetch again");
        }
        try {
            Files.createDirectories(dir);
        } catch (IOException | RuntimeException x) {
            throw new ToolException(ExitCode.TARGET_NOT_WRITABLE, "cannot create the folder " + dir + ": " + x.getMessage(),
                    "pass --to a folder you can write", x);
        }
        if (source.folder() != null) {
            copy(e, source.folder(), part);
        } else if (from == null) {
            throw new ToolException(ExitCode.ARCHIVE_REJECTED, e.fileName() + " is behind NVIDIA's login (no redist URL)",
                    LOGIN_FIX);
        } else {
            URI uri;
            try {
                uri = URI.create(from);
            } catch (IllegalArgumentException x) {
                throw new ToolException(ExitCode.USAGE, "the URL " + Text.printable(Text.oneLine(shown))
                        + " is not a valid URL", "check --from or CUDNN_TOOL_MIRROR (a user or password must be %-encoded)");
            }
            download(e, uri, part);
        }
        String sha = sha256(part);
        long size = size(part);
        if (!genuine(e, size, sha)) {
            delete(part);
            throw new ToolException(ExitCode.ARCHIVE_REJECTED, "the bytes from " + shown + " are not NVIDIA's " + e.fileName()
                    + " (" + size + " bytes, sha256 " + sha + "; the catalogue says " + describe(e) + "); the .part was deleted",
                    "fetch again, or from another source (--from); a mirror or proxy that changes files must be fixed");
        }
        try {
            try {
                Files.move(part, dest, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException x) {
                Files.move(part, dest);
            }
        } catch (IOException x) {
            throw new ToolException(ExitCode.TARGET_NOT_WRITABLE, "cannot rename " + part + " to " + dest + ": " + x.getMessage(),
                    "check the folder's permissions and free space, then run fetch again (the .part is kept)", x);
        }
        return new FetchResult(e.fileName(), shown, size, sha, dest, true);
    }

    private static String describe(CatalogueEntry e) {
        return (e.size() == null ? "" : e.size() + " bytes, ") + "sha256 " + String.join(" or ", e.accepted());
    }

    private static boolean genuine(CatalogueEntry e, long size, String sha) {
        return (e.size() == null || e.size() == size) && e.accepted().contains(sha);
    }

    private long limit(CatalogueEntry e) {
        return e.size() == null ? MAX_UNKNOWN_SIZE : e.size();
    }

    private void copy(CatalogueEntry e, Path folder, Path part) {
        Path src = folder.resolve(e.fileName());
        if (!Files.isRegularFile(src)) {
            throw new ToolException(ExitCode.ARCHIVE_REJECTED, e.fileName() + " is not in " + folder,
                    "put NVIDIA's file there, or fetch from another source (--from URL, or without --from: NVIDIA's server)");
        }
        try (InputStream in = Files.newInputStream(src)) {
            write(e, in, part, 0, src.toString());
        } catch (IOException x) {
            throw new ToolException(ExitCode.HOST_NOT_READY, "cannot read " + src + ": " + x.getMessage(),
                    "check the folder, then run fetch again", x);
        }
    }

    private void download(CatalogueEntry e, URI url, Path part) {
        int attempt = 0;
        boolean restarted = false;
        while (true) {
            attempt++;
            long have = Files.exists(part) ? size(part) : 0;
            if (have > limit(e)) {
                delete(part);
                have = 0;
            }
            if (e.size() != null && have == e.size()) {
                return; // complete: the caller checks it
            }
            long before = have;
            try (Downloader.Response r = downloader.get(url, have)) {
                have = start(e, url, part, have, r);
                if (have < 0) {
                    if (restarted) {
                        throw new ToolException(ExitCode.HOST_NOT_READY, "the server cannot resume " + shown(url)
                                + " and did not send it from the start either (the .part was deleted)",
                                "try again later, or fetch from another source (--from)");
                    }
                    restarted = true;
                    continue; // the server cannot resume (416, or another range): start over from zero, once
                }
                try (StallGuard body = new StallGuard(r.body(), timeout)) {
                    try {
                        have = write(e, body, part, have, url.toString());
                    } catch (IOException x) {
                        if (body.stalled()) {
                            throw stalled(url, x);
                        }
                        throw x;
                    }
                    if (body.stalled()) {
                        throw stalled(url, null);
                    }
                }
                if (e.size() == null || have >= e.size()) {
                    return;
                }
                // the response ended normally (a cut one throws): complete, and shorter than NVIDIA's file
                delete(part);
                throw new ToolException(ExitCode.ARCHIVE_REJECTED, shown(url) + " sent a complete response of the wrong length ("
                        + have + " bytes in all; NVIDIA's " + e.fileName() + " has " + e.size() + "); the .part was deleted",
                        "fetch from another source (--from), or check the mirror or proxy");
            } catch (IOException x) {
                boolean progressed = Files.exists(part) && size(part) > before;
                if (progressed && attempt < ATTEMPTS) {
                    continue; // a dropped connection: resume with a Range request
                }
                throw new ToolException(ExitCode.HOST_NOT_READY, "downloading " + shown(url) + " failed: " + describe(x, url),
                        "check the network (and HTTPS_PROXY/NO_PROXY), then run the same command again"
                                + (Files.exists(part) ? ": it resumes from " + part.getFileName() : ""), x);
            }
        }
    }

    private ToolException stalled(URI url, IOException cause) {
        return new ToolException(ExitCode.HOST_NOT_READY, "downloading " + shown(url) + " stalled: no byte arrived for "
                + timeout.toSeconds() + " s",
                "check the network (and HTTPS_PROXY/NO_PROXY), then run the same command again: it resumes from the .part"
                        + " (--timeout SECONDS waits longer)", cause);
    }

    private static String shown(URI url) {
        return Secrets.redact(url.toString());
    }

    /** The failure in words (#31 item 7): "could not connect to HOST", never the exception's class name. */
    private static String describe(IOException x, URI url) {
        return Secrets.redact(Failures.words(x, url.getHost()));
    }

    /** What the status means: the offset the body starts at, -1 to ask again from zero, or an exit. */
    private long start(CatalogueEntry e, URI url, Path part, long have, Downloader.Response r) {
        int s = r.status();
        if (s == 206 && have > 0) {
            Matcher m = CONTENT_RANGE.matcher(r.contentRange() == null ? "" : r.contentRange().trim());
            boolean ok = m.matches() && Long.parseLong(m.group(1)) == have
                    && (e.size() == null || m.group(3).equals("*") || Long.parseLong(m.group(3)) == e.size());
            if (ok) {
                return have;
            }
            delete(part);
            return -1;
        }
        if (s == 200) {
            return 0;
        }
        if (s == 416 && have > 0) {
            delete(part);
            return -1;
        }
        throw refused(e, url, s, part);
    }

    /** NVIDIA's download host (a 401/403 from it is NVIDIA's answer; from any other host, the mirror's). */
    static boolean nvidia(URI url) {
        String h = url.getHost() == null ? "" : url.getHost().toLowerCase(Locale.ROOT);
        return h.equals("developer.download.nvidia.com") || h.endsWith(".nvidia.com");
    }

    /**
     * The answer in words (settled.md, "Downloads and caches"): 404 "not on the server" with the URL; 401/403 from
     * NVIDIA's host "refused by NVIDIA's server" (it may be behind NVIDIA's login: the page is named); from any
     * other host "the mirror refused the request (…; it may need credentials)"; 5xx exit 4.
     */
    static ToolException refused(CatalogueEntry e, URI url, int s, Path part) {
        String u = shown(url);
        if (s == 404 || s == 410) {
            return new ToolException(ExitCode.ARCHIVE_REJECTED, e.fileName() + " is not on the server (HTTP " + s
                    + (s == 404 ? " not found" : " gone") + "): " + u,
                    nvidia(url) ? "check the name and version (cudnn releases); if NVIDIA keeps it behind a login, " + LOGIN_FIX
                            : "check the mirror (--from, CUDNN_TOOL_MIRROR) holds it under the same path as NVIDIA's redist folder");
        }
        if ((s == 401 || s == 403) && nvidia(url)) {
            return new ToolException(ExitCode.ARCHIVE_REJECTED, e.fileName() + " was refused by NVIDIA's server (HTTP " + s
                    + "): " + u + "; it may be behind NVIDIA's login", LOGIN_FIX);
        }
        if (s == 401 || s == 403) {
            return new ToolException(ExitCode.ARCHIVE_REJECTED, "the mirror refused the request (HTTP " + s
                    + "; it may need credentials): " + u,
                    s == 401 ? "give the mirror's credentials (https://USER:PASSWORD@HOST/…, never printed) or ask its owner"
                            : "check the mirror's access rules or credentials; if it only passes on NVIDIA's answer,"
                            + " the file may be behind NVIDIA's login: " + LOGIN_FIX);
        }
        if (s >= 500) {
            return new ToolException(ExitCode.HOST_NOT_READY, "the server failed (HTTP " + s + ") for " + u,
                    "try again later" + (part != null && Files.exists(part) ? ": the same command resumes from " + part.getFileName() : ""));
        }
        return new ToolException(ExitCode.ARCHIVE_REJECTED, "the server answered HTTP " + s + " for " + u,
                "check the URL or mirror (--from, CUDNN_TOOL_MIRROR)");
    }

    /**
     * The dry run's check (#30 item 4): a HEAD request for the file; returns when the real run would download it
     * (2xx, and the length, when told, is NVIDIA's), else throws what the real run would end with.
     */
    public static void exists(Downloader d, CatalogueEntry e, URI url) {
        try (Downloader.Response r = d.head(url)) {
            int s = r.status();
            if (s >= 200 && s < 300) {
                if (e.size() != null && r.contentLength() >= 0 && r.contentLength() != e.size()) {
                    throw new ToolException(ExitCode.ARCHIVE_REJECTED, shown(url) + " is " + r.contentLength()
                            + " bytes; NVIDIA's " + e.fileName() + " has " + e.size(),
                            "fetch from another source (--from), or check the mirror or proxy");
                }
                return;
            }
            throw refused(e, url, s, null);
        } catch (IOException x) {
            throw new ToolException(ExitCode.HOST_NOT_READY, "checking " + shown(url) + " failed: " + describe(x, url),
                    "check the network (and HTTPS_PROXY/NO_PROXY), then run the same command again", x);
        }
    }

    /** Appends {@code in} to the part (from {@code have} on; 0 truncates it); refuses more than the entry can hold. */
    private long write(CatalogueEntry e, InputStream in, Path part, long have, String from) throws IOException {
        long limit = limit(e);
        long total = e.size() == null ? -1 : e.size();
        OutputStream out;
        try {
            if (have == 0) {
                Files.deleteIfExists(part); // a plain file of ours (checked), or a link: removed as itself, never followed
                out = Files.newOutputStream(part, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
                        LinkOption.NOFOLLOW_LINKS);
            } else {
                SafeFiles.plainOwnFile(part, SafeFiles.caller(part.getFileSystem()));
                out = Files.newOutputStream(part, StandardOpenOption.APPEND, LinkOption.NOFOLLOW_LINKS);
            }
        } catch (ToolException x) {
            throw x;
        } catch (IOException | RuntimeException x) {
            throw new ToolException(ExitCode.TARGET_NOT_WRITABLE, "cannot write " + part + ": " + x.getMessage(),
                    "pass --to a folder you can write", x);
        }
        try (out) {
            byte[] buf = new byte[1 << 16];
            int n;
            progress.update(have, total, 0, have);
            while ((n = in.read(buf)) > 0) {
                if (have + n > limit) {
                    out.close();
                    delete(part);
                    throw new ToolException(ExitCode.ARCHIVE_REJECTED, Secrets.redact(from) + " sent more than the " + limit
                            + " bytes " + (e.size() == null ? "fetch reads" : "NVIDIA's " + e.fileName() + " has")
                            + "; the .part was deleted", "fetch from another source (--from), or check the mirror or proxy");
                }
                out.write(buf, 0, n);
                have += n;
                progress.update(have, total, 0, have);
            }
        }
        return have;
    }

    private static long size(Path p) {
        try {
            return Files.size(p);
        } catch (IOException x) {
            return -1;
        }
    }

    private static void delete(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException ignored) {
            // a later run starts over anyway
        }
    }

    static String sha256(Path p) {
        try {
            return Hex.sha256(p);
        } catch (IOException x) {
            throw new ToolException(ExitCode.HOST_NOT_READY, "cannot read " + p + ": " + x.getMessage(), "check the file", x);
        }
    }
}

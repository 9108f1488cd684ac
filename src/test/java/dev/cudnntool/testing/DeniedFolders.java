package dev.cudnntool.testing;

import java.io.IOException;
import java.net.URI;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.AccessMode;
import java.nio.file.CopyOption;
import java.nio.file.DirectoryStream;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileAttributeView;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.nio.file.spi.FileSystemProvider;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A file system (normally jimfs) in which some folders behave as a {@code 0700} folder owned by
 * another user does for an ordinary user (root on a test machine is never denied, and jimfs has no
 * permissions): the folder itself can be seen ({@code stat}), but listing it and reaching anything
 * inside it fail with {@link AccessDeniedException}. Everything else is passed to the wrapped file
 * system unchanged.
 */
public final class DeniedFolders extends FileSystem {
    private final FileSystem inner;
    private final Provider provider = new Provider();
    private final List<Path> denied = new ArrayList<>();

    private DeniedFolders(FileSystem inner) {
        this.inner = inner;
    }

    /** {@code fs} with the given absolute folders closed to the current user. */
    public static DeniedFolders wrap(FileSystem fs, String... folders) {
        DeniedFolders d = new DeniedFolders(fs);
        for (String f : folders) {
            d.denied.add(fs.getPath(f));
        }
        return d;
    }

    Path wrap(Path p) {
        return p == null ? null : p instanceof P ? p : new P(p);
    }

    static Path unwrap(Path p) {
        return p instanceof P w ? w.inner : p;
    }

    /** Listing the folder, or reaching anything inside it, is denied. */
    void check(Path p, boolean listing) throws AccessDeniedException {
        Path abs = unwrap(p).toAbsolutePath().normalize();
        for (Path d : denied) {
            if (abs.startsWith(d) && (listing || !abs.equals(d))) {
                throw new AccessDeniedException(p.toString());
            }
        }
    }

    @Override
    public FileSystemProvider provider() {
        return provider;
    }

    @Override
    public void close() throws IOException {
        inner.close();
    }

    @Override
    public boolean isOpen() {
        return inner.isOpen();
    }

    @Override
    public boolean isReadOnly() {
        return inner.isReadOnly();
    }

    @Override
    public String getSeparator() {
        return inner.getSeparator();
    }

    @Override
    public Iterable<Path> getRootDirectories() {
        List<Path> out = new ArrayList<>();
        inner.getRootDirectories().forEach(r -> out.add(wrap(r)));
        return out;
    }

    @Override
    public Iterable<FileStore> getFileStores() {
        return inner.getFileStores();
    }

    @Override
    public Set<String> supportedFileAttributeViews() {
        return inner.supportedFileAttributeViews();
    }

    @Override
    public Path getPath(String first, String... more) {
        return wrap(inner.getPath(first, more));
    }

    @Override
    public PathMatcher getPathMatcher(String syntaxAndPattern) {
        PathMatcher m = inner.getPathMatcher(syntaxAndPattern);
        return p -> m.matches(unwrap(p));
    }

    @Override
    public UserPrincipalLookupService getUserPrincipalLookupService() {
        return inner.getUserPrincipalLookupService();
    }

    @Override
    public WatchService newWatchService() throws IOException {
        return inner.newWatchService();
    }

    /** A path of the wrapped file system that answers to this one. */
    final class P implements Path {
        final Path inner;

        P(Path inner) {
            this.inner = inner;
        }

        @Override
        public FileSystem getFileSystem() {
            return DeniedFolders.this;
        }

        @Override
        public boolean isAbsolute() {
            return inner.isAbsolute();
        }

        @Override
        public Path getRoot() {
            return wrap(inner.getRoot());
        }

        @Override
        public Path getFileName() {
            return wrap(inner.getFileName());
        }

        @Override
        public Path getParent() {
            return wrap(inner.getParent());
        }

        @Override
        public int getNameCount() {
            return inner.getNameCount();
        }

        @Override
        public Path getName(int index) {
            return wrap(inner.getName(index));
        }

        @Override
        public Path subpath(int beginIndex, int endIndex) {
            return wrap(inner.subpath(beginIndex, endIndex));
        }

        @Override
        public boolean startsWith(Path other) {
            return inner.startsWith(unwrap(other));
        }

        @Override
        public boolean endsWith(Path other) {
            return inner.endsWith(unwrap(other));
        }

        @Override
        public Path normalize() {
            return wrap(inner.normalize());
        }

        @Override
        public Path resolve(Path other) {
            return wrap(inner.resolve(unwrap(other)));
        }

        @Override
        public Path relativize(Path other) {
            return wrap(inner.relativize(unwrap(other)));
        }

        @Override
        public URI toUri() {
            return inner.toUri();
        }

        @Override
        public Path toAbsolutePath() {
            return wrap(inner.toAbsolutePath());
        }

        @Override
        public Path toRealPath(LinkOption... options) throws IOException {
            check(this, false);
            return wrap(inner.toRealPath(options));
        }

        @Override
        public WatchKey register(WatchService watcher, WatchEvent.Kind<?>[] events, WatchEvent.Modifier... modifiers) {
            throw new UnsupportedOperationException();
        }

        @Override
        public int compareTo(Path other) {
            return inner.compareTo(unwrap(other));
        }

        @Override
        public Iterator<Path> iterator() {
            List<Path> out = new ArrayList<>();
            inner.forEach(p -> out.add(wrap(p)));
            return out.iterator();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof P p && p.inner.equals(inner);
        }

        @Override
        public int hashCode() {
            return inner.hashCode();
        }

        @Override
        public String toString() {
            return inner.toString();
        }
    }

    private final class Provider extends FileSystemProvider {
        private FileSystemProvider in() {
            return inner.provider();
        }

        @Override
        public String getScheme() {
            return "denied-" + in().getScheme();
        }

        @Override
        public FileSystem newFileSystem(URI uri, Map<String, ?> env) {
            throw new UnsupportedOperationException();
        }

        @Override
        public FileSystem getFileSystem(URI uri) {
            return DeniedFolders.this;
        }

        @Override
        public Path getPath(URI uri) {
            return wrap(in().getPath(uri));
        }

        @Override
        public SeekableByteChannel newByteChannel(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
                throws IOException {
            check(path, false);
            return in().newByteChannel(unwrap(path), options, attrs);
        }

        @Override
        public DirectoryStream<Path> newDirectoryStream(Path dir, DirectoryStream.Filter<? super Path> filter) throws IOException {
            check(dir, true);
            DirectoryStream<Path> ds = in().newDirectoryStream(unwrap(dir), p -> filter.accept(wrap(p)));
            return new DirectoryStream<>() {
                @Override
                public Iterator<Path> iterator() {
                    Iterator<Path> it = ds.iterator();
                    return new Iterator<>() {
                        @Override
                        public boolean hasNext() {
                            return it.hasNext();
                        }

                        @Override
                        public Path next() {
                            return wrap(it.next());
                        }
                    };
                }

                @Override
                public void close() throws IOException {
                    ds.close();
                }
            };
        }

        @Override
        public void createDirectory(Path dir, FileAttribute<?>... attrs) throws IOException {
            check(dir, false);
            in().createDirectory(unwrap(dir), attrs);
        }

        @Override
        public void createSymbolicLink(Path link, Path target, FileAttribute<?>... attrs) throws IOException {
            check(link, false);
            in().createSymbolicLink(unwrap(link), unwrap(target), attrs);
        }

        @Override
        public Path readSymbolicLink(Path link) throws IOException {
            check(link, false);
            return wrap(in().readSymbolicLink(unwrap(link)));
        }

        @Override
        public void delete(Path path) throws IOException {
            check(path, false);
            in().delete(unwrap(path));
        }

        @Override
        public void copy(Path source, Path target, CopyOption... options) throws IOException {
            check(source, false);
            check(target, false);
            in().copy(unwrap(source), unwrap(target), options);
        }

        @Override
        public void move(Path source, Path target, CopyOption... options) throws IOException {
            check(source, false);
            check(target, false);
            in().move(unwrap(source), unwrap(target), options);
        }

        @Override
        public boolean isSameFile(Path path, Path path2) throws IOException {
            return in().isSameFile(unwrap(path), unwrap(path2));
        }

        @Override
        public boolean isHidden(Path path) throws IOException {
            return in().isHidden(unwrap(path));
        }

        @Override
        public FileStore getFileStore(Path path) throws IOException {
            return in().getFileStore(unwrap(path));
        }

        @Override
        public void checkAccess(Path path, AccessMode... modes) throws IOException {
            check(path, modes.length > 0); // the folder itself: neither readable nor enterable
            in().checkAccess(unwrap(path), modes);
        }

        @Override
        public <V extends FileAttributeView> V getFileAttributeView(Path path, Class<V> type, LinkOption... options) {
            return in().getFileAttributeView(unwrap(path), type, options);
        }

        @Override
        public <A extends BasicFileAttributes> A readAttributes(Path path, Class<A> type, LinkOption... options) throws IOException {
            check(path, false);
            return in().readAttributes(unwrap(path), type, options);
        }

        @Override
        public Map<String, Object> readAttributes(Path path, String attributes, LinkOption... options) throws IOException {
            check(path, false);
            return in().readAttributes(unwrap(path), attributes, options);
        }

        @Override
        public void setAttribute(Path path, String attribute, Object value, LinkOption... options) throws IOException {
            check(path, false);
            in().setAttribute(unwrap(path), attribute, value, options);
        }
    }
}

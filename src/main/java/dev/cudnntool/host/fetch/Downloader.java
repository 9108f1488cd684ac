package dev.cudnntool.host.fetch;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;

/**
 * The port {@code cudnn fetch} downloads through: one GET, from the start or, for a resume, from
 * byte {@code from} on (a {@code Range: bytes=from-} request). The adapter is {@link HttpDownloader}
 * (the JDK's HttpClient); the {@link Fetcher} decides what the answer means.
 */
public interface Downloader {
    /**
     * Sends the request and returns once the status and headers arrived (or throws when none did:
     * connection refused, no answer within the timeout).
     */
    Response get(URI url, long from) throws IOException;

    /**
     * A {@code HEAD} request (the dry run of {@code install --release}, #30 item 4): the status and headers,
     * with an empty body. The default asks with a GET from byte 0 and never reads the body.
     */
    default Response head(URI url) throws IOException {
        return get(url, 0);
    }

    /**
     * The server's answer.
     *
     * @param status        the HTTP status after redirects
     * @param contentRange  the {@code Content-Range} header, or null
     * @param contentLength the {@code Content-Length} header, or -1
     * @param body          the body, read by the caller (which closes it)
     */
    record Response(int status, String contentRange, long contentLength, InputStream body) implements Closeable {
        @Override
        public void close() throws IOException {
            body.close();
        }
    }
}

package dev.cudnntool.host.fetch;
import dev.cudnntool.host.Host;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * {@link Downloader} on the JDK's {@link HttpClient}: redirects followed (never https to http),
 * the proxy from the environment ({@link EnvProxies}), {@code timeout} for connecting and for the
 * headers. The body is not timed by the client: {@link Fetcher} reads it through a {@link StallGuard}.
 */
public final class HttpDownloader implements Downloader {
    private final HttpClient client;
    private final Duration timeout;

    public HttpDownloader(Host host, Duration timeout) {
        this.timeout = timeout;
        this.client = HttpClient.newBuilder()
                .followRedirects(HttpClient.Redirect.NORMAL)
                .proxy(new EnvProxies(host))
                .connectTimeout(timeout)
                .build();
    }

    @Override
    public Response head(URI url) throws IOException {
        return send(HttpRequest.newBuilder(url).method("HEAD", HttpRequest.BodyPublishers.noBody()).timeout(timeout)
                .header("User-Agent", "cudnn-tool"));
    }

    @Override
    public Response get(URI url, long from) throws IOException {
        HttpRequest.Builder b = HttpRequest.newBuilder(url).GET().timeout(timeout).header("User-Agent", "cudnn-tool");
        if (from > 0) {
            b.header("Range", "bytes=" + from + "-");
        }
        return send(b);
    }

    private Response send(HttpRequest.Builder b) throws IOException {
        try {
            HttpResponse<InputStream> r = client.send(b.build(), HttpResponse.BodyHandlers.ofInputStream());
            return new Response(r.statusCode(), r.headers().firstValue("Content-Range").orElse(null),
                    r.headers().firstValueAsLong("Content-Length").orElse(-1), r.body());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted");
        } catch (IllegalArgumentException e) {
            throw new IOException(Secrets.redact(e.getMessage()), e);
        }
    }
}

package dev.cudnntool.testing;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** A local HTTP server in the test JVM on a free port of 127.0.0.1 (the tests never touch the internet). */
public final class LocalHttpServer implements AutoCloseable {
    private final HttpServer server;
    private final ExecutorService pool;

    private LocalHttpServer(HttpServer server, ExecutorService pool) {
        this.server = server;
        this.pool = pool;
    }

    /** Started, every path answered by {@code handler}. */
    public static LocalHttpServer start(HttpHandler handler) throws IOException {
        ExecutorService pool = Executors.newCachedThreadPool();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(pool);
        server.createContext("/", handler);
        server.start();
        return new LocalHttpServer(server, pool);
    }

    /**
     * Serves {@code files} by request path (read at each request, so a test may change the map), 404 for
     * any other path; every path asked for is added to {@code log}.
     */
    public static HttpHandler serving(Map<String, byte[]> files, List<String> log) {
        return x -> {
            try (x) {
                log.add(x.getRequestURI().getPath());
                byte[] b = files.get(x.getRequestURI().getPath());
                if (b == null) {
                    x.sendResponseHeaders(404, -1);
                    return;
                }
                x.sendResponseHeaders(200, b.length);
                x.getResponseBody().write(b);
            }
        };
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** "http://127.0.0.1:PORT/". */
    public String base() {
        return "http://127.0.0.1:" + port() + "/";
    }

    @Override
    public void close() {
        server.stop(0);
        pool.shutdownNow();
    }
}

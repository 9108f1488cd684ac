package dev.cudnntool.host.fetch;

import dev.cudnntool.ExitCode;
import dev.cudnntool.Text;
import dev.cudnntool.ToolException;
import dev.cudnntool.host.Host;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.ProxySelector;
import java.net.SocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The proxy as curl and pip read it from the environment, through {@link Host#env} (never the JVM's
 * own settings): {@code HTTPS_PROXY} for https URLs, {@code HTTP_PROXY} for http ones (either
 * spelling case), written {@code http://host:port} or {@code host:port}; {@code NO_PROXY} a comma list
 * of host names or domain suffixes ({@code .example.com}, {@code example.com}) or {@code *}, that go
 * direct. A value that is not a proxy address is a usage error (exit 2) naming the variable.
 */
public final class EnvProxies extends ProxySelector {
    private final InetSocketAddress https;
    private final InetSocketAddress http;
    private final List<String> noProxy = new ArrayList<>();

    public EnvProxies(Host host) {
        this.https = parse(host, "HTTPS_PROXY");
        this.http = parse(host, "HTTP_PROXY");
        String no = first(host, "NO_PROXY");
        if (no != null) {
            for (String part : no.split(",")) {
                String p = part.trim().toLowerCase(Locale.ROOT);
                if (p.startsWith("*.")) {
                    p = p.substring(1);
                }
                int colon = p.lastIndexOf(':');
                if (colon > 0 && p.indexOf(':') == colon) {
                    p = p.substring(0, colon);
                }
                if (!p.isEmpty()) {
                    noProxy.add(p.startsWith(".") ? p.substring(1) : p);
                }
            }
        }
    }

    private static String first(Host host, String name) {
        String v = host.env(name);
        return v != null ? v : host.env(name.toLowerCase(Locale.ROOT));
    }

    private static InetSocketAddress parse(Host host, String name) {
        String v = first(host, name);
        if (v == null) {
            return null;
        }
        String t = v.trim();
        try {
            URI u = URI.create(t.contains("://") ? t : "http://" + t);
            if (u.getHost() == null || !(u.getScheme().equalsIgnoreCase("http") || u.getScheme().equalsIgnoreCase("https"))) {
                throw new IllegalArgumentException("no host");
            }
            int port = u.getPort() > 0 ? u.getPort() : u.getScheme().equalsIgnoreCase("https") ? 443 : 80;
            return InetSocketAddress.createUnresolved(u.getHost(), port);
        } catch (IllegalArgumentException e) {
            throw new ToolException(ExitCode.USAGE, name + "=" + Text.printable(Text.oneLine(Secrets.redact(t.contains("://") ? t : "http://" + t))) + " is not a proxy address",
                    "set it as http://HOST:PORT, or unset it to connect directly", e);
        }
    }

    /** Whether {@code host} goes direct by {@code NO_PROXY}. */
    boolean bypassed(String hostName) {
        String h = hostName == null ? "" : hostName.toLowerCase(Locale.ROOT);
        for (String p : noProxy) {
            if (p.equals("*") || h.equals(p) || h.endsWith("." + p)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public List<Proxy> select(URI uri) {
        InetSocketAddress proxy = "https".equalsIgnoreCase(uri.getScheme()) ? https : http;
        if (proxy == null || bypassed(uri.getHost())) {
            return List.of(Proxy.NO_PROXY);
        }
        return List.of(new Proxy(Proxy.Type.HTTP, proxy));
    }

    @Override
    public void connectFailed(URI uri, SocketAddress sa, IOException ioe) {
        // the download reports the failure itself
    }
}

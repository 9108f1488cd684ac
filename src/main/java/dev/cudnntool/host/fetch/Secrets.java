package dev.cudnntool.host.fetch;

import java.util.regex.Pattern;

/**
 * #32 item 8: a user and password in a mirror or proxy URL ({@code https://user:pass@mirror/…}) are never
 * printed. Every URL or text that may hold one goes through {@link #redact} before it reaches a message,
 * a fix or JSON: the user-info part becomes {@code ***}.
 */
public final class Secrets {
    /** scheme://userinfo@ (userinfo: anything up to the first '@' before a '/', '?', '#' or white space). */
    private static final Pattern USER_INFO = Pattern.compile("(?i)\\b([a-z][a-z0-9+.-]{0,31}://)[^/?#@\\s]*@");

    private Secrets() {
    }

    /** The text with every URL's user and password shown as {@code ***}; null stays null. */
    public static String redact(String text) {
        return text == null ? null : USER_INFO.matcher(text).replaceAll("$1***@");
    }
}

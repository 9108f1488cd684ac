package dev.cudnntool.fuzz;

import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Puts fuzzed text where a reader finds it. {@link Files#writeString} throws on a character its charset
 * cannot encode (a char above U+00FF in ISO-8859-1, a lone surrogate in UTF-8), which the fuzzer then
 * reports as the harness's own crash (#35: {@code StateFuzzTestInputs/journal/regression-journal-log-beyond-latin1});
 * {@link String#getBytes(Charset)} replaces such a character with the charset's replacement byte instead.
 */
final class FuzzFiles {
    private FuzzFiles() {
    }

    static void writeText(Path file, String text, Charset charset) throws IOException {
        Files.write(file, text.getBytes(charset));
    }
}

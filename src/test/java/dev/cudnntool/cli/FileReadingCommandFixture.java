package dev.cudnntool.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A command that reads a file itself: what CliDoesNoIoTest's rule must refuse (test sources only). */
final class FileReadingCommandFixture {
    private FileReadingCommandFixture() {
    }

    static String read(Path p) throws IOException {
        return Files.readString(p);
    }
}

package dev.cudnntool.install;

import dev.cudnntool.ExitCode;
import dev.cudnntool.ToolException;

/** Exit 5: files the install would replace are held open by running programs (Windows); nothing was changed. */
public final class FilesInUse extends ToolException {
    private static final long serialVersionUID = 1L;
    FilesInUse(String message, String fix) {
        super(ExitCode.TARGET_NOT_WRITABLE, message, fix);
    }
}

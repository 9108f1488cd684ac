package dev.cudnntool.archive;

import dev.cudnntool.ExitCode;
import dev.cudnntool.ToolException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Rejects entry names and links that could write outside the extraction folder or mean something
 * else on Windows than on Linux. Pure functions over archive path strings.
 */
public final class EntrySafety {
    private static final Pattern DRIVE = Pattern.compile("^[A-Za-z]:.*");

    private EntrySafety() {
    }

    /**
     * Checks an entry name and returns its normalised segments ("." and empty segments dropped).
     * Rejects absolute paths, drive letters, backslashes, colons (NTFS streams), NUL and "..".
     */
    public static List<String> segments(String name) {
        if (name == null || name.isEmpty()) {
            throw unsafe(String.valueOf(name), "empty entry name");
        }
        if (name.indexOf('\0') >= 0) {
            throw unsafe(name, "NUL character in the name");
        }
        if (name.startsWith("/")) {
            throw unsafe(name, "absolute path");
        }
        if (DRIVE.matcher(name).matches()) {
            throw unsafe(name, "drive letter");
        }
        if (name.indexOf('\\') >= 0) {
            throw unsafe(name, "backslash in the name (Windows would read it as a folder separator)");
        }
        if (name.indexOf(':') >= 0) {
            throw unsafe(name, "colon in the name (an NTFS alternate stream or a drive on Windows)");
        }
        List<String> out = new ArrayList<>();
        for (String s : name.split("/")) {
            if (s.isEmpty() || s.equals(".")) {
                continue;
            }
            if (s.equals("..")) {
                throw unsafe(name, "'..' leads outside the archive's folder");
            }
            if (s.endsWith(".") || s.endsWith(" ")) {
                // Windows strips trailing dots and spaces: "bin." would silently become "bin".
                throw unsafe(name, "a name ending in a dot or space means another file on Windows");
            }
            out.add(s);
        }
        if (out.isEmpty()) {
            throw unsafe(name, "empty entry name");
        }
        return out;
    }

    /**
     * Resolves a symlink's target against the folder holding the link and checks it stays within
     * the archive's top folder (segment 0). Returns the resolved segments.
     */
    public static List<String> symlinkTarget(String linkName, List<String> linkSegments, String target) {
        if (target == null || target.isEmpty()) {
            throw unsafe(linkName, "symbolic link without a target");
        }
        if (target.startsWith("/") || DRIVE.matcher(target).matches() || target.indexOf('\\') >= 0) {
            throw unsafe(linkName, "symbolic link to an absolute path '" + target + "'");
        }
        List<String> resolved = new ArrayList<>(linkSegments.subList(0, linkSegments.size() - 1));
        for (String s : target.split("/")) {
            if (s.isEmpty() || s.equals(".")) {
                continue;
            }
            if (s.equals("..")) {
                if (resolved.size() <= 1) {
                    throw unsafe(linkName, "symbolic link '" + target + "' leads outside the archive's folder");
                }
                resolved.remove(resolved.size() - 1);
            } else {
                resolved.add(s);
            }
        }
        if (resolved.size() < 2) {
            throw unsafe(linkName, "symbolic link '" + target + "' points at the archive's top folder");
        }
        return resolved;
    }

    public static ToolException unsafe(String name, String why) {
        return new ToolException(ExitCode.ARCHIVE_REJECTED,
                "unsafe archive entry '" + name + "': " + why + "; nothing was extracted",
                "do not use this archive: download it again from NVIDIA's cuDNN archive page");
    }
}

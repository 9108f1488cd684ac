package dev.cudnntool.archive;
import dev.cudnntool.ExitCode;
import dev.cudnntool.Text;
import dev.cudnntool.ToolException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Rejects entry names and links that could write outside the extraction folder, into the tool's
 * own state folder, or mean something else on Windows than on Linux; and names no target file
 * system can hold. Pure functions over archive path strings.
 */
public final class EntrySafety {
    private static final Pattern DRIVE = Pattern.compile("^[A-Za-z]:.*");
    /** The tool's own folder in every target (lock, journal, history): never written from an archive. */
    public static final String STATE_FOLDER = ".cudnn-tool";
    /** NAME_MAX of every file system cuDNN is installed on (ext4, xfs, NTFS in UTF-16 units is more). */
    public static final int MAX_SEGMENT_BYTES = 255;
    /** PATH_MAX on Linux, including the terminating NUL. */
    public static final int MAX_PATH_BYTES = 4096;

    private EntrySafety() {
    }

    /**
     * Checks an entry name and returns its normalised segments ("." and empty segments dropped).
     * Rejects absolute paths, drive letters, backslashes, colons (NTFS streams), NUL and "..".
     */
    public static List<String> segments(String name) {
        if (name == null || name.isEmpty()) {
            throw unsafe("", "empty entry name");
        }
        if (name.indexOf('\0') >= 0) {
            throw unsafe(name, "NUL character in the name");
        }
        if (hasControl(name)) {
            throw unsafe(name, "a control character (newline, tab, escape, ...) in the name");
        }
        if (utf8Length(name) >= MAX_PATH_BYTES) {
            throw unsafe(name, "the name is " + utf8Length(name) + " bytes long, more than a path may be ("
                    + (MAX_PATH_BYTES - 1) + ")");
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
            if (s.equalsIgnoreCase(STATE_FOLDER)) {
                throw unsafe(name, "it lies in a folder named " + STATE_FOLDER + ", the tool's own state folder"
                        + " (install history and journal), which an archive must never write");
            }
            if (utf8Length(s) > MAX_SEGMENT_BYTES) {
                throw unsafe(name, "a part of the name is " + utf8Length(s) + " bytes long, more than a file name may be ("
                        + MAX_SEGMENT_BYTES + ")");
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
     * Checks a symbolic link's target and returns it as a plain file name. NVIDIA's links only
     * ever name a file in the link's own folder ({@code libcudnn.so -> libcudnn.so.9}); anything
     * else (another folder, "..", an absolute path) could lead elsewhere once the files are spread
     * into the toolkit's folders, so it is refused. A leading "./" is allowed.
     */
    public static String symlinkTarget(String linkName, String target) {
        if (target == null || target.isEmpty()) {
            throw unsafe(linkName, "symbolic link without a target");
        }
        if (hasControl(target)) {
            throw unsafe(linkName, "a control character in the symbolic link's target");
        }
        if (target.startsWith("/") || DRIVE.matcher(target).matches() || target.indexOf('\\') >= 0) {
            throw unsafe(linkName, "symbolic link to an absolute path '" + target + "'");
        }
        String plain = target;
        while (plain.startsWith("./")) {
            plain = plain.substring(2);
        }
        if (plain.isEmpty() || plain.equals(".") || plain.equals("..") || plain.indexOf('/') >= 0
                || plain.indexOf(':') >= 0 || utf8Length(plain) > MAX_SEGMENT_BYTES) {
            throw unsafe(linkName, "symbolic link to '" + target + "', which is not a file in the link's own folder"
                    + " (NVIDIA's links only ever are; a link to a folder or another folder could lead outside once installed)");
        }
        return plain;
    }

    static boolean hasControl(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (Character.isISOControl(s.charAt(i))) {
                return true;
            }
        }
        return false;
    }

    public static int utf8Length(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }


    public static ToolException unsafe(String name, String why) {
        return new ToolException(ExitCode.ARCHIVE_REJECTED,
                "unsafe archive entry '" + Text.printable(name) + "': " + Text.printable(why) + "; nothing was extracted",
                "do not use this archive: download it again from NVIDIA's cuDNN archive page");
    }
}

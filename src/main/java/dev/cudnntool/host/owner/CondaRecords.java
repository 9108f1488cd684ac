package dev.cudnntool.host.owner;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.cudnntool.BoundedFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * conda's records: each {@code <env>/conda-meta/<name>-<version>-<build>.json} holds the package's
 * {@code name}, {@code version} and {@code files} (paths relative to the environment, forward
 * slashes). cuDNN's packages are read first ({@code cudnn}, conda-forge's {@code libcudnn}), then
 * the rest, within {@value #BUDGET} bytes per environment; at most {@value #MAX_RECORDS} records of
 * {@value #RECORD_MAX} bytes each, read as a stream (nothing but those three fields is kept).
 */
final class CondaRecords {
    static final int MAX_RECORDS = 5000;
    static final long BUDGET = 256L << 20;
    static final long RECORD_MAX = 64L << 20;
    private static final JsonFactory JSON = new JsonFactory();

    private CondaRecords() {
    }

    /** The conda environment {@code file} lies in (the folder holding conda-meta), at most five levels up. */
    static Optional<Path> envOf(Path file) {
        Path p = file.getParent();
        for (int i = 0; p != null && i < 5; i++, p = p.getParent()) {
            if (Files.isDirectory(p.resolve("conda-meta"))) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    static Optional<Owner> ownerOf(Path env, Path file) {
        return ownerOf(env, file, unread -> { });
    }

    /** @param unread told each conda-meta record that could not be read (the owner was not checked) */
    static Optional<Owner> ownerOf(Path env, Path file, Consumer<Path> unread) {
        String rel = PythonRecords.relative(env, file);
        if (rel == null) {
            return Optional.empty();
        }
        List<Path> records = PackageNames.records(env.resolve("conda-meta"), "*.json", MAX_RECORDS);
        PackageNames.Budget budget = new PackageNames.Budget(BUDGET);
        for (Path record : records) {
            try {
                if (!budget.admits(record, RECORD_MAX)) {
                    continue;
                }
                byte[] json;
                try {
                    json = BoundedFiles.read(record, RECORD_MAX);
                } catch (IOException e) {
                    unread.accept(record);
                    continue;
                }
                Optional<Owner> o = read(json, rel, env);
                if (o.isPresent()) {
                    return o;
                }
            } catch (IOException | RuntimeException ignored) {
                // unreadable or not JSON: names nothing
            }
        }
        return Optional.empty();
    }

    /** The owner a record names when its {@code files} list {@code rel}. */
    static Optional<Owner> read(byte[] json, String rel, Path env) throws IOException {
        String name = null;
        String version = null;
        boolean listed = false;
        try (JsonParser p = JSON.createParser(json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return Optional.empty();
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                if (field.equals("name") && value == JsonToken.VALUE_STRING) {
                    name = PackageNames.name(p.getText());
                } else if (field.equals("version") && value == JsonToken.VALUE_STRING) {
                    version = PackageNames.version(p.getText());
                } else if (field.equals("files") && value == JsonToken.START_ARRAY) {
                    JsonToken t;
                    while ((t = p.nextToken()) != JsonToken.END_ARRAY && t != null) {
                        if (t == JsonToken.VALUE_STRING) {
                            listed |= rel.equals(p.getText());
                        } else {
                            p.skipChildren();
                        }
                    }
                } else {
                    p.skipChildren();
                }
            }
        }
        return listed && name != null ? Optional.of(new Owner(Owner.Kind.CONDA, name, version, env.toString())) : Optional.empty();
    }
}

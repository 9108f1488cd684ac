package dev.cudnntool.probe;

import java.util.List;

/**
 * A cuDNN sub-library's own version, from the 4-byte value it exports under a version symbol. Read from the real
 * libraries (nm -D, then the value): {@code libcudnn_ops.so.9} of 9.5.1 exports {@code cudnn_ops_infer_version}
 * = 0x090501, the 9.24.0 wheel's 0x091800, 8.9.7's {@code libcudnn_ops_infer.so.8} 0x080907: major, minor and
 * patch one byte each. Exporting one: 9.x graph, ops, adv; 8.x ops_infer, ops_train, cnn_infer, adv_infer. The
 * others (9.x cnn, engines, heuristic; 8.x cnn_train, adv_train) export none: their version shows only in the
 * main library's version checks.
 */
final class SubLibraryVersion {
    static final List<String> SYMBOLS = List.of("cudnn_graph_version", "cudnn_ops_infer_version", "cudnn_ops_train_version",
            "cudnn_cnn_infer_version", "cudnn_cnn_train_version", "cudnn_adv_infer_version", "cudnn_adv_train_version");

    private SubLibraryVersion() {
    }

    /** "9.24.0" from 0x091800; null for a value no release has (a major outside 1-99). */
    static String decode(int value) {
        int major = value >>> 16;
        if (major < 1 || major > 99) {
            return null;
        }
        return major + "." + (value >>> 8 & 0xff) + "." + (value & 0xff);
    }
}

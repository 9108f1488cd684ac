package dev.cudnntool.archive;

import java.util.List;

/**
 * Which libraries and headers make a complete cuDNN of a given major (facts §4). Newer releases
 * may add sub-libraries; extras are accepted, a missing one from these lists is not.
 */
public final class CudnnComponents {
    private CudnnComponents() {
    }

    /** Library bases ("cudnn", "cudnn_ops_infer", ...) that every release of the major ships. */
    public static List<String> libraries(int major) {
        if (major <= 7) {
            return List.of("cudnn");
        }
        if (major == 8) {
            return List.of("cudnn", "cudnn_ops_infer", "cudnn_ops_train", "cudnn_cnn_infer",
                    "cudnn_cnn_train", "cudnn_adv_infer", "cudnn_adv_train");
        }
        return List.of("cudnn", "cudnn_graph", "cudnn_engines_precompiled", "cudnn_engines_runtime_compiled",
                "cudnn_heuristic", "cudnn_ops", "cudnn_cnn", "cudnn_adv");
    }

    /** The sub-libraries only: what the dispatcher library loads by name. */
    public static List<String> subLibraries(int major) {
        return libraries(major).stream().filter(b -> !b.equals("cudnn")).toList();
    }

    public static List<String> headers(int major) {
        if (major <= 7) {
            return List.of("cudnn.h");
        }
        if (major == 8) {
            return List.of("cudnn.h", "cudnn_version.h", "cudnn_backend.h", "cudnn_ops_infer.h",
                    "cudnn_ops_train.h", "cudnn_cnn_infer.h", "cudnn_cnn_train.h", "cudnn_adv_infer.h",
                    "cudnn_adv_train.h");
        }
        return List.of("cudnn.h", "cudnn_version.h", "cudnn_backend.h", "cudnn_graph.h", "cudnn_ops.h",
                "cudnn_cnn.h", "cudnn_adv.h");
    }

    /** The header that carries CUDNN_MAJOR/MINOR/PATCHLEVEL. */
    public static String versionHeader(int major) {
        return major <= 7 ? "cudnn.h" : "cudnn_version.h";
    }

    public static String windowsDll(String base, int major) {
        return base + "64_" + major + ".dll";
    }

    public static String linuxSoname(String base, int major) {
        return "lib" + base + ".so." + major;
    }
}

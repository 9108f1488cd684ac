package dev.cudnntool.explain;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One cuDNN error line found in pasted text (JSON {@code lines[]}): where it was ({@code number}, 1-based), the line
 * as it may be echoed ({@code text}: colour codes removed, control and bidi characters escaped, cut after 300), its
 * {@code kind} and {@code meaning}, and what it names. Every field but number, text, kind and meaning may be null.
 *
 * @param library       the file the program wanted ("libcudnn_ops_infer.so.8", "cudnn_cnn_infer64_8.dll")
 * @param major         the cuDNN major that file belongs to
 * @param subLibrary    the sub-library ("ops_infer", "graph"), null for the main library
 * @param wanted        the exact version a loader asked for ("9.1.0" from "libcudnn_graph.so.9.1.0")
 * @param dependency    another library named as the one missing ("libcublas.so.11" in "…ops_infer.so.8. Error: libcublas.so.11: …")
 * @param compiled      the cuDNN version the framework was built with ("8.5.0")
 * @param runtime       the cuDNN version it found at run time ("8.3.3")
 * @param status        the cudnnStatus_t name ("CUDNN_STATUS_NOT_INITIALIZED")
 * @param statusCode    its number in the numbering the line used, when the line gave one or the name has one
 * @param windowsError  the Windows error code (126, 193, 127)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ErrorLine(int number, String text, LineKind kind, String meaning, String library, Integer major,
                        String subLibrary, String wanted, String dependency, String compiled, String runtime,
                        String status, Integer statusCode, Integer windowsError) {
}

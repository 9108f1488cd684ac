package dev.cudnntool.archive.name;

import dev.cudnntool.archive.HeaderVersion;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CudnnVersionTest {
    @ParameterizedTest
    @CsvSource({"8905, 8.9.5", "8907, 8.9.7", "90501, 9.5.1", "92400, 9.24.0", "7605, 7.6.5", "8100, 8.1.0",
            "91300, 9.13.0"})
    void decodesApiNumbersOnBothSidesOfVersion9(long api, String text) {
        CudnnVersion v = CudnnVersion.fromApiNumber(api);
        assertEquals(text, v.toString());
        assertEquals(api, v.apiNumber());
    }

    @Test
    void buildNumberIsNeverEncoded() {
        assertEquals(8905, CudnnVersion.parse("8.9.5.30").apiNumber());
        assertEquals("8.9.5", CudnnVersion.parse("8.9.5.30").release().toString());
        assertThrows(IllegalArgumentException.class, () -> CudnnVersion.fromApiNumber(0));
        assertThrows(IllegalArgumentException.class, () -> CudnnVersion.parse("8.9"));
    }

    @Test
    void readsRealHeaderFormats() {
        String v8 = "#ifndef CUDNN_VERSION_H_\n#define CUDNN_VERSION_H_\n\n#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 9\n"
                + "#define CUDNN_PATCHLEVEL 5\n\n#define CUDNN_VERSION (CUDNN_MAJOR * 1000 + CUDNN_MINOR * 100 + CUDNN_PATCHLEVEL)\n";
        assertEquals(Optional.of(CudnnVersion.of(8, 9, 5)), HeaderVersion.parse(v8));
        String v7 = "#if !defined(CUDNN_H_)\n#define CUDNN_H_\n\n#define CUDNN_MAJOR 7\n#define CUDNN_MINOR 6\n"
                + "#define CUDNN_PATCHLEVEL 5\n\n#define CUDNN_VERSION (CUDNN_MAJOR * 1000 + CUDNN_MINOR * 100 + CUDNN_PATCHLEVEL)\n"
                + "#include \"driver_types.h\"\n";
        assertEquals(Optional.of(CudnnVersion.of(7, 6, 5)), HeaderVersion.parse(v7));
        assertEquals(Optional.empty(), HeaderVersion.parse("#define CUDNN_MAJOR 8\n"));
        assertEquals(Optional.empty(), HeaderVersion.parse("#define CUDNN_MAJORITY 8\n#define CUDNN_MINOR 1\n#define CUDNN_PATCHLEVEL 1"));
    }

    @ParameterizedTest
    @CsvSource({
            "cudnn64_8.dll, cudnn, 8, , WINDOWS_DLL",
            "cudnn_ops_infer64_8.dll, cudnn_ops_infer, 8, , WINDOWS_DLL",
            "cudnn_engines_precompiled64_9.dll, cudnn_engines_precompiled, 9, , WINDOWS_DLL",
            "libcudnn.so.8.9.5, cudnn, 8, 8.9.5, LINUX_SHARED",
            "libcudnn_adv_train.so.8, cudnn_adv_train, 8, , LINUX_SHARED",
            "libcudnn.so, cudnn, , , LINUX_SHARED",
            "libcudnn_graph.so.9.5.1, cudnn_graph, 9, 9.5.1, LINUX_SHARED",
            "cudnn_adv_infer64_8.lib, cudnn_adv_infer, 8, , IMPORT_LIBRARY",
            "cudnn.lib, cudnn, , , IMPORT_LIBRARY",
            "libcudnn_static_v8.a, cudnn, 8, , STATIC_LIBRARY",
            "libcudnn_cnn_infer_static.a, cudnn_cnn_infer, , , STATIC_LIBRARY",
    })
    void takesLibraryNamesApart(String file, String base, Integer major, String version, LibraryName.Kind kind) {
        LibraryName l = LibraryName.parse(file).orElseThrow();
        assertEquals(base, l.base());
        assertEquals(major, l.major());
        assertEquals(version, l.version() == null ? null : l.version().toString());
        assertEquals(kind, l.kind());
    }

    @Test
    void ignoresOtherFiles() {
        assertEquals(Optional.empty(), LibraryName.parse("zlibwapi.dll"));
        assertEquals(Optional.empty(), LibraryName.parse("libcublas.so.12"));
        assertEquals(Optional.empty(), LibraryName.parse("cudnn.h"));
    }
}

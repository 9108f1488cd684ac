package dev.cudnntool.host;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.testing.NvidiaSmiOutputs;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NvidiaSmiTest {
    @ParameterizedTest
    @CsvSource({"R450, 450.80.02, 11.0", "R535, 535.104.05, 12.2", "R580, 580.65.06, 13.0", "R610, 610.57.04, 13.3",
            "WINDOWS, 536.25, 12.2", "QUERY_Q, 535.104.05, 12.2"})
    void readsEveryHeaderStyle(String which, String driver, String cuda) throws Exception {
        String text = (String) NvidiaSmiOutputs.class.getDeclaredField(which).get(null);
        NvidiaSmi.Header h = NvidiaSmi.parseHeader(text).orElseThrow();
        assertEquals(driver, h.driverVersion());
        assertEquals(cuda, h.cudaCeiling());
    }

    @Test
    void failureTextEmptyAndGarbageHaveNoHeader() {
        assertEquals(Optional.empty(), NvidiaSmi.parseHeader(NvidiaSmiOutputs.NO_DRIVER));
        assertEquals(Optional.empty(), NvidiaSmi.parseHeader(""));
        assertEquals(Optional.empty(), NvidiaSmi.parseHeader("\u0000\u00ff garbage | Version: x.y |"));
        assertEquals(Optional.empty(), NvidiaSmi.parseHeader(null));
    }

    @Test
    void readsSeveralGpusFromTheQuery() {
        List<NvidiaSmi.Gpu> gpus = NvidiaSmi.parseGpuList("NVIDIA A100-SXM4-80GB, 535.104.05\n"
                + "NVIDIA GeForce RTX 4090, 535.104.05\r\n\n");
        assertEquals(2, gpus.size());
        assertEquals("NVIDIA GeForce RTX 4090", gpus.get(1).name());
        assertEquals("535.104.05", gpus.get(0).driverVersion());
        assertTrue(NvidiaSmi.parseGpuList(NvidiaSmiOutputs.NO_DRIVER).isEmpty());
        assertTrue(NvidiaSmi.parseGpuList("").isEmpty());
    }

    @Test
    void comparesDriverVersionsNumerically() {
        assertTrue(NvidiaSmi.compareVersions("535.104.05", "535.54.03") > 0);
        assertTrue(NvidiaSmi.compareVersions("525.60.13", "525.60.13") == 0);
        assertTrue(NvidiaSmi.compareVersions("470.199.02", "525.60.13") < 0);
        assertTrue(NvidiaSmi.compareVersions("580", "580.65.06") < 0);
    }

    @Test
    void toolkitVersionsFromEachSource() {
        assertEquals("12.2", CudaVersion.fromNvcc("nvcc: NVIDIA (R) Cuda compiler driver\nCopyright (c) 2005-2023 NVIDIA Corporation\n"
                + "Built on Tue_Aug_15_22:02:13_PDT_2023\nCuda compilation tools, release 12.2, V12.2.140\n"
                + "Build cuda_12.2.r12.2/compiler.33191640_0\n").orElseThrow().toString());
        assertEquals("10.2", CudaVersion.fromVersionTxt("CUDA Version 10.2.89\n").orElseThrow().toString());
        assertEquals("12.2", CudaVersion.fromCudartNumber(12020).toString());
        assertEquals("12.6", CudaVersion.fromCudartNumber(12060).toString());
        assertNull(CudaVersion.parse("garbage").orElse(null));
    }

    @Test
    void theComputeCapabilityQueryIsParsedAndAnOldNvidiaSmiGivesNone() {
        List<NvidiaSmi.Gpu> gpus = NvidiaSmi.parseGpuListWithCc(NvidiaSmiOutputs.GPU_CC_RTX3090
                + "NVIDIA A100-SXM4-80GB, 535.104.05, 8.0\nTesla K80, 470.82.01, [N/A]\n");
        assertEquals(List.of(new NvidiaSmi.Gpu("NVIDIA GeForce RTX 3090", "535.104.05", "8.6"),
                new NvidiaSmi.Gpu("NVIDIA A100-SXM4-80GB", "535.104.05", "8.0"),
                new NvidiaSmi.Gpu("Tesla K80", "470.82.01", null)), gpus);
        assertTrue(NvidiaSmi.parseGpuListWithCc(NvidiaSmiOutputs.NO_COMPUTE_CAP_FIELD).isEmpty());
        assertTrue(NvidiaSmi.parseGpuListWithCc("NVIDIA X, 535.104.05\n").isEmpty(), "two fields are not the three asked");
        assertTrue(NvidiaSmi.parseGpuListWithCc(null).isEmpty());
    }
}

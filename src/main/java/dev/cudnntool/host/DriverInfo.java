package dev.cudnntool.host;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * The driver as nvidia-smi reported it. {@code cudaCeiling} is the newest CUDA the driver
 * supports, not the installed toolkit. All null when nvidia-smi was not found or failed.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record DriverInfo(String nvidiaSmi, String driverVersion, String cudaCeiling, List<NvidiaSmi.Gpu> gpus) {
    public static final DriverInfo NONE = new DriverInfo(null, null, null, List.of());

    public boolean present() {
        return driverVersion != null;
    }
}

package dev.cudnntool.verify;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * One framework installed in a Python environment (JSON {@code frameworks}, #19 B16): what it pins and
 * what it will really load, by the loader's rules for its own library.
 *
 * @param name     the framework as {@code --for} names it (torch, tensorflow, onnxruntime-gpu, jax, paddlepaddle-gpu)
 * @param version  its version (from its dist-info)
 * @param site     the site-packages it is installed in
 * @param wants    the cuDNN wheel it pins ("nvidia-cudnn-cu13==9.24.0.43", METADATA's Requires-Dist), or null
 * @param loads    the cuDNN it gets, or null when it gets none
 * @param ok       it gets what it pins (or, without a pin, a complete cuDNN of one copy with its cuBLASLt)
 * @param problems each reason it is not ok, in words
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record FrameworkReport(String name, String version, String site, String wants, Loads loads, boolean ok,
                              @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> problems) {

    /**
     * @param path      the main cuDNN library it gets
     * @param version   that copy's cuDNN version, when it can be read
     * @param cudaMajor the CUDA major that copy is built for, when known (its pip package's cuXX)
     * @param via       what put it first ("its DT_RPATH", "LD_LIBRARY_PATH", ...)
     * @param owner     who answers for that copy (dpkg, pip, conda, tool, none)
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Loads(String path, String version, Integer cudaMajor, String via, String owner) {
    }
}

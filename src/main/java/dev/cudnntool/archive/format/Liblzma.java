package dev.cudnntool.archive.format;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;
import java.util.Optional;

/**
 * The system's liblzma (the library behind {@code xz} itself), bound through JNA. Only the stream
 * decoder is used. The library is taken only on Linux, only from 5.0 on, and never in the two
 * releases that carried the CVE-2024-3094 backdoor (5.6.0 and 5.6.1); anything else, or a library
 * that cannot be loaded, leaves the Java decoder in charge (see {@link XzDecoders}).
 */
final class Liblzma {
    /** The C functions, as in lzma/base.h and lzma/container.h. */
    interface Api extends Library {
        int lzma_stream_decoder(Pointer strm, long memlimit, int flags);

        /** liblzma 5.4.0 and later: decodes the blocks of a multi-block stream on several threads. */
        int lzma_stream_decoder_mt(Pointer strm, Pointer options);

        int lzma_code(Pointer strm, int action);

        void lzma_end(Pointer strm);

        int lzma_version_number();
    }

    static final String SYSTEM_LIBRARY = "liblzma.so.5";

    // lzma_ret
    static final int LZMA_OK = 0;
    static final int LZMA_STREAM_END = 1;
    static final int LZMA_NO_CHECK = 2;
    static final int LZMA_UNSUPPORTED_CHECK = 3;
    static final int LZMA_GET_CHECK = 4;
    static final int LZMA_MEM_ERROR = 5;
    static final int LZMA_MEMLIMIT_ERROR = 6;
    static final int LZMA_FORMAT_ERROR = 7;
    static final int LZMA_OPTIONS_ERROR = 8;
    static final int LZMA_DATA_ERROR = 9;
    static final int LZMA_BUF_ERROR = 10;
    // lzma_action
    static final int LZMA_RUN = 0;
    static final int LZMA_FINISH = 3;
    // lzma_stream_decoder flags
    static final int LZMA_TELL_UNSUPPORTED_CHECK = 0x02;
    static final int LZMA_CONCATENATED = 0x08;

    /** lzma_stream on LP64: next_in, avail_in, total_in, next_out, avail_out, total_out, then reserved fields. */
    static final int STREAM_SIZE = 136;
    static final int NEXT_IN = 0;
    static final int AVAIL_IN = 8;
    static final int TOTAL_IN = 16;
    static final int NEXT_OUT = 24;
    static final int AVAIL_OUT = 32;

    /** lzma_mt on LP64 (lzma/container.h): flags, threads, then memlimit_threading and memlimit_stop. */
    static final int MT_SIZE = 128;
    static final int MT_FLAGS = 0;
    static final int MT_THREADS = 4;
    static final int MT_MEMLIMIT_THREADING = 64;
    static final int MT_MEMLIMIT_STOP = 72;
    /** The first release with lzma_stream_decoder_mt: 5.4.0 stable. */
    static final int MT_DECODER = 50040002;

    /** Oldest accepted: 5.0.0 stable. Encoded as major * 10^7 + minor * 10^4 + patch * 10 + stability (2 = stable). */
    static final int OLDEST = 50000002;

    private static volatile Optional<Liblzma> system;

    final Api api;
    final int version;

    private Liblzma(Api api, int version) {
        this.api = api;
        this.version = version;
    }

    /** The system library, loaded once; empty when it cannot be used here. */
    static Optional<Liblzma> system() {
        Optional<Liblzma> s = system;
        if (s == null) {
            s = Platform.isLinux() && Platform.is64Bit() ? load(SYSTEM_LIBRARY) : Optional.empty();
            system = s;
        }
        return s;
    }

    /** Loads {@code library} (a file name as dlopen takes it), or empty when it is missing or not fit for use. */
    static Optional<Liblzma> load(String library) {
        try {
            Api api = Native.load(library, Api.class);
            int version = api.lzma_version_number();
            return acceptable(version) ? Optional.of(new Liblzma(api, version)) : Optional.empty();
        } catch (UnsatisfiedLinkError | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** 5.0.0 or later, but not 5.6.0 or 5.6.1 (5.6.2 and later of the 5.6 series are fine). */
    static boolean acceptable(int version) {
        boolean backdoored = version / 10000 == 5006 && version / 10 % 1000 < 2;
        return version >= OLDEST && !backdoored;
    }

    boolean hasMultiThreadedDecoder() {
        return version >= MT_DECODER;
    }

    /** "5.4.1" from 50040012. */
    static String versionText(int version) {
        return version / 10000000 + "." + version / 10000 % 1000 + "." + version / 10 % 1000;
    }
}

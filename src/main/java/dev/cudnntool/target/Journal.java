package dev.cudnntool.target;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.List;
import java.util.function.Function;

/**
 * The write-ahead journal of one install or rollback, written (atomically) before its first
 * change. Every op is a single atomic rename, a folder creation or a folder removal, and each
 * can be replayed forward or backward by looking at the file system alone — so a run killed at
 * any instant is completed or undone by {@code cudnn rollback} without knowing how far it got.
 *
 * <p>Kind, state and step type are enums written as the words they always were ({@code "install"},
 * {@code "rolling-back"}, {@code "move"}): the file stays byte for byte what it was. A word the tool does
 * not know reads as null, which the state reader refuses as damage.
 *
 * @param kind  install or rollback
 * @param state committing, verifying (install); rolling-back (rollback, or an install undoing itself)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Journal(String id, Kind kind, State state, String startedAt, String target, List<Op> ops,
                      String recordId, boolean stateDirCreated) {

    /** What the journal does. */
    public enum Kind {
        INSTALL("install"), ROLLBACK("rollback");

        private final String wire;

        Kind(String wire) {
            this.wire = wire;
        }

        /** The word in the file. */
        @JsonValue
        public String wire() {
            return wire;
        }

        /** The kind a word names; null for one the tool does not know. */
        @JsonCreator
        public static Kind fromWire(String w) {
            return byWire(values(), Kind::wire, w);
        }

        @Override
        public String toString() {
            return wire;
        }
    }

    /** How far the journal's run got. */
    public enum State {
        COMMITTING("committing"), VERIFYING("verifying"), DONE("done"), ROLLING_BACK("rolling-back");

        private final String wire;

        State(String wire) {
            this.wire = wire;
        }

        /** The word in the file. */
        @JsonValue
        public String wire() {
            return wire;
        }

        /** The state a word names; null for one the tool does not know. */
        @JsonCreator
        public static State fromWire(String w) {
            return byWire(values(), State::wire, w);
        }

        @Override
        public String toString() {
            return wire;
        }
    }

    /** One step's kind: create a folder, remove an empty folder, or rename. */
    public enum Type {
        MKDIR("mkdir"), RMDIR("rmdir"), MOVE("move");

        private final String wire;

        Type(String wire) {
            this.wire = wire;
        }

        /** The word in the file. */
        @JsonValue
        public String wire() {
            return wire;
        }

        /** The type a word names; null for one the tool does not know. */
        @JsonCreator
        public static Type fromWire(String w) {
            return byWire(values(), Type::wire, w);
        }

        @Override
        public String toString() {
            return wire;
        }
    }

    /**
     * @param type mkdir (create {@code to}), rmdir (remove the empty folder {@code to}), or move
     *             ({@code from} to {@code to})
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Op(Type type, String from, String to) {
        public static Op move(String from, String to) {
            return new Op(Type.MOVE, from, to);
        }

        public static Op mkdir(String dir) {
            return new Op(Type.MKDIR, null, dir);
        }

        public static Op rmdir(String dir) {
            return new Op(Type.RMDIR, null, dir);
        }
    }

    public Journal withState(State s) {
        return new Journal(id, kind, s, startedAt, target, ops, recordId, stateDirCreated);
    }

    /** The constant whose word in the file is {@code w}; null for a word the tool does not know (read as damage). */
    private static <E> E byWire(E[] values, Function<E, String> wire, String w) {
        for (E e : values) {
            if (wire.apply(e).equals(w)) {
                return e;
            }
        }
        return null;
    }
}

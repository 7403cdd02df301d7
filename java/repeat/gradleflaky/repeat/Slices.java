package gradleflaky.repeat;

import java.util.ArrayList;
import java.util.List;

/**
 * Which selected classes this test JVM runs, and how many times each: the layout every helper shares when
 * gradle-flaky spreads a class's iterations over several fresh test JVMs of one Gradle invocation.
 *
 * <p>gradle-flaky's init script ({@code gradle/flaky-repeat.gradle}) sets, for one invocation:
 * {@value #CLASSES}, the selected classes' binary names, comma-separated ({@code %2C} and {@code %25}
 * written for {@code ,} and {@code %}), a name ending in {@code $*} also running the test classes nested
 * in it; {@value #JVMS}, N, the JVMs each class's iterations are spread over; {@value #SLICES}, S, the
 * JVMs of the invocation (N × the classes, capped by the script: a JVM start costs). The task then runs
 * generated classes {@code <prefix>0 … <prefix>(S-1)}, one test JVM each (Gradle's {@code forkEvery 1}):
 * the k-th JVM of class entry e is slice (e × N + k) mod S, which runs it for its share of the
 * iterations, the first JVMs taking the remainder; a JVM that runs several classes (S below the classes
 * × N) runs them one after the other, slice K starting with its K-th (rotated), so that every class is
 * the first of some JVM. Each class thus runs in N fresh JVMs, so its first execution in a fresh JVM
 * (what CI runs) is sampled N times, and, when S is the classes × N (the fence), state one class leaks
 * never reaches another's JVM.
 */
final class Slices {

    static final String CLASSES = "flaky.repeat.classes";
    static final String JVMS = "flaky.repeat.jvms";
    static final String SLICES = "flaky.repeat.slices";

    private Slices() {}

    /** One selected class entry this JVM runs, {@code count} times. */
    static final class Share {
        final String name;
        final int count;

        Share(String name, int count) {
            this.name = name;
            this.count = count;
        }

        /** The entry names its nested test classes too ({@code Outer$*}). */
        boolean nested() {
            return name.endsWith("$*");
        }

        /** The class's binary name, without {@code $*}. */
        String className() {
            return nested() ? name.substring(0, name.length() - 2) : name;
        }
    }

    /** Whether the selection reached this JVM as class entries (gradle-flaky's own selection). */
    static boolean selected() {
        return !split(System.getProperty(CLASSES, "")).isEmpty();
    }

    /**
     * The entries slice {@code slice} runs with their shares of {@link Iterations#get()}; every entry all
     * the iterations when {@code slice} is negative (no slices: one JVM runs everything).
     */
    static List<Share> of(int slice) {
        List<String> names = split(System.getProperty(CLASSES, ""));
        int total = Iterations.get();
        int jvms = Math.max(1, Integer.getInteger(JVMS, 1));
        int slices = Math.max(1, Integer.getInteger(SLICES, names.size() * jvms));
        List<Share> out = new ArrayList<>();
        for (int e = 0; e < names.size(); e++) {
            for (int k = 0; k < (slice < 0 ? 1 : jvms); k++) {
                if (slice < 0) {
                    out.add(new Share(names.get(e), total));
                } else if ((e * jvms + k) % slices == slice) {
                    int share = total / jvms + (k < total % jvms ? 1 : 0);
                    if (share > 0) {
                        out.add(new Share(names.get(e), share));
                    }
                }
            }
        }
        // Each JVM starts with another class: every class runs first in a fresh JVM in some of them.
        java.util.Collections.rotate(out, out.isEmpty() || slice < 0 ? 0 : -(slice % out.size()));
        return out;
    }

    /** The slice a generated class {@code <prefix>K} is; -1 for any other class. */
    static int sliceOf(Class<?> c, String prefix) {
        String name = c.getSimpleName();
        if (!name.startsWith(prefix) || name.length() == prefix.length()) {
            return -1;
        }
        try {
            return Integer.parseInt(name.substring(prefix.length()));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Comma-separated, {@code %2C} and {@code %25} decoded, empty entries dropped. */
    static List<String> split(String value) {
        List<String> out = new ArrayList<>();
        for (String part : value.split(",")) {
            if (!part.isEmpty()) {
                out.add(part.replace("%2C", ",").replace("%25", "%"));
            }
        }
        return out;
    }
}

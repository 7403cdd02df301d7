package gradleflaky.repeat;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A selection of tests given to the test JVM itself, as Gradle's {@code --tests} patterns select them:
 * {@code *} any run of characters, a pattern matching the whole class name or {@code Class.method}; the
 * system property {@value #FILTERS} (comma-separated, {@code %2C} and {@code %25} written for {@code ,} and
 * {@code %}). Under Gradle the helpers need none: gradle-flaky's init script keeps the task's own filters
 * ({@code --tests}, the build's), which select the tests in the test JVMs, and admits the helpers' classes
 * to them; run on their own (JUnitCore, TestNG's or the Platform's launcher) the helpers select by it.
 *
 * <p>A class pattern also matches the tests of its nested classes ({@code Outer$Inner}), as Gradle's does.
 * A method name the randomized runner decorated ({@code testFoo {seed=[A:B]}}, {@code testFoo {p0=x
 * seed=[A:B]}}) matches as it would undecorated, its seed and iteration tokens taken out, and as its bare
 * method name ({@link #names}, which also keys each test's executions in a JVM).
 */
final class Selection {

    static final String FILTERS = "flaky.repeat.filters";

    private final List<Pattern> patterns = new ArrayList<>();
    private final String described;

    Selection(List<String> globs) {
        for (String glob : globs) {
            StringBuilder regex = new StringBuilder();
            String[] literals = glob.split("\\*", -1);
            for (int i = 0; i < literals.length; i++) {
                regex.append(i == 0 ? "" : ".*").append(Pattern.quote(literals[i]));
            }
            patterns.add(Pattern.compile(regex.toString()));
        }
        described = "gradle-flaky's selection " + globs;
    }

    /** The selection of this JVM's property; null when it selects everything (no pattern). */
    static Selection fromProperty() {
        List<String> globs = Slices.split(System.getProperty(FILTERS, ""));
        return globs.isEmpty() ? null : new Selection(globs);
    }

    String describe() {
        return described;
    }

    /** Whether the test {@code method} of {@code cls} is selected; a null method asks of the class alone. */
    boolean matches(String cls, String method) {
        if (cls == null) {
            return false;
        }
        for (Pattern p : patterns) {
            if (matchesClassOrEnclosing(p, cls)) {
                return true;
            }
            if (method == null) {
                continue;
            }
            for (String name : names(method)) {
                if (p.matcher(cls + "." + name).matches()) {
                    return true;
                }
            }
        }
        return false;
    }

    /** {@code method}, without the randomized runner's tokens, and its bare name. */
    static List<String> names(String method) {
        List<String> out = new ArrayList<>();
        out.add(method);
        int open = method.indexOf(" {");
        if (open > 0 && method.endsWith("}")) {
            StringBuilder kept = new StringBuilder();
            for (String token : method.substring(open + 2, method.length() - 1).split(" ")) {
                if (token.isEmpty() || token.startsWith("seed=[") || token.matches("#\\d+")) {
                    continue;
                }
                kept.append(kept.length() == 0 ? "" : " ").append(token);
            }
            String base = method.substring(0, open);
            out.add(kept.length() == 0 ? base : base + " {" + kept + "}");
            out.add(base);
        }
        return out;
    }

    private static boolean matchesClassOrEnclosing(Pattern p, String cls) {
        for (String c = cls; c != null; c = c.lastIndexOf('$') > 0 ? c.substring(0, c.lastIndexOf('$')) : null) {
            if (p.matcher(c).matches()) {
                return true;
            }
        }
        return false;
    }
}

package gradleflaky.repeat;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.runner.Description;
import org.junit.runner.Request;
import org.junit.runner.RunWith;
import org.junit.runner.Runner;
import org.junit.runner.manipulation.Filter;
import org.junit.runner.manipulation.Filterable;
import org.junit.runner.manipulation.NoTestsRemainException;
import org.junit.runner.notification.Failure;
import org.junit.runner.notification.RunListener;
import org.junit.runner.notification.RunNotifier;

/**
 * Repeats JUnit 4 (and JUnit 3) test classes inside one test JVM: the only test class a Test task runs
 * when gradle-flaky's init script asks for in-JVM repetition. Its runner runs each selected class
 * {@link Iterations#get()} times in turn, each time through a fresh {@link Request#aClass} (the runner
 * Gradle's own JUnit executer builds: {@code @RunWith}, {@code Parameterized}, JUnit 3 {@code TestCase},
 * class rules and {@code @BeforeClass} run every iteration), filtered to the selected tests. Each test
 * reports under its own class and name, once per iteration.
 *
 * <p>What it runs comes from two system properties the init script sets for one Gradle invocation:
 * {@value #CLASSES}: the selected classes' binary names, comma-separated, a name ending in {@code $*}
 * also running the test classes nested in it; {@value #FILTERS}: the {@code --tests} patterns that select
 * the tests in them, as Gradle writes them ({@code *} the only wildcard, a pattern matching the class
 * name or {@code Class.method}), comma-separated with {@code %} and {@code ,} written {@code %25} and
 * {@code %2C}. No filter runs the classes whole. Filters Gradle itself applies (JUnit categories) reach
 * every class through {@link Filterable}.
 *
 * <p>Slices: with {@value #JVMS} set to N, the init script makes the task run generated classes
 * {@code gradleflaky.repeat.Slice0 … Slice(S-1)}, one test JVM each (Gradle's {@code forkEvery 1}), S =
 * {@value #SLICES}: N × the selected classes, capped by the init script (a JVM start costs); the k-th JVM of
 * class entry e is slice (e × N + k) mod S, which runs it for its share of the iterations. Each class thus
 * runs in N fresh JVMs, so its first execution in a fresh JVM (what CI runs) is sampled N times, and when
 * S is not capped the JVMs are its own: state one class leaks never reaches another. Each execution is
 * reported as {@code method #i}, i its 1-based iteration in its JVM (gradle-flaky strips the token and
 * counts {@code #1} as a first execution). When the class's earlier executions in this JVM started threads
 * that are still running, the token says how many: {@code method #3 (+2 threads)} (see {@link Leaks}), so
 * a leak travels in the report itself and gradle-flaky can tell which class accumulates state.
 */
@RunWith(JUnit4Repeat.Repeater.class)
public final class JUnit4Repeat {

    static final String CLASSES = "flaky.repeat.classes";
    static final String FILTERS = "flaky.repeat.filters";
    static final String JVMS = "flaky.repeat.jvms";
    static final String SLICES = "flaky.repeat.slices";

    private JUnit4Repeat() {}

    /** The runner of {@link JUnit4Repeat}. */
    public static final class Repeater extends Runner implements Filterable {

        private final List<Class<?>> classes = new ArrayList<>();
        /** How many times each class of {@link #classes} runs in this JVM. */
        private final List<Integer> counts = new ArrayList<>();
        /** The threads each class of {@link #classes} started here and left running. */
        private final List<Leaks> leaks = new ArrayList<>();
        private final List<Filter> filters = new ArrayList<>();
        private final Description description;

        public Repeater(Class<?> suite) throws ClassNotFoundException {
            ClassLoader loader = suite.getClassLoader();
            List<String> names = split(System.getProperty(CLASSES, ""));
            int slice = sliceOf(suite);
            int total = Iterations.get();
            int jvms = Math.max(1, Integer.getInteger(JVMS, 1));
            int slices = Math.max(1, Integer.getInteger(SLICES, names.size() * jvms));
            for (int e = 0; e < names.size(); e++) {
                for (int k = 0; k < (slice < 0 ? 1 : jvms); k++) {
                    // Entry e's k-th JVM is slice (e * jvms + k) mod slices: its JVMs are distinct, and the
                    // first of them take the remainder of the iterations.
                    if (slice < 0) {
                        add(names.get(e), total, loader);
                    } else if ((e * jvms + k) % slices == slice) {
                        add(names.get(e), total / jvms + (k < total % jvms ? 1 : 0), loader);
                    }
                }
            }
            List<String> patterns = split(System.getProperty(FILTERS, ""));
            if (!patterns.isEmpty()) {
                filters.add(new PatternFilter(patterns));
            }
            description = Description.createSuiteDescription(suite);
            for (Runner runner : runners(0)) {
                description.addChild(runner.getDescription());
            }
        }

        /** The class an entry names (and, for {@code Outer$*}, the test classes nested in it), {@code count} times. */
        private void add(String name, int count, ClassLoader loader) throws ClassNotFoundException {
            boolean nested = name.endsWith("$*");
            Class<?> c = Class.forName(nested ? name.substring(0, name.length() - 2) : name, false, loader);
            classes.add(c);
            if (nested) {
                addNested(c);
            }
            while (counts.size() < classes.size()) {
                counts.add(count);
                leaks.add(new Leaks());
            }
        }

        @Override
        public Description getDescription() {
            return description;
        }

        @Override
        public void filter(Filter filter) throws NoTestsRemainException {
            filters.add(filter);
            if (runners(0).isEmpty()) {
                throw new NoTestsRemainException();
            }
        }

        @Override
        public void run(RunNotifier notifier) {
            for (int i = 0; ; i++) {
                List<Integer> entries = running(i);
                if (entries.isEmpty()) {
                    return;
                }
                for (int c : entries) {
                    Runner runner = runner(c);
                    if (runner == null) {
                        continue;
                    }
                    RunNotifier inner = new RunNotifier();
                    inner.addListener(new Renamer(notifier, token(i + 1, leaks.get(c).alive())));
                    leaks.get(c).before();
                    runner.run(inner);
                    leaks.get(c).after();
                }
            }
        }

        /** The entries that run more than {@code iteration} times here. */
        private List<Integer> running(int iteration) {
            List<Integer> out = new ArrayList<>();
            for (int c = 0; c < classes.size(); c++) {
                if (counts.get(c) > iteration) {
                    out.add(c);
                }
            }
            return out;
        }

        /** A fresh runner per class that runs more than {@code iteration} times here, filtered. */
        private List<Runner> runners(int iteration) {
            List<Runner> out = new ArrayList<>();
            for (int c : running(iteration)) {
                Runner runner = runner(c);
                if (runner != null) {
                    out.add(runner);
                }
            }
            return out;
        }

        /** A fresh runner of entry {@code c}, filtered; null when the filters leave it nothing. */
        private Runner runner(int c) {
            Runner runner = Request.aClass(classes.get(c)).getRunner();
            try {
                for (Filter filter : filters) {
                    filter.apply(runner);
                }
            } catch (NoTestsRemainException e) {
                return null;
            }
            return runner;
        }

        /** The test classes nested in {@code outer} (at any depth), as Gradle's scan finds them. */
        private void addNested(Class<?> outer) {
            // JUnit's Enclosed runner runs the nested classes itself: adding them would run them twice.
            RunWith runWith = outer.getAnnotation(RunWith.class);
            if (runWith != null && runWith.value().getName().equals("org.junit.experimental.runners.Enclosed")) {
                return;
            }
            for (Class<?> inner : outer.getDeclaredClasses()) {
                if (isTestClass(inner)) {
                    classes.add(inner);
                }
                addNested(inner);
            }
        }
    }

    /**
     * The name token of an execution: {@code  #i}, its iteration in this JVM, then {@code  (+N threads)} when
     * its class's earlier executions here started N threads that are still running (state it leaks, see
     * {@link Leaks}).
     */
    static String token(int iteration, int threads) {
        String token = " #" + iteration;
        return threads == 0 ? token : token + " (+" + threads + (threads == 1 ? " thread)" : " threads)");
    }

    /**
     * The threads one class started during its executions in this JVM (those alive after an execution that
     * were not before it) and that are still running. The JDK's own pools are shared by every class and keep
     * idle threads for a while (the common fork-join pool's workers, the process reapers, idle for a minute
     * after the process they waited for ended), so their threads are no class's leak. A thread still finishing
     * its work just after its execution counts in every position alike, which is no growth.
     */
    static final class Leaks {
        private final List<Thread> started = new ArrayList<>();
        private Set<Thread> before = Collections.emptySet();

        void before() {
            before = live();
        }

        void after() {
            for (Thread t : live()) {
                if (!before.contains(t) && !shared(t)) {
                    started.add(t);
                }
            }
            before = Collections.emptySet();
        }

        int alive() {
            started.removeIf(t -> !t.isAlive());
            return started.size();
        }

        private static boolean shared(Thread t) {
            String name = t.getName();
            return name.startsWith("ForkJoinPool.commonPool-worker") || name.startsWith("process reaper");
        }

        /**
         * Every live thread of the JVM, from the topmost thread group this code may reach (a security manager
         * may stop the walk up, or the enumeration: the count is then of fewer threads or none, never a failed
         * run).
         */
        static Set<Thread> live() {
            ThreadGroup root = Thread.currentThread().getThreadGroup();
            try {
                while (root.getParent() != null) {
                    root = root.getParent();
                }
            } catch (SecurityException e) {
                // Counted from the highest group reached.
            }
            Thread[] threads = new Thread[root.activeCount() + 16];
            int n;
            try {
                while ((n = root.enumerate(threads, true)) == threads.length) {
                    threads = new Thread[threads.length * 2];
                }
            } catch (SecurityException e) {
                return Collections.emptySet();
            }
            Set<Thread> out = new HashSet<>();
            for (int i = 0; i < n; i++) {
                out.add(threads[i]);
            }
            return out;
        }
    }

    /** The slice a generated {@code SliceK} class is, -1 for this class itself (no slices). */
    static int sliceOf(Class<?> suite) {
        String name = suite.getSimpleName();
        return name.startsWith("Slice") ? Integer.parseInt(name.substring("Slice".length())) : -1;
    }

    /**
     * Passes a run's events on with each test's name followed by {@code token} (its iteration in this JVM, see
     * {@link JUnit4Repeat#token});
     * class-level events (a failing {@code @BeforeClass}) pass unchanged.
     */
    static final class Renamer extends RunListener {
        private final RunNotifier out;
        private final String token;

        Renamer(RunNotifier out, String token) {
            this.out = out;
            this.token = token;
        }

        private Description renamed(Description d) {
            if (d.getMethodName() == null) {
                return d;
            }
            return Description.createTestDescription(d.getClassName(), d.getMethodName() + token,
                    d.getAnnotations().toArray(new java.lang.annotation.Annotation[0]));
        }

        @Override
        public void testStarted(Description d) {
            out.fireTestStarted(renamed(d));
        }

        @Override
        public void testFinished(Description d) {
            out.fireTestFinished(renamed(d));
        }

        @Override
        public void testFailure(Failure f) {
            out.fireTestFailure(new Failure(renamed(f.getDescription()), f.getException()));
        }

        @Override
        public void testAssumptionFailure(Failure f) {
            out.fireTestAssumptionFailed(new Failure(renamed(f.getDescription()), f.getException()));
        }

        @Override
        public void testIgnored(Description d) {
            out.fireTestIgnored(renamed(d));
        }
    }

    /** Concrete, static, with {@code @RunWith}, a {@code @Test} method or JUnit 3's {@code TestCase}. */
    static boolean isTestClass(Class<?> c) {
        int mods = c.getModifiers();
        if (Modifier.isAbstract(mods) || c.isInterface() || !Modifier.isPublic(mods)
                || (c.getEnclosingClass() != null && !Modifier.isStatic(mods))) {
            return false;
        }
        for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass()) {
            if (k.isAnnotationPresent(RunWith.class) || k.getName().equals("junit.framework.TestCase")) {
                return true;
            }
            for (Method m : k.getDeclaredMethods()) {
                if (m.isAnnotationPresent(org.junit.Test.class)) {
                    return true;
                }
            }
        }
        return false;
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

    /**
     * Gradle's {@code --tests} matching: {@code *} any run of characters, the whole class or {@code Class.method}.
     * A class pattern also matches the tests of its nested classes ({@code Outer$Inner}), as Gradle's does: a
     * runner such as JUnit's {@code Enclosed} reports its tests under the nested classes' names.
     */
    static final class PatternFilter extends Filter {
        private final List<Pattern> patterns = new ArrayList<>();
        private final String described;

        PatternFilter(List<String> globs) {
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

        @Override
        public boolean shouldRun(Description d) {
            String cls = d.getClassName();
            String method = d.getMethodName();
            for (Pattern p : patterns) {
                if (cls != null && (matchesClassOrEnclosing(p, cls)
                        || (method != null && p.matcher(cls + "." + method).matches()))) {
                    return true;
                }
            }
            for (Description child : d.getChildren()) {
                if (shouldRun(child)) {
                    return true;
                }
            }
            return false;
        }

        private static boolean matchesClassOrEnclosing(Pattern p, String cls) {
            for (String c = cls; c != null; c = c.lastIndexOf('$') > 0 ? c.substring(0, c.lastIndexOf('$')) : null) {
                if (p.matcher(c).matches()) {
                    return true;
                }
            }
            return false;
        }

        @Override
        public String describe() {
            return described;
        }
    }
}

package gradleflaky.repeat;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 * Repeats JUnit 4 (and JUnit 3) test classes inside test JVMs: the only test classes a Test task runs
 * when gradle-flaky's init script asks for in-JVM repetition. Its runner runs each selected class
 * {@link Iterations#get()} times back to back, class after class, each time through a fresh
 * {@link Request#aClass} (the runner Gradle's own JUnit executer builds: {@code @RunWith},
 * {@code Parameterized}, JUnit 3 {@code TestCase}, class rules and {@code @BeforeClass} run every
 * iteration), filtered to the selected tests. Each test
 * reports under its own class and name, once per iteration.
 *
 * <p>What it runs comes from system properties the init script sets for one Gradle invocation:
 * {@value Slices#CLASSES} (see {@link Slices}). Filters Gradle applies (its {@code --tests}, JUnit
 * categories, the build's own test filters) reach every class through {@link Filterable}, and select the
 * tests in them; run on its own, the runner selects by {@value Selection#FILTERS} (see {@link Selection}).
 * No filter runs the classes whole.
 *
 * <p>Slices: the init script makes the task run generated classes {@code gradleflaky.repeat.Slice0 …},
 * one test JVM each, each running its classes for their share of the iterations ({@link Slices}). Each
 * execution is reported as {@code method #i}, i its 1-based iteration in its JVM (gradle-flaky strips the
 * token and counts {@code #1} as a first execution). When the class's earlier executions in this JVM
 * started threads that are still running, the token says how many: {@code method #3 (+2 threads)} (see
 * {@link Leaks}), so a leak travels in the report itself and gradle-flaky can tell which class accumulates
 * state.
 *
 * <p>The randomized runner ({@code -Dtests.iters}): a class on randomizedtesting's
 * {@code RandomizedRunner} repeats itself, so it runs once per JVM with the runner's own
 * {@code tests.iters} set to its share; every test keeps the runner's name with its seed
 * ({@code testFoo {seed=[MASTER:METHOD]}}, {@code tests.appendseed} set so that a JVM's single iteration
 * names its seed too) and gets the token of its iteration in this JVM ({@code testFoo {seed=[A:B]} #2}).
 * Each JVM takes a master seed of its own, derived from the invocation's {@code tests.seed} and its slice
 * ({@link #sliceSeed}): the JVMs sample different randomness, and each failure's name carries the master
 * seed that reproduces it ({@code -Dtests.seed=MASTER:METHOD}), as the runner's own reproduce line does.
 */
@RunWith(JUnit4Repeat.Repeater.class)
public final class JUnit4Repeat {

    /** The runner of randomizedtesting, which repeats a class itself ({@code -Dtests.iters}). */
    static final String RANDOMIZED_RUNNER = "com.carrotsearch.randomizedtesting.RandomizedRunner";
    private static final String TESTS_ITERS = "tests.iters";
    private static final String TESTS_SEED = "tests.seed";
    private static final String TESTS_APPEND_SEED = "tests.appendseed";

    private JUnit4Repeat() {}

    /** The runner of {@link JUnit4Repeat} and of each generated slice. */
    public static final class Repeater extends Runner implements Filterable {

        private final List<Class<?>> classes = new ArrayList<>();
        /** How many times each class of {@link #classes} runs in this JVM. */
        private final List<Integer> counts = new ArrayList<>();
        /** The threads each class of {@link #classes} started here and left running. */
        private final List<Leaks> leaks = new ArrayList<>();
        private final List<Filter> filters = new ArrayList<>();
        private final Description description;
        /** This JVM's master seed for the randomized runner; null: the runner draws one. */
        private final String seed;
        /** The randomized runner's properties as the JVM started. */
        private final Map<String, String> before = new HashMap<>();

        public Repeater(Class<?> suite) throws ClassNotFoundException {
            ClassLoader loader = suite.getClassLoader();
            for (String property : new String[] {TESTS_ITERS, TESTS_SEED, TESTS_APPEND_SEED}) {
                before.put(property, System.getProperty(property));
            }
            int slice = Slices.sliceOf(suite, "Slice");
            seed = sliceSeed(System.getProperty(TESTS_SEED), Math.max(slice, 0));
            for (Slices.Share share : Slices.of(slice)) {
                add(share, loader);
            }
            Selection selection = Selection.fromProperty();
            if (selection != null) {
                filters.add(new PatternFilter(selection));
            }
            description = Description.createSuiteDescription(suite);
            for (Runner runner : runners(0)) {
                description.addChild(runner.getDescription());
            }
        }

        /** The class an entry names (and, for {@code Outer$*}, the test classes nested in it), its share of times. */
        private void add(Slices.Share share, ClassLoader loader) throws ClassNotFoundException {
            Class<?> c = Class.forName(share.className(), false, loader);
            classes.add(c);
            if (share.nested()) {
                addNested(c);
            }
            while (counts.size() < classes.size()) {
                counts.add(share.count);
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
            // Class by class, each one's executions back to back: a class slowing down over its executions
            // in a JVM it shares is then doing it itself, unless a class before it left threads running
            // (their tokens say so).
            for (int c = 0; c < classes.size(); c++) {
                for (int i = 0; i < counts.get(c); i++) {
                    Runner runner = runner(c);
                    if (runner == null) {
                        break;
                    }
                    RunNotifier inner = new RunNotifier();
                    if (repeatsItself(runner)) {
                        inner.addListener(new Renamer(notifier, leaks.get(c)));
                        runner.run(inner);
                        break;
                    }
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

        /**
         * A fresh runner of entry {@code c}, filtered; null when the filters leave it nothing. The randomized
         * runner reads its iterations and master seed when it is built: they are set just before.
         */
        private Runner runner(int c) {
            System.setProperty(TESTS_ITERS, Integer.toString(counts.get(c)));
            System.setProperty(TESTS_APPEND_SEED, "true");
            if (seed != null) {
                System.setProperty(TESTS_SEED, seed);
            }
            Runner runner = Request.aClass(classes.get(c)).getRunner();
            if (!repeatsItself(runner)) {
                restore();
            }
            try {
                for (Filter filter : filters) {
                    filter.apply(runner);
                }
            } catch (NoTestsRemainException e) {
                return null;
            }
            return runner;
        }

        /** The randomized runner's properties as the JVM had them, for the classes that do not read them. */
        private void restore() {
            for (Map.Entry<String, String> e : before.entrySet()) {
                if (e.getValue() == null) {
                    System.clearProperty(e.getKey());
                } else {
                    System.setProperty(e.getKey(), e.getValue());
                }
            }
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

    /** A runner that repeats its class itself, as {@code tests.iters} says: randomizedtesting's. */
    static boolean repeatsItself(Runner runner) {
        return runner.getClass().getName().equals(RANDOMIZED_RUNNER);
    }

    /**
     * The randomized runner's master seed in slice {@code slice}: {@code given} (the invocation's
     * {@code tests.seed}) in slice 0 and whenever it pins a method's seed too ({@code MASTER:METHOD}: a replay
     * runs that seed everywhere), else a seed mixed from it and the slice, so that each JVM samples its own
     * randomness and the same invocation gives the same seeds again. Null without a seed (the runner draws
     * one per JVM) or with one the runner would not read as hexadecimal (left to the runner to refuse).
     */
    static String sliceSeed(String given, int slice) {
        if (given == null || given.trim().isEmpty()) {
            return null;
        }
        String master = given.trim();
        if (slice == 0 || master.contains(":") || !master.matches("[0-9a-fA-F]{1,16}")) {
            return master;
        }
        long mixed = mix(Long.parseUnsignedLong(master, 16) + slice * 0x9E3779B97F4A7C15L);
        return Long.toHexString(mixed).toUpperCase(java.util.Locale.ROOT);
    }

    /** MurmurHash3's 64-bit finalizer. */
    private static long mix(long z) {
        z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
        z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
        return z ^ (z >>> 33);
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

    /**
     * Passes a run's events on with each test's name followed by its token: a fixed one (one run of a class
     * is one iteration, see {@link JUnit4Repeat#token}), or, for a class that repeats itself, each test's
     * own, numbered by its executions in this JVM, the threads its class's earlier executions left running
     * counted between its start and finish. Class-level events (a failing {@code @BeforeClass}) pass
     * unchanged.
     */
    static final class Renamer extends RunListener {
        private final RunNotifier out;
        private final String fixed;
        private final Leaks leaks;
        /** Executions so far of each test (its class and its name without the runner's tokens). */
        private final Map<String, Integer> executions = new HashMap<>();
        /** The token of each test that started and has not finished. */
        private final Map<Description, String> tokens = new HashMap<>();

        Renamer(RunNotifier out, String token) {
            this.out = out;
            this.fixed = token;
            this.leaks = null;
        }

        Renamer(RunNotifier out, Leaks leaks) {
            this.out = out;
            this.fixed = null;
            this.leaks = leaks;
        }

        private Description renamed(Description d) {
            String token = fixed != null ? fixed : tokens.get(d);
            if (d.getMethodName() == null || token == null) {
                return d;
            }
            return Description.createTestDescription(d.getClassName(), d.getMethodName() + token,
                    d.getAnnotations().toArray(new java.lang.annotation.Annotation[0]));
        }

        @Override
        public void testStarted(Description d) {
            if (fixed == null && d.getMethodName() != null) {
                List<String> names = Selection.names(d.getMethodName());
                // The name as the analyzer keys the test: without the seed, with its parameters.
                String key = d.getClassName() + "." + names.get(Math.min(1, names.size() - 1));
                int n = executions.merge(key, 1, Integer::sum);
                tokens.put(d, token(n, leaks.alive()));
                leaks.before();
            }
            out.fireTestStarted(renamed(d));
        }

        @Override
        public void testFinished(Description d) {
            out.fireTestFinished(renamed(d));
            if (tokens.remove(d) != null) {
                leaks.after();
            }
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

    /** A JUnit filter of {@link Selection}: a description runs when it or one of its children is selected. */
    static final class PatternFilter extends Filter {
        private final Selection selection;

        PatternFilter(Selection selection) {
            this.selection = selection;
        }

        @Override
        public boolean shouldRun(Description d) {
            if (selection.matches(d.getClassName(), d.getMethodName())) {
                return true;
            }
            for (Description child : d.getChildren()) {
                if (shouldRun(child)) {
                    return true;
                }
            }
            return false;
        }

        @Override
        public String describe() {
            return selection.describe();
        }
    }
}

package gradleflaky.repeat;

import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;
import org.junit.platform.engine.ConfigurationParameters;
import org.junit.platform.engine.DiscoveryFilter;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.EngineDiscoveryRequest;
import org.junit.platform.engine.EngineExecutionListener;
import org.junit.platform.engine.ExecutionRequest;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestEngine;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.TestTag;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.discovery.ClassSelector;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;
import org.junit.platform.engine.support.descriptor.EngineDescriptor;
import org.junit.platform.engine.support.descriptor.MethodSource;

/**
 * Repeats a JUnit Platform selection inside one test JVM: a test engine, found by the launcher through
 * {@code META-INF/services/org.junit.platform.engine.TestEngine} on the test runtime classpath (which
 * gradle-flaky's init script adds for one invocation), that runs the launcher's discovery request
 * {@link Iterations#get()} − 1 more times through every other engine on the classpath (Jupiter, Vintage,
 * ...). The other engines run the selection once as usual, so each test executes that many times in all.
 *
 * <p>Each repetition is the engine's own discovery under a root of this engine's
 * ({@code [engine:gradle-flaky-repeat]/[repetition:2:junit-jupiter]}), so its descriptors are distinct
 * nodes of the test plan with the same sources and display names: the launcher reports each execution,
 * and a build tool names it by its class and method as usual. The launcher's post-discovery filters
 * (Gradle's {@code --tests}, tags) apply to these trees as to the engines' own. Only the public engine
 * API is used ({@code TestEngine.discover} and {@code execute}), as the launcher itself calls it.
 *
 * <p>The platform's suite engine ({@code junit-platform-suite}) is not repeated: a suite starts a
 * launcher of its own, whose engines (this one among them) would repeat inside every repetition.
 *
 * <p>Slices: with the selection given as classes ({@link Slices}), the task runs generated classes
 * {@code gradleflaky.repeat.PlatformSlice0 …}, one test JVM each, which no engine finds a test in; this
 * engine, given one, runs the classes that slice runs, each its share of the iterations, every repetition
 * through every other engine (the launcher's filters, Gradle's among them, select their tests; run on its
 * own, the engine keeps the tests {@link Selection} selects). Each execution is reported with
 * its iteration in its JVM after its name ({@code method() #3}, the legacy reporting name Gradle writes),
 * so that gradle-flaky counts {@code #1} as a first execution wherever the JVMs' results are written:
 * the repetitions are the engines' own descriptors seen through {@link Numbered} ones, their events
 * passed on.
 */
public final class PlatformRepeat implements TestEngine {

    static final String ID = "gradle-flaky-repeat";
    private static final String SUITE_ENGINE = "junit-platform-suite";

    /** The engine of each repetition's root, by the root's unique id. */
    private final Map<UniqueId, TestEngine> engines = new LinkedHashMap<>();

    @Override
    public String getId() {
        return ID;
    }

    /** The generated classes of the slices. */
    static final String SLICE_PREFIX = "PlatformSlice";

    /** The numbered descriptors of the slices' repetitions, by the unique id of the engine's own. */
    private final Map<UniqueId, Numbered> numbered = new HashMap<>();

    @Override
    public TestDescriptor discover(EngineDiscoveryRequest request, UniqueId uniqueId) {
        EngineDescriptor root = new EngineDescriptor(uniqueId, "gradle-flaky repetitions");
        int slice = slice(request);
        if (slice >= 0) {
            discoverSlice(request, root, slice);
            return root;
        }
        int iterations = Iterations.get();
        if (iterations <= 1) {
            return root;
        }
        for (TestEngine engine : others()) {
            for (int i = 2; i <= iterations; i++) {
                UniqueId id = uniqueId.append("repetition", i + ":" + engine.getId());
                TestDescriptor repetition = engine.discover(request, id);
                root.addChild(repetition);
                engines.put(repetition.getUniqueId(), engine);
            }
        }
        return root;
    }

    @Override
    public void execute(ExecutionRequest request) {
        EngineExecutionListener listener = request.getEngineExecutionListener();
        TestDescriptor root = request.getRootTestDescriptor();
        listener.executionStarted(root);
        for (TestDescriptor repetition : new ArrayList<>(root.getChildren())) {
            TestEngine engine = engines.get(repetition.getUniqueId());
            if (engine == null) {
                continue;
            }
            if (repetition instanceof Numbered) {
                TestDescriptor own = ((Numbered) repetition).own;
                EngineExecutionListener passOn = new PassOn(listener, numbered);
                engine.execute(new ExecutionRequest(own, passOn, request.getConfigurationParameters()));
                continue;
            }
            engine.execute(new ExecutionRequest(repetition, listener, request.getConfigurationParameters()));
        }
        listener.executionFinished(root, TestExecutionResult.successful());
    }

    /** The slice a request selects ({@code PlatformSlice<k>} among its classes); -1 for none. */
    private static int slice(EngineDiscoveryRequest request) {
        for (ClassSelector selector : request.getSelectorsByType(ClassSelector.class)) {
            String name = selector.getClassName();
            String simple = name.substring(name.lastIndexOf('.') + 1);
            if (name.startsWith("gradleflaky.repeat.") && simple.startsWith(SLICE_PREFIX)) {
                try {
                    return Integer.parseInt(simple.substring(SLICE_PREFIX.length()));
                } catch (NumberFormatException e) {
                    return -1;
                }
            }
        }
        return -1;
    }

    /**
     * The repetitions of slice {@code slice} under {@code root}: each of its classes its share of times, through
     * every other engine, the selection kept and every execution numbered.
     */
    private void discoverSlice(EngineDiscoveryRequest request, EngineDescriptor root, int slice) {
        Selection selection = Selection.fromProperty();
        for (Slices.Share share : Slices.of(slice)) {
            List<ClassSelector> selectors = selectors(share);
            for (TestEngine engine : others()) {
                for (int i = 1; i <= share.count; i++) {
                    String segment = i + ":" + engine.getId() + ":" + share.className();
                    UniqueId id = root.getUniqueId().append("repetition", segment);
                    TestDescriptor own = engine.discover(new ClassRequest(request, selectors), id);
                    keepSelected(own, selection);
                    Numbered repetition = Numbered.of(own, " #" + i, numbered);
                    root.addChild(repetition);
                    engines.put(repetition.getUniqueId(), engine);
                }
            }
        }
    }

    /** The classes of an entry: the class, and for {@code Outer$*} its static nested classes. */
    private static List<ClassSelector> selectors(Slices.Share share) {
        List<ClassSelector> out = new ArrayList<>();
        out.add(DiscoverySelectors.selectClass(share.className()));
        if (share.nested()) {
            try {
                ClassLoader loader = PlatformRepeat.class.getClassLoader();
                addNested(Class.forName(share.className(), false, loader), out);
            } catch (ClassNotFoundException e) {
                // The engines report the class they cannot find.
            }
        }
        return out;
    }

    private static void addNested(Class<?> outer, List<ClassSelector> out) {
        for (Class<?> inner : outer.getDeclaredClasses()) {
            if (Modifier.isStatic(inner.getModifiers())) {
                out.add(DiscoverySelectors.selectClass(inner));
            }
            addNested(inner, out);
        }
    }

    /** Removes from an engine's tree the methods the selection leaves out (none without one). */
    private static void keepSelected(TestDescriptor own, Selection selection) {
        if (selection == null) {
            return;
        }
        List<TestDescriptor> out = new ArrayList<>();
        own.accept(d -> {
            Optional<TestSource> source = d.getSource();
            if (source.isPresent() && source.get() instanceof MethodSource) {
                MethodSource m = (MethodSource) source.get();
                if (!selection.matches(m.getClassName(), m.getMethodName())) {
                    out.add(d);
                }
            }
        });
        for (TestDescriptor d : out) {
            if (d.getParent().isPresent()) {
                d.removeFromHierarchy();
            }
        }
        own.prune();
    }

    /** A discovery request for some classes, with the launcher's filters and configuration. */
    static final class ClassRequest implements EngineDiscoveryRequest {
        private final EngineDiscoveryRequest outer;
        private final List<ClassSelector> selectors;

        ClassRequest(EngineDiscoveryRequest outer, List<ClassSelector> selectors) {
            this.outer = outer;
            this.selectors = selectors;
        }

        @Override
        public <T extends DiscoverySelector> List<T> getSelectorsByType(Class<T> type) {
            List<T> out = new ArrayList<>();
            for (ClassSelector s : selectors) {
                if (type.isInstance(s)) {
                    out.add(type.cast(s));
                }
            }
            return out;
        }

        @Override
        public <T extends DiscoveryFilter<?>> List<T> getFiltersByType(Class<T> type) {
            return outer.getFiltersByType(type);
        }

        @Override
        public ConfigurationParameters getConfigurationParameters() {
            return outer.getConfigurationParameters();
        }
    }

    /**
     * An engine's own descriptor as the launcher sees it: the same id, name, source and type, a test's legacy
     * reporting name (the name Gradle writes) followed by its iteration in this JVM. What the launcher
     * removes from it (its filters, its pruning) is removed from the engine's own tree too.
     */
    static final class Numbered extends AbstractTestDescriptor {
        final TestDescriptor own;
        private final String token;

        private Numbered(TestDescriptor own, String token) {
            super(own.getUniqueId(), own.getDisplayName(), own.getSource().orElse(null));
            this.own = own;
            this.token = token;
        }

        /** {@code own} and its descendants, numbered, each recorded in {@code all} by its id. */
        static Numbered of(TestDescriptor own, String token, Map<UniqueId, Numbered> all) {
            Numbered n = new Numbered(own, token);
            all.put(own.getUniqueId(), n);
            for (TestDescriptor child : own.getChildren()) {
                n.addChild(of(child, token, all));
            }
            return n;
        }

        @Override
        public Type getType() {
            return own.getType();
        }

        @Override
        public Set<TestTag> getTags() {
            return own.getTags();
        }

        @Override
        public String getLegacyReportingName() {
            String name = own.getLegacyReportingName();
            return own.isTest() ? name + token : name;
        }

        @Override
        public boolean mayRegisterTests() {
            return own.mayRegisterTests();
        }

        @Override
        public void removeFromHierarchy() {
            if (own.getParent().isPresent()) {
                own.removeFromHierarchy();
            }
            super.removeFromHierarchy();
        }
    }

    /** Passes an engine's events on its own descriptors on as events on their numbered ones. */
    static final class PassOn implements EngineExecutionListener {
        private final EngineExecutionListener out;
        private final Map<UniqueId, Numbered> numbered;

        PassOn(EngineExecutionListener out, Map<UniqueId, Numbered> numbered) {
            this.out = out;
            this.numbered = numbered;
        }

        private TestDescriptor seen(TestDescriptor own) {
            Numbered n = numbered.get(own.getUniqueId());
            return n == null ? own : n;
        }

        @Override
        public void dynamicTestRegistered(TestDescriptor own) {
            Numbered parent = own.getParent().map(p -> numbered.get(p.getUniqueId())).orElse(null);
            if (parent == null) {
                out.dynamicTestRegistered(own);
                return;
            }
            Numbered n = Numbered.of(own, parent.token, numbered);
            parent.addChild(n);
            out.dynamicTestRegistered(n);
        }

        @Override
        public void executionSkipped(TestDescriptor own, String reason) {
            out.executionSkipped(seen(own), reason);
        }

        @Override
        public void executionStarted(TestDescriptor own) {
            out.executionStarted(seen(own));
        }

        @Override
        public void executionFinished(TestDescriptor own, TestExecutionResult result) {
            out.executionFinished(seen(own), result);
        }

        @Override
        public void reportingEntryPublished(TestDescriptor own, ReportEntry entry) {
            out.reportingEntryPublished(seen(own), entry);
        }
    }

    /** Every other engine the launcher can find (the same service lookup as the launcher's). */
    private static List<TestEngine> others() {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        if (loader == null) {
            loader = PlatformRepeat.class.getClassLoader();
        }
        List<TestEngine> out = new ArrayList<>();
        for (TestEngine engine : ServiceLoader.load(TestEngine.class, loader)) {
            if (!ID.equals(engine.getId()) && !SUITE_ENGINE.equals(engine.getId())) {
                out.add(engine);
            }
        }
        return out;
    }
}
